package query

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// bytesPerToken is the fast-path bound: cl100k_base averages well over 4
// bytes per token on code-ish text, so text within budget*4 bytes cannot
// exceed the budget in practice and is returned without tokenizing.
const bytesPerToken = 4

var (
	codecOnce sync.Once
	codec     tokenizer.Codec
	codecErr  error
)

// cl100k returns the cl100k_base codec. The vocabulary is compiled into the
// binary (nothing is downloaded); it is built on first use only, since most
// answers take the fast path.
func cl100k() (tokenizer.Codec, error) {
	codecOnce.Do(func() { codec, codecErr = tokenizer.Get(tokenizer.Cl100kBase) })
	return codec, codecErr
}

// CountTokens returns the cl100k_base token count of s.
func CountTokens(s string) (int, error) {
	c, err := cl100k()
	if err != nil {
		return 0, err
	}
	return c.Count(s)
}

// TruncateToBudget bounds text to budget cl100k_base tokens. Text within
// budget*4 bytes is returned as is. Longer text is cut at the exact token
// boundary and a "(truncated to ~N tokens)" note appended, the whole result
// (note included) never exceeding budget tokens. If the tokenizer fails the
// cut falls back to budget*4 bytes at a rune boundary.
func TruncateToBudget(text string, budget int) (string, bool) {
	if budget <= 0 || len(text) <= budget*bytesPerToken {
		return text, false
	}
	note := fmt.Sprintf("\n(truncated to ~%d tokens)", budget)
	c, err := cl100k()
	if err != nil {
		return byteCut(text, budget*bytesPerToken-len(note)) + note, true
	}
	_, pieces, err := c.Encode(text)
	if err != nil {
		return byteCut(text, budget*bytesPerToken-len(note)) + note, true
	}
	if len(pieces) <= budget {
		return text, false
	}
	noteTokens, _ := c.Count(note)
	keep := max(budget-noteTokens, 0)
	for ; keep >= 0; keep-- {
		cut := prefix(pieces, keep)
		out := cut + note
		if n, err := c.Count(out); err == nil && n <= budget {
			return out, true
		}
	}
	return "", true
}

// prefix joins the first k token pieces, dropping a trailing partial rune
// (a token may end inside a multi-byte character).
func prefix(pieces []string, k int) string {
	var b strings.Builder
	for _, p := range pieces[:k] {
		b.WriteString(p)
	}
	s := b.String()
	for len(s) > 0 && !utf8.ValidString(s) {
		r, size := utf8.DecodeLastRuneInString(s)
		if r != utf8.RuneError || size != 1 {
			break
		}
		s = s[:len(s)-1]
	}
	return s
}

func byteCut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if n >= len(s) {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
