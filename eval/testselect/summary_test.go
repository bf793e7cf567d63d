package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummaryPoolsByMutant: two runs appended to one -summary file pool
// into recall over all failing tests and a selection averaged over every
// killed mutant, not over corpora (a corpus of 3 mutants at 90% and one of
// 1 mutant at 10% average 70%, not 50%).
func TestSummaryPoolsByMutant(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.jsonl")
	runs := []struct {
		corpus, lang string
		s            score
	}{
		{"big", "go", score{mutants: 3, all: 4, failing: 10, predictedFailing: 9, selectSum: 2.7, selectAll: 2.8, oracleSum: 1.5}},
		{"small", "python", score{mutants: 1, all: 1, failing: 2, predictedFailing: 2, selectSum: 0.1, selectAll: 0.1, oracleSum: 0.1}},
	}
	for _, r := range runs {
		if err := appendSummary(path, r.corpus, r.lang, []int{3}, []score{r.s}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := readSummary(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                    string
		rows                    []corpusScore
		killed, failing, hit    int
		selected, overAllScored float64
	}{
		{"all", all, 4, 12, 11, 70, 58},
		{"all Go", all[:1], 3, 10, 9, 90, 70},
	} {
		p := pool(tc.name, tc.rows)
		if p.Killed != tc.killed || p.Failing != tc.failing || p.PredictedFailing != tc.hit {
			t.Errorf("%s: killed %d failing %d hit %d, want %d %d %d", tc.name, p.Killed, p.Failing, p.PredictedFailing, tc.killed, tc.failing, tc.hit)
		}
		if got := pct(p.SelectSum, p.Killed); got < tc.selected-1e-9 || got > tc.selected+1e-9 {
			t.Errorf("%s: selected %.3f%%, want %.0f%%", tc.name, got, tc.selected)
		}
		if got := pct(p.SelectAllSum, p.Scored); got < tc.overAllScored-1e-9 || got > tc.overAllScored+1e-9 {
			t.Errorf("%s: over all scored %.3f%%, want %.0f%%", tc.name, got, tc.overAllScored)
		}
	}
	var b strings.Builder
	printTotal(&b, all)
	for _, want := range []string{"big", "small", "all Go", "0.917 (  11/12  )    70.0%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, b.String())
		}
	}
}

func TestReadSummaryNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(path, []byte("{not json\n"), 0o644)
	if _, err := readSummary(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want one naming %s", err, path)
	}
}
