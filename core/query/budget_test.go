package query

import (
	"fmt"
	"strings"
	"testing"
)

func longAnswer(n int) string {
	var b strings.Builder
	b.WriteString("Traversal: bfs | Start: [a] | 400 nodes found\n")
	for i := range n {
		fmt.Fprintf(&b, "NODE [%.2f] handleRequest%dWithÜmlautsAnd日本語() [code] pkg/sub%d/file_%d.go (qualified: x@y)\n", float64(n-i)/7, i, i%9, i)
	}
	return b.String()
}

func TestTruncateFastPath(t *testing.T) {
	text := longAnswer(3)
	budget := len(text)/4 + 1
	if got, cut := TruncateToBudget(text, budget); got != text || cut {
		t.Errorf("text within budget*4 bytes was changed (cut=%v)", cut)
	}
}

func TestTruncateNeverExceedsBudgetAndCutsAtExactToken(t *testing.T) {
	c, err := cl100k()
	if err != nil {
		t.Fatal(err)
	}
	text := longAnswer(200)
	_, pieces, err := c.Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{1, 5, 17, 100, 333, 1200} {
		out, cut := TruncateToBudget(text, budget)
		if !cut {
			t.Fatalf("budget %d: not cut (%d tokens)", budget, len(pieces))
		}
		n, err := CountTokens(out)
		if err != nil {
			t.Fatal(err)
		}
		if n > budget {
			t.Errorf("budget %d: %d tokens", budget, n)
		}
		note := fmt.Sprintf("\n(truncated to ~%d tokens)", budget)
		noteTokens, _ := CountTokens(note)
		if budget < noteTokens {
			continue // no room for content; only the bound matters
		}
		body, ok := strings.CutSuffix(out, note)
		if !ok {
			t.Fatalf("budget %d: note missing: %q", budget, out[max(0, len(out)-60):])
		}
		// The body is exactly the text's first k tokens, with k as large
		// as the budget allows (a token boundary, never mid-token).
		k := budget - noteTokens
		if want := strings.Join(pieces[:k], ""); body != want {
			// A merge across the note boundary may cost one token.
			if want1 := strings.Join(pieces[:k-1], ""); body != want1 {
				t.Errorf("budget %d: body is not the first %d tokens:\n got %q\nwant %q", budget, k, tail(body), tail(want))
			}
		}
	}
}

func TestTruncateMultibyteBoundary(t *testing.T) {
	// Tokens of CJK text may end inside a rune; the cut must stay valid UTF-8.
	text := strings.Repeat("日本語のテキスト、東京都渋谷区。", 400)
	for budget := 10; budget < 60; budget += 7 {
		out, _ := TruncateToBudget(text, budget)
		if n, _ := CountTokens(out); n > budget {
			t.Errorf("budget %d: %d tokens", budget, n)
		}
		if !strings.HasPrefix(text, strings.TrimSuffix(out, fmt.Sprintf("\n(truncated to ~%d tokens)", budget))) {
			t.Errorf("budget %d: not a prefix", budget)
		}
	}
}

func tail(s string) string { return s[max(0, len(s)-40):] }
