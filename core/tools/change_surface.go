package tools

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
	f := s.walkFacts()
	sc := s.p.scratch(s.x.Len())
	defer s.p.release(sc)
	// A marked node's sc.i32 is its position in hits, or -1 for a seed
	// (whose hop count stays 0).
	for _, sd := range seeds {
		sc.mark(sd)
		sc.i32[sd] = -1
	}
	var hits []impactHit
	best := func(i int32) int {
		if p := sc.i32[i]; p >= 0 {
			return hits[p].depth
		}
		return 0
	}
	level := append([]int32(nil), seeds...)
	for d := 0; d <= depth && len(level) > 0; d++ {
		var next []int32
		for k := 0; k < len(level); k++ {
			u := level[k]
			if best(u) != d {
				continue // reached with fewer hops since it was queued
			}
			free := f.internal[u]
			for _, e := range s.x.In(u) {
				r := s.p.relID[e]
				if !rels[r] {
					continue
				}
				src, _ := s.x.Ends(e)
				cost := 1
				if free && f.callable[src] && !f.test[src] && f.dir[src] == f.dir[u] {
					cost = 0
				}
				nd := d + cost
				if nd > depth {
					continue
				}
				switch {
				case !sc.has(src):
					sc.mark(src)
					sc.i32[src] = int32(len(hits))
					hits = append(hits, impactHit{node: src, depth: nd, via: s.p.relNames[r]})
				case best(src) <= nd:
					continue
				default:
					hits[sc.i32[src]].depth, hits[sc.i32[src]].via = nd, s.p.relNames[r]
				}
				if cost == 0 {
					level = append(level, src)
				} else {
					next = append(next, src)
				}
			}
		}
		level = next
	}
	return hits
}
