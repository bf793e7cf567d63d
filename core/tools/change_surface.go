package tools

import (
	"path"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// surfaceImpact is the reverse-impact walk of test selection: like
// reverseImpact, but a hop into a private function or method from a
// caller of its own directory costs nothing. A private helper runs only
// when something of its package calls it, so depth counts hops between
// a package's surfaces, wherever the private helpers sit in the chain
// (fnmatch's translate <- _compile_pattern <- fnmatchcase is one hop, as
// is textwrap's _split <- _split_chunks <- wrap). A test is never reached
// for free: its hop counts. Every reached non-seed node is returned once,
// with the fewest hops it was reached by (0 for a helper reached for
// free; ties: the edge order).
func (s *snapshot) surfaceImpact(seeds []int32, rels []bool, depth int) []impactHit {
	best := map[int32]int{}
	for _, sd := range seeds {
		best[sd] = 0
	}
	via := map[int32]string{}
	var order []int32
	level := append([]int32(nil), seeds...)
	for d := 0; d <= depth && len(level) > 0; d++ {
		var next []int32
		for k := 0; k < len(level); k++ {
			u := level[k]
			if best[u] != d {
				continue // reached with fewer hops since it was queued
			}
			free := s.internal(u)
			for _, e := range s.x.In(u) {
				r := s.p.relID[e]
				if !rels[r] {
					continue
				}
				src, _ := s.x.Ends(e)
				cost := 1
				if free && s.sameDirCaller(u, src) {
					cost = 0
				}
				nd := d + cost
				if nd > depth {
					continue
				}
				if b, seen := best[src]; seen && b <= nd {
					continue
				}
				if _, seen := best[src]; !seen {
					order = append(order, src)
				}
				best[src], via[src] = nd, s.p.relNames[r]
				if cost == 0 {
					level = append(level, src)
				} else {
					next = append(next, src)
				}
			}
		}
		level = next
	}
	hits := make([]impactHit, 0, len(order))
	for _, i := range order {
		hits = append(hits, impactHit{node: i, depth: best[i], via: via[i]})
	}
	return hits
}

// internal reports a private function or method: its callers in its own
// directory are inside the package.
func (s *snapshot) internal(i int32) bool {
	n := s.x.Node(i)
	return n.Visibility == "private" && isCallable(n.Kind)
}

// sameDirCaller reports a callable of u's directory that is not a test.
func (s *snapshot) sameDirCaller(u, src int32) bool {
	n := s.x.Node(src)
	return isCallable(n.Kind) && !graph.IsTestNode(n) && path.Dir(n.SourceFile) == path.Dir(s.x.Node(u).SourceFile)
}
