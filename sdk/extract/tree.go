// Package extract is the Go API for writing synaptic extractor plugins.
//
// An extractor receives each file as a flat, preorder syntax tree (parsed by
// the host with tree-sitter) plus the source bytes, and reports facts:
// definitions, calls, imports and type relations. The host turns facts into
// graph nodes and edges and resolves names across files.
//
// A plugin is a package main that registers its extractor in init:
//
//	func init() { extract.Register(myExtractor{}) }
//	func main() {}
//
// and is built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o plugin.wasm .
//
// The same extractor runs natively in tests through [Run].
package extract

import (
	"bytes"
	"encoding/binary"
	"iter"
	"slices"
	"unsafe"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// KindID is a grammar's canonical node-kind id. 0 never names a node.
type KindID uint16

// FieldID is a grammar's field id. 0 means "no field".
type FieldID uint8

// Grammar resolves kind and field names to ids for one grammar.
type Grammar struct {
	Language string // language name from the plugin manifest
	Name     string // tree-sitter grammar name
	kinds    []string
	named    []bool
	fields   []string
	kindIDs  map[string]KindID // named kinds
	anonIDs  map[string]KindID // anonymous kinds (keywords, punctuation)
	fieldIDs map[string]FieldID
}

// NewGrammar builds a Grammar from the tables the host sent.
func NewGrammar(g *abi.Grammar) *Grammar {
	gr := &Grammar{
		Language: g.Language, Name: g.Name,
		kinds: g.Kinds, named: g.Named, fields: g.Fields,
		kindIDs:  make(map[string]KindID, len(g.Kinds)),
		anonIDs:  make(map[string]KindID),
		fieldIDs: make(map[string]FieldID, len(g.Fields)),
	}
	for i, k := range g.Kinds {
		if i == 0 || i > 0xFFFF {
			continue
		}
		m := gr.anonIDs
		if i < len(g.Named) && g.Named[i] {
			m = gr.kindIDs
		}
		if _, dup := m[k]; !dup {
			m[k] = KindID(i)
		}
	}
	for i, f := range g.Fields {
		if i > 0 && i <= 0xFF {
			if _, dup := gr.fieldIDs[f]; !dup {
				gr.fieldIDs[f] = FieldID(i)
			}
		}
	}
	return gr
}

// Kind returns the id of a named node kind, or 0 if the grammar has none.
func (g *Grammar) Kind(name string) KindID { return g.kindIDs[name] }

// Anon returns the id of an anonymous node kind (a keyword or punctuation), or 0.
func (g *Grammar) Anon(name string) KindID { return g.anonIDs[name] }

// Field returns the id of a field name, or 0 if the grammar has none.
func (g *Grammar) Field(name string) FieldID { return g.fieldIDs[name] }

// KindName returns the name of kind id k.
func (g *Grammar) KindName(k KindID) string {
	if int(k) < len(g.kinds) {
		return g.kinds[k]
	}
	if k == 0xFFFF {
		return "ERROR"
	}
	return ""
}

// FieldName returns the name of field id f.
func (g *Grammar) FieldName(f FieldID) string {
	if int(f) < len(g.fields) {
		return g.fields[f]
	}
	return ""
}

// Node is the index of a node in its Tree (preorder). The root is 0; None
// marks "no node".
type Node int32

// None is returned where no node exists.
const None Node = -1

// Tree is a read-only view of one file's flat syntax tree.
type Tree struct {
	Grammar *Grammar
	// words holds the records as native uint32s (abi.RecordWords per node):
	// one aligned load per field instead of four byte loads, which is what
	// the wasm backend makes of binary.LittleEndian.Uint32. It views the
	// records themselves when they are aligned, else a copy in buf.
	words   []uint32
	buf     []uint32
	src     []byte
	n       int
	parents []Node  // built on first Parent call
	lines   []int32 // byte offset of each line start, built on first column query
}

// NewTree wraps records (abi.RecordSize bytes per node) and source.
func NewTree(g *Grammar, records, source []byte) *Tree {
	t := &Tree{}
	t.reset(g, records, source)
	return t
}

// reset points t at another file, keeping its buffers' capacity so the
// wasm glue allocates nothing per file once they have grown.
func (t *Tree) reset(g *Grammar, records, source []byte) {
	n := len(records) / abi.RecordSize
	t.Grammar, t.src, t.n = g, source, n
	t.words = t.wordsOf(records[:n*abi.RecordSize])
	t.parents, t.lines = t.parents[:0], t.lines[:0]
}

// littleEndian reports whether uint32s are stored little-endian in memory,
// as they are on wasm and on every common native target.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// wordsOf returns b's little-endian uint32s: a view of b when the machine
// is little-endian and b 4-byte aligned (Go allocates byte slices so), else
// a copy decoded into t.buf.
func (t *Tree) wordsOf(b []byte) []uint32 {
	if p := unsafe.SliceData(b); littleEndian && len(b) >= 4 && uintptr(unsafe.Pointer(p))%4 == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(p)), len(b)/4)
	}
	t.buf = decodeWords(t.buf[:0], b)
	return t.buf
}

