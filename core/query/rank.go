package query

import (
	"container/heap"
	"context"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Ranking constants. maxSeeds, decay and the diversity allowances are the
// original's; see ../../docs and the eval/ figures for the ones we changed.
const (
	maxSeeds = 8
	// seedPool is how many of the best lexical matches are ranked exactly
	// before seeds are picked from them.
	seedPool = 256
	// maxNamed is how many symbols an identifier word in a question may
	// name and still count as an exact match.
	maxNamed = 3
	// maxConcepts bounds the concept bitsets (a question is rarely longer).
	maxConcepts = 64
	// covFloor is the coverage multiplier of a match covering none of the
	// question's discriminative concepts (all of them: 1), the
	// original's; 0.1, 0.15 and 0.35 each lost somewhere (eval/RESULTS.md).
	covFloor = 0.25
)

// hit is one ranked node.
type hit struct {
	node  int32
	score float64
	depth int
	seed  bool
	exact bool
}

// ranking is the outcome of rank.
type ranking struct {
	hits     []hit
	seeds    []int32
	concepts []string
}

// scratch holds the per-query dense arrays, pooled so a query on a large
// graph allocates little. touched lists the entries to reset.
type scratch struct {
	rel     []float64
	mask    []uint64
	best    []float64
	state   []uint8   // 0 untouched, 1 in frontier, 2 done
	pos     []int32   // settled node → its index in hits
	brel    []float64 // relevance behind best
	touched []int32
	seen    []int32
}

func (e *Engine) getScratch() *scratch {
	if s, ok := e.pool.Get().(*scratch); ok {
		return s
	}
	n := len(e.x.G.Nodes)
	return &scratch{rel: make([]float64, n), mask: make([]uint64, n), best: make([]float64, n), state: make([]uint8, n), pos: make([]int32, n), brel: make([]float64, n)}
}

func (e *Engine) putScratch(s *scratch) {
	for _, i := range s.touched {
		s.rel[i], s.mask[i] = 0, 0
	}
	for _, i := range s.seen {
		s.best[i], s.state[i] = 0, 0
	}
	s.touched, s.seen = s.touched[:0], s.seen[:0]
	e.pool.Put(s)
}

// cand is a lexical candidate and its score.
type cand struct {
	i int32
	v float64
}

// rankParams are the inputs of one ranking.
type rankParams struct {
	ctx      context.Context // a cancelled request stops expanding
	demote   float64         // factor for test nodes (1: the question is about tests)
	question string
	maxNodes int
	dfs      bool
	keep     func(int32) bool // context_filter; nil keeps all
	bonus    map[int32]float64
	seedWith []int32 // recency_mode=seed: changed nodes injected as seeds
	trace    *trace  // Explain: records why each node scores what it does; nil in Query
}

func (p rankParams) mode() string {
	if p.dfs {
		return "dfs"
	}
	return "bfs"
}

// rank scores the question lexically, picks diverse seeds and expands
// best-first up to maxNodes.
func (e *Engine) rank(p rankParams) ranking {
	n := len(e.x.G.Nodes)
	known := func(t string) bool { i, ok := e.tok[t]; return ok && (e.df[i] > 0 || e.docDF[i] > 0) }
	pq := parseQuestion(p.question, known, variants{abbrev: e.t.Abbrev, synonyms: e.t.Synonyms})
	concepts := pq.concepts
	out := ranking{concepts: concepts}
	if n == 0 {
		return out
	}
	s := e.getScratch()
	defer e.putScratch(s)

	// Discriminative concepts: present in the graph (names or docs) but
	// in at most half of it. Only they count towards coverage and evidence signatures.
	conceptDF := make([]int32, len(concepts))
	for _, t := range pq.terms {
		if id, ok := e.tok[t.tok]; ok && bits.OnesCount64(t.mask) == 1 {
			c := bits.TrailingZeros64(t.mask)
			conceptDF[c] = max(conceptDF[c], e.df[id], e.docDF[id])
		}
	}
	var disc uint64
	for c, df := range conceptDF {
		if df > 0 && float64(df) <= 0.5*float64(n) {
			disc |= 1 << c
		}
	}
	nDisc := bits.OnesCount64(disc)

	touch := func(i int32, v float64, bit uint64, c Channel) {
		if s.rel[i] == 0 && s.mask[i] == 0 {
			s.touched = append(s.touched, i)
		}
		s.rel[i] += v
		s.mask[i] |= bit
		if p.trace != nil {
			p.trace.channel(i, c, v)
		}
	}
	for _, t := range pq.terms {
		id, ok := e.tok[t.tok]
		if !ok {
			continue
		}
		w := e.idf(id) * t.weight
		bit := t.mask
		e.matchNames(id, w, bit, touch)
		if dw := e.docIDF(id) * t.weight * e.t.Doc; dw > 0 {
			for _, i := range e.doc.post[id] {
				touch(i, dw*float64(e.doc.norm[i]), bit, ChanDoc)
			}
		}
	}

	// The whole question always names a symbol exactly; an identifier word
	// inside prose only when few symbols carry it ("__init__" and "run"
	// name dozens and would boost them all).
	keys := []string{exactKey(p.question)}
	for _, k := range pq.names {
		// "Owner.member" is narrowed by its owner already.
		if c := e.keyCount[k]; strings.Contains(k, ".") || (c > 0 && c <= maxNamed) {
			keys = append(keys, k)
		}
	}
	cands := make([]cand, 0, len(s.touched))
	for k, i := range s.touched {
		if k%4096 == 0 && p.ctx != nil && p.ctx.Err() != nil {
			break
		}
		if p.keep != nil && !p.keep(i) {
			s.rel[i] = 0
			continue
		}
		v := s.rel[i]
		exact := e.isExact(i, keys)
		cov, boost := 1.0, 1.0
		if nDisc >= 2 && !exact {
			cov = covFloor + (1-covFloor)*float64(bits.OnesCount64(s.mask[i]&disc))/float64(nDisc)
		}
		if exact {
			boost = e.t.ExactBoost
		} else {
			if e.test[i] {
				boost = p.demote
			}
			if e.generated != nil && e.generated[i] {
				boost *= e.t.GeneratedPrior
			}
		}
		v *= cov * boost * float64(e.prior[i])
		if e.size != nil {
			v *= float64(e.size[i])
		}
		if e.testCalls != nil {
			v *= 1 + e.t.TestCalls*math.Log1p(float64(e.testCalls[i]))
		}
		if p.trace != nil {
			p.trace.lexical(i, cov, boost, v/max(s.rel[i]*cov*boost, 1e-300), v)
		}
		s.rel[i] = v
		if v > 0 {
			cands = append(cands, cand{i, v})
		}
	}
	order := func(a, b cand) int {
		if a.v != b.v {
			if a.v > b.v {
				return -1
			}
			return 1
		}
		return e.cmpID(a.i, b.i)
	}
	// Broad words ("test", "error") touch a large part of the graph; only
	// the head of the ranking is needed, so select it before sorting.
	ranked := topK(cands, seedPool, order)

	// Seeds, diversified by evidence signature when the question has
	// several concepts: one signature cannot take every seat.
	var isSeed map[int32]bool
	pick := func(list []cand) {
		out.seeds = out.seeds[:0]
		perSig := map[uint64]int{}
		isSeed = map[int32]bool{}
		for _, c := range list {
			if len(out.seeds) >= maxSeeds {
				break
			}
			sig := s.mask[c.i] & disc
			if nDisc >= 2 && !e.isExact(c.i, keys) {
				if perSig[sig] >= allowance(sig) {
					continue
				}
			}
			perSig[sig]++
			out.seeds = append(out.seeds, c.i)
			isSeed[c.i] = true
		}
	}
	pick(ranked)
	if len(out.seeds) < maxSeeds && len(ranked) < len(cands) {
		// Diversity skipped past the selected head: rank everything.
		slices.SortFunc(cands, order)
		ranked = cands
		pick(ranked)
	}
	cands = ranked
	for _, i := range p.seedWith {
		if len(out.seeds) >= max(p.maxNodes/2, maxSeeds) {
			break
		}
		if !isSeed[i] && (p.keep == nil || p.keep(i)) {
			out.seeds = append(out.seeds, i)
			isSeed[i] = true
		}
	}

	out.hits = e.expand(s, p, out.seeds)
	for k := range out.hits {
		h := &out.hits[k]
		h.exact = e.isExact(h.node, keys)
		if p.trace != nil {
			p.trace.expanded(h.node, h.score)
		}
	}
	if e.t.TwinDemote != 1 {
		e.demoteTwins(out.hits)
	}
	if e.t.ContainerShow != 1 {
		for k := range out.hits {
			if h := &out.hits[k]; !h.exact && e.container[h.node] {
				h.score *= e.t.ContainerShow
			}
		}
	}
	e.sortHits(out.hits)
	return out
}

// matchNames scores token id in the name channels: label, owner, alias
// and path.
func (e *Engine) matchNames(id int32, w float64, bit uint64, touch func(int32, float64, uint64, Channel)) {
	for _, i := range e.label.post[id] {
		touch(i, e.t.Label*w*float64(e.label.norm[i]), bit, ChanLabel)
	}
	for _, i := range e.owner.post[id] {
		touch(i, e.t.Owner*w*float64(e.owner.norm[i]), bit, ChanOwner)
	}
	for _, i := range e.alias.post[id] {
		touch(i, e.t.Alias*w*float64(e.alias.norm[i]), bit, ChanAlias)
	}
	for _, f := range e.path.post[id] {
		v := e.t.Path * w * float64(e.path.norm[f])
		for _, i := range e.fileNodes[f] {
			touch(i, v, bit, ChanPath)
		}
	}
}

// allowance is how many seeds (and top results) one evidence signature may
// take: two for a single concept, three for a multi-concept match.
func allowance(sig uint64) int {
	if bits.OnesCount64(sig) > 1 {
		return 3
	}
	return 2
}

// twinKey identifies a declaration up to build variants: directory, kind,
// owner and bare label. Two nodes with one key are the same symbol
// declared twice (per platform, per build tag, per fallback or overload).
type twinKey struct {
	dir, kind, owner, label string
}

func (e *Engine) twinKey(i int32) (twinKey, bool) {
	n := &e.x.G.Nodes[i]
	if n.SourceFile == "" || n.Kind == "file" {
		return twinKey{}, false
	}
	k := twinKey{dir: n.SourceFile[:max(strings.LastIndexByte(n.SourceFile, '/'), 0)], kind: n.Kind, label: e.labelKey[i]}
	if o := e.ownerOf[i]; o >= 0 {
		k.owner = e.labelKey[o]
	}
	return k, true
}

// demoteTwins multiplies the score of every twin below the first by
// TwinDemote, walking in score order. Exact matches keep their score.
func (e *Engine) demoteTwins(hits []hit) {
	e.sortHits(hits)
	seen := map[twinKey]bool{}
	for k := range hits {
		h := &hits[k]
		key, ok := e.twinKey(h.node)
		if !ok {
			continue
		}
		if seen[key] && !h.exact {
			h.score *= e.t.TwinDemote
		}
		seen[key] = true
	}
}

func (e *Engine) sortHits(hits []hit) {
	slices.SortFunc(hits, func(a, b hit) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return e.cmpID(a.node, b.node)
	})
}

