package graph

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
	"weak"
)

// Index is a read-only view of a Graph with adjacency and name lookups, built
// once when a graph is loaded. It is safe for concurrent readers.
//
// Everything is flat: adjacency and the name tables are offset arrays into
// one backing slice each (no per-node or per-name allocations), which keeps
// building it cheap and its footprint small on graphs of 10^5–10^6 nodes.
type Index struct {
	G    *Graph
	byID map[string]int32
	// out and in list edge indices by node: node i's are
	// outEdges[outOff[i]:outOff[i+1]].
	outOff, inOff     []int32
	outEdges, inEdges []int32
	byLabel           groups // lower-cased label
	byFile            groups // source file
	// src and dst hold each edge's endpoint node indices (-1 when dangling),
	// so walks never go back through the id map.
	src, dst []int32
	owners   ownerTable    // built on first use (names.go)
	efiles   edgeFileTable // built for patches (edge_files.go)
	// from, for an index carried over a patch (ApplyIndexed), says how;
	// such an index has no byID map (sortedIDs: ID bisects the nodes,
	// which a patch keeps in id order).
	from      *Provenance
	sortedIDs bool
	qualOnce  sync.Once
	qual      []atomic.Pointer[string] // Qualified, per node, filled on first use
}

// groups maps a key to a set of node indices, in ascending order.
type groups struct {
	gid   map[string]int32
	off   []int32
	items []int32
}

// get returns the nodes under k; the slice must not be appended to in
// place (its capacity is clipped, so append copies).
func (gr *groups) get(k string) []int32 {
	g, ok := gr.gid[k]
	if !ok {
		return nil
	}
	return gr.items[gr.off[g]:gr.off[g+1]:gr.off[g+1]]
}

// groupBy builds groups over n nodes from key(i) (ok false: node i is in
// no group) in two passes: number the distinct keys, then lay their members
// out contiguously. key may return scratch bytes; a string is made only for
// each distinct key, and not at all when key also returns the key as an
// existing string (same bytes).
func groupBy(n, hint int, key func(i int) ([]byte, string, bool)) groups {
	gid := make([]int32, n)
	gr := groups{gid: make(map[string]int32, hint)}
	var count []int32
	for i := range n {
		k, ks, ok := key(i)
		if !ok {
			gid[i] = -1
			continue
		}
		g, ok := gr.gid[string(k)]
		if !ok {
			g = int32(len(count))
			if ks == "" {
				ks = string(k)
			}
			gr.gid[ks] = g
			count = append(count, 0)
		}
		gid[i] = g
		count[g]++
	}
	gr.off = make([]int32, len(count)+1)
	for g, c := range count {
		gr.off[g+1] = gr.off[g] + c
	}
	gr.items = make([]int32, gr.off[len(count)])
	next := count // reused as each group's fill position
	copy(next, gr.off)
	for i, g := range gid {
		if g >= 0 {
			gr.items[next[g]] = int32(i)
			next[g]++
		}
	}
	return gr
}

// appendLower appends strings.ToLower(s) to b, without allocating for
// ASCII.
func appendLower(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(b[:0], strings.ToLower(s)...)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return b
}

// NewIndex indexes g. g must not change afterwards.
func NewIndex(g *Graph) *Index {
	n := len(g.Nodes)
	x := &Index{G: g}
	parsed := takeParsed(g)
	if parsed != nil {
		x.byID = parsed.byID
	}
	if x.byID == nil {
		x.byID = make(map[string]int32, n)
		for i := range g.Nodes {
			x.byID[g.Nodes[i].ID] = int32(i)
		}
	}
	var buf []byte
	x.byLabel = groupBy(n, n, func(i int) ([]byte, string, bool) {
		l := g.Nodes[i].Label
		buf = appendLower(buf[:0], l)
		if string(buf) == l { // already lower case: key by the label itself
			return buf, l, true
		}
		return buf, "", true
	})
	x.byFile = groupBy(n, 0, func(i int) ([]byte, string, bool) {
		f := g.Nodes[i].SourceFile
		return unsafe.Slice(unsafe.StringData(f), len(f)), f, f != ""
	})
	x.src, x.dst = endpoints(g, x.byID, parsed)
	x.adjacency(n)
	return x
}

// endpoints resolves every edge's source and target to node indices, both
// -1 when either is not a node. It takes them from the Parse that produced g
// when that is still accurate, else looks them up.
func endpoints(g *Graph, byID map[string]int32, parsed *parsedEnds) (src, dst []int32) {
	if parsed != nil && parsed.src != nil {
		return parsed.src, parsed.dst
	}
	src = make([]int32, len(g.Edges))
	dst = make([]int32, len(g.Edges))
	lastSrc, lastIdx, lastOK := "", int32(0), false
	for i := range g.Edges {
		e := &g.Edges[i]
		// Canonical links are sorted by source: reuse the last lookup.
		s, ok1 := lastIdx, lastOK
		if e.Source != lastSrc || i == 0 {
			s, ok1 = byID[e.Source]
			lastSrc, lastIdx, lastOK = e.Source, s, ok1
		}
		t, ok2 := byID[e.Target]
		if !ok1 || !ok2 {
			src[i], dst[i] = -1, -1
			continue
		}
		src[i], dst[i] = s, t
	}
	return src, dst
}

