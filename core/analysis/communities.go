package analysis

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Community is one cluster of the partition.
type Community struct {
	ID       int     // 0 = largest (without prev; with prev, ids follow prev)
	Name     string  // dominant directory/package + top symbols
	Members  []int32 // node indices, highest degree first, then id
	Cohesion float64 // internal edge density
}

// Resolution is the modularity resolution γ used for communities.
const Resolution = 1.0

// Oversized communities are re-partitioned on their own subgraph (where the
// smaller total weight raises the effective resolution): a community is
// oversized above max(minSplitSize, splitFraction·n) nodes, n being the
// nodes that take part in partitioning. The cap follows the original's
// max(10, 0.25·n); splitting stops when re-partitioning finds no split.
const (
	minSplitSize  = 10
	splitFraction = 0.25
	splitRounds   = 3
)

// Communities partitions the graph (Louvain + Leiden refinement, resolution
// 1) and returns the communities ordered by ID. prev (node id -> old
// community id, may be nil) keeps ids stable across small edits: each new
// community takes the old id it overlaps most (greedily, largest overlap
// first, ties to the smaller old then new id), and communities without a
// match take the lowest free ids, largest first.
//
// The first result for an Index also becomes its shared partition (see
// CommunitiesOf); it is not copied, so callers must not modify it.
func Communities(x *graph.Index, prev map[string]int) []Community {
	comms := partitionOf(x, prev)
	prime(x, comms)
	return comms
}

func partitionOf(x *graph.Index, prev map[string]int) []Community {
	v := newView(x)
	labels, k := v.partition(true)
	comms := v.describe(labels, k)
	if len(prev) > 0 {
		remap(x, comms, prev)
	}
	return comms
}

// partition returns a community label per rank, 0..k-1 ordered by size
// (descending, ties to the community holding the smaller node id).
func (v *view) partition(refine bool) ([]int32, int) {
	g := v.g
	labels := leiden(g, Resolution, refine)
	labels = splitComponents(g, labels)
	part := 0
	for r := range v.stub {
		if !v.stub[r] {
			part++
		}
	}
	limit := max(minSplitSize, int(splitFraction*float64(part)))
	for range splitRounds {
		var split bool
		labels, split = splitOversized(g, labels, limit, refine)
		if !split {
			break
		}
	}
	v.attachStubs(labels)
	return bySize(labels)
}

// splitComponents gives every connected piece of a community its own label
// (numbered by first appearance), so no community is disconnected.
func splitComponents(g *csr, labels []int32) []int32 {
	n := g.n()
	out := make([]int32, n)
	for i := range out {
		out[i] = -1
	}
	var stack []int32
	next := int32(0)
	for s := range int32(n) {
		if out[s] >= 0 {
			continue
		}
		out[s] = next
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := g.off[v]; j < g.off[v+1]; j++ {
				u := g.adj[j]
				if out[u] < 0 && labels[u] == labels[v] {
					out[u] = next
					stack = append(stack, u)
				}
			}
		}
		next++
	}
	return out
}

// splitOversized re-partitions every community above limit nodes on its
// own induced subgraph. It reports whether any community was split.
func splitOversized(g *csr, labels []int32, limit int, refine bool) ([]int32, bool) {
	k := renumber(labels)
	members := groupBy(labels, k)
	out := slices.Clone(labels)
	next := int32(k)
	split := false
	local := make([]int32, g.n())
	for c := range k {
		m := members.of(c)
		if len(m) <= limit {
			continue
		}
		for i, v := range m {
			local[v] = int32(i)
		}
		sub := buildCSR(len(m), func(emit func(a, b int32, w float64)) {
			for _, v := range m {
				for j := g.off[v]; j < g.off[v+1]; j++ {
					if u := g.adj[j]; u > v && labels[u] == int32(c) {
						emit(local[v], local[u], g.w[j])
					}
				}
			}
		})
		sl := splitComponents(sub, leiden(sub, Resolution, refine))
		if renumber(slices.Clone(sl)) < 2 {
			continue
		}
		split = true
		for i, v := range m {
			if sl[i] > 0 {
				out[v] = next + sl[i] - 1
			}
		}
		next += int32(slices.Max(sl))
	}
	return out, split
}

// attachStubs puts each external stub into the community holding most of
// its (non-stub) neighbours over any relation, ties to the smaller label; a
// stub with no such neighbour stays alone.
func (v *view) attachStubs(labels []int32) {
	x := v.x
	k := int32(0)
	for r, l := range labels {
		if !v.stub[r] {
			k = max(k, l+1)
		}
	}
	votes := make([]float64, int(k))
	var touched []int32
	for r := range labels {
		if !v.stub[r] {
			continue
		}
		i := v.order[r]
		vote := func(edges []int32) {
			for _, e := range edges {
				u := v.rank[x.Other(e, i)]
				if v.stub[u] {
					continue
				}
				l := labels[u]
				if votes[l] == 0 {
					touched = append(touched, l)
				}
				votes[l]++
			}
		}
		vote(x.Out(i))
		vote(x.In(i))
		best := int32(-1)
		for _, l := range touched {
			if best < 0 || votes[l] > votes[best] || (votes[l] == votes[best] && l < best) {
				best = l
			}
		}
		for _, l := range touched {
			votes[l] = 0
		}
		touched = touched[:0]
		if best < 0 {
			best = k
			k++
		}
		labels[r] = best
	}
}

