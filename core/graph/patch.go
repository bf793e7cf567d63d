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
func (g *Graph) Apply(p Patch) (*Graph, PatchStats) {
	var st PatchStats
	dropped := map[string]*Node{}
	fileComm := map[string]*int{}
	kept := make([]Node, 0, len(g.Nodes)+len(p.Nodes))
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if p.Files[n.SourceFile] && n.Kind != "package" {
			dropped[n.ID] = n
			if n.Kind == "file" {
				fileComm[n.SourceFile] = n.Community
			}
			continue
		}
		kept = append(kept, *n)
	}
	st.NodesRemoved = len(dropped)
	added := p.newNodes(kept, dropped, fileComm)
	nodes := mergeNodes(kept, added)
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
	st.NodesAdded = len(added)

	edges := make([]Edge, 0, len(g.Edges)+len(p.Edges))
	for i := range g.Edges {
		e := &g.Edges[i]
		if p.Files[e.SourceFile] || gone(e.Source, dropped, ownFile) || gone(e.Target, dropped, ownFile) {
			st.EdgesRemoved++
			continue
		}
		c := *e
		if slices.ContainsFunc(c.Sites, func(s Site) bool { return p.Files[s.SourceFile] }) {
			c.Sites = slices.DeleteFunc(slices.Clone(c.Sites), func(s Site) bool { return p.Files[s.SourceFile] })
			if len(c.Sites) == 0 {
				c.Sites = nil
			}
		}
		edges = append(edges, c)
	}
	var fresh []Edge
	for i := range p.Edges {
		e := p.Edges[i]
		if e.Confidence != Extracted || !(p.Files[e.SourceFile] || ownFile[e.Target]) || !has(e.Source) || !has(e.Target) {
			continue
		}
		fresh = append(fresh, e)
	}
	slices.SortFunc(fresh, func(a, b Edge) int { return compareEdges(&a, &b) })
	var n int
	edges, n = mergeEdges(edges, fresh)
	st.EdgesAdded = n
	out := *g
	out.Nodes, out.Edges = nodes, edges
	return &out, st
}

// gone reports an endpoint whose node was dropped and not given again.
func gone(id string, dropped map[string]*Node, given map[string]bool) bool {
	_, d := dropped[id]
	return d && !given[id]
}

// newNodes picks the patch's nodes to add, sorted by id, with their
// communities.
func (p Patch) newNodes(kept []Node, dropped map[string]*Node, fileComm map[string]*int) []Node {
	exists := func(id string) bool {
		_, ok := slices.BinarySearchFunc(kept, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
		return ok
	}
	var added []Node
	seen := map[string]bool{}
	for _, n := range p.Nodes {
		own := p.Files[n.SourceFile] && n.Kind != "package"
		newPackage := n.Kind == "package" && !exists(n.ID)
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

// mergeNodes merges two id-sorted node lists (ids are distinct).
func mergeNodes(a, b []Node) []Node {
	if len(b) == 0 {
		return a
	}
	out := make([]Node, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i].ID < b[j].ID {
			out = append(out, a[i])
			i++
		} else {
			out = append(out, b[j])
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// mergeEdges merges sorted new edges into sorted edges; a new edge with
// the key of an existing one becomes one of its sites, as Canonicalize
// would have made it. It returns the edges and how many records were
// added.
func mergeEdges(edges, fresh []Edge) ([]Edge, int) {
	if len(fresh) == 0 {
		return edges, 0
	}
	out := make([]Edge, 0, len(edges)+len(fresh))
	added := 0
	i, j := 0, 0
	for i < len(edges) || j < len(fresh) {
		if j == len(fresh) || i < len(edges) && compareEdges(&edges[i], &fresh[j]) <= 0 {
			out = append(out, edges[i])
			i++
			continue
		}
		e := fresh[j]
		j++
		if k := len(out) - 1; k >= 0 && out[k].Key() == e.Key() {
			addSite(&out[k], e)
			continue
		}
		if i < len(edges) && edges[i].Key() == e.Key() {
			c := edges[i]
			addSite(&c, e)
			out = append(out, c)
			i++
			continue
		}
		out = append(out, e)
		added++
	}
	return out, added
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
