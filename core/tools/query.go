package tools

// query_graph, first version: IDF-weighted label/path token matching picks
// seeds, then a best-first expansion fills a node budget. The full ranking
// (inflections, intent aliases, evidence-signature diversity, recency) is a
// later issue; everything it replaces lives in this file.

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/core/graph"
)

const (
	maxSeeds      = 8
	pathWeight    = 0.35 // source-path tokens distinguish, labels lead
	decay         = 0.5  // relevance passed from a node to its neighbour
	minQueryNodes = 10
	maxQueryNodes = 400
)

// stopwords are question scaffolding dropped from natural-language queries
// (as long as something substantive remains).
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by can code codebase do does done for from get gets
		handled how i implemented in is it its me of on or show tell that the this to use used uses what when where
		which who why with work works does find there`) {
		stopwords[w] = true
	}
}

// queryIndex is the per-snapshot retrieval index: token postings for the
// label and path channels, document frequencies and priors.
type queryIndex struct {
	n          int
	df         map[string]int
	labelPost  map[string][]int32
	pathPost   map[string][]int32
	labelLen   []float64 // sqrt(#label tokens)
	pathLen    []float64
	avgDegree  float64
	labelCount map[string]int // lowercase label -> occurrences
}

func (s *snapshot) queryIndex() *queryIndex {
	s.queryOnce.Do(func() {
		n := len(s.g.Nodes)
		q := &queryIndex{
			n: n, df: map[string]int{}, labelPost: map[string][]int32{}, pathPost: map[string][]int32{},
			labelLen: make([]float64, n), pathLen: make([]float64, n), labelCount: map[string]int{},
		}
		pathToks := map[string][]string{} // files repeat; tokenize each once
		deg := 0
		for i := range s.g.Nodes {
			nd := &s.g.Nodes[i]
			deg += s.x.Degree(int32(i))
			q.labelCount[strings.ToLower(nd.Label)]++
			lt := uniq(tokenize(nd.Label))
			pt, ok := pathToks[nd.SourceFile]
			if !ok {
				pt = uniq(tokenize(nd.SourceFile))
				pathToks[nd.SourceFile] = pt
			}
			q.labelLen[i] = math.Sqrt(float64(max(len(lt), 1)))
			q.pathLen[i] = math.Sqrt(float64(max(len(pt), 1)))
			for _, t := range lt {
				q.labelPost[t] = append(q.labelPost[t], int32(i))
				q.df[t]++
			}
			for _, t := range pt {
				q.pathPost[t] = append(q.pathPost[t], int32(i))
				if !slices.Contains(lt, t) {
					q.df[t]++
				}
			}
		}
		if n > 0 {
			q.avgDegree = float64(deg) / float64(n)
		}
		s.qi = q
	})
	return s.qi
}

func uniq(ts []string) []string {
	slices.Sort(ts)
	return slices.Compact(ts)
}

// tokenize splits on non-alphanumerics and lower->Upper camel boundaries,
// lowercases, and drops tokens shorter than 2 characters.
func tokenize(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) >= 2 {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	var prev rune
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return out
}

// symbolShaped reports a query that names a symbol (no spaces, and a camel
// boundary or identifier punctuation): all its tokens are kept.
func symbolShaped(q string) bool {
	if strings.ContainsFunc(q, unicode.IsSpace) {
		return false
	}
	if strings.ContainsAny(q, "_.():#$@/\\") {
		return true
	}
	var prev rune
	for _, r := range q {
		if unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

func (q *queryIndex) idf(t string) float64 {
	return math.Log(float64(q.n+1)/float64(1+q.df[t])) + 1
}

// nodePrior down-weights nodes that rarely answer a code question directly.
func nodePrior(n *graph.Node) float64 {
	switch {
	case n.SourceFile == "":
		return 0.6
	case n.IsTest || graph.IsTestPath(n.SourceFile):
		return 0.85
	}
	switch n.FileType {
	case "rationale", "document":
		return 0.75
	case "concept", "paper":
		return 0.7
	case "image":
		return 0.8
	}
	return 1.0
}

// queryHit is one ranked node.
type queryHit struct {
	node  int32
	score float64
	depth int
	seed  bool
}

// rank scores the question against the graph and expands best-first up to
// maxNodes. keep, when non-nil, restricts admitted nodes (context_filter).
func (s *snapshot) rank(question string, maxNodes int, dfs bool, keep func(int32) bool) (hits []queryHit, seeds []int32) {
	q := s.queryIndex()
	toks := uniq(tokenize(question))
	if !symbolShaped(question) {
		var subst []string
		for _, t := range toks {
			if !stopwords[t] {
				subst = append(subst, t)
			}
		}
		if len(subst) > 0 {
			toks = subst
		}
	}
	if len(toks) == 0 || q.n == 0 {
		return nil, nil
	}
	// Concepts discriminative enough to reward covering several of them.
	var disc []string
	for _, t := range toks {
		if df := q.df[t]; df > 0 && float64(df) <= 0.5*float64(q.n) {
			disc = append(disc, t)
		}
	}
	discIdx := map[string]int{}
	for k, t := range disc[:min(len(disc), 64)] {
		discIdx[t] = k
	}
	sc := s.p.scratch(q.n) // stamp: node has a relevance; f64: relevance; u64: concept bits
	defer s.p.release(sc)
	relv, matched := sc.floats(), sc.bits()
	var touched []int32
	score := func(i int32, v float64, bit int, isDisc bool) {
		if !sc.has(i) {
			sc.mark(i)
			relv[i], matched[i] = 0, 0
			touched = append(touched, i)
		}
		relv[i] += v
		if isDisc {
			matched[i] |= 1 << bit
		}
	}
	for _, t := range toks {
		w := q.idf(t)
		bit, isDisc := discIdx[t]
		for _, i := range q.labelPost[t] {
			score(i, w/q.labelLen[i], bit, isDisc)
		}
		for _, i := range q.pathPost[t] {
			score(i, pathWeight*w/q.pathLen[i], bit, isDisc)
		}
	}
	exact := strings.TrimSuffix(strings.TrimPrefix(strings.ToLower(strings.Join(strings.Fields(question), "")), "."), "()")
	type scored struct {
		i int32
		v float64
	}
	cands := make([]scored, 0, len(touched))
	for _, i := range touched {
		v := relv[i]
		if len(disc) >= 2 {
			v *= 0.25 + 0.75*float64(bits.OnesCount64(matched[i]))/float64(len(discIdx))
		}
		if graph.BareName(s.g.Nodes[i].Label) == exact {
			v *= 1.5 // the question names this symbol exactly
		}
		v *= nodePrior(&s.g.Nodes[i])
		relv[i] = v
		if keep == nil || keep(i) {
			cands = append(cands, scored{i, v})
		}
	}
	rel := func(i int32) float64 {
		if sc.has(i) {
			return relv[i]
		}
		return 0
	}
	for _, c := range topK(cands, maxSeeds, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.v, a.v), s.p.idCompare(s.g, a.i, b.i))
	}) {
		seeds = append(seeds, c.i)
	}

	// Best-first expansion from the seeds.
	hub := func(i int32) float64 {
		return 1 / (1 + math.Log(1+float64(s.x.Degree(i))/math.Max(q.avgDegree, 1)))
	}
	neighborPrior := func(i int32) float64 {
		c := q.labelCount[strings.ToLower(s.g.Nodes[i].Label)]
		if c <= 2 {
			return 1
		}
		return math.Max(math.Sqrt(2/float64(c)), 0.35)
	}
	st := s.p.scratch(q.n) // stamp: node seen by the frontier; f64: best key; i32: 1 once admitted
	defer s.p.release(st)
	best, admitted := st.floats(), st.i32
	h := &frontier{dfs: dfs, less: func(a, b int32) bool { return s.p.idCompare(s.g, a, b) < 0 }}
	seq := 0
	push := func(i int32, r float64, depth int, seed bool) {
		key := r * hub(i)
		if st.has(i) {
			if admitted[i] == 1 || best[i] >= key {
				return
			}
		} else {
			st.mark(i)
			admitted[i] = 0
		}
		best[i] = key
		seq++
		heap.Push(h, frontierItem{node: i, rel: r, key: key, depth: depth, seed: seed, seq: seq})
	}
	for _, sd := range seeds {
		push(sd, rel(sd), 0, true)
	}
	// A hub would push every neighbour; unscored ones beyond this many per
	// expansion cannot reach the result anyway (they share the parent's
	// decayed relevance and the result holds maxNodes).
	fanCap := 4 * maxNodes
	for h.Len() > 0 && len(hits) < maxNodes {
		it := heap.Pop(h).(frontierItem)
		if admitted[it.node] == 1 {
			continue
		}
		admitted[it.node] = 1
		hits = append(hits, queryHit{node: it.node, score: it.key, depth: it.depth, seed: it.seed})
		unscored := 0
		expand := func(e int32) {
			o := s.x.Other(e, it.node)
			if st.has(o) && admitted[o] == 1 || (keep != nil && !keep(o)) {
				return
			}
			own := rel(o)
			if own == 0 {
				if unscored >= fanCap {
					return
				}
				unscored++
			}
			r := math.Max(own, it.rel*decay*neighborPrior(o)) * nodePrior(&s.g.Nodes[o])
			push(o, r, it.depth+1, false)
		}
		for _, e := range s.x.Out(it.node) {
			expand(e)
		}
		for _, e := range s.x.In(it.node) {
			expand(e)
		}
	}
	slices.SortFunc(hits, func(a, b queryHit) int {
		return cmp.Or(cmp.Compare(b.score, a.score), s.p.idCompare(s.g, a.node, b.node))
	})
	return hits, seeds
}

// frontier is the expansion max-heap: seeds first, then key; ties go to the
// earlier insertion (bfs) or the later one (dfs), then the smaller id.
type frontier struct {
	items []frontierItem
	dfs   bool
	less  func(a, b int32) bool // node id order
}

type frontierItem struct {
	node     int32
	rel, key float64
	depth    int
	seed     bool
	seq      int
}

func (f *frontier) Len() int { return len(f.items) }
func (f *frontier) Less(i, j int) bool {
	a, b := f.items[i], f.items[j]
	if a.seed != b.seed {
		return a.seed
	}
	if a.key != b.key {
		return a.key > b.key
	}
	if a.seq != b.seq {
		return (a.seq < b.seq) != f.dfs
	}
	return f.less(a.node, b.node)
}
func (f *frontier) Swap(i, j int) { f.items[i], f.items[j] = f.items[j], f.items[i] }
func (f *frontier) Push(x any)    { f.items = append(f.items, x.(frontierItem)) }
func (f *frontier) Pop() any {
	it := f.items[len(f.items)-1]
	f.items = f.items[:len(f.items)-1]
	return it
}

type queryNode struct {
	Label      string  `json:"label"`
	Qualified  string  `json:"qualified,omitempty"`
	FileType   string  `json:"file_type"`
	SourceFile string  `json:"source_file"`
	Score      float64 `json:"score"`
}

type queryEdge struct {
	Source   string `json:"source"`
	Relation string `json:"relation"`
	Target   string `json:"target"`
}

func (c *Catalog) queryGraph(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Question      string   `json:"question"`
		Mode          string   `json:"mode"`
		Full          bool     `json:"full"`
		TokenBudget   *int     `json:"token_budget"`
		ContextFilter []string `json:"context_filter"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	d := c.defaults()
	budget := d.tokenBudget
	if a.TokenBudget != nil {
		budget = *a.TokenBudget
	}
	maxNodes := min(max(budget/40, minQueryNodes), maxQueryNodes)
	mode := cmp.Or(a.Mode, "bfs")
	var keep func(int32) bool
	if len(a.ContextFilter) > 0 {
		keep = func(i int32) bool {
			f := s.g.Nodes[i].SourceFile
			return slices.ContainsFunc(a.ContextFilter, func(sub string) bool { return strings.Contains(f, sub) })
		}
	}
	hits, seeds := s.rank(a.Question, maxNodes, mode == "dfs", keep)

	seedLabels := make([]string, len(seeds))
	for k, sd := range seeds {
		seedLabels[k] = s.label(sd)
	}
	shown := hits
	if !a.Full {
		shown = hits[:min(len(hits), d.terse)]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Traversal: %s | Start: [%s] | %d nodes found\n", mode, strings.Join(seedLabels, ", "), len(hits))
	nodes := make([]queryNode, 0, len(shown))
	for _, h := range shown {
		n := &s.g.Nodes[h.node]
		qn := queryNode{Label: sanitize(n.Label), FileType: sanitize(n.FileType), SourceFile: sanitize(n.SourceFile), Score: math.Round(h.score*1000) / 1000}
		fmt.Fprintf(&b, "NODE [%.2f] %s [%s] %s", h.score, qn.Label, cmp.Or(qn.FileType, "unknown"), cmp.Or(qn.SourceFile, "(external)"))
		if len(s.x.WithLabel(n.Label)) > 1 {
			qn.Qualified = s.qualified(h.node)
			fmt.Fprintf(&b, " (qualified: %s)", qn.Qualified)
		}
		b.WriteByte('\n')
		nodes = append(nodes, qn)
	}
	edges := []queryEdge{}
	if a.Full && len(hits) > 0 {
		score := make(map[int32]float64, len(hits))
		for _, h := range hits {
			score[h.node] = h.score
		}
		type scoredEdge struct {
			e int32
			v float64
		}
		var es []scoredEdge
		for _, h := range hits {
			for _, e := range s.x.Out(h.node) {
				_, t := s.x.Ends(e)
				if v, ok := score[t]; ok {
					es = append(es, scoredEdge{e, math.Min(v, h.score)})
				}
			}
		}
		slices.SortFunc(es, func(p, q scoredEdge) int {
			ep, eq := s.x.Edge(p.e), s.x.Edge(q.e)
			return cmp.Or(cmp.Compare(q.v, p.v), strings.Compare(ep.Source, eq.Source), strings.Compare(ep.Target, eq.Target),
				strings.Compare(ep.Relation, eq.Relation), cmp.Compare(p.e, q.e))
		})
		for _, se := range es[:min(len(es), 2*len(hits))] {
			src, dst := s.x.Ends(se.e)
			qe := queryEdge{Source: s.label(src), Relation: sanitize(s.x.Edge(se.e).Relation), Target: s.label(dst)}
			edges = append(edges, qe)
			fmt.Fprintf(&b, "EDGE %s --%s--> %s\n", qe.Source, qe.Relation, qe.Target)
		}
	}
	switch {
	case len(hits) == 0:
		fmt.Fprintf(&b, "(no nodes match '%s'; try a symbol name, or get_node / structural terms)\n", sanitize(a.Question))
	case !a.Full && len(hits) > len(shown):
		fmt.Fprintf(&b, "(terse: top %d of %d matched nodes; pass full=true for all of them with their edges)\n", len(shown), len(hits))
	}
	return Result{Text: truncateToBudget(strings.TrimRight(b.String(), "\n"), budget), Structured: map[string]any{"nodes": nodes, "edges": edges}}
}

// truncateToBudget bounds the text to about budget tokens: text within
// budget*4 bytes passes untouched; longer text is cut at a line boundary.
// (The exact cl100k_base cut is part of the ranking issue.)
func truncateToBudget(text string, budget int) string {
	limit := budget * 4
	if len(text) <= limit {
		return text
	}
	cut := text[:limit]
	if nl := strings.LastIndexByte(cut, '\n'); nl > 0 {
		cut = cut[:nl]
	}
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut + fmt.Sprintf("\n(truncated to ~%d tokens)", budget)
}
