// Command evalquery runs the retrieval evaluation (see package eval):
//
//	evalquery -corpus go=GRAPH.json:ROOT -questions eval/questions [-v] [-json out.json]
//
// -corpus repeats, one per corpus; questions/<name>.txt holds its questions.
// -q "question" -corpus ... prints one answer instead (development aid).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/query"
	"github.com/synaptic-graph/synaptic/eval"
)

type corpora []string

func (c *corpora) String() string     { return strings.Join(*c, ",") }
func (c *corpora) Set(v string) error { *c = append(*c, v); return nil }

func main() {
	var cs corpora
	flag.Var(&cs, "corpus", "name=graph.json:root (repeatable)")
	qdir := flag.String("questions", "eval/questions", "directory of <corpus>.txt question files")
	verbose := flag.Bool("v", false, "print every question's misses and top 5")
	allRanks := flag.Bool("ranks", false, "print every question's expected ranks, one line each (to diff two -tune runs)")
	explain := flag.Bool("explain", false, "explain every question with a miss: the top 10 and each missed symbol, score by channel and cause, then the misses counted by cause")
	jsonOut := flag.String("json", "", "write the summaries as JSON to this file")
	one := flag.String("q", "", "answer one question (with -full, -budget) and exit")
	full := flag.Bool("full", false, "with -q: full mode")
	budget := flag.Int("budget", 0, "with -q: token budget")
	tune := flag.String("tune", "", "ranking overrides, e.g. original or owner=0,sizeexp=0.3 (see query.Tuning)")
	flag.Parse()
	tuning, err := parseTune(*tune)
	if err != nil {
		fmt.Fprintln(os.Stderr, "evalquery:", err)
		os.Exit(2)
	}
	if len(cs) == 0 {
		fmt.Fprintln(os.Stderr, "evalquery: at least one -corpus name=graph.json:root")
		os.Exit(2)
	}
	ctx := context.Background()
	var sums []eval.Summary
	failed := false
	for _, spec := range cs {
		name, rest, ok1 := strings.Cut(spec, "=")
		gpath, root, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 {
			fmt.Fprintf(os.Stderr, "evalquery: bad -corpus %q\n", spec)
			os.Exit(2)
		}
		g, err := graph.ReadFile(gpath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "evalquery:", err)
			os.Exit(1)
		}
		e := query.New(graph.NewIndex(g), query.WithTuning(tuning))
		if *one != "" {
			r := e.Query(ctx, query.Request{Question: *one, Full: *full, TokenBudget: *budget})
			fmt.Printf("== %s (%v)\n%s\n", name, r.Elapsed.Round(time.Microsecond), r.Text)
			continue
		}
		qs, err := eval.ReadQuestionsFile(filepath.Join(*qdir, name+".txt"))
		if err != nil {
			fmt.Fprintln(os.Stderr, "evalquery:", err)
			failed = true
			continue
		}
		corpus := eval.Corpus{Name: name, Engine: e, Root: root}
		s := eval.Evaluate(ctx, corpus, qs)
		sums = append(sums, s)
		if *explain {
			explainMisses(ctx, corpus, s)
		}
		if *allRanks {
			for _, r := range s.Results {
				fmt.Printf("[%s] %q %s\n", name, r.Q.Text, ranks(r))
			}
		}
		if *verbose {
			for _, r := range s.Results {
				if len(r.Missing) == 0 && r.FirstRank == 1 {
					continue
				}
				fmt.Printf("[%s] %q first=%d missing=%v\n    ranks: %s\n    top: %s\n", name, r.Q.Text, r.FirstRank, r.Missing, ranks(r), strings.Join(r.Top, " | "))
			}
		}
	}
	if *one != "" {
		return
	}
	fmt.Printf("%-8s %5s %9s %9s %6s %12s %12s %8s %9s %9s\n", "corpus", "qs", "recall@5", "recall@10", "MRR", "answer_tok", "file_tok", "economy", "build_ms", "query_ms")
	var tq int
	var t5, t10, tm float64
	for _, s := range sums {
		econ := 0.0
		if s.FileTokens > 0 {
			econ = float64(s.AnswerTokens) / float64(s.FileTokens)
		}
		fmt.Printf("%-8s %5d %9.3f %9.3f %6.3f %12d %12d %7.1f%% %9.1f %9.2f\n", s.Corpus, s.Questions, s.Recall5, s.Recall10, s.MRR,
			s.AnswerTokens/max(s.Questions, 1), s.FileTokens/max(s.Questions, 1), 100*econ, s.BuildMS, s.MeanLatencyMS)
		tq += s.Questions
		t5 += s.Recall5 * float64(s.Questions)
		t10 += s.Recall10 * float64(s.Questions)
		tm += s.MRR * float64(s.Questions)
	}
	if tq > 0 {
		fmt.Printf("%-8s %5d %9.3f %9.3f %6.3f   (answer_tok/file_tok: mean per question; economy = answer/file tokens)\n", "all", tq, t5/float64(tq), t10/float64(tq), tm/float64(tq))
	}
	if *jsonOut != "" {
		for k := range sums {
			sums[k].Results = nil
		}
		b, _ := json.MarshalIndent(sums, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "evalquery:", err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// explainMisses prints eval.Explain for each question with a miss and
// counts the misses by cause.
func explainMisses(ctx context.Context, c eval.Corpus, s eval.Summary) {
	causes := map[eval.MissCause]int{}
	for _, r := range s.Results {
		if len(r.Missing) == 0 {
			continue
		}
		for _, m := range eval.Explain(ctx, os.Stdout, c, r.Q) {
			causes[m.Cause]++
		}
	}
	fmt.Printf("[%s] misses by cause:", c.Name)
	for _, k := range []eval.MissCause{eval.CauseLexical, eval.CauseNeighbour, eval.CauseUnreached, eval.CauseAbsent} {
		fmt.Printf(" %s %d", k, causes[k])
	}
	fmt.Println()
}

// ranks lists each expected symbol with its rank ("-" when unranked).
func ranks(r eval.Result) string {
	parts := make([]string, len(r.Q.Expect))
	for k, x := range r.Q.Expect {
		rk := "-"
		if r.Ranks[k] > 0 {
			rk = strconv.Itoa(r.Ranks[k])
		}
		parts[k] = x.String() + "=" + rk
	}
	return strings.Join(parts, " ")
}

// parseTune applies "-tune k=v,k=v" to a tuning (field names as in
// query.Tuning, case-insensitive; "original" starts from OriginalTuning).
func parseTune(spec string) (query.Tuning, error) {
	t := query.DefaultTuning
	for _, kv := range strings.Split(spec, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		if strings.EqualFold(kv, "original") {
			t = query.OriginalTuning
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return t, fmt.Errorf("bad -tune %q", kv)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return t, fmt.Errorf("bad -tune %q: %v", kv, err)
		}
		fv := reflect.ValueOf(&t).Elem().FieldByNameFunc(func(name string) bool { return strings.EqualFold(name, k) })
		switch {
		case !fv.IsValid():
			return t, fmt.Errorf("unknown -tune key %q", k)
		case fv.Kind() == reflect.Float64:
			fv.SetFloat(f)
		case fv.Kind() == reflect.Bool:
			fv.SetBool(f != 0)
		default:
			return t, fmt.Errorf("-tune key %q is not a number or a flag", k)
		}
	}
	return t, nil
}
