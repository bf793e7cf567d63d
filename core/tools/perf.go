package tools

import (
	"slices"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Per-snapshot integer keys and scratch space that keep walks on a
// stdlib-sized graph (hundreds of thousands of nodes) in the low
// milliseconds: comparisons use precomputed ranks instead of strings, and
// visited sets are generation-stamped arrays reused across calls instead of
// fresh maps.

// perf holds the integer views of a graph.
type perf struct {
	rank     []int32  // node -> position in the degree-desc, id-asc order
	relID    []uint16 // edge -> index into relNames (sorted, so id order = name order)
	relNames []string
	idSorted bool // nodes are in id order (graph.json is canonical), so index order = id order
	pool     sync.Pool
}

func newPerf(g *graph.Graph, x *graph.Index) *perf {
	p := &perf{}
	n := len(g.Nodes)
	p.idSorted = slices.IsSortedFunc(g.Nodes, func(a, b graph.Node) int { return strings.Compare(a.ID, b.ID) })
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	if p.idSorted { // stable by degree keeps the id order among equals
		slices.SortStableFunc(order, func(a, b int32) int { return x.Degree(b) - x.Degree(a) })
	} else {
		slices.SortFunc(order, func(a, b int32) int {
			if d := x.Degree(b) - x.Degree(a); d != 0 {
				return d
			}
			return strings.Compare(g.Nodes[a].ID, g.Nodes[b].ID)
		})
	}
	p.rank = make([]int32, n)
	for pos, i := range order {
		p.rank[i] = int32(pos)
	}
	names := map[string]uint16{}
	for i := range g.Edges {
		names[g.Edges[i].Relation] = 0
	}
	for r := range names {
		p.relNames = append(p.relNames, r)
	}
	slices.Sort(p.relNames)
	for k, r := range p.relNames {
		names[r] = uint16(k)
	}
	p.relID = make([]uint16, len(g.Edges))
	for i := range g.Edges {
		p.relID[i] = names[g.Edges[i].Relation]
	}
	p.pool.New = func() any { return &scratch{} }
	return p
}

// patchedPerf carries prev (of the index old) over to x, a patch of it:
// nodes whose degree did not change keep their relative order, so only
// the patch's nodes and those whose degree it changed are sorted and
// merged in, and edges keep their relation ids. nil when that cannot be
// (a new relation name, or nodes out of id order): build it afresh.
func patchedPerf(prev *perf, old, x *graph.Index) *perf {
	pv := x.Provenance()
	if !prev.idSorted || pv == nil {
		return nil
	}
	p := &perf{idSorted: true, relNames: prev.relNames}
	p.relID = make([]uint16, len(x.G.Edges))
	var names map[string]uint16
	for e, o := range pv.EdgeFrom {
		if o >= 0 {
			p.relID[e] = prev.relID[o]
			continue
		}
		if names == nil {
			names = make(map[string]uint16, len(prev.relNames))
			for k, r := range prev.relNames {
				names[r] = uint16(k)
			}
		}
		k, ok := names[x.G.Edges[e].Relation]
		if !ok {
			return nil
		}
		p.relID[e] = k
	}
	n := len(x.G.Nodes)
	moved := make([]bool, n)
	var resorted []int32
	for i, o := range pv.NodeFrom {
		if o < 0 || old.Degree(o) != x.Degree(int32(i)) {
			moved[i] = true
			resorted = append(resorted, int32(i))
		}
	}
	byRank := func(a, b int32) int {
		if d := x.Degree(b) - x.Degree(a); d != 0 {
			return d
		}
		return int(a) - int(b)
	}
	slices.SortFunc(resorted, byRank)
	prevOrder := make([]int32, len(prev.rank))
	for i, r := range prev.rank {
		prevOrder[r] = int32(i)
	}
	p.rank = make([]int32, n)
	pos, j := int32(0), 0
	place := func(i int32) { p.rank[i] = pos; pos++ }
	for _, o := range prevOrder {
		m := pv.OldToNew[o]
		if m < 0 || moved[m] {
			continue
		}
		for j < len(resorted) && byRank(resorted[j], m) < 0 {
			place(resorted[j])
			j++
		}
		place(m)
	}
	for ; j < len(resorted); j++ {
		place(resorted[j])
	}
	p.pool.New = func() any { return &scratch{} }
	return p
}

// idCompare orders nodes by id without touching strings when it can.
func (p *perf) idCompare(g *graph.Graph, a, b int32) int {
	if p.idSorted {
		return int(a) - int(b)
	}
	return strings.Compare(g.Nodes[a].ID, g.Nodes[b].ID)
}

// relSet turns relation names into a per-relation-id lookup.
func (p *perf) relSet(names func(rel string) bool) []bool {
	set := make([]bool, len(p.relNames))
	for k, r := range p.relNames {
		set[k] = names(r)
	}
	return set
}

// scratch is per-call working memory: stamp[i] == gen marks node i as set
// in this call, so resetting is O(1).
type scratch struct {
	gen   uint32
	stamp []uint32
	i32   []int32
}

func (p *perf) scratch(n int) *scratch {
	s := p.pool.Get().(*scratch)
	if len(s.stamp) != n {
		*s = scratch{stamp: make([]uint32, n), i32: make([]int32, n)}
	}
	s.gen++
	if s.gen == 0 { // wrapped: old stamps could alias
		clear(s.stamp)
		s.gen = 1
	}
	return s
}

func (p *perf) release(s *scratch) { p.pool.Put(s) }

func (s *scratch) has(i int32) bool { return s.stamp[i] == s.gen }
func (s *scratch) mark(i int32)     { s.stamp[i] = s.gen }

// topK sorts the k smallest elements of s (by cmp) into s[:k] and returns
// that prefix, in O(n log k): a hub's 50k callers must not be fully sorted
// to show 50 of them. The result is identical to a full sort's prefix when
// cmp is a total order.
func topK[T any](s []T, k int, cmp func(a, b T) int) []T {
	if k <= 0 {
		return s[:0]
	}
	if len(s) <= k || len(s) <= 4*k {
		slices.SortFunc(s, cmp)
		return s[:min(k, len(s))]
	}
	h := s[:k] // max-heap of the k best so far
	down := func(i int) {
		for {
			l := 2*i + 1
			if l >= k {
				return
			}
			big := l
			if r := l + 1; r < k && cmp(h[r], h[l]) > 0 {
				big = r
			}
			if cmp(h[big], h[i]) <= 0 {
				return
			}
			h[i], h[big] = h[big], h[i]
			i = big
		}
	}
	for i := k/2 - 1; i >= 0; i-- {
		down(i)
	}
	for j := k; j < len(s); j++ {
		if cmp(s[j], h[0]) < 0 {
			h[0], s[j] = s[j], h[0]
			down(0)
		}
	}
	slices.SortFunc(h, cmp)
	return h
}