// decodeWords appends the little-endian uint32s of b to dst.
func decodeWords(dst []uint32, b []byte) []uint32 {
	n := len(b) / 4
	dst = slices.Grow(dst, n)[:n]
	if littleEndian && n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&dst[0])), 4*n), b) // one memmove
		return dst
	}
	for i := range dst {
		dst[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return dst
}

// Len returns the number of nodes.
func (t *Tree) Len() int { return t.n }

// Source returns the file's bytes.
func (t *Tree) Source() []byte { return t.src }

// SourceString returns the file's source as a string without copying it,
// so names can be substrings of it rather than copies. It is valid as long
// as the source is: facts may hold it until they are encoded (the wasm
// glue) or returned by [Run], whose caller must not modify the source
// while it uses them.
func (t *Tree) SourceString() string { return unsafe.String(unsafe.SliceData(t.src), len(t.src)) }

// word reads word w of node n. Out-of-range nodes (None included) read as
// zero, so every accessor is safe on None: kind 0, no children, empty text.
//
// With 0 <= w < RecordWords, i is in range exactly when n is, so one
// comparison is both the range test and the bounds check.
func (t *Tree) word(n Node, w int) uint32 {
	i := int(n)*abi.RecordWords + w
	if uint(i) >= uint(len(t.words)) {
		return 0
	}
	return t.words[i]
}

// Kind returns n's canonical kind id.
func (t *Tree) Kind(n Node) KindID { return KindID(t.word(n, 0)) }

// KindName returns n's kind name.
func (t *Tree) KindName(n Node) string { return t.Grammar.KindName(t.Kind(n)) }

// Field returns the field n occupies in its parent (0 if none).
func (t *Tree) Field(n Node) FieldID { return FieldID(t.word(n, 0) >> 16) }

func (t *Tree) flags(n Node) uint32 { return t.word(n, 0) >> 24 }

// IsNamed reports whether n is a named node.
func (t *Tree) IsNamed(n Node) bool { return t.flags(n)&abi.FlagNamed != 0 }

// IsError reports whether n is an ERROR node.
func (t *Tree) IsError(n Node) bool { return t.flags(n)&abi.FlagError != 0 }

// IsMissing reports whether n was inserted by error recovery.
func (t *Tree) IsMissing(n Node) bool { return t.flags(n)&abi.FlagMissing != 0 }

// KindTable maps every kind id to a small value, 0 meaning none, e.g. what
// an extractor does at each kind. Its fixed size makes lookups free of
// bounds checks.
type KindTable [1 << 16]uint8

// Seek returns the first node in [i, end), in preorder, whose kind has a
// non-zero entry in tab or that is an ERROR or MISSING node; end if there
// is none. A walk that acts on few kinds jumps over the others with Seek:
// one tight loop costs a fraction of visiting them one by one, most of all
// under wasm where every branch of a bigger loop is dear.
func (t *Tree) Seek(i, end Node, tab *KindTable) Node {
	const stop = (abi.FlagError | abi.FlagMissing) << 24
	w := t.words[:min(max(int(end), 0), t.n)*abi.RecordWords]
	for j := max(int(i), 0) * abi.RecordWords; j < len(w); j += abi.RecordWords {
		if h := w[j]; uint32(tab[uint16(h)])|h&stop != 0 {
			return Node(j / abi.RecordWords)
		}
	}
	return end
}

// Header is a node's kind, field and flags, read at once. A walk that
// looks at every node should read its Header once rather than call Kind,
// IsError and IsMissing in turn: compiled to wasm, each call repeats the
// bounds checks and loads, and that dominates a loop over every node.
type Header uint32

// Header returns n's header; None's reads as zero (kind 0, no flags).
func (t *Tree) Header(n Node) Header { return Header(t.word(n, 0)) }

// Kind returns the node's canonical kind id.
func (h Header) Kind() KindID { return KindID(h) }

// Field returns the field the node occupies in its parent (0 if none).
func (h Header) Field() FieldID { return FieldID(h >> 16) }

// IsNamed reports whether the node is a named node.
func (h Header) IsNamed() bool { return h>>24&abi.FlagNamed != 0 }

// IsError reports whether the node is an ERROR node.
func (h Header) IsError() bool { return h>>24&abi.FlagError != 0 }

// IsMissing reports whether the node was inserted by error recovery.
func (h Header) IsMissing() bool { return h>>24&abi.FlagMissing != 0 }

// StartByte returns n's first byte offset.
func (t *Tree) StartByte(n Node) int { return int(t.word(n, 1)) }

// EndByte returns the offset just past n.
func (t *Tree) EndByte(n Node) int { return int(t.word(n, 2)) }

// ByteRange returns n's start and end byte offsets with one range check;
// 0, 0 for None.
func (t *Tree) ByteRange(n Node) (start, end int) {
	i := int(n) * abi.RecordWords
	if uint(i) >= uint(len(t.words)) {
		return 0, 0
	}
	r := t.words[i : i+3 : i+3]
	return int(r[1]), int(r[2])
}

// StartLine returns n's 1-based first line.
func (t *Tree) StartLine(n Node) uint32 { return t.word(n, 3) + 1 }

// EndLine returns n's 1-based last line.
func (t *Tree) EndLine(n Node) uint32 { return t.word(n, 4) + 1 }

// ChildCount returns the number of direct children of n.
func (t *Tree) ChildCount(n Node) int { return int(t.word(n, 5)) }

// Size returns the number of nodes in n's subtree, n included.
func (t *Tree) Size(n Node) int { return int(t.word(n, 6)) }

// End returns the index just past n's subtree.
func (t *Tree) End(n Node) Node { return n + Node(t.Size(n)) }

// Bytes returns n's source bytes (a view; do not modify); nil for None.
func (t *Tree) Bytes(n Node) []byte {
	if n < 0 || int(n) >= t.n {
		return nil
	}
	s, e := t.StartByte(n), t.EndByte(n)
	if s < 0 || e > len(t.src) || s > e {
		return nil
	}
	return t.src[s:e]
}

// Text returns n's source text.
func (t *Tree) Text(n Node) string {
	if n == None {
		return ""
	}
	return string(t.Bytes(n))
}

// Children iterates over n's direct children.
func (t *Tree) Children(n Node) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c, count := n+1, t.ChildCount(n); count > 0 && uint(c) < uint(t.n); count-- {
			if !yield(c) {
				return
			}
			c += Node(t.record(c)[6])
		}
	}
}

