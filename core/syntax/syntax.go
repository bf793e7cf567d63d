// Package syntax is synaptic's tree-sitter host: it parses a source file with
// a built-in grammar and serializes the syntax tree into the flat preorder
// record buffer that extractor plugins consume (docs/architecture.md, "The
// flat tree").
//
// Parsing and serialization happen in one cgo call per file, in a small C
// shim (shim.c) that drives the tree-sitter runtime linked from
// github.com/smacker/go-tree-sitter; walk.c writes the records straight
// from the tree's subtrees, through tree-sitter's internal headers
// (vendored in tsinternal/, checked against the module's copies). The binding's per-node Go API is not
// used: it is several times slower and keeps every node it hands out alive.
// Only this package knows which binding is used; migrating to another one
// (e.g. github.com/tree-sitter/go-tree-sitter) means changing shim.h and the
// grammar registry, nothing else.
//
// Record layout (7 little-endian uint32 per node, preorder):
//
//	w0  kind (u16, canonical symbol id) | field (u8) << 16 | flags (u8) << 24
//	w1  start byte     w2  end byte
//	w3  start row      w4  end row        (0-based)
//	w5  child count    w6  subtree size   (next sibling = i + size)
//
// kind is canonical: the smallest symbol id with the same (name, named) pair.
// ERROR nodes (tree-sitter symbol 0xFFFF) get kind Grammar.ErrorKind, an extra
// entry "ERROR" appended to Grammar.Kinds, so that Kinds stays a dense table.
//
// Memory: a Parser owns a C record buffer that grows to the largest tree it
// has serialized and is reused; Tree.Records is a view of it (no copy),
// valid until the next call on that Parser. The source is passed to C
// without copying. Tree-sitter trees are freed inside the same C call.
//
// Grammars: go, python, javascript, typescript, tsx, java and rust are always
// built in (grammars.go); bash, c, cpp, csharp, css, dockerfile, groovy, hcl,
// html, kotlin, lua, php, protobuf, ruby, scala, sql, swift, toml and yaml are
// added unless the build tag synaptic_coregrammars is set (grammars_extra.go),
// which roughly halves the cold build of this package.
package syntax

