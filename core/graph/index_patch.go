package graph

import (
	"maps"
	"slices"
	"strings"
)

// Provenance says where the records of a patched graph came from, so
// the indexes over it can be carried over instead of rebuilt.
type Provenance struct {
	// Base is the index of the graph the patch was applied to.
	Base *Index
	// NodeFrom[i] is the index in Base of node i, -1 for a node the patch
	// gave; OldToNew is its inverse (-1: the node was dropped).
	NodeFrom, OldToNew []int32
	// EdgeFrom[e] is the index in Base of edge e, -1 for a patch's edge.
	EdgeFrom []int32
	// retargeted are the nodes of Base (their numbers there) that a
	// dropped edge pointed to; droppedFiles the source files of dropped
	// file nodes. Tables built from in-edges are redone for them only.
	retargeted   []int32
	droppedFiles []string
	// changedEdges are the edges (numbered in the result) whose record is
	// not Base's: the patch's, and kept ones whose sites changed.
	changedEdges []int32
}

// ApplyIndexed is Apply that also indexes the result, carrying x's
// indexes over (nodes renumbered, the patch's few records added) in
// time linear in integers rather than in map inserts and string
// hashing: serve's answer after an edit waits for it. x must index g.
func (g *Graph) ApplyIndexed(p Patch, x *Index) (*Index, PatchStats) {
	return g.applyIndexed(p, x, false)
}

// ApplyIndexedInPlace is ApplyIndexed writing the result into g's own
// record arrays when they have room (a graph this returned has spare
// room for many edits): a one-file patch of a large graph then moves the
// records it shifts instead of allocating and copying all of them,
// which on the GOROOT graph (650k edges, 140 MB of records) is the
// difference between a few milliseconds and a few hundred, plus the
// collection the allocation sets off. g and x, and everything read from
// them, must not be used afterwards, nor while it runs: the caller
// holds off every reader (tools.Catalog pins snapshots for that).
func (g *Graph) ApplyIndexedInPlace(p Patch, x *Index) (*Index, PatchStats) {
	return g.applyIndexed(p, x, true)
}

// HasRoom reports whether g's record arrays have spare room for patches
// in place (ApplyIndexedInPlace), as a graph a patch rebuilt has.
func (g *Graph) HasRoom() bool {
	room := func(n, c int) bool { return c-n >= patchSlack(n)/2 }
	return room(len(g.Nodes), cap(g.Nodes)) && room(len(g.Edges), cap(g.Edges))
}

func (g *Graph) applyIndexed(p Patch, x *Index, inPlace bool) (*Index, PatchStats) {
	if x == nil || x.G != g {
		ng, st, _ := g.apply(p, nil, inPlace)
		return NewIndex(ng), st
	}
	ng, st, pv := g.apply(p, x, inPlace)
	return x.patched(ng, pv), st
}

// Provenance returns how x was carried over from the index of the graph
// before a patch, or nil for an index built from scratch.
func (x *Index) Provenance() *Provenance { return x.from }

// patched indexes ng, a patch of x.G described by pv.
func (x *Index) patched(ng *Graph, pv *Provenance) *Index {
	n := len(ng.Nodes)
	nx := &Index{G: ng, from: pv, sortedIDs: true}
	var added []int32
	for i, o := range pv.NodeFrom {
		if o < 0 {
			added = append(added, int32(i))
		}
	}
	var buf []byte
	nx.byLabel = x.byLabel.remapped(pv.OldToNew, added, func(i int32) (string, bool) {
		l := ng.Nodes[i].Label
		buf = appendLower(buf[:0], l)
		if string(buf) == l {
			return l, true
		}
		return string(buf), true
	})
	nx.byFile = x.byFile.remapped(pv.OldToNew, added, func(i int32) (string, bool) {
		f := ng.Nodes[i].SourceFile
		return f, f != ""
	})
	nx.src = make([]int32, len(ng.Edges))
	nx.dst = make([]int32, len(ng.Edges))
	var redo []int32
	for e, o := range pv.EdgeFrom {
		s, t := int32(-1), int32(-1)
		if o >= 0 && x.src[o] >= 0 {
			s, t = pv.OldToNew[x.src[o]], pv.OldToNew[x.dst[o]]
		}
		edge := &ng.Edges[e]
		if s < 0 {
			s = nx.ID(edge.Source) // a patch's edge, or an end the patch gave again
		}
		if t < 0 {
			t = nx.ID(edge.Target)
		}
		if s < 0 || t < 0 {
			s, t = -1, -1
		}
		nx.src[e], nx.dst[e] = s, t
		if o < 0 && t >= 0 {
			redo = append(redo, t) // a patch's edge: its target's in-edges changed
		}
	}
	nx.adjacency(n)
	nx.carryOwners(x, pv, redo)
	nx.carryEdgeFiles(x, pv, pv.changedEdges)
	return nx
}