// cmpID orders nodes by id, the deterministic tie-break everywhere.
func (e *Engine) cmpID(a, b int32) int {
	if e.idSorted {
		return int(a) - int(b)
	}
	return strings.Compare(e.x.G.Nodes[a].ID, e.x.G.Nodes[b].ID)
}

// exactKey normalizes a question the way graph.BareName normalizes labels,
// so "ServeHTTP()", ".ServeHTTP" and "servehttp" all name the same symbol.
func exactKey(q string) string {
	return graph.BareName(strings.Join(strings.Fields(q), ""))
}

// isExact reports that node i's bare label is the whole question or one of
// its identifier-shaped words, or that such a word is "Owner.member" naming
// i and its owner.
func (e *Engine) isExact(i int32, keys []string) bool {
	for _, k := range keys {
		if e.isExactKey(i, k) {
			return true
		}
	}
	return false
}

func (e *Engine) isExactKey(i int32, key string) bool {
	if key == "" {
		return false
	}
	lk := e.labelKey[i]
	if lk == key {
		return true
	}
	dot := strings.LastIndexByte(key, '.')
	if dot <= 0 || key[dot+1:] != lk {
		return false
	}
	if o := e.ownerOf[i]; o >= 0 {
		owner := key[:dot]
		if k := strings.LastIndexByte(owner, '.'); k >= 0 {
			owner = owner[k+1:]
		}
		return e.labelKey[o] == owner
	}
	// "json.Unmarshal": a package-qualified function; accept when the
	// qualifier is the last directory of the node's path.
	if f := e.x.G.Nodes[i].SourceFile; f != "" {
		dir := f[:max(strings.LastIndexByte(f, '/'), 0)]
		dir = dir[strings.LastIndexByte(dir, '/')+1:]
		return strings.EqualFold(dir, key[:dot])
	}
	return false
}

