package graphbin

import (
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"unsafe"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Node flag bits: which optional parts follow.
const (
	nodeSpan = 1 << iota
	nodeSignature
	nodeCommunity
	nodeIsTest
	nodeExtra
)

// Edge flag bits.
const (
	edgeScore  = 1 << iota // ConfidenceScore follows (else 0)
	edgeWeight             // Weight follows (else 1)
	edgeSites
	edgeExtra
)

// encoder builds the body: records go to rec, strings to the table.
type encoder struct {
	rec    []byte
	index  map[string]uint64
	strs   []string
	nodes  map[string]int // first node with each id, for endpoints (nil with x)
	x      *graph.Index   // the endpoints' nodes, when the ids are unique
	byAddr [1 << 14]addrSlot
	// lastEnd is the last source that is a node (lastEndIdx).
	lastEnd    string
	lastEndIdx int
	lastEndOK  bool
	// cuts, when not nil, leaves the communities out of the node records
	// and notes, per node, where its record starts and where its community
	// goes (see Deferred).
	cuts []int32
	// last caches the previous string of each record field with its
	// index: kinds, languages, relations and files repeat from record to
	// record, and a compare is much cheaper than a map probe.
	last [nSlots]struct {
		s string
		k uint64
	}
}

// Record fields with a last-value cache.
const (
	slotFileType = iota
	slotSourceFile
	slotKind
	slotVisibility
	slotLanguage
	slotRepo
	slotRelation
	slotConfidence
	slotEdgeFile
	slotContext
	nSlots
)

// Body is an encoded graph waiting for its header: extract encodes it
// while graph.json is still being written, and adds the header once the
// digest of what it wrote is known.
// The body is the string table, then the records, kept apart: joining
// them would copy the whole sidecar once more (45 MB on GOROOT/src).
type Body struct {
	table, rec []byte
	tail       []byte // more records after rec (a Deferred body's edges), or nil
	size       int    // len(table)+len(rec)+len(tail), kept by Release
	crc        uint32 // of table, rec and tail, taken when encoded (off the writers' path)
}

// bytes is the body joined.
func (b *Body) bytes() []byte { return slices.Concat(b.table, b.rec, b.tail) }

// header is h with the body's length and checksum.
func (b *Body) header(h Header) []byte {
	return appendHeaderSum(nil, h, b.size, b.crc)
}

// Release lets the collector have the encoded bytes once WriteBody has
// written them: only HeaderAt may follow. extract holds a body until
// graph.json is written, and on GOROOT/src those 46 MB, live beside the
// graph, its index and the report, kept the heap at the run's memory limit
// with the collector running back to back.
func (b *Body) Release() { b.table, b.rec, b.tail = nil, nil, nil }

// Encode returns the sidecar of g, made from the graph.json bytes that h
// describes. The same graph always gives the same bytes.
func Encode(g *graph.Graph, h Header) []byte {
	body := EncodeBody(g)
	return slices.Concat(body.header(h), body.bytes())
}

// WriteTo writes the sidecar: h, then the body.
func (b *Body) WriteTo(w io.Writer, h Header) error {
	if _, err := w.Write(b.header(h)); err != nil {
		return err
	}
	return b.WriteBody(w)
}

// HeaderSize is the size of Header's encoding, which the body follows.
const HeaderSize = headerSize

// WriteBody writes the body alone, what follows the HeaderSize bytes of
// Header in the file: extract writes it while graph.json, whose digest the
// header holds, is still being written, and the header last (HeaderAt).
func (b *Body) WriteBody(w io.Writer) error {
	for _, part := range [][]byte{b.table, b.rec, b.tail} {
		if len(part) == 0 {
			continue
		}
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// HeaderAt writes the header h of the body into the HeaderSize bytes at
// the start of w.
func (b *Body) HeaderAt(w io.WriterAt, h Header) error {
	_, err := w.WriteAt(b.header(h), 0)
	return err
}

// EncodeBody encodes g without its header.
func EncodeBody(g *graph.Graph) *Body { return mappedEncoder(g).body(g) }

// mappedEncoder is an encoder that looks edge endpoints up in an id map
// of its own.
func mappedEncoder(g *graph.Graph) *encoder {
	e := newEncoder(g)
	e.nodes = make(map[string]int, len(g.Nodes))
	for i := range g.Nodes {
		if _, ok := e.nodes[g.Nodes[i].ID]; !ok {
			e.nodes[g.Nodes[i].ID] = i
		}
	}
	return e
}

// EncodeBodyIndexed is EncodeBody(x.G), byte for byte, taking each edge's
// endpoint nodes from the index instead of an id map of its own (extract
// has the index already, for the communities).
func EncodeBodyIndexed(x *graph.Index) *Body { return indexedEncoder(x).body(x.G) }

// indexedEncoder is an encoder that takes edge endpoints from x when the
// node ids are sorted and unique, and from an id map otherwise.
func indexedEncoder(x *graph.Index) *encoder {
	g := x.G
	for i := 1; i < len(g.Nodes); i++ {
		if g.Nodes[i-1].ID >= g.Nodes[i].ID {
			// Not sorted by unique id: the index's choice among nodes of one
			// id may not be the first one's, which EncodeBody refers to.
			return mappedEncoder(g)
		}
	}
	e := newEncoder(g)
	e.x = x
	return e
}

// newEncoder starts the string table with "" and then every node's id in
// node order: node i's id is string 1+i, which its record does not repeat,
// and ids (unique, the most numerous strings) never enter the index.
func newEncoder(g *graph.Graph) *encoder {
	// Sized from GOROOT/src (197k nodes, 646k edges: 27.5 MB of records,
	// 279k strings besides the ids), with some room: regrowing the records
	// copied 46 MB and rehashing the index cost 0.1 s a run. Capacity that
	// is never written is never touched either.
	strings := len(g.Nodes)/2 + len(g.Edges)/3
	e := &encoder{index: make(map[string]uint64, strings), strs: make([]string, 1, 1+len(g.Nodes)+strings),
		rec: make([]byte, 0, 64+48*len(g.Nodes)+32*len(g.Edges))}
	e.index[""] = 0
	for i := range g.Nodes {
		e.strs = append(e.strs, g.Nodes[i].ID)
	}
	return e
}

// body encodes the records and lays out the body.
func (e *encoder) body(g *graph.Graph) *Body {
	e.records(g)
	table := e.table()
	crc := crc32.Update(crc32.Checksum(table, castagnoli), castagnoli, e.rec)
	return &Body{table: table, rec: e.rec, size: len(table) + len(e.rec), crc: crc}
}

// records encodes the graph header, the nodes and the edges into e.rec
// and returns where the edges' part (their count) starts.
func (e *encoder) records(g *graph.Graph) int {
	e.graphHeader(g)
	e.uint(uint64(len(g.Nodes)))
	for i := range g.Nodes {
		e.node(&g.Nodes[i])
	}
	edgesAt := len(e.rec)
	e.uint(uint64(len(g.Edges)))
	for i := range g.Edges {
		e.edge(int32(i), &g.Edges[i])
	}
	return edgesAt
}

// table lays out the string table: the count, every length, then the bytes.
func (e *encoder) table() []byte {
	var table []byte
	table = binary.AppendUvarint(table, uint64(len(e.strs)))
	total := 0
	for _, s := range e.strs {
		table = binary.AppendUvarint(table, uint64(len(s)))
		total += len(s)
	}
	table = slices.Grow(table, total)
	for _, s := range e.strs {
		table = append(table, s...)
	}
	return table
}

func (e *encoder) uint(v uint64) { e.rec = binary.AppendUvarint(e.rec, v) }
func (e *encoder) int(v int)     { e.rec = binary.AppendVarint(e.rec, int64(v)) }
func (e *encoder) byte(b byte)   { e.rec = append(e.rec, b) }

func (e *encoder) float(f float64) {
	e.rec = binary.LittleEndian.AppendUint64(e.rec, math.Float64bits(f))
}

func (e *encoder) str(s string) { e.uint(e.strIndex(s)) }

// strIndex returns s's place in the string table, adding it. Decoded
// graphs share one copy of each repeated string (graph.Parse interns
// them), so a direct-mapped cache on the string's address answers most
// repeats without hashing.
func (e *encoder) strIndex(s string) uint64 {
	if s == "" {
		return 0
	}
	p := unsafe.StringData(s)
	slot := &e.byAddr[(uintptr(unsafe.Pointer(p))>>3)%uintptr(len(e.byAddr))]
	if slot.p == p && slot.n == len(s) {
		return slot.k
	}
	k, ok := e.index[s]
	if !ok {
		k = uint64(len(e.strs))
		e.index[s] = k
		e.strs = append(e.strs, s)
	}
	*slot = addrSlot{p, len(s), k}
	return k
}

// addrSlot is one entry of the address cache.
type addrSlot struct {
	p *byte
	n int
	k uint64
}

// cached is str through the field's last-value cache.
func (e *encoder) cached(slot int, s string) {
	c := &e.last[slot]
	if s != c.s || c.k == 0 && s != "" {
		c.s, c.k = s, e.strIndex(s)
	}
	e.uint(c.k)
}

// count writes a length that tells nil (0) from empty (1).
func (e *encoder) count(n int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(uint64(n) + 1)
}

// raws writes a member map in key order.
func (e *encoder) raws(m map[string]json.RawMessage) {
	e.count(len(m), m == nil)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e.str(k)
		e.str(string(m[k]))
		e.byte(boolByte(m[k] == nil))
	}
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (e *encoder) graphHeader(g *graph.Graph) {
	e.byte(boolByte(g.Directed))
	e.str(g.BuiltAtCommit)
	e.raws(g.GraphAttrs)
	e.count(len(g.Hyperedges), g.Hyperedges == nil)
	for _, h := range g.Hyperedges {
		e.str(string(h))
		e.byte(boolByte(h == nil))
	}
}

func (e *encoder) node(n *graph.Node) {
	if e.cuts != nil {
		e.cuts = append(e.cuts, int32(len(e.rec)))
	}
	var flags byte
	if n.Span != nil {
		flags |= nodeSpan
	}
	if n.Signature != nil {
		flags |= nodeSignature
	}
	if e.cuts == nil && n.Community != nil { // deferred (cuts set): Community is not read, another goroutine sets it
		flags |= nodeCommunity
	}
	if n.IsTest {
		flags |= nodeIsTest
	}
	if n.Extra != nil {
		flags |= nodeExtra
	}
	e.byte(flags)
	e.str(n.Label)
	e.cached(slotFileType, n.FileType)
	e.cached(slotSourceFile, n.SourceFile)
	e.str(n.SourceLocation)
	e.cached(slotKind, n.Kind)
	e.cached(slotVisibility, n.Visibility)
	e.cached(slotLanguage, n.Language)
	e.cached(slotRepo, n.Repo)
	e.str(n.Doc)
	if n.Span != nil {
		e.int(n.Span.StartLine)
		e.int(n.Span.StartCol)
		e.int(n.Span.EndLine)
		e.int(n.Span.EndCol)
	}
	if s := n.Signature; s != nil {
		e.count(len(s.Params), s.Params == nil)
		for _, p := range s.Params {
			e.str(p.Name)
			e.str(p.TypeRef)
		}
		e.str(s.ReturnType)
		e.str(s.Raw)
	}
	if e.cuts != nil {
		e.cuts = append(e.cuts, int32(len(e.rec))) // Deferred.Finish puts the community here
	} else if n.Community != nil {
		e.int(*n.Community)
	}
	if n.Extra != nil {
		e.raws(n.Extra)
	}
}

// endpoint writes a node reference (even) or, for an id that is no node,
// the string (odd).
// The last source found a node is cached: canonical edges come sorted by
// source.
func (e *encoder) endpoint(id string, source bool) {
	if source && e.lastEndOK && id == e.lastEnd {
		e.uint(uint64(e.lastEndIdx) << 1)
		return
	}
	if i, ok := e.nodes[id]; ok {
		if source {
			e.lastEnd, e.lastEndIdx, e.lastEndOK = id, i, true
		}
		e.uint(uint64(i) << 1)
		return
	}
	e.uint(e.strIndex(id)<<1 | 1)
}

// indexedEndpoint is endpoint through the index: n is the endpoint's node
// as the index's Ends gave it (-1 for both ends of an edge with an end off
// the nodes).
func (e *encoder) indexedEndpoint(id string, n int32) {
	if n < 0 {
		n = e.x.ID(id)
	}
	if n >= 0 {
		e.uint(uint64(n) << 1)
		return
	}
	e.uint(e.strIndex(id)<<1 | 1)
}

func (e *encoder) edge(i int32, ed *graph.Edge) {
	var flags byte
	if ed.ConfidenceScore != 0 || math.Signbit(ed.ConfidenceScore) {
		flags |= edgeScore
	}
	if ed.Weight != 1 {
		flags |= edgeWeight
	}
	if ed.Sites != nil {
		flags |= edgeSites
	}
	if ed.Extra != nil {
		flags |= edgeExtra
	}
	e.byte(flags)
	if e.x != nil {
		s, t := e.x.Ends(i)
		e.indexedEndpoint(ed.Source, s)
		e.indexedEndpoint(ed.Target, t)
	} else {
		e.endpoint(ed.Source, true)
		e.endpoint(ed.Target, false)
	}
	e.cached(slotRelation, ed.Relation)
	e.cached(slotConfidence, string(ed.Confidence))
	e.cached(slotEdgeFile, ed.SourceFile)
	e.str(ed.SourceLocation)
	e.cached(slotContext, ed.Context)
	if flags&edgeScore != 0 {
		e.float(ed.ConfidenceScore)
	}
	if flags&edgeWeight != 0 {
		e.float(ed.Weight)
	}
	if ed.Sites != nil {
		e.count(len(ed.Sites), false)
		for _, s := range ed.Sites {
			e.str(s.SourceFile)
			e.str(s.SourceLocation)
		}
	}
	if ed.Extra != nil {
		e.raws(ed.Extra)
	}
}