// adjacency lays out the in and out edge lists from src and dst.
func (x *Index) adjacency(n int) {
	outDeg := make([]int32, n+1)
	inDeg := make([]int32, n+1)
	for i := range x.src {
		if s := x.src[i]; s >= 0 {
			outDeg[s+1]++
			inDeg[x.dst[i]+1]++
		}
	}
	for i := 0; i < n; i++ {
		outDeg[i+1] += outDeg[i]
		inDeg[i+1] += inDeg[i]
	}
	x.outOff, x.inOff = outDeg, inDeg
	x.outEdges = make([]int32, outDeg[n])
	x.inEdges = make([]int32, inDeg[n])
	outNext := slices.Clone(outDeg[:n])
	inNext := slices.Clone(inDeg[:n])
	for i := range x.src {
		s, t := x.src[i], x.dst[i]
		if s < 0 {
			continue
		}
		x.outEdges[outNext[s]] = int32(i)
		outNext[s]++
		x.inEdges[inNext[t]] = int32(i)
		inNext[t]++
	}
}

// remapped carries groups over a renumbering: members renumbered by
// oldToNew (dropped ones left out), then the added nodes put in their
// groups by key (new keys get new groups; the key map is shared with gr
// unless a key is new). Members stay ascending: the renumbering keeps
// order, and added nodes are merged in.
func (gr *groups) remapped(oldToNew []int32, added []int32, key func(i int32) (string, bool)) groups {
	out := groups{gid: gr.gid}
	byGroup := map[int32][]int32{}
	ngroups := int32(len(gr.off) - 1)
	if ngroups < 0 {
		ngroups = 0
	}
	cloned := false
	for _, i := range added {
		k, ok := key(i)
		if !ok {
			continue
		}
		g, found := out.gid[k]
		if !found {
			if !cloned {
				out.gid, cloned = maps.Clone(gr.gid), true
				if out.gid == nil {
					out.gid = map[string]int32{}
				}
			}
			g = ngroups
			ngroups++
			out.gid[k] = g
		}
		byGroup[g] = append(byGroup[g], i)
	}
	out.off = make([]int32, ngroups+1)
	out.items = make([]int32, 0, len(gr.items)+len(added))
	for g := range ngroups {
		var members []int32
		if int(g) < len(gr.off)-1 {
			members = gr.items[gr.off[g]:gr.off[g+1]]
		}
		extra := byGroup[g]
		if len(extra) == 0 {
			for _, m := range members {
				if k := oldToNew[m]; k >= 0 {
					out.items = append(out.items, k)
				}
			}
		} else {
			start := len(out.items)
			for _, m := range members {
				if k := oldToNew[m]; k >= 0 {
					out.items = append(out.items, k)
				}
			}
			out.items = append(out.items, extra...)
			slices.Sort(out.items[start:])
		}
		out.off[g+1] = int32(len(out.items))
	}
	return out
}

// idSearch finds id among nodes sorted by id.
func idSearch(nodes []Node, id string) int32 {
	i, ok := slices.BinarySearchFunc(nodes, id, func(n Node, id string) int { return strings.Compare(n.ID, id) })
	if !ok {
		return -1
	}
	return int32(i)
}
