package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/query"
)

// Corpus is one extracted corpus.
type Corpus struct {
	Name   string
	Engine *query.Engine
	Root   string // the extracted directory, to size the files answers point into
}

// Result is one question's outcome.
type Result struct {
	Q         Question
	FirstRank int // 1-based rank of the first expected hit; 0 if none
	Found5    int // expected symbols found in the top 5
	Found10   int // ... in the top 10
	Missing   []Expect
	// Ranks holds each expected symbol's 1-based rank among every ranked
	// node (not only the top 10), 0 when the ranking never reached it: how
	// far a miss is from the cut tells a ranking fault from a recall one.
	Ranks        []int
	AnswerTokens int
	FileTokens   int // tokens of the distinct files the shown answer points into
	Top          []string
}

// Summary aggregates a corpus.
type Summary struct {
	Corpus               string
	Questions            int
	Recall5, Recall10    float64 // mean per-question recall
	MRR                  float64
	AnswerTokens         int // total
	FileTokens           int // total
	MeanLatencyMS        float64
	Results              []Result
	BuildMS              float64
	Nodes, Edges, Errors int
}

// Evaluate runs every question against c.
func Evaluate(ctx context.Context, c Corpus, qs []Question) Summary {
	s := Summary{Corpus: c.Name, Questions: len(qs), BuildMS: float64(c.Engine.BuildTime().Microseconds()) / 1000}
	x := c.Engine.Index()
	s.Nodes, s.Edges = x.Len(), len(x.G.Edges)
	fileTok := map[string]int{}
	for _, q := range qs {
		resp := c.Engine.Query(ctx, query.Request{Question: q.Text})
		s.MeanLatencyMS += float64(resp.Elapsed.Microseconds()) / 1000
		r := Result{Q: q}
		found5 := make([]bool, len(q.Expect))
		found10 := make([]bool, len(q.Expect))
		r.Ranks = make([]int, len(q.Expect))
		for rank, n := range resp.Ranked {
			hit := false
			for k, exp := range q.Expect {
				if Matches(c.Engine, n.Index, exp) {
					hit = true
					if r.Ranks[k] == 0 {
						r.Ranks[k] = rank + 1
					}
					if rank < 5 {
						found5[k] = true
					}
					if rank < 10 {
						found10[k] = true
					}
				}
			}
			if hit && r.FirstRank == 0 {
				r.FirstRank = rank + 1
			}
			if rank < 5 {
				r.Top = append(r.Top, x.Qualified(n.Index))
			}
		}
		for k := range q.Expect {
			if found5[k] {
				r.Found5++
			}
			if found10[k] {
				r.Found10++
			} else {
				r.Missing = append(r.Missing, q.Expect[k])
			}
		}
		r.AnswerTokens, _ = query.CountTokens(resp.Text)
		seen := map[string]bool{}
		for _, n := range resp.Structured.Nodes {
			f := x.Node(n.Index).SourceFile
			if f == "" || seen[f] {
				continue
			}
			seen[f] = true
			if _, ok := fileTok[f]; !ok {
				fileTok[f] = fileTokens(filepath.Join(c.Root, filepath.FromSlash(f)))
			}
			r.FileTokens += fileTok[f]
		}
		s.Recall5 += float64(r.Found5) / float64(len(q.Expect))
		s.Recall10 += float64(r.Found10) / float64(len(q.Expect))
		if r.FirstRank > 0 {
			s.MRR += 1 / float64(r.FirstRank)
		}
		s.AnswerTokens += r.AnswerTokens
		s.FileTokens += r.FileTokens
		s.Results = append(s.Results, r)
	}
	if n := float64(len(qs)); n > 0 {
		s.Recall5 /= n
		s.Recall10 /= n
		s.MRR /= n
		s.MeanLatencyMS /= n
	}
	return s
}

// Matches reports that node i is the expected symbol: same bare name, the
// owner type's bare name when given, the path substring when given.
func Matches(e *query.Engine, i int32, exp Expect) bool {
	x := e.Index()
	n := x.Node(i)
	if graph.BareName(n.Label) != strings.ToLower(exp.Name) {
		return false
	}
	if exp.Path != "" && !strings.Contains(n.SourceFile, exp.Path) {
		return false
	}
	if exp.Owner != "" {
		o := e.Owner(i)
		if o < 0 || graph.BareName(x.Node(o).Label) != strings.ToLower(exp.Owner) {
			return false
		}
	}
	return true
}

func fileTokens(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := query.CountTokens(string(b))
	if err != nil {
		return len(b) / 4
	}
	return n
}