// parsedEnds is Parse's (or Canonicalize's) hand-off to NewIndex, for the
// graph it just returned or sorted: the id map it built while interning or
// ranking ids (nil unless it holds exactly the node ids) and every link's
// endpoint node indices. The graph is held weakly so an unindexed graph is
// not kept alive.
type parsedEnds struct {
	g        weak.Pointer[Graph]
	nodes    int
	byID     map[string]int32
	src, dst []int32
}

var lastParsed atomic.Pointer[parsedEnds]

func handOff(g *Graph, byID map[string]int32, src, dst []int32) {
	lastParsed.Store(&parsedEnds{g: weak.Make(g), nodes: len(g.Nodes), byID: byID, src: src, dst: dst})
}

// takeParsed returns what Parse recorded for g, with each part checked
// against g as it is now (a graph changed after Parse falls back to
// lookups): the id map must give every node its own index, and each edge's
// recorded endpoints must carry its source and target ids (a string
// compare on shared pointers, no hashing), or be -1 for an edge the
// checked id map says is off the nodes.
func takeParsed(g *Graph) *parsedEnds {
	p := lastParsed.Load()
	if p == nil || p.g.Value() != g || !lastParsed.CompareAndSwap(p, nil) || p.nodes != len(g.Nodes) {
		return nil
	}
	if p.byID != nil {
		for i := range g.Nodes {
			if k, ok := p.byID[g.Nodes[i].ID]; !ok || k != int32(i) {
				p.byID = nil // len(byID) == len(g.Nodes) then makes it a bijection
				break
			}
		}
	}
	if len(p.src) != len(g.Edges) {
		p.src, p.dst = nil, nil
	}
	for i := range p.src {
		e := &g.Edges[i]
		s, t := p.src[i], p.dst[i]
		if s < 0 && t < 0 && p.byID != nil && offNodes(p.byID, e) {
			continue // dangling, as the checked id map says
		}
		if s < 0 || t < 0 || g.Nodes[s].ID != e.Source || g.Nodes[t].ID != e.Target {
			p.src, p.dst = nil, nil
			break
		}
	}
	return p
}

// offNodes reports whether an endpoint of e is no node in byID.
func offNodes(byID map[string]int32, e *Edge) bool {
	_, s := byID[e.Source]
	_, t := byID[e.Target]
	return !s || !t
}

// byName returns the nodes whose BareName is bare but whose lower-cased
// label is not: the labels bare+"()", "."+bare+"()" and "."+bare, read
// from the label table (BareName strips a "()" suffix, then a "." prefix,
// so bare+"()" only counts when bare has no leading "." and "."+bare only
// when bare has no "()" suffix). The result is a fresh slice.
func (x *Index) byName(bare string) []int32 {
	var out []int32
	if !strings.HasPrefix(bare, ".") {
		out = append(out, x.byLabel.get(bare+"()")...)
	}
	out = append(out, x.byLabel.get("."+bare+"()")...)
	if !strings.HasSuffix(bare, "()") {
		out = append(out, x.byLabel.get("."+bare)...)
	}
	return out
}

// BareName lowercases a label and strips call parentheses and a leading
// member dot: ".ServeHTTP()" -> "servehttp".
func BareName(label string) string { return bareLower(strings.ToLower(label)) }

func bareLower(l string) string {
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
	if x.byID == nil && x.sortedIDs {
		return idSearch(x.G.Nodes, id)
	}
	if i, ok := x.byID[id]; ok {
		return i
	}
	return -1
}

// Out returns the indices of edges leaving node i.
func (x *Index) Out(i int32) []int32 {
	return x.outEdges[x.outOff[i]:x.outOff[i+1]:x.outOff[i+1]]
}

// In returns the indices of edges entering node i.
func (x *Index) In(i int32) []int32 {
	return x.inEdges[x.inOff[i]:x.inOff[i+1]:x.inOff[i+1]]
}

// Degree returns in + out degree.
func (x *Index) Degree(i int32) int {
	return int(x.outOff[i+1] - x.outOff[i] + x.inOff[i+1] - x.inOff[i])
}

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
func (x *Index) WithLabel(label string) []int32 { return x.byLabel.get(strings.ToLower(label)) }

// FileNodes returns the nodes defined in a source file.
func (x *Index) FileNodes(file string) []int32 { return x.byFile.get(file) }

// Resolution is the outcome of resolving a user-supplied node reference.
type Resolution struct {
	Node       int32   // the node, or -1
	Candidates []int32 // when ambiguous: every match, highest degree first
	How        string  // which rule of the cascade matched: ByID, ByQualified, ByLabel, …
}