// frontierItem is one candidate on the expansion frontier.
type frontierItem struct {
	node  int32
	rel   float64 // relevance passed on to neighbours
	key   float64 // (rel + bonus) × hub penalty: the reported score
	depth int
	seq   int
	seed  bool
}

// frontier is the expansion max-heap: seeds first, then key; ties favour
// shallower then earlier nodes (bfs) or deeper then later ones (dfs), then
// the smaller id.
type frontier struct {
	items []frontierItem
	dfs   bool
	e     *Engine
}

func (f *frontier) Len() int { return len(f.items) }
func (f *frontier) Less(i, j int) bool {
	a, b := &f.items[i], &f.items[j]
	if a.seed != b.seed {
		return a.seed
	}
	if a.key != b.key {
		return a.key > b.key
	}
	if a.depth != b.depth {
		return (a.depth < b.depth) != f.dfs
	}
	if a.seq != b.seq {
		return (a.seq < b.seq) != f.dfs
	}
	return f.e.cmpID(a.node, b.node) < 0
}
func (f *frontier) Swap(i, j int) { f.items[i], f.items[j] = f.items[j], f.items[i] }
func (f *frontier) Push(x any)    { f.items = append(f.items, x.(frontierItem)) }
func (f *frontier) Pop() any {
	it := f.items[len(f.items)-1]
	f.items = f.items[:len(f.items)-1]
	return it
}

