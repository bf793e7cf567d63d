package graphbin

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Decode checks data (header, body checksum, every record) and returns the
// graph and the header. The graph does not retain data: all its strings
// live in one allocation of their own.
func Decode(data []byte) (*graph.Graph, Header, error) {
	h, body, err := ReadHeader(data)
	if err != nil {
		return nil, h, err
	}
	if err := checkBody(data, body); err != nil {
		return nil, h, err
	}
	d := &decoder{buf: body}
	g := d.graph()
	if d.err != nil {
		return nil, h, fmt.Errorf("%w: %v (at body byte %d)", ErrCorrupt, d.err, d.pos)
	}
	if d.pos != len(d.buf) {
		return nil, h, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(d.buf)-d.pos)
	}
	return g, h, nil
}

// decoder reads the body; the first error sticks and every later read
// returns zero values, so the record loops need no checks of their own.
type decoder struct {
	buf  []byte
	pos  int
	err  error
	strs []string
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format, args...)
	}
	d.pos = len(d.buf)
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.buf[d.pos:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.pos += n
	return v
}

func (d *decoder) int() int {
	v, n := binary.Varint(d.buf[d.pos:])
	if n <= 0 || v < math.MinInt32 || v > math.MaxInt32 {
		d.fail("bad integer")
		return 0
	}
	d.pos += n
	return int(v)
}

func (d *decoder) byte() byte {
	if d.pos >= len(d.buf) {
		d.fail("truncated")
		return 0
	}
	b := d.buf[d.pos]
	d.pos++
	return b
}

func (d *decoder) float() float64 {
	if len(d.buf)-d.pos < 8 {
		d.fail("truncated")
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.buf[d.pos:]))
	d.pos += 8
	return v
}

func (d *decoder) str() string {
	k := d.uint()
	if k >= uint64(len(d.strs)) {
		d.fail("string %d of %d", k, len(d.strs))
		return ""
	}
	return d.strs[k]
}

// length reads a count of items of at least min bytes each, bounded by the
// bytes left, so a corrupt count cannot ask for a huge allocation.
func (d *decoder) length(min int) int {
	n := d.uint()
	if n > uint64(len(d.buf)-d.pos)/uint64(min) {
		d.fail("count %d exceeds the %d bytes left", n, len(d.buf)-d.pos)
		return 0
	}
	return int(n)
}

// count reads a count written by encoder.count: nil reports 0.
func (d *decoder) count(min int) (n int, isNil bool) {
	c := d.uint()
	if c == 0 {
		return 0, true
	}
	if c-1 > uint64(len(d.buf)-d.pos)/uint64(min) {
		d.fail("count %d exceeds the %d bytes left", c-1, len(d.buf)-d.pos)
		return 0, true
	}
	return int(c - 1), false
}

// table reads the string table into one allocation.
func (d *decoder) table() {
	n := d.length(1)
	lens := make([]uint64, n)
	total := uint64(0)
	for i := range lens {
		lens[i] = d.uint()
		total += lens[i]
		if total > uint64(len(d.buf)) {
			d.fail("string table longer than the body")
			return
		}
	}
	if d.err != nil {
		return
	}
	if total > uint64(len(d.buf)-d.pos) {
		d.fail("string table truncated")
		return
	}
	if n == 0 || lens[0] != 0 {
		d.fail("string 0 must be empty")
		return
	}
	arena := string(d.buf[d.pos : d.pos+int(total)])
	d.pos += int(total)
	d.strs = make([]string, n)
	off := uint64(0)
	for i, l := range lens {
		d.strs[i] = arena[off : off+l]
		off += l
	}
}

func (d *decoder) raw() json.RawMessage {
	s := d.str()
	if d.byte() == 1 {
		return nil
	}
	return json.RawMessage(s)
}

func (d *decoder) raws() map[string]json.RawMessage {
	n, isNil := d.count(3)
	if isNil {
		return nil
	}
	m := make(map[string]json.RawMessage, n)
	for range n {
		k := d.str()
		m[k] = d.raw()
	}
	return m
}