/*
#include <stdlib.h>
#include "shim.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"time"
	"unsafe"
)

// Record format constants (must agree with sdk/abi and docs/architecture.md).
const (
	RecordWords = 7               // uint32 words per record
	RecordSize  = RecordWords * 4 // bytes per record

	FlagNamed   = 1 // node is a named node
	FlagError   = 2 // node is an ERROR node
	FlagMissing = 4 // node was inserted by error recovery (zero width)
	FlagExtra   = 8 // node is an extra (e.g. a comment)
)

// Errors returned by Parse.
var (
	ErrTimeout  = errors.New("syntax: parse timed out")
	ErrTooLarge = errors.New("syntax: source or tree too large")
	ErrClosed   = errors.New("syntax: parser is closed")
)

// Grammar is a language known to the host: its name and its symbol and field
// tables. A Grammar is immutable and safe for concurrent use.
type Grammar struct {
	Name string // "go", "python", "javascript", "typescript", "tsx", ...
	// Kinds is the symbol name by id (index = tree-sitter symbol id,
	// including aliases), plus one trailing entry "ERROR" at ErrorKind.
	Kinds []string
	// Named reports whether a symbol id is a named node type.
	Named []bool
	// Fields is the field name by id; Fields[0] == "".
	Fields []string
	// ErrorKind is the kind written for ERROR nodes (tree-sitter symbol
	// 0xFFFF, which has no table entry): the trailing "ERROR" entry,
	// len(Kinds)-1. Records also carry FlagError on those nodes.
	ErrorKind uint16

	lang   *C.TSLanguage
	shared *sharedScanner // nil unless the grammar's scanner keeps global state
	canon  []uint16       // canonical kind by symbol id
	cg     *C.syn_grammar // C view of lang/canon, allocated once, never freed
	byName map[kindKey]uint16
}

type kindKey struct {
	name  string
	named bool
}

// Canonical returns the canonical kind for a symbol id: the smallest id with
// the same (name, named) pair. Ids out of range map to ErrorKind.
func (g *Grammar) Canonical(sym uint16) uint16 {
	if int(sym) < len(g.canon) {
		return g.canon[sym]
	}
	return g.ErrorKind
}

// KindID returns the canonical kind id for a node type name, as written in
// records. named selects between e.g. the named node `identifier` and an
// anonymous token spelled the same way.
func (g *Grammar) KindID(name string, named bool) (uint16, bool) {
	id, ok := g.byName[kindKey{name, named}]
	return id, ok
}

// FieldID returns the id of a field name (0, false if unknown).
func (g *Grammar) FieldID(name string) (uint8, bool) {
	for i, f := range g.Fields {
		if i > 0 && f == name {
			return uint8(i), true
		}
	}
	return 0, false
}

// newGrammar builds the tables of a tree-sitter language and checks that it
// fits the record format (kinds in u16, fields in u8) and the runtime ABI.
func newGrammar(name string, lang unsafe.Pointer) (*Grammar, error) {
	if lang == nil {
		return nil, fmt.Errorf("syntax: grammar %q: nil language", name)
	}
	l := (*C.TSLanguage)(lang)
	if v := C.ts_language_version(l); v < 13 || v > 14 {
		return nil, fmt.Errorf("syntax: grammar %q: language ABI %d not supported by the runtime (13..14)", name, v)
	}
	nsym := int(C.ts_language_symbol_count(l))
	nfield := int(C.ts_language_field_count(l))
	// Symbol 0xFFFF is tree-sitter's ERROR; kinds (incl. our ERROR entry) must fit u16 below it.
	if nsym+1 > math.MaxUint16 {
		return nil, fmt.Errorf("syntax: grammar %q: %d symbols do not fit a u16 kind", name, nsym)
	}
	if nfield > math.MaxUint8 {
		return nil, fmt.Errorf("syntax: grammar %q: %d fields do not fit a u8 field id", name, nfield)
	}
	g := &Grammar{
		Name:      name,
		Kinds:     make([]string, nsym+1),
		Named:     make([]bool, nsym+1),
		Fields:    make([]string, nfield+1),
		ErrorKind: uint16(nsym),
		lang:      l,
		canon:     make([]uint16, nsym),
		byName:    make(map[kindKey]uint16, nsym),
	}
	for i := 0; i < nsym; i++ {
		g.Kinds[i] = C.GoString(C.ts_language_symbol_name(l, C.TSSymbol(i)))
		g.Named[i] = C.ts_language_symbol_type(l, C.TSSymbol(i)) == C.SYN_SYMBOL_REGULAR
	}
	g.Kinds[nsym], g.Named[nsym] = "ERROR", true
	for i := 0; i <= nsym; i++ {
		k := kindKey{g.Kinds[i], g.Named[i]}
		id, ok := g.byName[k]
		if !ok {
			id = uint16(i)
			g.byName[k] = id
		}
		if i < nsym {
			g.canon[i] = id
		} else {
			g.ErrorKind = id // a grammar with its own named "ERROR" symbol shares it
		}
	}
	for i := 1; i <= nfield; i++ {
		g.Fields[i] = C.GoString(C.ts_language_field_name_for_id(l, C.TSFieldId(i)))
	}
	// The C side reads the canonical table on every node: give it a stable
	// C copy, allocated once per grammar (grammars live for the process).
	cg := (*C.syn_grammar)(C.calloc(1, C.size_t(unsafe.Sizeof(C.syn_grammar{}))))
	canon := (*C.uint16_t)(C.calloc(C.size_t(nsym+1), 2))
	copy(unsafe.Slice((*uint16)(unsafe.Pointer(canon)), nsym+1), g.canon)
	cg.lang = l
	cg.canon = canon
	cg.ncanon = C.uint32_t(nsym)
	cg.error_kind = C.uint16_t(g.ErrorKind)
	g.cg = cg
	return g, nil
}

// ---- registry ----

type entry struct {
	lang   func() unsafe.Pointer
	shared *sharedScanner
	once   sync.Once
	g      *Grammar
	err    error
}

var registry = map[string]*entry{}

func register(name string, lang func() unsafe.Pointer) {
	registerShared(name, lang, nil)
}

// sharedScanner serializes the parses of a grammar whose external scanner
// keeps its state in C globals instead of its per-parser payload (lua):
// two workers parsing at once would race on it, and a parse that ends
// inside a token would leave it set for the next one, since the grammar's
// deserialize ignores the empty state tree-sitter starts each parse with.
type sharedScanner struct {
	mu    sync.Mutex
	reset func() // clears the globals; called with mu held
}

// registerShared registers a grammar whose scanner state is global;
// shared == nil is an ordinary grammar.
func registerShared(name string, lang func() unsafe.Pointer, shared *sharedScanner) {
	if _, dup := registry[name]; dup {
		panic("syntax: grammar registered twice: " + name)
	}
	registry[name] = &entry{lang: lang, shared: shared}
}

// Lookup returns the built-in grammar called name ("go", "python", ...).
// Tables are built on first use. It reports false for unknown names (and,
// defensively, for a grammar that fails validation; tests ensure none does).
func Lookup(name string) (*Grammar, bool) {
	g, err := load(name)
	return g, err == nil
}

func load(name string) (*Grammar, error) {
	e, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("syntax: unknown grammar %q", name)
	}
	e.once.Do(func() {
		e.g, e.err = newGrammar(name, e.lang())
		if e.g != nil {
			e.g.shared = e.shared
		}
	})
	return e.g, e.err
}

// Names returns the names of the built-in grammars, sorted.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ---- parser ----

// ParseOptions tune one Parse call.
type ParseOptions struct {
	// NamedOnly drops anonymous nodes (punctuation, keywords). Their named
	// descendants, if any, are attached to the nearest emitted ancestor;
	// child counts and subtree sizes count emitted nodes only. The root is
	// always emitted.
	NamedOnly bool
	// Timeout bounds the parse (ts_parser_set_timeout_micros); 0 = none.
	// Serialization is not bounded (it is linear in the tree size).
	Timeout time.Duration
}

// Tree is the result of Parse.
type Tree struct {
	// Records is NodeCount records of RecordSize bytes, preorder; record 0
	// is the root. It is a view over the Parser's C buffer: valid until the
	// next Parse, ParseOnly or Close on the same Parser. Use Clone to keep it.
	Records []byte
	// NodeCount is the number of records.
	NodeCount int
	// HasError reports whether the tree contains syntax errors (ERROR or
	// MISSING nodes); the tree is still complete.
	HasError bool
}

// Clone returns a copy of t whose Records are owned by the Go heap.
func (t Tree) Clone() Tree {
	t.Records = append([]byte(nil), t.Records...)
	return t
}

// Parser parses files. It is meant to be owned by one worker: it is not safe
// for concurrent use. It keeps a tree-sitter parser and its record and stack
// buffers across calls; the buffers grow to the largest tree seen and are
// reused (never shrunk). Call Close to release them.
type Parser struct {
	p       *C.syn_parser
	cleanup runtime.Cleanup
}

// NewParser returns a Parser. It panics if the C allocation fails.
func NewParser() *Parser {
	cp := C.syn_parser_new()
	if cp == nil {
		panic("syntax: out of memory creating a parser")
	}
	p := &Parser{p: cp}
	// Safety net only: C memory is invisible to the GC, so call Close.
	p.cleanup = runtime.AddCleanup(p, func(cp *C.syn_parser) { C.syn_parser_free(cp) }, cp)
	return p
}

// Close releases the parser's C memory. The last Tree's Records become
// invalid. Close is idempotent.
func (p *Parser) Close() {
	if p.p == nil {
		return
	}
	p.cleanup.Stop()
	C.syn_parser_free(p.p)
	p.p = nil
}

// Stats are cumulative per-Parser counters. CPU times are the OS thread's
// CPU time (CLOCK_THREAD_CPUTIME_ID) around the C stages, so they stay
// meaningful on a loaded machine; they are 0 where that clock is missing.
type Stats struct {
	Files        int64         // successful parses (Parse and ParseOnly)
	Nodes        int64         // records written by Parse
	ParseCPU     time.Duration // in ts_parser_parse_string (incl. timed-out parses)
	SerializeCPU time.Duration // serializing and freeing the tree (ParseOnly: freeing only)
}

// Stats returns the parser's cumulative counters.
func (p *Parser) Stats() Stats {
	if p.p == nil {
		return Stats{}
	}
	return Stats{
		Files:        int64(p.p.files),
		Nodes:        int64(p.p.nodes),
		ParseCPU:     time.Duration(p.p.parse_ns),
		SerializeCPU: time.Duration(p.p.serialize_ns),
	}
}

// BufferBytes returns the capacity of the parser's C record buffer in bytes
// (it grows to the largest tree serialized and is reused).
func (p *Parser) BufferBytes() int {
	if p.p == nil {
		return 0
	}
	return int(p.p.out.cap) * RecordSize
}

// ReleaseBuffers frees the record and stack buffers (e.g. after a huge file,
// when BufferBytes is above a budget); they are reallocated on demand. The
// last Tree's Records become invalid.
func (p *Parser) ReleaseBuffers() {
	if p.p != nil {
		C.syn_parser_release_buffers(p.p)
	}
}

// emptySrc is passed for empty sources so that C never sees a nil pointer.
var emptySrc = [1]byte{}

func (p *Parser) run(g *Grammar, src []byte, timeout time.Duration, mode C.int) error {
	if p.p == nil {
		return ErrClosed
	}
	if g == nil || g.cg == nil {
		return errors.New("syntax: nil or invalid grammar")
	}
	if uint64(len(src)) >= math.MaxUint32 {
		return ErrTooLarge
	}
	var us uint64
	if timeout > 0 {
		us = max(uint64(timeout/time.Microsecond), 1)
	}
	ptr := &emptySrc[0]
	if len(src) > 0 {
		ptr = unsafe.SliceData(src)
	}
	if sh := g.shared; sh != nil {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		sh.reset()
	}
	// src is Go memory without pointers, passed for the duration of the call
	// only: tree-sitter does not keep it after ts_parser_parse_string returns
	// and the tree is deleted inside syn_parse.
	rc := C.syn_parse(p.p, g.cg, (*C.char)(unsafe.Pointer(ptr)), C.uint32_t(len(src)), C.uint64_t(us), mode)
	runtime.KeepAlive(src)
	switch rc {
	case C.SYN_OK:
		return nil
	case C.SYN_ERR_TIMEOUT:
		return fmt.Errorf("%w (%s, %d bytes, grammar %s)", ErrTimeout, timeout, len(src), g.Name)
	case C.SYN_ERR_LANGUAGE:
		return fmt.Errorf("syntax: grammar %s rejected by the tree-sitter runtime", g.Name)
	case C.SYN_ERR_NOMEM:
		return fmt.Errorf("syntax: out of memory serializing %d bytes of %s", len(src), g.Name)
	case C.SYN_ERR_TOOBIG:
		return ErrTooLarge
	default:
		return fmt.Errorf("syntax: internal error %d", int(rc))
	}
}

// Parse parses src with g and serializes the tree into flat preorder records.
// Syntax errors do not fail the parse: the tree is returned with HasError
// set. A timeout returns an error wrapping ErrTimeout. Empty src yields a
// tree with just the root. The returned Records are valid until the next
// call on p (see Tree).
func (p *Parser) Parse(g *Grammar, src []byte, opts ParseOptions) (Tree, error) {
	return p.parse(g, src, opts, 0)
}

// parseReference is Parse that also serializes the same tree with the
// TSTreeCursor walk, the reference the differential tests hold the direct
// walk (walk.c) to. Both results are valid until the next call on p.
func (p *Parser) parseReference(g *Grammar, src []byte, opts ParseOptions) (walk, cursor Tree, err error) {
	walk, err = p.parse(g, src, opts, C.SYN_MODE_REFERENCE)
	if err != nil {
		return Tree{}, Tree{}, err
	}
	n := int(p.p.ref.len)
	cursor = Tree{Records: unsafe.Slice((*byte)(unsafe.Pointer(p.p.ref.recs)), n*RecordSize), NodeCount: n, HasError: walk.HasError}
	return walk, cursor, nil
}

// parseCursor is Parse through the TSTreeCursor walk alone, the baseline
// of the serialization benchmarks.
func (p *Parser) parseCursor(g *Grammar, src []byte, opts ParseOptions) (Tree, error) {
	return p.parse(g, src, opts, C.SYN_MODE_CURSOR)
}

func (p *Parser) parse(g *Grammar, src []byte, opts ParseOptions, flags C.int) (Tree, error) {
	mode := C.int(C.SYN_MODE_ALL)
	if opts.NamedOnly {
		mode = C.SYN_MODE_NAMED_ONLY
	}
	if err := p.run(g, src, opts.Timeout, mode|flags); err != nil {
		return Tree{}, err
	}
	n := int(p.p.out.len)
	return Tree{
		Records:   unsafe.Slice((*byte)(unsafe.Pointer(p.p.out.recs)), n*RecordSize),
		NodeCount: n,
		HasError:  p.p.has_error != 0,
	}, nil
}

// ParseOnly parses src and frees the tree without serializing it. It is the
// parse-only baseline for throughput comparisons (benchmarks of other
// packages); it invalidates the last Tree's Records like Parse does.
func (p *Parser) ParseOnly(g *Grammar, src []byte) error {
	return p.run(g, src, 0, C.SYN_MODE_PARSE_ONLY)
}
