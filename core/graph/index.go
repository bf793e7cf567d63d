package graph

import (
	"slices"
	"strings"
)

// Index is a read-only view of a Graph with adjacency and name lookups, built
// once when a graph is loaded. It is safe for concurrent readers.
type Index struct {
	G       *Graph
	byID    map[string]int32
	out, in [][]int32 // edge indices by node
	byLabel map[string][]int32
	byName  map[string][]int32
	byFile  map[string][]int32
	// src and dst hold each edge's endpoint node indices (-1 when dangling),
	// so walks never go back through the id map.
	src, dst []int32
}

// NewIndex indexes g. g must not change afterwards.
func NewIndex(g *Graph) *Index {
	n := len(g.Nodes)
	x := &Index{
		G:       g,
		byID:    make(map[string]int32, n),
		out:     make([][]int32, n),
		in:      make([][]int32, n),
		byLabel: make(map[string][]int32, n),
		byName:  make(map[string][]int32, n),
		byFile:  make(map[string][]int32),
	}
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		x.byID[nd.ID] = int32(i)
		l := strings.ToLower(nd.Label)
		x.byLabel[l] = append(x.byLabel[l], int32(i))
		if b := BareName(nd.Label); b != l {
			x.byName[b] = append(x.byName[b], int32(i))
		}
		if nd.SourceFile != "" {
			x.byFile[nd.SourceFile] = append(x.byFile[nd.SourceFile], int32(i))
		}
	}
	outDeg := make([]int32, n)
	inDeg := make([]int32, n)
	src := make([]int32, len(g.Edges))
	dst := make([]int32, len(g.Edges))
	for i := range g.Edges {
		s, ok1 := x.byID[g.Edges[i].Source]
		t, ok2 := x.byID[g.Edges[i].Target]
		if !ok1 || !ok2 {
			src[i], dst[i] = -1, -1
			continue
		}
		src[i], dst[i] = s, t
		outDeg[s]++
		inDeg[t]++
	}
	// One backing array per direction keeps the adjacency compact.
	outBuf := make([]int32, 0, len(g.Edges))
	inBuf := make([]int32, 0, len(g.Edges))
	for i := 0; i < n; i++ {
		x.out[i] = outBuf[len(outBuf) : len(outBuf) : len(outBuf)+int(outDeg[i])]
		outBuf = outBuf[:len(outBuf)+int(outDeg[i])]
		x.in[i] = inBuf[len(inBuf) : len(inBuf) : len(inBuf)+int(inDeg[i])]
		inBuf = inBuf[:len(inBuf)+int(inDeg[i])]
	}
	for i := range g.Edges {
		if src[i] < 0 {
			continue
		}
		x.out[src[i]] = append(x.out[src[i]], int32(i))
		x.in[dst[i]] = append(x.in[dst[i]], int32(i))
	}
	x.src, x.dst = src, dst
	return x
}

// BareName lowercases a label and strips call parentheses and a leading
// member dot: ".ServeHTTP()" -> "servehttp".
func BareName(label string) string {
	l := strings.ToLower(label)
	l = strings.TrimSuffix(l, "()")
	return strings.TrimPrefix(l, ".")
}

// Len returns the number of nodes.
func (x *Index) Len() int { return len(x.G.Nodes) }

// Node returns node i.
func (x *Index) Node(i int32) *Node { return &x.G.Nodes[i] }

// Edge returns edge i.
func (x *Index) Edge(i int32) *Edge { return &x.G.Edges[i] }

// ID returns the index of the node with id, or -1.
func (x *Index) ID(id string) int32 {
	if i, ok := x.byID[id]; ok {
		return i
	}
	return -1
}

// Out returns the indices of edges leaving node i.
func (x *Index) Out(i int32) []int32 { return x.out[i] }

// In returns the indices of edges entering node i.
func (x *Index) In(i int32) []int32 { return x.in[i] }

// Degree returns in + out degree.
func (x *Index) Degree(i int32) int { return len(x.out[i]) + len(x.in[i]) }

// Other returns the endpoint of edge e that is not node i.
func (x *Index) Other(e int32, i int32) int32 {
	if t := x.dst[e]; t != i {
		return t
	}
	return x.src[e]
}