// Found reports whether exactly one node matched.
func (r Resolution) Found() bool { return r.Node >= 0 }

// Resolve finds the node a user means by ref, through the cascade every tool
// shares, most exact first: the id; a "name@file" or "name@file:line"
// qualifier (the name resolved by the rest of the cascade among the nodes
// of the files matching file, an exact path beating a path suffix beating a
// substring, and the line picking the node declared there); the exact
// label; an owner-qualified spelling (Type.method, (*Type).method,
// pkg.Func, module.Class.method, Class#method, Class::method); the label
// ignoring case; the bare name; a source file; a unique label substring.
func (x *Index) Resolve(ref string) Resolution {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return Resolution{Node: -1}
	}
	if i := x.ID(ref); i >= 0 {
		return Resolution{Node: i, How: ByID}
	}
	if name, file, line, ok := splitQualifier(ref); ok {
		if r, ok := x.resolveQualified(name, file, line); ok {
			return r
		}
	}
	return x.resolveName(ref, nil)
}

// resolveQualified resolves name among the nodes of the files matching
// file, best file match first; line, when given, must be the node's first
// line (or fall inside its span, innermost span first).
func (x *Index) resolveQualified(name, file string, line int) (Resolution, bool) {
	for rank := 3; rank >= 1; rank-- {
		keep := func(i int32) bool { return fileMatches(x.G.Nodes[i].SourceFile, file) == rank }
		r := x.resolveName(name, keep)
		if line > 0 && (r.Node >= 0 || len(r.Candidates) > 0) {
			r = x.atLine(r, line)
		}
		if r.Node >= 0 || len(r.Candidates) > 0 {
			r.How = ByQualified
			return r, true
		}
	}
	return Resolution{}, false
}

// atLine narrows a resolution to the nodes declared at line, else to the
// innermost spans holding it.
func (x *Index) atLine(r Resolution, line int) Resolution {
	c := r.Candidates
	if r.Node >= 0 {
		c = []int32{r.Node}
	}
	var at, within []int32
	best := int(^uint(0) >> 1)
	for _, i := range c {
		if x.Line(i) == line {
			at = append(at, i)
			continue
		}
		if sp := x.G.Nodes[i].Span; sp != nil && sp.StartLine <= line && line <= sp.EndLine {
			switch size := sp.EndLine - sp.StartLine; {
			case size < best:
				best, within = size, []int32{i}
			case size == best:
				within = append(within, i)
			}
		}
	}
	for _, set := range [][]int32{at, within} {
		switch len(set) {
		case 0:
			continue
		case 1:
			return Resolution{Node: set[0]}
		}
		return Resolution{Node: -1, Candidates: x.byDegree(set)}
	}
	return Resolution{Node: -1}
}

// ResolveCallable is Resolve for the questions about calls (callers,
// callees): when ref's exact label picks a field, variable or type but
// functions or methods share its bare name, the user means those, since
// only they are called. One wins outright; several are ambiguous (the
// first pick stays among the candidates).
func (x *Index) ResolveCallable(ref string) Resolution {
	r := x.Resolve(ref)
	if (r.How != ByLabel && r.How != ByLabelFold) || r.Node < 0 || isCallableKind(x.G.Nodes[r.Node].Kind) {
		return r
	}
	var calls []int32
	for _, i := range x.byName(BareName(strings.TrimSpace(ref))) {
		if isCallableKind(x.G.Nodes[i].Kind) {
			calls = append(calls, i)
		}
	}
	switch len(calls) {
	case 0:
		return r
	case 1:
		return Resolution{Node: calls[0], How: ByName}
	}
	return Resolution{Node: -1, Candidates: x.byDegree(append(calls, r.Node)), How: ByName}
}

func isCallableKind(kind string) bool {
	return kind == "function" || kind == "method" || kind == "constructor"
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
	folded := x.byLabel.get(l)
	var exact []int32
	for _, i := range folded {
		if x.G.Nodes[i].Label == ref {
			exact = append(exact, i)
		}
	}
	if r, ok := try(exact, ByLabel); ok {
		return r
	}
	if r, ok := x.resolveOwner(ref, keep); ok {
		return r
	}
	if r, ok := try(folded, ByLabelFold); ok {
		return r
	}
	bare := BareName(ref)
	if r, ok := try(append(x.byName(bare), x.byLabel.get(bare)...), ByName); ok {
		return r
	}
	if c := x.byFile.get(ref); len(c) > 0 {
		for _, i := range c {
			if x.G.Nodes[i].Kind == "file" && (keep == nil || keep(i)) {
				return Resolution{Node: i, How: ByFile}
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
			return Resolution{Node: subs[0], How: BySubstring}
		}
		if len(subs) > 1 {
			return Resolution{Node: -1, Candidates: x.byDegree(subs), How: BySubstring}
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
