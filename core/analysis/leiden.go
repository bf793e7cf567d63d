package analysis

import "slices"

// eps is the smallest modularity gain (in edge-weight units) that counts as
// an improvement; below it a node stays where it is, which stops float noise
// from moving nodes back and forth.
const eps = 1e-10

// maxLevels bounds aggregation; real graphs converge in well under 20.
const maxLevels = 64

// leiden partitions g and returns a community label per node, numbered
// 0..k-1 by first appearance in node order. With refine it is Leiden (Traag
// et al. 2019) with the randomised refinement replaced by a greedy,
// deterministic one; without it, it is plain Louvain. Resolution is gamma.
func leiden(g *csr, gamma float64, refine bool) []int32 {
	n := g.n()
	if g.m2 == 0 {
		return identity(n)
	}
	nodeOf := make([]int32, n) // original node -> node of the current level
	for i := range nodeOf {
		nodeOf[i] = int32(i)
	}
	cur := g
	memb := identity(n)
	s := newScratch(n)
	var spare *csr // a finished level, whose arrays the next one reuses
	for range maxLevels {
		s.localMove(cur, memb, gamma)
		k := renumber(memb)
		if k == cur.n() {
			break
		}
		agg, nagg := memb, k
		if refine {
			ref := s.refine(cur, memb, gamma)
			if nr := renumber(ref); nr < cur.n() {
				agg, nagg = ref, nr
			}
		}
		next := make([]int32, nagg)
		for v, a := range agg {
			next[a] = memb[v]
		}
		for i, v := range nodeOf {
			nodeOf[i] = agg[v]
		}
		nextG := aggregate(cur, agg, nagg, spare, s)
		if cur != g {
			spare = cur
		}
		cur = nextG
		memb = next
	}
	out := make([]int32, n)
	for i, v := range nodeOf {
		out[i] = memb[v]
	}
	renumber(out)
	return out
}

func identity(n int) []int32 {
	m := make([]int32, n)
	for i := range m {
		m[i] = int32(i)
	}
	return m
}

// renumber relabels in place to 0..k-1 in order of first appearance and
// returns k.
func renumber(labels []int32) int {
	seen := make([]int32, len(labels))
	for i := range seen {
		seen[i] = -1
	}
	k := int32(0)
	for i, l := range labels {
		if seen[l] < 0 {
			seen[l] = k
			k++
		}
		labels[i] = seen[l]
	}
	return int(k)
}

// scratch holds the per-level work arrays, allocated once for the largest
// level and reused, so no iteration allocates or touches a map.
type scratch struct {
	neighW  []float64 // weight from the current node to each community
	touched []int32   // communities with neighW != 0
	tot     []float64 // community strength
	queue   []int32
	inQ     []bool
	// refinement
	ext     []float64 // weight from a refined community to the rest of its parent
	refTot  []float64
	refSize []int32
	parTot  []float64
}

func newScratch(n int) *scratch {
	return &scratch{
		neighW: make([]float64, n), tot: make([]float64, n), queue: make([]int32, n), inQ: make([]bool, n),
		ext: make([]float64, n), refTot: make([]float64, n), refSize: make([]int32, n), parTot: make([]float64, n),
	}
}

// gather fills neighW/touched with v's weight to each community of labels,
// restricted to neighbours accepted by keep (nil = all).
func (s *scratch) gather(g *csr, v int32, labels []int32, keep func(u int32) bool) {
	for j := g.off[v]; j < g.off[v+1]; j++ {
		u := g.adj[j]
		if keep != nil && !keep(u) {
			continue
		}
		c := labels[u]
		if s.neighW[c] == 0 {
			s.touched = append(s.touched, c)
		}
		s.neighW[c] += g.w[j]
	}
}

func (s *scratch) clear() {
	for _, c := range s.touched {
		s.neighW[c] = 0
	}
	s.touched = s.touched[:0]
}

// localMove is Leiden's fast local moving: a FIFO queue seeded with every
// node in order; a node moves to the neighbouring community with the best
// modularity gain (ties to the smaller label), and when it moves, its
// neighbours outside the new community are queued again. It returns whether
// anything moved.
func (s *scratch) localMove(g *csr, memb []int32, gamma float64) bool {
	n := g.n()
	tot := s.tot[:n]
	clear(tot)
	for v := range n {
		tot[memb[v]] += g.k[v]
	}
	q := s.queue[:n]
	inQ := s.inQ[:n]
	for v := range n {
		q[v] = int32(v)
		inQ[v] = true
	}
	head, size := 0, n
	moved := false
	scale := gamma / g.m2
	for size > 0 {
		v := q[head]
		head = (head + 1) % n
		size--
		inQ[v] = false
		c0 := memb[v]
		kv := g.k[v]
		s.gather(g, v, memb, nil)
		tot[c0] -= kv
		best, bestG := c0, s.neighW[c0]-kv*tot[c0]*scale
		for _, c := range s.touched {
			if c == c0 {
				continue
			}
			gain := s.neighW[c] - kv*tot[c]*scale
			if gain > bestG+eps || (best != c0 && gain > bestG-eps && c < best) {
				best, bestG = c, max(gain, bestG)
			}
		}
		tot[best] += kv
		if best != c0 {
			memb[v] = best
			moved = true
			for j := g.off[v]; j < g.off[v+1]; j++ {
				u := g.adj[j]
				if !inQ[u] && memb[u] != best {
					inQ[u] = true
					q[(head+size)%n] = u
					size++
				}
			}
		}
		s.clear()
	}
	return moved
}

