package graph

import (
	"maps"
	"sync"
	"sync/atomic"
)

// edgeFileTable numbers each edge's source file and notes which edges
// have sites, so that a patch finds the edges its files gave (and those
// whose sites name them) in integer arrays instead of reading every
// edge record: on the GOROOT graph that read is 650k scattered cache
// lines, most of a patch's time. Built once per graph (PreparePatches,
// or the first patch) and carried over patches.
type edgeFileTable struct {
	once  sync.Once
	ready atomic.Bool
	id    map[string]int32 // source file -> number; shared by patched indexes until one adds a file
	of    []int32          // edge -> number of its source file, -1 for none
	sites []bool           // edge -> it has sites
}

// PreparePatches builds the tables a patch reads and carries over (the
// edges' files, the owners), so that the first edit after a new graph
// does not wait for them. Safe beside readers.
func (x *Index) PreparePatches() {
	x.edgeFiles()
	if len(x.G.Nodes) > 0 {
		x.Owner(0)
	}
}

// edgeFiles returns the table, building it on first use.
func (x *Index) edgeFiles() *edgeFileTable {
	t := &x.efiles
	t.once.Do(func() {
		t.id = map[string]int32{}
		t.of = make([]int32, len(x.G.Edges))
		t.sites = make([]bool, len(x.G.Edges))
		for e := range x.G.Edges {
			t.of[e], t.sites[e] = t.number(x.G.Edges[e].SourceFile, false), len(x.G.Edges[e].Sites) > 0
		}
		t.ready.Store(true)
	})
	return t
}

// number returns f's number, giving it one if it has none (cloning the
// shared map first when shared).
func (t *edgeFileTable) number(f string, shared bool) int32 {
	if f == "" {
		return -1
	}
	if k, ok := t.id[f]; ok {
		return k
	}
	if shared {
		t.id = maps.Clone(t.id)
	}
	k := int32(len(t.id))
	t.id[f] = k
	return k
}

// carryEdgeFiles gives nx, patched from x (pv), x's table when x has
// built one: renumbered through EdgeFrom, and read from the record for
// the patch's edges and those it changed (changed, in nx's numbering).
func (nx *Index) carryEdgeFiles(x *Index, pv *Provenance, changed []int32) {
	old := &x.efiles
	if !old.ready.Load() {
		return
	}
	t := &nx.efiles
	t.once.Do(func() {
		t.id = old.id
		t.of = make([]int32, len(nx.G.Edges))
		t.sites = make([]bool, len(nx.G.Edges))
		shared := true
		read := func(e int) {
			f := nx.G.Edges[e].SourceFile
			if _, ok := t.id[f]; !ok && f != "" && shared {
				t.id, shared = maps.Clone(t.id), false
			}
			t.of[e], t.sites[e] = t.number(f, false), len(nx.G.Edges[e].Sites) > 0
		}
		for e, o := range pv.EdgeFrom {
			if o < 0 {
				read(e)
				continue
			}
			t.of[e], t.sites[e] = old.of[o], old.sites[o]
		}
		for _, e := range changed {
			read(int(e))
		}
		t.ready.Store(true)
	})
}