// bySize renumbers labels so 0 is the largest community; equal sizes go to
// the community holding the smaller node id (rank).
func bySize(labels []int32) ([]int32, int) {
	k := renumber(labels) // first appearance = smallest rank
	size := make([]int32, k)
	for _, l := range labels {
		size[l]++
	}
	order := identity(k)
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(size[b], size[a]) })
	newID := make([]int32, k)
	for id, c := range order {
		newID[c] = int32(id)
	}
	for i, l := range labels {
		labels[i] = newID[l]
	}
	return labels, k
}

// describe turns rank labels into Communities: members by degree, cohesion
// over structural links and a readable name.
func (v *view) describe(labels []int32, k int) []Community {
	x := v.x
	members := groupBy(labels, k)
	internal := make([]int, k)
	for r := range int32(v.g.n()) {
		for j := v.g.off[r]; j < v.g.off[r+1]; j++ {
			if u := v.g.adj[j]; u > r && labels[u] == labels[r] {
				internal[labels[r]]++
			}
		}
	}
	out := make([]Community, k)
	for c := range k {
		ranks := members.of(c)
		m := make([]int32, len(ranks))
		for i, r := range ranks {
			m[i] = v.order[r]
		}
		// ranks are ascending, so a stable sort by degree breaks ties by id.
		slices.SortStableFunc(m, func(a, b int32) int { return cmp.Compare(x.Degree(b), x.Degree(a)) })
		coh := 1.0
		if n := len(m); n > 1 {
			coh = min(1, float64(internal[c])/(float64(n)*float64(n-1)/2))
		}
		out[c] = Community{ID: c, Members: m, Cohesion: coh, Name: name(x, m)}
	}
	return out
}

// name is "<dominant directory>: <up to 3 top symbols>". The directory is
// the one most members live in (ties to the smaller path); symbols are the
// highest-degree members that are not files, packages or stubs.
func name(x *graph.Index, members []int32) string {
	// Count files first: members share far fewer files than they number,
	// and a file's directory is then taken once.
	files := map[string]int{}
	for _, i := range members {
		if f := x.Node(i).SourceFile; f != "" {
			files[f]++
		}
	}
	dirs := make(map[string]int, len(files))
	for f, n := range files {
		dirs[path.Dir(f)] += n
	}
	dir, best := "external", 0
	for d, n := range dirs {
		if n > best || (n == best && d < dir) {
			dir, best = d, n
		}
	}
	if dir == "." {
		dir = "(root)"
	}
	var syms []string
	for _, i := range members {
		n := x.Node(i)
		if n.SourceFile == "" || n.Kind == "file" || n.Kind == "package" || n.Kind == "module" {
			continue
		}
		syms = append(syms, strings.TrimSuffix(n.Label, "()"))
		if len(syms) == 3 {
			break
		}
	}
	if len(syms) == 0 {
		for _, i := range members[:min(3, len(members))] {
			syms = append(syms, x.Node(i).Label)
		}
	}
	return dir + ": " + strings.Join(syms, ", ")
}

// remap renumbers comms to the ids of prev by greatest overlap and sorts
// them by the new id.
func remap(x *graph.Index, comms []Community, prev map[string]int) {
	type pair struct{ overlap, old, new int }
	var pairs []pair
	counts := map[int]int{}
	for c := range comms {
		clear(counts)
		for _, i := range comms[c].Members {
			if old, ok := prev[x.Node(i).ID]; ok && old >= 0 {
				counts[old]++
			}
		}
		for old, n := range counts {
			pairs = append(pairs, pair{n, old, c})
		}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		return cmp.Or(cmp.Compare(b.overlap, a.overlap), cmp.Compare(a.old, b.old), cmp.Compare(a.new, b.new))
	})
	newID := make([]int, len(comms))
	for i := range newID {
		newID[i] = -1
	}
	taken := map[int]bool{}
	for _, p := range pairs {
		if newID[p.new] < 0 && !taken[p.old] {
			newID[p.new] = p.old
			taken[p.old] = true
		}
	}
	free := 0
	for c := range comms { // already largest first
		if newID[c] >= 0 {
			continue
		}
		for taken[free] {
			free++
		}
		newID[c] = free
		taken[free] = true
	}
	for c := range comms {
		comms[c].ID = newID[c]
	}
	slices.SortFunc(comms, func(a, b Community) int { return cmp.Compare(a.ID, b.ID) })
}