// refine is Leiden's refinement with the random choice replaced by the
// greedy one: inside each community of memb, nodes start as singletons; in
// node order, a node that is still a singleton and well connected to its
// community joins the well-connected refined sub-community with the largest
// non-negative gain (ties to the smaller label). The result splits memb into
// well-connected pieces, which is what keeps Leiden's communities connected
// and lets aggregation escape Louvain's local optima.
func (s *scratch) refine(g *csr, memb []int32, gamma float64) []int32 {
	n := g.n()
	ref := identity(n)
	refTot, refSize, ext, parTot := s.refTot[:n], s.refSize[:n], s.ext[:n], s.parTot[:n]
	clear(parTot)
	for v := range n {
		refTot[v] = g.k[v]
		refSize[v] = 1
		parTot[memb[v]] += g.k[v]
		e := 0.0
		for j := g.off[v]; j < g.off[v+1]; j++ {
			if memb[g.adj[j]] == memb[v] {
				e += g.w[j]
			}
		}
		ext[v] = e
	}
	scale := gamma / g.m2
	for v := range int32(n) {
		if refSize[v] != 1 || ref[v] != v {
			continue
		}
		c := memb[v]
		kv := g.k[v]
		if ext[v] < kv*(parTot[c]-kv)*scale {
			continue
		}
		s.gather(g, v, ref, func(u int32) bool { return memb[u] == c })
		best, bestG := v, 0.0
		for _, r := range s.touched {
			if r == v || ext[r] < refTot[r]*(parTot[c]-refTot[r])*scale {
				continue
			}
			gain := s.neighW[r] - kv*refTot[r]*scale
			if gain < -eps {
				continue
			}
			if best == v || gain > bestG+eps || (gain > bestG-eps && r < best) {
				best, bestG = r, max(gain, bestG)
			}
		}
		if best != v {
			ref[v] = best
			refTot[best] += kv
			refTot[v] = 0
			refSize[best]++
			refSize[v] = 0
			ext[best] += ext[v] - 2*s.neighW[best]
		}
		s.clear()
	}
	return ref
}

// aggregate collapses each label of labels (0..k-1) into one node. Node
// strengths carry over, so internal weight keeps counting in the totals.
// The result reuses the arrays of into (a level no longer needed, or nil)
// and s's work arrays: a level has at most as many entries as g, so
// nothing regrows (appending to fresh arrays allocated 40 MB a partition
// on GOROOT/src).
func aggregate(g *csr, labels []int32, k int, into *csr, s *scratch) *csr {
	members := groupBy(labels, k)
	if into == nil {
		into = &csr{}
	}
	a := &csr{off: resize(into.off, k+1), k: resize(into.k, k), m2: g.m2,
		adj: into.adj[:0], w: into.w[:0]}
	a.off[0] = 0
	clear(a.k)
	if cap(a.adj) < len(g.adj) {
		a.adj, a.w = make([]int32, 0, len(g.adj)), make([]float64, 0, len(g.adj))
	}
	neighW, touched := s.neighW, s.touched[:0] // all zero between uses
	for c := range k {
		for _, v := range members.of(c) {
			a.k[c] += g.k[v]
			for j := g.off[v]; j < g.off[v+1]; j++ {
				d := labels[g.adj[j]]
				if d == int32(c) {
					continue
				}
				if neighW[d] == 0 {
					touched = append(touched, d)
				}
				neighW[d] += g.w[j]
			}
		}
		slices.Sort(touched)
		for _, d := range touched {
			a.adj = append(a.adj, d)
			a.w = append(a.w, neighW[d])
			neighW[d] = 0
		}
		touched = touched[:0]
		a.off[c+1] = int32(len(a.adj))
	}
	s.touched = touched
	return a
}

// resize returns b with length n, reusing its array when it is big enough.
func resize[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n)
	}
	return b[:n]
}

// groups lists the members of each label, in node order, in one array.
type groups struct{ off, list []int32 }

func (gr groups) of(c int) []int32 { return gr.list[gr.off[c]:gr.off[c+1]] }

func groupBy(labels []int32, k int) groups {
	off := make([]int32, k+1)
	for _, l := range labels {
		off[l+1]++
	}
	for c := range k {
		off[c+1] += off[c]
	}
	list := make([]int32, len(labels))
	fill := slices.Clone(off[:k])
	for v, l := range labels {
		list[fill[l]] = int32(v)
		fill[l]++
	}
	return groups{off, list}
}

// modularity is Σ_c [in_c/2m − γ(tot_c/2m)²] of labels on g.
func modularity(g *csr, labels []int32, gamma float64) float64 {
	if g.m2 == 0 {
		return 0
	}
	k := 0
	for _, l := range labels {
		k = max(k, int(l)+1)
	}
	tot := make([]float64, k)
	in := 0.0
	for v := range g.n() {
		tot[labels[v]] += g.k[v]
		for j := g.off[v]; j < g.off[v+1]; j++ {
			if labels[g.adj[j]] == labels[v] {
				in += g.w[j]
			}
		}
	}
	q := in / g.m2
	for _, t := range tot {
		q -= gamma * (t / g.m2) * (t / g.m2)
	}
	return q
}