// record returns the words of node c, which must be in range: one bounds
// check for all of them.
func (t *Tree) record(c Node) []uint32 {
	i := int(c) * abi.RecordWords
	return t.words[i : i+abi.RecordWords : i+abi.RecordWords]
}

// NamedChildren iterates over n's named direct children.
func (t *Tree) NamedChildren(n Node) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := range t.Children(n) {
			if t.IsNamed(c) && !yield(c) {
				return
			}
		}
	}
}

// Child returns n's first child with field f, or None.
func (t *Tree) Child(n Node, f FieldID) Node {
	if f == 0 {
		return None
	}
	// A plain loop rather than Children: this is the hottest lookup, and
	// an iterator's closure costs a lot more than a loop under wasm.
	for c, count := n+1, t.ChildCount(n); count > 0 && uint(c) < uint(t.n); count-- {
		r := t.record(c)
		if FieldID(r[0]>>16) == f {
			return c
		}
		c += Node(r[6])
	}
	return None
}

// ChildOfKind returns n's first direct child of kind k, or None.
func (t *Tree) ChildOfKind(n Node, k KindID) Node {
	if k == 0 {
		return None
	}
	for c, count := n+1, t.ChildCount(n); count > 0 && uint(c) < uint(t.n); count-- {
		r := t.record(c)
		if KindID(r[0]) == k {
			return c
		}
		c += Node(r[6])
	}
	return None
}