// expand walks best-first from the seeds until maxNodes are settled.
func (e *Engine) expand(s *scratch, p rankParams, seeds []int32) []hit {
	h := &frontier{dfs: p.dfs, e: e}
	seq := 0
	push := func(i int32, rel float64, depth int, seed bool, from, via int32) {
		key := (rel + p.bonus[i]) * e.hubPenalty(i, e.lexicalLed(s, i, rel))
		if s.state[i] == 2 || (s.state[i] == 1 && s.best[i] >= key && !seed) {
			return
		}
		if s.state[i] == 0 {
			s.seen = append(s.seen, i)
		}
		if key > s.best[i] || s.state[i] == 0 {
			s.best[i], s.brel[i] = key, rel
			if p.trace != nil {
				p.trace.offer(i, from, via, rel, key)
			}
		}
		s.state[i] = 1
		seq++
		heap.Push(h, frontierItem{node: i, rel: rel, key: key, depth: depth, seq: seq, seed: seed})
	}
	for _, sd := range seeds {
		push(sd, s.rel[sd], 0, true, -1, -1)
	}
	var hits []hit
	for h.Len() > 0 && len(hits) < p.maxNodes {
		if p.ctx != nil && len(hits)%64 == 0 && p.ctx.Err() != nil {
			break // the client is gone: what is settled is all it gets
		}
		it := heap.Pop(h).(frontierItem)
		if s.state[it.node] == 2 {
			continue
		}
		s.state[it.node] = 2
		s.pos[it.node] = int32(len(hits))
		if e.t.Raise && s.best[it.node] > it.key {
			// A seed pops first at its own score; a neighbour may have
			// offered it more since.
			it.key, it.rel = s.best[it.node], s.brel[it.node]
		}
		hits = append(hits, hit{node: it.node, score: it.key, depth: it.depth, seed: it.seed})
		visit := func(edges []int32) {
			for _, ed := range edges {
				o := e.x.Other(ed, it.node)
				if o < 0 || (p.keep != nil && !p.keep(o)) {
					continue
				}
				nb := float64(e.nbPrior[o])
				if e.t.OwnedMembers && e.ownerOf[o] == it.node {
					nb = 1
				}
				offer := it.rel * e.t.Decay * e.relationFactor(ed) * nb * float64(e.prior[o])
				if e.size != nil {
					offer *= float64(e.size[o])
				}
				if e.test[o] {
					offer *= p.demote
				}
				if e.generated != nil && e.generated[o] {
					offer *= e.t.GeneratedPrior
				}
				r := math.Max(s.rel[o], offer)
				src := it.node // the neighbour that set o's score, for Explain
				if offer <= s.rel[o] {
					src = -1
				}
				if s.state[o] == 2 {
					// Settled already (a seed settles first at its own
					// score): keep the best score any path gives it.
					if k := (r + p.bonus[o]) * e.hubPenalty(o, e.lexicalLed(s, o, r)); e.t.Raise && k > hits[s.pos[o]].score {
						hits[s.pos[o]].score = k
						if p.trace != nil {
							p.trace.offer(o, src, ed, r, k)
						}
					}
					continue
				}
				push(o, r, it.depth+1, false, src, ed)
			}
		}
		visit(e.x.Out(it.node))
		visit(e.x.In(it.node))
	}
	return hits
}

