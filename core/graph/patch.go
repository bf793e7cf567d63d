package graph

import (
	"slices"
	"strings"
)

// Patch replaces the part of a graph that some files gave: serve's
// provisional update after an edit, applied in a fraction of the time a
// full re-resolution takes (the exact graph follows in the background).
type Patch struct {
	// Files are the replaced files: changed, added and deleted ones. Their
	// nodes (all but package nodes, which other files share) and the edges
	// their facts gave are dropped.
	Files map[string]bool
	// Nodes and Edges are a resolution of the files (and, for context,
	// their neighbours): only the files' own nodes, package nodes the
	// graph lacks, and proven (EXTRACTED) edges from or into the files'
	// nodes whose both ends exist are taken. The rest needs the whole
	// graph to be right, so it waits for the exact update.
	Nodes []Node
	Edges []Edge
}

// PatchStats says what Apply changed.
type PatchStats struct {
	NodesRemoved, NodesAdded int
	EdgesRemoved, EdgesAdded int
}

// Apply returns g with p applied; g is not modified (its records are
// shared, never written), so readers of g are undisturbed. Nodes stay in
// id order and edges in canonical order, merged rather than re-sorted.
// Nodes that replace one of the same id keep its community; new nodes
// join the community of their file's node, the way a local assignment
// would place them until communities are recomputed.
//
// x indexes g when the caller has it (the served snapshot does): edge
// endpoints are then checked by node number instead of by id.
func (g *Graph) Apply(p Patch, x *Index) (*Graph, PatchStats) {
	if x != nil && x.G != g {
		x = nil
	}
	ng, st, _ := g.apply(p, x)
	return ng, st
}

