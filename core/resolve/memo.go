package resolve

import (
	"errors"
	"fmt"
	"slices"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Memo is what one resolution leaves for the next, so an incremental run
// re-resolves the calls of only the files whose answers can have changed
// (see reuse.go). It describes one whole run: every file's definitions as
// others saw them, its import bindings, the names its calls looked up and
// the call edges, counts and unlinked names they produced.
type Memo struct {
	// Build identifies the synaptic build that resolved: another build
	// may resolve differently, so its memo is never used.
	Build string
	files map[string]*fileMemo
	// edges is how many edges the run made before Canonicalize: the next
	// run sizes its edge slice from it (edgeCap).
	edges int
}

// fileMemo is one file's part of a Memo.
type fileMemo struct {
	key      string   // File.Key: the facts the file was resolved from
	meta     uint64   // fileMeta: what other files read of the file as a whole
	keys     []string // module keys, scope, package: what lookups of the file as a module consult
	defsSum  uint64   // hash of defs in order
	defs     []named  // per symbol, in order: name and record hash (symRecord)
	bindsSum uint64   // hash of binds in order
	binds    []named  // per bound name, sorted: name and hash of its bindings
	noted    []string // names the file's calls looked up, once each, in lookup order
	edges    []memoEdge
	stats    Stats
	unlinked []memoUnlinked
	values   []memoEdge // the value references edges (values.go), caller = From
	vnoted   []string   // names the value references looked up, as noted
}

// named is a name with the hash of what it stands for.
type named struct {
	name string
	sum  uint64
}

// memoEdge is one calls edge a file's calls produced.
type memoEdge struct {
	caller   int32 // local index of the calling symbol, -1 for the file
	target   string
	inferred bool
	line     uint32
}

// memoUnlinked is one unlinked member call (unlinked.go).
type memoUnlinked struct {
	caller int32 // local index of the calling symbol
	name   string
}

// Files is the number of files the memo describes.
func (m *Memo) Files() int { return len(m.files) }

// SetKey records the facts key of the file at path after resolution (see
// File.Key), for callers that learn it only then: a full extraction
// hashes its facts while writing the facts cache, beside resolution.
func (m *Memo) SetKey(path, key string) {
	if fm := m.files[path]; fm != nil {
		fm.key = key
	}
}

// memoMagic opens an encoded memo; a format change bumps its number, so
// an old memo reads as unknown and the run resolves in full.
var memoMagic = []byte("SYNRMEMO4\n")

// Encode appends m's encoding to buf. Strings are written once, in a
// table that the rest refers to by index: target ids and names repeat
// across thousands of files.
func (m *Memo) Encode(buf []byte) []byte {
	paths := make([]string, 0, len(m.files))
	for p := range m.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	table := map[string]uint64{}
	var strs []string
	ref := func(s string) uint64 {
		i, ok := table[s]
		if !ok {
			i = uint64(len(strs))
			table[s] = i
			strs = append(strs, s)
		}
		return i
	}
	var body abi.Encoder
	size := 0
	for _, fm := range m.files {
		size += 8*(len(fm.edges)+len(fm.values)) + 4*(len(fm.noted)+len(fm.vnoted)) + 11*(len(fm.defs)+len(fm.binds)) + 64
	}
	body.Buf = make([]byte, 0, size) // one allocation, not a doubling series of ~10 MB
	table = make(map[string]uint64, len(paths)*16)
	body.Uvarint(uint64(len(paths)))
	for _, p := range paths {
		fm := m.files[p]
		body.Uvarint(ref(p))
		body.Uvarint(ref(fm.key))
		body.Uvarint(fm.meta)
		body.Uvarint(uint64(len(fm.keys)))
		for _, k := range fm.keys {
			body.Uvarint(ref(k))
		}
		for _, list := range [][]named{fm.defs, fm.binds} {
			body.Uvarint(uint64(len(list)))
			for _, n := range list {
				body.Uvarint(ref(n.name))
				body.Uvarint(n.sum)
			}
		}
		encodeNames(&body, fm.noted, ref)
		encodeEdges(&body, fm.edges, ref)
		st := fm.stats
		for _, v := range []int{st.Calls, st.Extracted, st.Inferred, st.Ambiguous, st.Unresolved, st.Implicit} {
			body.Uvarint(uint64(v))
		}
		body.Uvarint(uint64(len(fm.unlinked)))
		for _, u := range fm.unlinked {
			body.Varint(int64(u.caller))
			body.Uvarint(ref(u.name))
		}
		encodeEdges(&body, fm.values, ref)
		encodeNames(&body, fm.vnoted, ref)
	}
	e := abi.Encoder{Buf: buf}
	e.Buf = append(e.Buf, memoMagic...)
	e.String(m.Build)
	e.Uvarint(uint64(m.edges))
	e.Uvarint(uint64(len(strs)))
	for _, s := range strs {
		e.String(s)
	}
	e.Buf = append(e.Buf, body.Buf...)
	return e.Buf
}

// encodeNames appends a list of names to body, as string-table indexes.
func encodeNames(body *abi.Encoder, names []string, ref func(string) uint64) {
	body.Uvarint(uint64(len(names)))
	for _, n := range names {
		body.Uvarint(ref(n))
	}
}

// decodeNames reads what encodeNames wrote.
func decodeNames(d *abi.Decoder, str func() string) []string {
	names := make([]string, d.Len(1))
	for i := range names {
		names[i] = str()
	}
	return names
}

// encodeEdges appends a list of memo edges to body.
func encodeEdges(body *abi.Encoder, edges []memoEdge, ref func(string) uint64) {
	body.Uvarint(uint64(len(edges)))
	for _, e := range edges {
		body.Varint(int64(e.caller))
		body.Uvarint(ref(e.target))
		body.Bool(e.inferred)
		body.Uvarint(uint64(e.line))
	}
}

// decodeEdges reads what encodeEdges wrote.
func decodeEdges(d *abi.Decoder, str func() string) []memoEdge {
	edges := make([]memoEdge, d.Len(4))
	for i := range edges {
		edges[i] = memoEdge{caller: d.Int32(), target: str(), inferred: d.Bool(), line: uint32(d.Uvarint())}
	}
	return edges
}

// errMemoFormat reports a memo that is not one this build wrote.
var errMemoFormat = errors.New("resolve memo has an unknown format")

// DecodeMemo reads what Encode wrote. Any inconsistency is an error: the
// caller then resolves in full.
func DecodeMemo(data []byte) (*Memo, error) {
	rest, ok := cutPrefix(data, memoMagic)
	if !ok {
		return nil, errMemoFormat
	}
	d := abi.NewDecoder(rest)
	m := &Memo{Build: d.String()}
	m.edges = int(min(d.Uvarint(), 1<<40)) // a hint only: bounded, never trusted as a size
	strs := make([]string, d.Len(1))
	for i := range strs {
		strs[i] = d.String()
	}
	bad := false
	str := func() string {
		i := d.Uvarint()
		if i >= uint64(len(strs)) {
			bad = true
			return ""
		}
		return strs[i]
	}
	n := d.Len(1)
	m.files = make(map[string]*fileMemo, n)
	for range n {
		if d.Err() != nil {
			break
		}
		p := str()
		fm := &fileMemo{key: str(), meta: d.Uvarint()}
		fm.keys = make([]string, d.Len(1))
		for i := range fm.keys {
			fm.keys[i] = str()
		}
		for _, list := range []*[]named{&fm.defs, &fm.binds} {
			*list = make([]named, d.Len(2))
			for i := range *list {
				(*list)[i] = named{name: str(), sum: d.Uvarint()}
			}
		}
		fm.defsSum, fm.bindsSum = sumNamed(fm.defs), sumNamed(fm.binds)
		fm.noted = decodeNames(d, str)
		fm.edges = decodeEdges(d, str)
		v := func() int { return int(d.Uvarint()) }
		fm.stats = Stats{Calls: v(), Extracted: v(), Inferred: v(), Ambiguous: v(), Unresolved: v(), Implicit: v()}
		fm.unlinked = make([]memoUnlinked, d.Len(2))
		for i := range fm.unlinked {
			fm.unlinked[i] = memoUnlinked{caller: d.Int32(), name: str()}
		}
		fm.values = decodeEdges(d, str)
		fm.vnoted = decodeNames(d, str)
		if _, dup := m.files[p]; dup {
			bad = true
		}
		m.files[p] = fm
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("resolve memo: %w", err)
	}
	if bad || d.Remaining() != 0 || len(m.files) != n {
		return nil, errMemoFormat
	}
	return m, nil
}

func cutPrefix(b, prefix []byte) ([]byte, bool) {
	if len(b) < len(prefix) || string(b[:len(prefix)]) != string(prefix) {
		return nil, false
	}
	return b[len(prefix):], true
}