// Descendants iterates over n's subtree in preorder, n excluded.
func (t *Tree) Descendants(n Node) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		for c := n + 1; c < t.End(n); c++ {
			if !yield(c) {
				return
			}
		}
	}
}

// Parent returns n's parent, or None for the root.
func (t *Tree) Parent(n Node) Node {
	if len(t.parents) != t.n {
		t.parents = slices.Grow(t.parents[:0], t.n)[:t.n]
		var stack []Node
		for i := 0; i < t.n; i++ {
			for len(stack) > 0 && Node(i) >= t.End(stack[len(stack)-1]) {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				t.parents[i] = None
			} else {
				t.parents[i] = stack[len(stack)-1]
			}
			stack = append(stack, Node(i))
		}
	}
	if n < 0 || int(n) >= t.n {
		return None
	}
	return t.parents[n]
}

// StartCol returns n's 1-based start column in bytes.
func (t *Tree) StartCol(n Node) uint32 { return t.col(t.StartByte(n), t.StartLine(n)) }

// EndCol returns the 1-based column just past n's last byte.
func (t *Tree) EndCol(n Node) uint32 { return t.col(t.EndByte(n), t.EndLine(n)) }

func (t *Tree) col(off int, line uint32) uint32 {
	if l := int(line) - 1; uint(l) < uint(len(t.lines)) {
		return uint32(off-int(t.lines[l])) + 1
	}
	return t.colSlow(off, line)
}

// colSlow builds the lines table on the first column query, then answers.
func (t *Tree) colSlow(off int, line uint32) uint32 {
	t.lineStarts()
	l := int(line) - 1
	if l < 0 || l >= len(t.lines) {
		return 1
	}
	return uint32(off-int(t.lines[l])) + 1
}

// lineStarts is the byte offset of each line's start (0-based lines),
// built once per file with bytes.IndexByte (assembly in the guest too).
func (t *Tree) lineStarts() []int32 {
	if len(t.lines) == 0 {
		t.lines = append(t.lines, 0)
		for i := 0; ; {
			j := bytes.IndexByte(t.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			t.lines = append(t.lines, int32(i))
		}
	}
	return t.lines
}

// Span returns n's span.
func (t *Tree) Span(n Node) abi.Span {
	start, end := t.ByteRange(n)
	sl, el := t.StartLine(n), t.EndLine(n)
	return abi.Span{StartLine: sl, StartCol: t.col(start, sl), EndLine: el, EndCol: t.col(end, el)}
}