// lexicalLed reports that node i's relevance rel is its own words' score
// (then it is evidence, and the milder HubLexical penalty applies).
func (e *Engine) lexicalLed(s *scratch, i int32, rel float64) bool {
	lex := s.rel[i]
	return lex > 0 && rel <= lex
}

// relationFactor scales what an edge passes on: type references and
// imports relate code far more loosely than calls and ownership do.
func (e *Engine) relationFactor(ed int32) float64 {
	switch e.x.G.Edges[ed].Relation {
	case "references", "imports", "imports_from", "re_exports":
		return e.t.RefDecay
	}
	return 1
}

// topK returns the k best of c in order, in O(n log k): a bounded heap whose
// root is the worst kept candidate. order is a total order (ties by id), so
// the result does not depend on c's order.
func topK[T any](c []T, k int, order func(a, b T) int) []T {
	if len(c) <= k {
		slices.SortFunc(c, order)
		return c
	}
	h := make([]T, 0, k)
	worse := func(i, j int) bool { return order(h[i], h[j]) > 0 }
	down := func(i int) {
		for {
			l, w := 2*i+1, i
			if l < len(h) && worse(l, w) {
				w = l
			}
			if r := l + 1; r < len(h) && worse(r, w) {
				w = r
			}
			if w == i {
				return
			}
			h[i], h[w] = h[w], h[i]
			i = w
		}
	}
	for _, x := range c {
		if len(h) < k {
			h = append(h, x)
			for i := len(h) - 1; i > 0; {
				p := (i - 1) / 2
				if !worse(i, p) {
					break
				}
				h[i], h[p] = h[p], h[i]
				i = p
			}
			continue
		}
		if order(x, h[0]) < 0 {
			h[0] = x
			down(0)
		}
	}
	slices.SortFunc(h, order)
	return h
}