// apply is Apply, also saying where each record came from.
func (g *Graph) apply(p Patch, x *Index) (*Graph, PatchStats, *Provenance) {
	var st PatchStats
	inFiles := p.member()
	dropped := map[string]*Node{}
	droppedAt := make([]bool, len(g.Nodes))
	fileComm := map[string]*int{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if inFiles(n.SourceFile) && n.Kind != "package" {
			dropped[n.ID] = n
			droppedAt[i] = true
			if n.Kind == "file" {
				fileComm[n.SourceFile] = n.Community
			}
		}
	}
	st.NodesRemoved = len(dropped)
	added := p.newNodes(g.Nodes, dropped, fileComm)
	st.NodesAdded = len(added)
	// One copy of each big slice: records are moved once, merged in order.
	nodes, nodeFrom := mergeNodes(g.Nodes, added, func(n *Node) bool { _, d := dropped[n.ID]; return !d })
	has := func(id string) bool {
		_, ok := slices.BinarySearchFunc(nodes, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
		return ok
	}
	ownFile := map[string]bool{} // ids of the files' new nodes
	for i := range added {
		if p.Files[added[i].SourceFile] {
			ownFile[added[i].ID] = true
		}
	}
	var fresh []Edge
	for i := range p.Edges {
		e := &p.Edges[i]
		if e.Confidence == Extracted && (p.Files[e.SourceFile] || ownFile[e.Target]) && has(e.Source) && has(e.Target) {
			fresh = append(fresh, *e)
		}
	}
	slices.SortFunc(fresh, func(a, b Edge) int { return compareEdges(&a, &b) })
	endGone := func(i int, e *Edge) bool {
		if x == nil {
			return gone(e.Source, dropped, ownFile) || gone(e.Target, dropped, ownFile)
		}
		src, dst := x.Ends(int32(i))
		return src >= 0 && droppedAt[src] && !ownFile[e.Source] || dst >= 0 && droppedAt[dst] && !ownFile[e.Target]
	}
	keep := func(i int, e *Edge) bool {
		if inFiles(e.SourceFile) || endGone(i, e) {
			st.EdgesRemoved++
			return false
		}
		return true
	}
	sitesInFiles := func(e *Edge) bool {
		return len(e.Sites) > 0 && slices.ContainsFunc(e.Sites, func(s Site) bool { return inFiles(s.SourceFile) })
	}
	edges, n, edgeFrom := mergeEdges(g.Edges, fresh, keep, sitesInFiles, func(e *Edge) {
		e.Sites = slices.DeleteFunc(slices.Clone(e.Sites), func(s Site) bool { return inFiles(s.SourceFile) })
		if len(e.Sites) == 0 {
			e.Sites = nil
		}
	})
	st.EdgesAdded = n
	out := *g
	out.Nodes, out.Edges = nodes, edges
	pv := &Provenance{Base: x, NodeFrom: nodeFrom, EdgeFrom: edgeFrom, OldToNew: make([]int32, len(g.Nodes))}
	for i := range pv.OldToNew {
		pv.OldToNew[i] = -1
	}
	for i, o := range nodeFrom {
		if o >= 0 {
			pv.OldToNew[o] = int32(i)
		}
	}
	return &out, st, pv
}

// member returns the test for "is in p.Files": a few string compares
// for the usual one or two files, run once per edge of the graph.
func (p Patch) member() func(string) bool {
	if len(p.Files) > 4 {
		return func(f string) bool { return p.Files[f] }
	}
	files := make([]string, 0, len(p.Files))
	for f := range p.Files {
		files = append(files, f)
	}
	return func(f string) bool { return slices.Contains(files, f) }
}

// gone reports an endpoint whose node was dropped and not given again.
func gone(id string, dropped map[string]*Node, given map[string]bool) bool {
	_, d := dropped[id]
	return d && !given[id]
}

// newNodes picks the patch's nodes to add, sorted by id, with their
// communities.
func (p Patch) newNodes(old []Node, dropped map[string]*Node, fileComm map[string]*int) []Node {
	exists := func(id string) bool {
		_, ok := slices.BinarySearchFunc(old, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
		_, d := dropped[id]
		return ok && !d
	}
	var added []Node
	seen := map[string]bool{}
	for _, n := range p.Nodes {
		own := p.Files[n.SourceFile] && n.Kind != "package"
		// An import the partial view could not place is a package stub
		// (no file): only real package nodes are new packages.
		newPackage := n.Kind == "package" && n.SourceFile != "" && !exists(n.ID)
		if seen[n.ID] || !own && !newPackage {
			continue // a neighbour's node, or an external stub only the whole graph can vouch for
		}
		seen[n.ID] = true
		n.Community = nil
		if old := dropped[n.ID]; old != nil {
			n.Community = old.Community
		} else if c := fileComm[n.SourceFile]; c != nil {
			n.Community = c
		}
		added = append(added, n)
	}
	slices.SortFunc(added, func(a, b Node) int { return strings.Compare(a.ID, b.ID) })
	return added
}

// mergeNodes merges the id-sorted nodes a keeps with the id-sorted b
// (ids are distinct) into a new slice. Runs of kept nodes are copied in
// bulk: a patch keeps all but a few of a large graph's records. from[k]
// is the index in a of out[k], or -1 for one of b.
func mergeNodes(a, b []Node, keep func(*Node) bool) (out []Node, from []int32) {
	out = make([]Node, 0, len(a)+len(b))
	from = make([]int32, 0, len(a)+len(b))
	run := 0 // start of the pending run of kept nodes of a
	flush := func(end int) {
		out = append(out, a[run:end]...)
		for i := run; i < end; i++ {
			from = append(from, int32(i))
		}
	}
	j := 0
	for i := range a {
		if j < len(b) && b[j].ID < a[i].ID {
			flush(i)
			run = i
			for j < len(b) && b[j].ID < a[i].ID {
				out = append(out, b[j])
				from = append(from, -1)
				j++
			}
		}
		if !keep(&a[i]) {
			flush(i)
			run = i + 1
		}
	}
	flush(len(a))
	for ; j < len(b); j++ {
		out = append(out, b[j])
		from = append(from, -1)
	}
	return out, from
}

// mergeEdges merges the sorted fresh edges into the sorted edges keep
// accepts into a new slice; an edge fix must change (its sites name a
// replaced file) is passed through fix on a copy. A fresh edge with the
// key of another becomes one of its sites, as Canonicalize would have
// made it. Kept edges between two fresh ones are copied in bulk: they
// are canonical already, so only an edge next to a fresh one can share
// its key. It returns the edges, how many records were added, and for
// each edge the index in edges it came from (-1: fresh).
func mergeEdges(edges, fresh []Edge, keep func(int, *Edge) bool, needsFix func(*Edge) bool, fix func(*Edge)) ([]Edge, int, []int32) {
	out := make([]Edge, 0, len(edges)+len(fresh))
	from := make([]int32, 0, len(edges)+len(fresh))
	added := 0
	put := func(e Edge, at int32) {
		if k := len(out) - 1; k >= 0 && out[k].Key() == e.Key() {
			addSite(&out[k], e)
			return
		}
		out = append(out, e)
		from = append(from, at)
	}
	run := 0
	flush := func(end int) {
		out = append(out, edges[run:end]...)
		for i := run; i < end; i++ {
			from = append(from, int32(i))
		}
		run = end
	}
	// at[j]: the first edge fresh[j] sorts before, found by bisection, so
	// the loop compares no strings.
	at := make([]int, len(fresh))
	for j := range fresh {
		at[j], _ = slices.BinarySearchFunc(edges, &fresh[j], func(e Edge, f *Edge) int {
			if compareEdges(f, &e) < 0 {
				return 1
			}
			return -1
		})
	}
	j := 0
	afterFresh := false // the next kept edge may share the key of the fresh one before it
	for i := range edges {
		e := &edges[i]
		if !keep(i, e) {
			flush(i)
			run = i + 1
			continue
		}
		if j < len(fresh) && at[j] <= i {
			flush(i)
			for j < len(fresh) && at[j] <= i {
				n := len(out)
				put(fresh[j], -1)
				added += len(out) - n
				j++
			}
			afterFresh = true
		}
		if afterFresh || needsFix(e) {
			flush(i)
			c := *e
			if needsFix(e) {
				fix(&c)
			}
			put(c, int32(i))
			run = i + 1
			afterFresh = false
		}
	}
	flush(len(edges))
	for ; j < len(fresh); j++ {
		n := len(out)
		put(fresh[j], -1)
		added += len(out) - n
	}
	return out, added, from
}

// addSite records e's places as sites of the edge with the same key.
func addSite(dst *Edge, e Edge) {
	sites := append(slices.Clone(dst.Sites), Site{e.SourceFile, e.SourceLocation})
	sites = append(sites, e.Sites...)
	primary := Site{dst.SourceFile, dst.SourceLocation}
	slices.SortFunc(sites, compareSites)
	sites = slices.Compact(sites)
	dst.Sites = slices.DeleteFunc(sites, func(s Site) bool { return s == primary })
}