func (d *decoder) graph() *graph.Graph {
	d.table()
	g := &graph.Graph{}
	g.Directed = d.byte() == 1
	g.BuiltAtCommit = d.str()
	g.GraphAttrs = d.raws()
	if n, isNil := d.count(2); !isNil {
		g.Hyperedges = make([]graph.Hyperedge, n)
		for i := range g.Hyperedges {
			g.Hyperedges[i] = d.raw()
		}
	}
	g.Nodes = make([]graph.Node, d.length(10))
	if len(g.Nodes) >= len(d.strs) {
		d.fail("%d nodes but %d strings: the table must start with every node id", len(g.Nodes), len(d.strs))
		return g
	}
	// Optional parts are allocated in blocks: one per kind, not per node.
	var spans []graph.Span
	var comms []int
	for i := range g.Nodes {
		g.Nodes[i].ID = d.strs[1+i]
		spans, comms = d.node(&g.Nodes[i], spans, comms)
	}
	g.Edges = make([]graph.Edge, d.length(8))
	for i := range g.Edges {
		d.edge(&g.Edges[i], g.Nodes)
	}
	return g
}

// block is a bump allocator: it hands out the next element of buf,
// refilling it in blocks.
func block[T any](buf []T) ([]T, *T) {
	if len(buf) == 0 {
		buf = make([]T, 4096)
	}
	return buf[1:], &buf[0]
}

func (d *decoder) node(n *graph.Node, spans []graph.Span, comms []int) ([]graph.Span, []int) {
	flags := d.byte()
	if flags >= nodeExtra<<1 {
		d.fail("unknown node flags %#x", flags)
		return spans, comms
	}
	n.Label, n.FileType, n.SourceFile, n.SourceLocation = d.str(), d.str(), d.str(), d.str()
	n.Kind, n.Visibility, n.Language, n.Repo, n.Doc = d.str(), d.str(), d.str(), d.str(), d.str()
	if flags&nodeSpan != 0 {
		spans, n.Span = block(spans)
		*n.Span = graph.Span{StartLine: d.int(), StartCol: d.int(), EndLine: d.int(), EndCol: d.int()}
	}
	if flags&nodeSignature != 0 {
		s := &graph.Signature{}
		if np, isNil := d.count(2); !isNil {
			s.Params = make([]graph.Param, np)
			for i := range s.Params {
				s.Params[i] = graph.Param{Name: d.str(), TypeRef: d.str()}
			}
		}
		s.ReturnType, s.Raw = d.str(), d.str()
		n.Signature = s
	}
	if flags&nodeCommunity != 0 {
		comms, n.Community = block(comms)
		*n.Community = d.int()
	}
	n.IsTest = flags&nodeIsTest != 0
	if flags&nodeExtra != 0 {
		n.Extra = d.raws()
	}
	return spans, comms
}

func (d *decoder) endpoint(nodes []graph.Node) string {
	v := d.uint()
	if v&1 == 0 {
		if v>>1 >= uint64(len(nodes)) {
			d.fail("edge endpoint %d of %d nodes", v>>1, len(nodes))
			return ""
		}
		return nodes[v>>1].ID
	}
	k := v >> 1
	if k >= uint64(len(d.strs)) {
		d.fail("string %d of %d", k, len(d.strs))
		return ""
	}
	return d.strs[k]
}

func (d *decoder) edge(e *graph.Edge, nodes []graph.Node) {
	flags := d.byte()
	if flags >= edgeExtra<<1 {
		d.fail("unknown edge flags %#x", flags)
		return
	}
	e.Source, e.Target = d.endpoint(nodes), d.endpoint(nodes)
	e.Relation, e.Confidence = d.str(), graph.Confidence(d.str())
	e.SourceFile, e.SourceLocation, e.Context = d.str(), d.str(), d.str()
	e.Weight = 1
	if flags&edgeScore != 0 {
		e.ConfidenceScore = d.float()
	}
	if flags&edgeWeight != 0 {
		e.Weight = d.float()
	}
	if flags&edgeSites != 0 {
		n, _ := d.count(2)
		e.Sites = make([]graph.Site, n)
		for i := range e.Sites {
			e.Sites[i] = graph.Site{SourceFile: d.str(), SourceLocation: d.str()}
		}
	}
	if flags&edgeExtra != 0 {
		e.Extra = d.raws()
	}
}
