// Package graph is synaptic's graph model and its graph.json contract.
//
// graph.json uses the NetworkX node-link layout that Synaptic and graphify
// read (directed, multigraph, graph, nodes, links, hyperedges). The writer is
// canonical: keys sorted, records sorted, one record per line, so the same
// graph always gives the same bytes and committed graphs diff well.
package graph

import (
	"cmp"
	"encoding/json"
	mathbits "math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Confidence says how an edge is known.
type Confidence string

// Confidence tiers.
const (
	Extracted Confidence = "EXTRACTED" // read directly from the syntax tree
	Inferred  Confidence = "INFERRED"  // resolved by a heuristic (e.g. a unique name)
	Ambiguous Confidence = "AMBIGUOUS" // several candidates; never produced by deterministic extraction
)

// DefaultScore is the confidence_score written when an edge has none.
func (c Confidence) DefaultScore() float64 {
	switch c {
	case Extracted:
		return 1.0
	case Inferred:
		return 0.5
	case Ambiguous:
		return 0.2
	}
	return 0
}

// Span is a 1-based source range.
type Span struct {
	StartLine int `json:"start_line"`
	StartCol  int `json:"start_col"`
	EndLine   int `json:"end_line"`
	EndCol    int `json:"end_col"`
}

// Param is one signature parameter.
type Param struct {
	Name    string `json:"name"`
	TypeRef string `json:"type_ref,omitempty"`
}

// Signature is a callable's header.
type Signature struct {
	Params     []Param `json:"params"`
	ReturnType string  `json:"return_type,omitempty"`
	Raw        string  `json:"raw"`
}

// Node is one graph node. SourceFile "" marks an external stub.
type Node struct {
	ID             string
	Label          string
	FileType       string // code document paper image rationale concept
	SourceFile     string
	SourceLocation string // "L<line>"
	Kind           string
	Visibility     string
	Language       string
	Span           *Span
	Signature      *Signature
	Community      *int
	Repo           string
	IsTest         bool
	// Doc is the first paragraph of the definition's doc comment
	// (whitespace collapsed, bounded by the extractor); written as "doc"
	// only when set, so graphs without docs keep their bytes.
	Doc string
	// Extra holds keys this version does not model, so they round-trip.
	Extra map[string]json.RawMessage
}

// Site is an additional place where the same semantic edge was seen.
type Site struct {
	SourceFile     string `json:"source_file"`
	SourceLocation string `json:"source_location,omitempty"`
}

// Edge is one directed link.
type Edge struct {
	Source          string
	Target          string
	Relation        string
	Confidence      Confidence
	ConfidenceScore float64 // 0 means "use the tier default"
	SourceFile      string
	SourceLocation  string
	Context         string
	Weight          float64 // written as is; the reader fills 1.0 when absent
	Sites           []Site
	Extra           map[string]json.RawMessage
}

// Score returns the edge's confidence score, filling the tier default.
func (e *Edge) Score() float64 {
	if e.ConfidenceScore != 0 {
		return e.ConfidenceScore
	}
	return e.Confidence.DefaultScore()
}

// Key is the semantic identity of an edge.
type Key struct{ Source, Target, Relation, Context string }

// Key returns e's identity.
func (e *Edge) Key() Key { return Key{e.Source, e.Target, e.Relation, e.Context} }

// Hyperedge groups several nodes; deterministic extraction produces none,
// but they are carried through.
type Hyperedge = json.RawMessage

// Graph is a whole graph.json.
type Graph struct {
	Directed      bool
	Nodes         []Node
	Edges         []Edge
	Hyperedges    []Hyperedge
	BuiltAtCommit string
	// GraphAttrs is the "graph" object, normally empty.
	GraphAttrs map[string]json.RawMessage
}

// edgeKey orders an edge by its endpoints' ranks (source in the high half).
type edgeKey struct {
	ends  uint64
	index int32
}

// Canonicalize sorts nodes by id and edges by key, merges duplicate edges
// (the first site stays primary; others become Sites) and sorts sites. It is
// what makes output independent of extraction order.
func (g *Graph) Canonicalize() {
	// Sort index permutations, then move each record once along the
	// permutation's cycles: the records are large, swapping them during the
	// sort dominated on big graphs, and gathering into a new slice costs a
	// fresh allocation as large as the graph (page faults, collector work).
	nodeOrder := make([]int32, len(g.Nodes))
	for i := range nodeOrder {
		nodeOrder[i] = int32(i)
	}
	// Ties break on the original position: the order a stable sort gives,
	// at pdqsort's speed.
	sortTotal(nodeOrder, func(a, b int32) int {
		if c := strings.Compare(g.Nodes[a].ID, g.Nodes[b].ID); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	permute(g.Nodes, nodeOrder)
	w := 0
	for i := range g.Nodes {
		if w > 0 && g.Nodes[w-1].ID == g.Nodes[i].ID {
			continue
		}
		if w != i {
			g.Nodes[w] = g.Nodes[i]
		}
		w++
	}
	clear(g.Nodes[w:])
	g.Nodes = g.Nodes[:w]

	// Edges sort by (source, target) as node ranks — integer compares —
	// then relation, context and site. Nodes are sorted by id, so rank order
	// is id order; endpoints that are not nodes rank after all nodes, by id.
	rank := make(map[string]int32, len(g.Nodes))
	for i := range g.Nodes {
		rank[g.Nodes[i].ID] = int32(i)
	}
	keys, dangling := rankEdges(g.Edges, rank)
	nodes := int32(len(g.Nodes))
	bits := mathbits.Len(uint(len(g.Nodes) + len(dangling)))
	// Both ranks are packed in one key, so the common order is a radix
	// sort on integers; only edges with equal ends compare records.
	sortEdgeKeys(keys, bits, func(a, b edgeKey) int {
		if c := compareEdges(&g.Edges[a.index], &g.Edges[b.index]); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	// Duplicates are merged before the records move, through the sorted
	// keys: the kept edges' order then lists the dropped ones last, and
	// one permutation both sorts and compacts (no shifting copy of every
	// record after the first duplicate). The kept keys' ends become each
	// edge's endpoint nodes, the hand-off to NewIndex below.
	edgeOrder := make([]int32, 0, len(g.Edges))
	var dropped []int32
	var sites siteArena
	src := make([]int32, len(g.Edges))
	dst := make([]int32, len(g.Edges))
	w = 0
	for i, k := range keys {
		e := &g.Edges[k.index]
		if w > 0 && keys[i-1].ends == k.ends && g.Edges[edgeOrder[w-1]].Key() == e.Key() {
			sites.merge(&g.Edges[edgeOrder[w-1]], e)
			dropped = append(dropped, k.index)
			continue
		}
		edgeOrder = append(edgeOrder, k.index)
		src[w], dst[w] = int32(k.ends>>32), int32(uint32(k.ends))
		if src[w] >= nodes || dst[w] >= nodes {
			src[w], dst[w] = -1, -1 // NewIndex's mark of an edge off the nodes
		}
		w++
	}
	keys = nil
	permute(g.Edges, append(edgeOrder, dropped...))
	clear(g.Edges[w:])
	g.Edges = g.Edges[:w]
	// The rank map is the id map NewIndex would build, once the ids that
	// are no node leave it: hand both over (NewIndex checks them against
	// the graph as it is then).
	for _, id := range dangling {
		delete(rank, id)
	}
	handOff(g, rank, src[:w:w], dst[:w:w])
	for i := range g.Edges {
		e := &g.Edges[i]
		if len(e.Sites) == 0 {
			continue
		}
		primary := Site{e.SourceFile, e.SourceLocation}
		slices.SortFunc(e.Sites, compareSites)
		e.Sites = slices.Compact(e.Sites)
		e.Sites = slices.DeleteFunc(e.Sites, func(s Site) bool { return s == primary })
		if len(e.Sites) == 0 {
			e.Sites = nil
		}
	}
}

// siteChunk is how many sites a siteArena allocates at a time.
const siteChunk = 4096

// siteArena builds the merged Sites lists of duplicate edges in shared
// chunks: appending to each kept edge's own list cost an allocation per
// growth, each a small object for the collector. A kept edge's duplicates
// are merged one after another, so its list is always the open one, at
// the end of the current chunk; each list is clipped to its length, so a
// later append copies it.
type siteArena struct {
	buf  []Site
	open *Edge // the edge whose list ends buf
	from int   // where open's list starts in buf
}

// merge adds dup's primary site and Sites to kept's list, after kept's own
// sites the first time.
func (a *siteArena) merge(kept, dup *Edge) {
	if a.open != kept {
		a.open, a.from = kept, len(a.buf)
		a.push(kept.Sites...)
	}
	a.push(Site{dup.SourceFile, dup.SourceLocation})
	a.push(dup.Sites...)
	kept.Sites = a.buf[a.from:len(a.buf):len(a.buf)]
}

// push appends sites to the open list, moving that list to a fresh chunk
// when the current one is full.
func (a *siteArena) push(sites ...Site) {
	if len(a.buf)+len(sites) > cap(a.buf) {
		open := a.buf[a.from:]
		buf := make([]Site, 0, max(siteChunk, 2*(len(open)+len(sites))))
		a.buf, a.from = append(buf, open...), 0
	}
	a.buf = append(a.buf, sites...)
}

// rankEdges gives each edge its key: its endpoints' ranks, source in the
// high half. Endpoints that are not nodes are added to rank after all
// nodes, in id order, and returned. The lookups (two per edge, a random
// read each in a map of every node) run on two cores when there are
// enough edges; the map is only read until the dangling ids are added.
func rankEdges(edges []Edge, rank map[string]int32) ([]edgeKey, []string) {
	keys := make([]edgeKey, len(edges))
	var fixups [2][]int32 // edges with an endpoint that is no node, in order
	lookup := func(part int, lo, hi int) {
		lastSrc, lastRank, lastOK := "", int32(0), false
		for i := lo; i < hi; i++ {
			e := &edges[i]
			// Resolution emits a definition's edges together: reuse the
			// last source's lookup (usually the same string, compared by
			// pointer).
			src, ok1 := lastRank, lastOK
			if i == lo || e.Source != lastSrc {
				src, ok1 = rank[e.Source]
				lastSrc, lastRank, lastOK = e.Source, src, ok1
			}
			dst, ok2 := rank[e.Target]
			if !ok1 || !ok2 {
				fixups[part] = append(fixups[part], int32(i))
			}
			keys[i] = edgeKey{ends: uint64(uint32(src))<<32 | uint64(uint32(dst)), index: int32(i)}
		}
	}
	if len(edges) < parallelSortMin || runtime.GOMAXPROCS(0) < 2 {
		lookup(0, 0, len(edges))
	} else {
		mid := len(edges) / 2
		var wg sync.WaitGroup
		wg.Go(func() { lookup(1, mid, len(edges)) })
		lookup(0, 0, mid)
		wg.Wait()
	}
	var dangling []string
	for _, part := range fixups {
		for _, i := range part {
			for _, id := range [2]string{edges[i].Source, edges[i].Target} {
				if _, ok := rank[id]; !ok {
					rank[id] = -1
					dangling = append(dangling, id)
				}
			}
		}
	}
	slices.Sort(dangling)
	nodes := len(rank) - len(dangling)
	for i, id := range dangling {
		rank[id] = int32(nodes + i)
	}
	for _, part := range fixups {
		for _, i := range part {
			src, dst := rank[edges[i].Source], rank[edges[i].Target]
			keys[i].ends = uint64(uint32(src))<<32 | uint64(uint32(dst))
		}
	}
	return keys, dangling
}

// permute reorders xs in place so that xs[k] becomes the old xs[order[k]],
// moving each element once along the permutation's cycles. It consumes
// order.
func permute[T any](xs []T, order []int32) {
	for i := range order {
		if order[i] < 0 || int(order[i]) == i {
			continue
		}
		tmp := xs[i]
		j := i
		for {
			k := int(order[j])
			order[j] = -1 // placed
			if k == i {
				xs[j] = tmp
				break
			}
			xs[j] = xs[k]
			j = k
		}
	}
}

func compareEdges(a, b *Edge) int {
	return cmp.Or(
		strings.Compare(a.Source, b.Source),
		strings.Compare(a.Target, b.Target),
		strings.Compare(a.Relation, b.Relation),
		strings.Compare(a.Context, b.Context),
		compareSites(Site{a.SourceFile, a.SourceLocation}, Site{b.SourceFile, b.SourceLocation}),
	)
}

func compareSites(a, b Site) int {
	return cmp.Or(strings.Compare(a.SourceFile, b.SourceFile), compareLocation(a.SourceLocation, b.SourceLocation))
}

// compareLocation orders "L9" before "L10".
func compareLocation(a, b string) int {
	return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
}

// DropDangling removes edges whose endpoints are not nodes and returns how many.
func (g *Graph) DropDangling() int {
	ids := make(map[string]struct{}, len(g.Nodes))
	for i := range g.Nodes {
		ids[g.Nodes[i].ID] = struct{}{}
	}
	before := len(g.Edges)
	g.Edges = slices.DeleteFunc(g.Edges, func(e Edge) bool {
		_, s := ids[e.Source]
		_, t := ids[e.Target]
		return !s || !t
	})
	return before - len(g.Edges)
}
