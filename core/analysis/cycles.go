package analysis

import (
	"slices"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// MaxCycles caps how many cycles ImportCycles returns.
const MaxCycles = 100

// cycleSteps bounds the depth-first search, so a dense import tangle costs
// bounded time; the search order is fixed, so the result stays deterministic.
const cycleSteps = 2_000_000

// ImportCycles returns import cycles of length 2..maxLen between files and
// modules, shortest first, then by node ids, at most MaxCycles. The graph
// is file -> file/module over imports_from and re_exports; a file that a
// package or module node contains stands for that package (Go imports name
// packages, not files), so cycles are reported between packages there and
// between files elsewhere. Each cycle starts at its smallest node id and
// lists the nodes in import order, without repeating the first. It is
// computed once per Index and maxLen and shared: callers must not modify
// it.
func ImportCycles(x *graph.Index, maxLen int) [][]int32 {
	if maxLen < 2 {
		return nil
	}
	d := derive(x)
	d.memoMu.Lock()
	defer d.memoMu.Unlock()
	if c, ok := d.cycles[maxLen]; ok {
		return c
	}
	if d.cycles == nil {
		d.cycles = map[int][][]int32{}
	}
	c := importCycles(x, maxLen)
	d.cycles[maxLen] = c
	return c
}

func importCycles(x *graph.Index, maxLen int) [][]int32 {
	n := x.Len()
	order, rank := byID(x)
	unit := func(i int32) int32 {
		if x.Node(i).Kind != "file" {
			return i
		}
		best := int32(-1)
		for _, e := range x.In(i) {
			if x.Edge(e).Relation != "contains" {
				continue
			}
			s, _ := x.Ends(e)
			if k := x.Node(s).Kind; (k == "package" || k == "module") && (best < 0 || rank[s] < rank[best]) {
				best = s
			}
		}
		if best >= 0 {
			return best
		}
		return i
	}
	// Directed unit graph over ranks, deduplicated and sorted.
	adj := make([][]int32, n)
	for e := range int32(len(x.G.Edges)) {
		switch x.Edge(e).Relation {
		case "imports_from", "re_exports":
		default:
			continue
		}
		s, t := x.Ends(e)
		if s < 0 || x.Node(s).SourceFile == "" || x.Node(t).SourceFile == "" {
			continue
		}
		a, b := rank[unit(s)], rank[unit(t)]
		if a != b {
			adj[a] = append(adj[a], b)
		}
	}
	for r := range adj {
		slices.Sort(adj[r])
		adj[r] = slices.Compact(adj[r])
	}
	// Enumerate simple cycles whose smallest rank is the start, which makes
	// each cycle's rotation canonical and its enumeration unique.
	var cycles [][]int32
	steps := 0
	path := make([]int32, 0, maxLen)
	onPath := make([]bool, n)
	var dfs func(start, v int32)
	dfs = func(start, v int32) {
		for _, u := range adj[v] {
			if steps++; steps > cycleSteps {
				return
			}
			switch {
			case u == start && len(path) >= 2:
				cycles = append(cycles, slices.Clone(path))
			case u > start && !onPath[u] && len(path) < maxLen:
				onPath[u] = true
				path = append(path, u)
				dfs(start, u)
				path = path[:len(path)-1]
				onPath[u] = false
			}
		}
	}
	for s := range int32(n) {
		if len(adj[s]) == 0 || steps > cycleSteps {
			continue
		}
		path = append(path[:0], s)
		onPath[s] = true
		dfs(s, s)
		onPath[s] = false
	}
	slices.SortFunc(cycles, func(a, b []int32) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	cycles = cycles[:min(len(cycles), MaxCycles)]
	for _, c := range cycles {
		for j, r := range c {
			c[j] = order[r]
		}
	}
	return cycles
}
