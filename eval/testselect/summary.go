package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// The figures the issue sets targets for are pooled over every corpus:
// safe-selection recall is failing tests predicted ÷ failing tests, summed
// over all killed mutants (micro), and "selecting ≤ 50% of the suite on
// average" is the mean, over the same killed mutants, of the fraction of
// the mutated package's own suite that is selected: every mutant is one
// change a developer makes, and the average is over changes, so a corpus
// counts by its mutants. The mean over every scored mutant, killed or
// not, is printed next to it (a change no test detects still costs the
// tests selected for it). -summary FILE appends one run's sums per depth;
// -total FILE prints the pooled table of all runs in it.

// corpusScore is one corpus's sums at one depth (a line of the -summary
// file).
type corpusScore struct {
	Corpus           string  `json:"corpus"`
	Language         string  `json:"language"`
	Depth            int     `json:"depth"`
	Killed           int     `json:"killed"`
	Scored           int     `json:"scored"`
	Failing          int     `json:"failing"`
	PredictedFailing int     `json:"predicted_failing"`
	SelectSum        float64 `json:"select_sum"`     // Σ selected ÷ suite, killed mutants
	SelectAllSum     float64 `json:"select_all_sum"` // Σ selected ÷ suite, every scored mutant
	OracleSum        float64 `json:"oracle_sum"`     // Σ failing ÷ suite, killed mutants
}

// appendSummary appends this run's scores to path.
func appendSummary(path, corpus, language string, depths []int, scores []score) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for k, d := range depths {
		s := scores[k]
		if err := enc.Encode(corpusScore{Corpus: corpus, Language: language, Depth: d, Killed: s.mutants, Scored: s.all,
			Failing: s.failing, PredictedFailing: s.predictedFailing, SelectSum: s.selectSum, SelectAllSum: s.selectAll, OracleSum: s.oracleSum}); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// readSummary reads a -summary file.
func readSummary(path string) ([]corpusScore, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []corpusScore
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var c corpusScore
		if err := dec.Decode(&c); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: %v (a -summary file of this harness, one JSON object a line)", path, err)
		}
		out = append(out, c)
	}
}

// pool adds up corpora.
func pool(name string, cs []corpusScore) corpusScore {
	p := corpusScore{Corpus: name}
	for _, c := range cs {
		p.Killed += c.Killed
		p.Scored += c.Scored
		p.Failing += c.Failing
		p.PredictedFailing += c.PredictedFailing
		p.SelectSum += c.SelectSum
		p.SelectAllSum += c.SelectAllSum
		p.OracleSum += c.OracleSum
	}
	return p
}

// printTotal prints, per depth, every corpus and the pooled rows.
func printTotal(w io.Writer, all []corpusScore) {
	var depths []int
	for _, c := range all {
		if !slices.Contains(depths, c.Depth) {
			depths = append(depths, c.Depth)
		}
	}
	slices.Sort(depths)
	for _, d := range depths {
		var at, goOnly []corpusScore
		for _, c := range all {
			if c.Depth == d {
				at = append(at, c)
				if c.Language == "go" {
					goOnly = append(goOnly, c)
				}
			}
		}
		fmt.Fprintf(w, "depth %d: recall is micro over killed mutants; selection is the mean over killed mutants of selected ÷ the package's suite (and over every scored mutant)\n", d)
		fmt.Fprintf(w, "  %-46s %7s %16s %8s %8s %10s\n", "corpus", "killed", "recall", "selected", "oracle", "all scored")
		rows := append(at, pool("all Go", goOnly), pool("all", at))
		for _, c := range rows {
			fmt.Fprintf(w, "  %-46s %7d %s %7.1f%% %7.1f%% %9.1f%%\n", c.Corpus, c.Killed, recallCell(c), pct(c.SelectSum, c.Killed), pct(c.OracleSum, c.Killed), pct(c.SelectAllSum, c.Scored))
		}
	}
}

func recallCell(c corpusScore) string {
	if c.Failing == 0 {
		return fmt.Sprintf("%16s", "-")
	}
	return fmt.Sprintf("%.3f (%4d/%-4d)", float64(c.PredictedFailing)/float64(c.Failing), c.PredictedFailing, c.Failing)
}

func pct(sum float64, n int) float64 {
	if n == 0 {
		return 0
	}
	return 100 * sum / float64(n)
}
