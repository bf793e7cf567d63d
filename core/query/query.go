package query

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults from the spec.
const (
	DefaultBudget        = 1200 // token_budget
	DefaultConciseBudget = 800  // token_budget under --concise
	terseNodes           = 15   // terse default: top nodes shown
	terseConciseNodes    = 10
	minNodes, maxNodes   = 10, 400 // node cap = budget/40 clamped
	tokensPerNode        = 40
)

// Request is one query_graph call. The zero value of every field but
// Question is the spec's default.
type Request struct {
	Question string
	// Mode is "bfs" (default) or "dfs"; it only breaks score ties.
	Mode string
	// Full returns every budget-bounded node plus EDGE lines instead of the
	// terse top list.
	Full bool
	// TokenBudget bounds the text (cl100k_base tokens); 0 means the default
	// (1200, or 800 when Concise).
	TokenBudget int
	// Concise is the server's --concise: smaller default budget and list.
	Concise bool
	// ContextFilter keeps only nodes whose source file contains one of
	// these substrings.
	ContextFilter []string
	// Since is a git ref, a date ("2 weeks ago") or "auto": nodes whose
	// file changed since merge-base(Since, HEAD), working tree included,
	// rank higher. Ignored outside git or when it does not resolve.
	Since string
	// RecencyMode is "boost" (default) or "seed" (changed nodes are also
	// injected as seeds).
	RecencyMode string
}

// Node is one result node of the structured mirror.
type Node struct {
	Label      string  `json:"label"`
	Qualified  string  `json:"qualified,omitempty"`
	FileType   string  `json:"file_type"`
	SourceFile string  `json:"source_file"`
	Score      float64 `json:"score"`
	// Changed is present only when Since resolved.
	Changed *bool `json:"changed,omitempty"`

	// ID and Index are for in-process callers (eval, CLI); not serialized.
	ID    string `json:"-"`
	Index int32  `json:"-"`
}

// Edge is one result edge of the structured mirror.
type Edge struct {
	Source   string `json:"source"`
	Relation string `json:"relation"`
	Target   string `json:"target"`
}

// Structured is query_graph's structuredContent.
type Structured struct {
	Nodes []Node `json:"nodes"`
	Edges []Edge `json:"edges"`
}

// Response is the answer: the text content and its structured mirror.
type Response struct {
	Text       string
	Structured Structured
	// Ranked lists every ranked node (not only the ones shown), best first;
	// for in-process callers that want more than the text shows.
	Ranked []Node `json:"-"`
	// Truncated reports that the text was cut to the token budget.
	Truncated bool
	// Elapsed is the time spent answering.
	Elapsed time.Duration
}

// testWords make a question one about tests, so test nodes keep their
// full weight.
var testWords = map[string]bool{
	"test": true, "tests": true, "testing": true, "tested": true, "bench": true, "benchmark": true,
	"benchmarks": true, "spec": true, "specs": true, "fixture": true, "fixtures": true, "mock": true,
	"mocks": true, "e2e": true, "golden": true, "fuzz": true, "conftest": true, "pytest": true,
}

// testDemote is the factor test nodes get for this request: 1 when the
// question or the context filter is about tests, Tuning.TestDemote else.
func (e *Engine) testDemote(r Request) float64 {
	for _, t := range Tokenize(r.Question) {
		if testWords[t] {
			return 1
		}
	}
	for _, f := range r.ContextFilter {
		if strings.Contains(strings.ToLower(f), "test") || strings.Contains(strings.ToLower(f), "spec") {
			return 1
		}
	}
	if e.t.TestDemote <= 0 {
		return 1
	}
	return e.t.TestDemote
}

// MaxQuestion bounds the question text ranked, in bytes. A question is a
// sentence or a symbol; the cap keeps a pasted megabyte from costing
// seconds of CPU (ranking grows with the number of distinct words).
const MaxQuestion = 8 << 10

// truncateUTF8 cuts s to at most n bytes at a rune boundary.
func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Query answers one request. It never fails: a question that matches
// nothing gets a "no nodes match" text. ctx bounds the git calls of Since.
func (e *Engine) Query(ctx context.Context, r Request) Response {
	start := time.Now()
	cut := len(r.Question) > MaxQuestion
	if cut {
		r.Question = truncateUTF8(r.Question, MaxQuestion)
	}
	budget := r.TokenBudget
	if budget <= 0 {
		budget = DefaultBudget
		if r.Concise {
			budget = DefaultConciseBudget
		}
	}
	p, rec := e.params(ctx, r, budget)
	rk := e.rank(p)
	terse := terseNodes
	if r.Concise {
		terse = terseConciseNodes
	}
	resp := e.render(rk, renderParams{mode: p.mode(), full: r.Full, terse: terse, question: r.Question, rec: rec})
	resp.Text, resp.Truncated = TruncateToBudget(resp.Text, budget)
	if cut {
		resp.Text = fmt.Sprintf("(question cut to its first %d KiB; ask a shorter question for a sharper answer)\n", MaxQuestion>>10) + resp.Text
	}
	resp.Elapsed = time.Since(start)
	if l := e.opts.logger; l != nil {
		l.Log(Entry{
			Time: e.opts.now().UTC(), Question: r.Question, Mode: p.mode(), Full: r.Full, TokenBudget: budget,
			ContextFilter: r.ContextFilter, Since: r.Since, RecencyMode: cmp.Or(r.RecencyMode, ""),
			Seeds: seedLabels(e, rk.seeds), Nodes: len(rk.hits), Top: topLabels(resp.Structured.Nodes, 5),
			Truncated: resp.Truncated, ElapsedMS: float64(resp.Elapsed.Microseconds()) / 1000,
		})
	}
	return resp
}

// params turns a request into ranking inputs, resolving Since (nil
// recency when absent or unresolved).
func (e *Engine) params(ctx context.Context, r Request, budget int) (rankParams, *recency) {
	p := rankParams{
		ctx:      ctx,
		demote:   e.testDemote(r),
		question: r.Question,
		maxNodes: min(max(budget/tokensPerNode, minNodes), maxNodes),
		dfs:      strings.EqualFold(r.Mode, "dfs"),
	}
	if filters := slices.DeleteFunc(slices.Clone(r.ContextFilter), func(s string) bool { return s == "" }); len(filters) > 0 {
		p.keep = func(i int32) bool {
			f := e.x.G.Nodes[i].SourceFile
			return slices.ContainsFunc(filters, func(sub string) bool { return strings.Contains(f, sub) })
		}
	}
	var rec *recency
	if r.Since != "" {
		rec = e.recency(ctx, r.Since)
	}
	if rec != nil {
		p.bonus = rec.bonus
		if strings.EqualFold(r.RecencyMode, "seed") {
			p.seedWith = rec.nodes
		}
	}
	return p, rec
}

func seedLabels(e *Engine, seeds []int32) []string {
	out := make([]string, len(seeds))
	for k, s := range seeds {
		out[k] = e.x.G.Nodes[s].Label
	}
	return out
}

func topLabels(nodes []Node, k int) []string {
	out := make([]string, 0, k)
	for _, n := range nodes[:min(k, len(nodes))] {
		out = append(out, cmp.Or(n.Qualified, n.Label))
	}
	return out
}