// Ends returns the node indices of edge e's source and target; both are -1
// for an edge whose endpoint is not a node (such an edge is in no adjacency).
func (x *Index) Ends(e int32) (src, dst int32) { return x.src[e], x.dst[e] }

// WithLabel returns the nodes whose label equals label, case-insensitively.
func (x *Index) WithLabel(label string) []int32 { return x.byLabel[strings.ToLower(label)] }

// FileNodes returns the nodes defined in a source file.
func (x *Index) FileNodes(file string) []int32 { return x.byFile[file] }

// Qualified returns a copy-ready reference that resolves back to node i:
// "label@source_file", or the id for nodes without a file.
func (x *Index) Qualified(i int32) string {
	n := &x.G.Nodes[i]
	if n.SourceFile == "" {
		return n.ID
	}
	return n.Label + "@" + n.SourceFile
}

// Resolution is the outcome of resolving a user-supplied node reference.
type Resolution struct {
	Node       int32   // the node, or -1
	Candidates []int32 // when ambiguous: every match, highest degree first
	How        string  // which rule matched: id, label, name, file, substring, qualified
}

// Found reports whether exactly one node matched.
func (r Resolution) Found() bool { return r.Node >= 0 }

// Resolve finds the node a user means by ref, through the cascade every tool
// shares: exact id, case-insensitive label, bare name, source file, unique
// label substring. "name@file-substring" pins a name to the files whose path
// contains the substring.
func (x *Index) Resolve(ref string) Resolution {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return Resolution{Node: -1}
	}
	if i := x.ID(ref); i >= 0 {
		return Resolution{Node: i, How: "id"}
	}
	if at := strings.LastIndexByte(ref, '@'); at > 0 && at < len(ref)-1 {
		name, file := ref[:at], ref[at+1:]
		r := x.resolveName(name, func(i int32) bool { return strings.Contains(x.G.Nodes[i].SourceFile, file) })
		if r.Node >= 0 || len(r.Candidates) > 0 {
			if r.How != "" {
				r.How = "qualified"
			}
			return r
		}
	}
	return x.resolveName(ref, nil)
}

func (x *Index) resolveName(ref string, keep func(int32) bool) Resolution {
	l := strings.ToLower(ref)
	filter := func(c []int32) []int32 {
		if keep == nil {
			return c
		}
		var out []int32
		for _, i := range c {
			if keep(i) {
				out = append(out, i)
			}
		}
		return out
	}
	try := func(c []int32, how string) (Resolution, bool) {
		c = filter(c)
		switch len(c) {
		case 0:
			return Resolution{}, false
		case 1:
			return Resolution{Node: c[0], How: how}, true
		}
		return Resolution{Node: -1, Candidates: x.byDegree(c), How: how}, true
	}
	if r, ok := try(x.byLabel[l], "label"); ok {
		return r
	}
	bare := BareName(ref)
	if r, ok := try(append(slices.Clone(x.byName[bare]), x.byLabel[bare]...), "name"); ok {
		return r
	}
	if c := x.byFile[ref]; len(c) > 0 {
		for _, i := range c {
			if x.G.Nodes[i].Kind == "file" && (keep == nil || keep(i)) {
				return Resolution{Node: i, How: "file"}
			}
		}
	}
	if len(bare) >= 3 {
		var subs []int32
		for i := range x.G.Nodes {
			if strings.Contains(strings.ToLower(x.G.Nodes[i].Label), bare) && (keep == nil || keep(int32(i))) {
				subs = append(subs, int32(i))
				if len(subs) > 50 {
					break
				}
			}
		}
		if len(subs) == 1 {
			return Resolution{Node: subs[0], How: "substring"}
		}
		if len(subs) > 1 {
			return Resolution{Node: -1, Candidates: x.byDegree(subs), How: "substring"}
		}
	}
	return Resolution{Node: -1}
}

func (x *Index) byDegree(c []int32) []int32 {
	c = slices.Clone(c)
	slices.SortFunc(c, func(a, b int32) int {
		if d := x.Degree(b) - x.Degree(a); d != 0 {
			return d
		}
		return strings.Compare(x.G.Nodes[a].ID, x.G.Nodes[b].ID)
	})
	return slices.Compact(c)
}
