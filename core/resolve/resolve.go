// Package resolve turns per-file extractor facts into graph nodes and edges.
//
// Extractors see one file at a time and report names as written. Resolution
// runs after every file is extracted, over all facts at once, so its result
// depends only on the set of files and never on extraction order or worker
// count. An incremental run (BuildIncremental) copies the calls of files
// whose answers cannot have changed from the previous run's Memo and
// equals a full run byte for byte (reuse.go).
//
// Confidence policy:
//   - facts read from one file's syntax (definitions, containment,
//     same-file calls) are EXTRACTED;
//   - cross-file links proven by an import, a package, or a known receiver
//     type are EXTRACTED;
//   - otherwise a call is linked only when exactly one candidate of the same
//     language family has the name: INFERRED with score 0.8;
//   - names with several candidates are never linked (counted as ambiguous).
package resolve

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// File is one extracted file.
type File struct {
	Path     string // slash-separated, relative to the repository root
	Language string // manifest language name ("go", "tsx")
	Family   string // language family ("go", "ecmascript")
	Facts    *abi.Facts
	// Generated marks a generated file; its node says so ("generated": true).
	Generated bool
	// ABI is the extractor ABI of the plugin that made Facts (0 = 1).
	ABI int
	// Semantics are the plugin's declared call semantics (ABI v2 only).
	Semantics Semantics
	// Key identifies Facts (with Language and Generated) for the memo of
	// an incremental resolution: equal keys mean equal facts. "" means
	// unknown: the file is never taken as unchanged.
	Key string
}

// Stats counts what resolution did with call sites.
type Stats struct {
	Calls      int // call sites seen
	Extracted  int // linked with proof
	Inferred   int // linked by a unique name
	Ambiguous  int // not linked: several candidates
	Unresolved int // not linked: no candidate (external or dynamic)
	// Implicit counts the Unresolved sites the plugin marked implicit (an
	// operator, a subscript, len(x)): most run on builtin values, whose
	// methods no repository defines, so they are reported apart.
	Implicit int
}

// InferredScore is the confidence score of unique-name links.
const InferredScore = 0.8

// Build resolves files into a canonical graph. files may be in any order.
func Build(files []File) (*graph.Graph, Stats) {
	g, st, _ := BuildContext(context.Background(), files)
	return g, st
}

// BuildContext is Build that stops between passes once ctx is done
// (returning ctx's error and no graph): serve's background exact run is
// interrupted by a newer edit, and a full pass over GOROOT's facts would
// otherwise keep a core busy for seconds beside the answer to that edit.
func BuildContext(ctx context.Context, files []File) (*graph.Graph, Stats, error) {
	g, st, _, err := build(ctx, files, nil)
	return g, st, err
}

// Options ask BuildIncremental for a memo and say which one to reuse.
type Options struct {
	// Build identifies this synaptic build; a memo of another is ignored.
	Build string
	// Prev is the previous run's memo, nil for none.
	Prev *Memo
	// NoPrev says why Prev is nil, for Reuse.Full ("no memo" if empty).
	NoPrev string
}

// Result is what BuildIncremental made besides the graph.
type Result struct {
	Stats Stats
	Memo  *Memo // for the next run
	Reuse Reuse
}

// BuildIncremental is BuildContext that also records a Memo for the next
// run and, given the previous run's, copies the calls of the files whose
// answers cannot have changed instead of resolving them again (reuse.go).
// The graph is the one BuildContext makes, byte for byte.
func BuildIncremental(ctx context.Context, files []File, opts Options) (*graph.Graph, Result, error) {
	g, st, r, err := build(ctx, files, &opts)
	if err != nil {
		return nil, Result{}, err
	}
	return g, Result{Stats: st, Memo: r.next, Reuse: r.usage}, nil
}

func build(ctx context.Context, files []File, opts *Options) (*graph.Graph, Stats, *resolver, error) {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	r := &resolver{
		files:    make([]fileInfo, len(files)),
		ids:      make(map[string]bool),
		pkgs:     make(map[string]*pkgInfo),
		byFamily: make(map[string]map[string][]int32),
		methods:  make(map[int32]map[string][]int32),
		fields:   make(map[int32]map[string][]int32),
		bases:    make(map[int32][]int32),
		dirs:     make(map[string][]int32),
	}
	nsyms := 0
	for i := range files {
		r.files[i].File = &files[i]
		r.files[i].idx = int32(i)
		nsyms += len(files[i].Facts.Symbols)
	}
	if opts != nil {
		r.useOptions(opts)
	}
	// Sized up front: regrowing a slice of large records was the main cost,
	// and its one long memmove stalls the collector's preemption too.
	// Capacity never touched costs no resident memory, but it is garbage
	// the collector counts against the memory limit (see edgeCap).
	r.syms = make([]sym, 0, nsyms)
	r.nodes = make([]graph.Node, 0, len(files)+nsyms+len(files)/4)
	r.edges = make([]graph.Edge, 0, r.edgeCap())
	r.ids = make(map[string]bool, len(files)+nsyms)
	passes := []func(){
		r.addFiles, r.addSymbols, r.attachReceivers, r.indexMembers,
		r.resolveImports, r.markImported, r.resolveRelations, r.recordAll, r.resolveCalls,
		r.resolveValueRefs, r.recordUnlinked, r.resolveDynamic, r.resolveChannels,
		r.resolveRoutes, r.resolveCrossLanguage, r.resolveSQL,
	}
	for _, pass := range passes {
		if err := ctx.Err(); err != nil {
			return nil, Stats{}, nil, err
		}
		pass()
	}
	if err := ctx.Err(); err != nil {
		return nil, Stats{}, nil, err
	}
	if r.next != nil {
		r.next.edges = len(r.edges)
	}
	g := &graph.Graph{Directed: true, Nodes: r.nodes, Edges: r.edges}
	g.Canonicalize()
	return g, r.stats, r, nil
}

// useOptions takes BuildIncremental's options: a memo is wanted, and
// opts.Prev is reused when this build wrote it.
func (r *resolver) useOptions(opts *Options) {
	r.build, r.wantMemo = opts.Build, true
	r.usage = Reuse{Files: len(r.files), Resolved: len(r.files), Full: opts.NoPrev}
	switch {
	case opts.Prev == nil:
		if r.usage.Full == "" {
			r.usage.Full = "no memo of an earlier run"
		}
	case opts.Prev.Build != opts.Build || opts.Build == "":
		r.usage.Full = "the memo was written by another synaptic build"
	default:
		r.prev = opts.Prev
	}
}

// edgeCap is the capacity r.edges is made with. The bound is one edge per
// file (its package's contains), per symbol (contains/method) and per
// fact (GOROOT: 1.05M for ~610k edges). Given a previous run, the edges
// are about as many as it made, plus the bound for the files whose facts
// changed: the bound's ~70 MB of unused 160-byte records brought
// collections forward under extract's memory limit (BenchmarkResolve-
// Incremental with GOMEMLIMIT=704MiB: ~1500 -> ~1290 cpu-ms/op). An
// underestimate only regrows the slice; the graph is the same.
func (r *resolver) edgeCap() int {
	bound, changed := 0, 0
	for i := range r.files {
		f := r.files[i].File
		n := fileEdgeBound(f.Facts)
		bound += n
		if r.prev == nil {
			continue
		}
		if was := r.prev.files[f.Path]; was == nil || was.key != f.Key || f.Key == "" {
			changed += n
		}
	}
	if r.prev == nil || r.prev.edges <= 0 {
		return bound
	}
	return min(bound, r.prev.edges+r.prev.edges/256+1024+changed)
}

// fileEdgeBound is the most edges one file's facts give: see edgeCap.
func fileEdgeBound(f *abi.Facts) int {
	return 1 + len(f.Symbols) + len(f.Calls) + len(f.Imports) + len(f.Relations) + len(f.Dynamic) + 2*len(f.Channels)
}

type sym struct {
	file   int32
	local  int32 // index in the file's Facts.Symbols
	id     string
	name   string
	kind   string
	parent int32 // global index of the enclosing symbol, -1 at top level
	owner  int32 // type a receiver method belongs to (-1 if none or unknown)
}

type fileInfo struct {
	*File
	idx      int32
	id       string
	stem     string
	dir      string
	pkg      *pkgInfo
	test     bool
	first    int32                // global index of the file's first symbol
	top      map[string][]int32   // top-level definitions by name, when pkg is nil (see topIn)
	bindings map[string][]binding // import-bound local names
}

// pkgInfo is a package: files whose top-level names share one scope (a
// v2 FileFacts.Scope, a Go or Java package).
type pkgInfo struct {
	key   string
	name  string
	scope string // the v2 scope ("" for a v1 package)
	id    string
	files []int32
	top   map[string][]int32
	ntop  int // top-level definitions, to size top (sizeNameTables)
}

// binding is what an imported local name refers to.
type binding struct {
	pkg  *pkgInfo // a whole package (Go import, Java wildcard)
	file int32    // a whole module file (-1 if none)
	name string   // a symbol name inside pkg/file ("" = the module itself)
	sym  int32    // a resolved symbol (-1 if none)
}

type resolver struct {
	files []fileInfo
	syms  []sym
	// modIndex is the module index imports were resolved with, kept for
	// module-path receivers (modulePath).
	modIndex *importIndex
	// imported marks the files some import binds (an #include target):
	// their file-private definitions are visible to the importers too.
	imported []bool
	nodes    []graph.Node
	symNode0 int // index in nodes of the first symbol's node (see symNode)
	edges    []graph.Edge
	ids      map[string]bool
	pkgs     map[string]*pkgInfo
	byFamily map[string]map[string][]int32 // family -> name -> top-level definitions
	methods  map[int32]map[string][]int32  // type -> method name -> methods
	fields   map[int32]map[string][]int32  // type -> field name -> fields
	bases    map[int32][]int32             // type -> resolved bases/embedded types
	dirs     map[string][]int32            // directory -> files
	stubs    map[string]string             // stub key -> id
	locs     []string                      // "L<n>" by n, see loc
	nested   map[int32][]int32             // callable -> symbols declared in its body
	// methodsByName is family -> method name -> methods, built on first
	// use by the unique_method receiver fallback.
	methodsByName map[string]map[string][]int32
	unlinked      map[int32][]string // caller -> names of its unlinked member calls (unlinked.go)
	// callFile is the file whose call is being resolved and callOwn the
	// caller's own variant constraints (its #ifdef branch); twinsOf, for
	// a target found there, every build-variant twin the call links to.
	callFile    *fileInfo
	callOwn     []abi.Constraint
	compatMemo  map[filePair]bool   // see filesCompatible
	twinSets    map[twinKey]twinSet // see areTwins
	pickScratch []int32             // see pick
	twinsOf     map[int32][]int32
	stats       Stats
	// Incremental resolution (reuse.go), when BuildIncremental asked
	// for a memo (wantMemo).
	build     string
	prev      *Memo       // the previous run's, when usable
	next      *Memo       // this run's
	memos     []*fileMemo // this run's, by file index
	reuse     []bool      // by file index: calls copied from prev
	usage     Reuse
	recording bool // note and the call pass record into curMemo
	// inValueRefs: resolveValueRefs is resolving (see noteUnlinked).
	inValueRefs bool
	curMemo     *fileMemo
	noted       []string         // arena of every file's noted names, in lookup order
	edgeArena   []memoEdge       // arena of every file's memo edges
	notedIn     map[string]int32 // see note
	noteStamp   int32
	wantMemo    bool
}

func (r *resolver) uniqueID(id string, line uint32) string {
	if id == "" {
		id = "node"
	}
	// A new id grows the map: one assignment hashes id once where a
	// lookup first hashed it twice (~0.04 CPU-s a run on GOROOT/src).
	n := len(r.ids)
	r.ids[id] = true
	if len(r.ids) > n {
		return id
	}
	alt := graph.MakeID(id, "overload", strconv.Itoa(int(line)))
	for n := 2; r.ids[alt]; n++ {
		alt = graph.MakeID(id, "overload", strconv.Itoa(int(line)), strconv.Itoa(n))
	}
	r.ids[alt] = true
	return alt
}

func stemOf(p string) string {
	ext := path.Ext(p)
	return strings.ReplaceAll(strings.TrimSuffix(p, ext), "/", ".")
}

// loc is the source_location of line ("L42"). Every node and edge carries
// one, so the strings are made once per line number and shared.
func (r *resolver) loc(line uint32) string {
	if int(line) >= len(r.locs) {
		if line > 1<<20 {
			return "L" + strconv.Itoa(int(line))
		}
		r.locs = slices.Grow(r.locs, int(line)+1-len(r.locs))
		for n := len(r.locs); n <= int(line); n++ {
			r.locs = append(r.locs, "L"+strconv.Itoa(n))
		}
	}
	return r.locs[line]
}

func (r *resolver) addFiles() {
	for i := range r.files {
		f := &r.files[i]
		f.id = r.uniqueID(graph.MakeID(f.Path), 1)
		f.stem = stemOf(f.Path)
		f.dir = path.Dir(f.Path)
		f.test = graph.IsTestPath(f.Path)
		if f.v2() {
			f.test = f.Facts.File.Test // the plugin knows its test conventions
		}
		r.dirs[f.dir] = append(r.dirs[f.dir], int32(i))
		fn := graph.Node{
			ID: f.id, Label: path.Base(f.Path), FileType: "code", SourceFile: f.Path,
			SourceLocation: "L1", Kind: "file", Language: f.Language, IsTest: f.test,
			Doc: f.Facts.Doc,
		}
		if f.Generated {
			fn.Extra = map[string]json.RawMessage{"generated": json.RawMessage("true")}
		}
		r.nodes = append(r.nodes, fn)
		if key, name, scope := packageOf(f); key != "" {
			pk := r.pkgs[key]
			if pk == nil {
				pk = &pkgInfo{key: key, name: name, scope: scope} // top: see sizeNameTables
				r.pkgs[key] = pk
			}
			pk.files = append(pk.files, int32(i))
			f.pkg = pk
		}
	}
	// Package nodes, in key order so ids are assigned deterministically.
	keys := make([]string, 0, len(r.pkgs))
	for k := range r.pkgs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		pk := r.pkgs[k]
		first := &r.files[pk.files[0]]
		parts := []string{"package", pk.name}
		if pk.scope != "" {
			parts = []string{first.dir, "package", pk.name} // a scope is named where its first file is
		}
		pk.id = r.uniqueID(graph.MakeID(parts...), 1)
		r.nodes = append(r.nodes, graph.Node{
			ID: pk.id, Label: pk.name, FileType: "code", SourceFile: first.Path,
			SourceLocation: "L1", Kind: "package", Language: first.Language,
		})
		for _, fi := range pk.files {
			f := &r.files[fi]
			r.edge(pk.id, f.id, "contains", graph.Extracted, 0, f.Path, 1)
		}
	}
}

// packageOf is the package f joins: by its v2 scope (the plugin said
// which files share top-level names) or, for a v1 plugin, by its package
// clause. key is "" for none.
func packageOf(f *fileInfo) (key, name, scope string) {
	if f.v2() {
		scope = f.Facts.File.Scope
		if scope == "" {
			return "", "", ""
		}
		name = f.Facts.Package
		if name == "" {
			name = lastElement(scope)
		}
		return scopeKey(f.Family, scope), name, scope
	}
	p := f.Facts.Package
	if p == "" {
		return "", "", ""
	}
	return f.Family + ":" + p, p, ""
}

// lastElement is what follows the last path separator of a module key
// or scope ("net/http" -> "http", "crate::x" -> "x", "gopkg.in/yaml.v3"
// -> "yaml.v3"); a plugin that binds another name says so in Alias.
func lastElement(key string) string {
	if i := strings.LastIndexAny(key, "/:\\"); i >= 0 && i+1 < len(key) {
		return key[i+1:]
	}
	return key
}

func isCallable(kind string) bool {
	return kind == "function" || kind == "method" || kind == "constructor"
}

// typeCarrier reports a signature that only carries the declared type of a
// field or variable (Return alone), which resolution uses to follow
// x.f.M() and pkg.V.M(). It is not a callable's signature, so it stays out
// of the graph.
func typeCarrier(s *abi.Symbol) bool {
	sig := s.Signature
	return !isCallable(string(s.Kind)) && sig.Raw == "" && len(sig.Params) == 0
}

func isType(kind string) bool {
	switch abi.SymbolKind(kind) {
	case abi.KindClass, abi.KindStruct, abi.KindInterface, abi.KindTrait, abi.KindEnum,
		abi.KindTypeAlias, abi.KindObject, abi.KindProtocol, abi.KindRecord:
		return true
	}
	return false
}

func label(s *abi.Symbol) string {
	switch s.Kind {
	case "function":
		return s.Name + "()"
	case "method", "constructor":
		return "." + s.Name + "()"
	}
	return s.Name
}

// addSymbols gives every symbol its id, node and containment edge, in
// file and symbol order (ids made unique in that order). The name tables
// do not depend on ids: indexNames fills them on the other core
// meanwhile.
func (r *resolver) addSymbols() {
	first := int32(0)
	for fi := range r.files {
		r.files[fi].first = first
		first += int32(len(r.files[fi].Facts.Symbols))
	}
	var wg sync.WaitGroup
	wg.Go(r.indexNames)
	defer wg.Wait()
	var al nodeAlloc
	r.symNode0 = len(r.nodes)
	for fi := range r.files {
		f := &r.files[fi]
		for li := range f.Facts.Symbols {
			s := &f.Facts.Symbols[li]
			parent := int32(-1)
			var base string
			switch {
			case s.Parent >= 0:
				parent = f.first + s.Parent
				base = graph.MakeID(r.syms[parent].id, s.Name)
			case s.Receiver != "":
				base = graph.MakeID(f.stem, s.Receiver, s.Name)
			default:
				base = graph.MakeID(f.stem, s.Name)
			}
			id := r.uniqueID(base, s.Span.StartLine)
			r.syms = append(r.syms, sym{file: int32(fi), local: int32(li), id: id, name: s.Name, kind: string(s.Kind), parent: parent, owner: -1})
			r.nodes = append(r.nodes, r.symbolNode(f, s, id, &al))
			if parent >= 0 {
				rel := "contains"
				if isCallable(string(s.Kind)) && isType(r.syms[parent].kind) {
					rel = "method"
				}
				r.edge(r.syms[parent].id, id, rel, graph.Extracted, 0, f.Path, s.Span.StartLine)
				continue
			}
			r.edge(f.id, id, "contains", graph.Extracted, 0, f.Path, s.Span.StartLine)
		}
	}
}

// symNode is symbol g's node: addSymbols appends them in symbol order.
func (r *resolver) symNode(g int32) *graph.Node { return &r.nodes[r.symNode0+int(g)] }

// symbolNode is the node of symbol s of f, whose id is id.
func (r *resolver) symbolNode(f *fileInfo, s *abi.Symbol, id string, al *nodeAlloc) graph.Node {
	n := graph.Node{
		ID: id, Label: label(s), FileType: "code", SourceFile: f.Path,
		SourceLocation: r.loc(s.Span.StartLine), Kind: string(s.Kind), Visibility: string(s.Visibility),
		Language: f.Language, IsTest: s.Test || f.test, Doc: s.Doc,
	}
	if s.Span.StartLine > 0 {
		n.Span = al.spans.one()
		*n.Span = graph.Span{StartLine: int(s.Span.StartLine), StartCol: int(s.Span.StartCol), EndLine: int(s.Span.EndLine), EndCol: int(s.Span.EndCol)}
	}
	if sig := s.Signature; sig != nil && !typeCarrier(s) {
		gs := al.sigs.one()
		*gs = graph.Signature{ReturnType: sig.Return, Raw: sig.Raw, Params: al.params.many(len(sig.Params))}
		for i, p := range sig.Params {
			gs.Params[i] = graph.Param{Name: p.Name, TypeRef: p.Type}
		}
		n.Signature = gs
	}
	return n
}

// nodeAlloc hands out the small records symbol nodes point to from a few
// large chunks: one allocation each for ~300k spans, signatures and their
// parameters on GOROOT/src was ~0.05 CPU-s of every resolution. The
// graph keeps all of them alive together anyway.
type nodeAlloc struct {
	spans  slab[graph.Span]
	sigs   slab[graph.Signature]
	params slab[graph.Param]
}

// slab allocates Ts in chunks of slabChunk.
type slab[T any] struct{ free []T }

const slabChunk = 4096

// one is a new zero T.
func (s *slab[T]) one() *T { return &s.many(1)[0] }

// many is n new zero Ts, a slice whose capacity is n: an append to it
// copies rather than overwrites a neighbour. It is never nil, as
// make([]T, 0, n) is not.
func (s *slab[T]) many(n int) []T {
	if n > slabChunk/4 {
		return make([]T, n)
	}
	if len(s.free) < n {
		s.free = make([]T, slabChunk)
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

// indexNames fills the tables later passes look definitions up in by
// name: each package's or file's top-level definitions (methods with a
// receiver are attached to their type later), each family's top-level
// callables and types, and each callable's nested symbols, all in symbol
// order. It reads only the facts and each file's first symbol index.
func (r *resolver) indexNames() {
	r.sizeNameTables()
	for fi := range r.files {
		f := &r.files[fi]
		syms := f.Facts.Symbols
		for li := range syms {
			s := &syms[li]
			g := f.first + int32(li)
			if s.Parent >= 0 {
				if isCallable(string(syms[s.Parent].Kind)) {
					p := f.first + s.Parent
					r.nested[p] = append(r.nested[p], g)
				}
				continue
			}
			if s.Receiver != "" {
				continue
			}
			if f.pkg != nil {
				f.pkg.top[s.Name] = append(f.pkg.top[s.Name], g)
			} else {
				f.top[s.Name] = append(f.top[s.Name], g)
			}
			if isCallable(string(s.Kind)) || isType(string(s.Kind)) {
				m := r.byFamily[f.Family]
				m[s.Name] = append(m[s.Name], g)
			}
		}
	}
}

// sizeNameTables makes the maps indexNames fills, each with room for as
// many names as it will get entries: grown an insertion at a time, the
// large ones (a family's, with ~100k names on GOROOT/src) rehashed again
// and again.
func (r *resolver) sizeNameTables() {
	family := map[string]int{}
	nested := 0
	for fi := range r.files {
		f := &r.files[fi]
		syms := f.Facts.Symbols
		top, fam := 0, 0
		for li := range syms {
			s := &syms[li]
			switch {
			case s.Parent >= 0:
				if isCallable(string(syms[s.Parent].Kind)) {
					nested++
				}
			case s.Receiver != "":
			default:
				top++
				if isCallable(string(s.Kind)) || isType(string(s.Kind)) {
					fam++
				}
			}
		}
		if f.pkg != nil {
			f.pkg.ntop += top
		} else {
			f.top = make(map[string][]int32, top)
		}
		if fam > 0 {
			family[f.Family] += fam
		}
	}
	for _, pk := range r.pkgs {
		pk.top = make(map[string][]int32, pk.ntop)
	}
	for fam, n := range family {
		r.byFamily[fam] = make(map[string][]int32, n)
	}
	if nested > 0 {
		r.nested = make(map[int32][]int32, nested)
	}
}

// topIn is f's top-level definitions named name. Files of a package read
// the package's table, where one file's entries form one run (files are
// added in order), instead of each holding a map of its own: that saved a
// map per file, thousands on a large tree.
func (r *resolver) topIn(f *fileInfo, name string) []int32 {
	r.note(name)
	if f.pkg == nil {
		return f.top[name]
	}
	all := f.pkg.top[name]
	i := 0
	for i < len(all) && r.syms[all[i]].file != f.idx {
		i++
	}
	j := i
	for j < len(all) && r.syms[all[j]].file == f.idx {
		j++
	}
	return all[i:j]
}

// attachReceivers links methods declared outside their type (Go methods,
// Rust impl blocks) to the type: same file, then same package, then a unique
// type of that name in the family.
//
// A receiver type declared once per build (netFD in fd_posix.go and
// fd_fake.go) owns the methods of the files built with it: the method's
// file picks its twin as a call's file would.
func (r *resolver) attachReceivers() {
	defer func() { r.callFile, r.callOwn = nil, nil; clear(r.twinsOf) }()
	for gi := range r.syms {
		s := &r.syms[gi]
		f := &r.files[s.file]
		recv := f.Facts.Symbols[s.local].Receiver
		if recv == "" {
			continue
		}
		line := f.Facts.Symbols[s.local].Span.StartLine
		r.callFile, r.callOwn = f, f.Facts.Symbols[s.local].Variants // a type with build-variant twins: each one f can be built with
		clear(r.twinsOf)
		if t := r.findType(f, recv, false); t >= 0 {
			s.owner = t
			twins := r.twinsOf[t]
			if len(twins) == 0 {
				twins = []int32{t}
			}
			for _, tw := range twins {
				r.edge(r.syms[tw].id, s.id, "method", graph.Extracted, 0, f.Path, line)
			}
		} else if t := r.uniqueInFamily(f.Family, recv, isType); t >= 0 && !f.typesOnlyThroughImports() {
			// Go methods live in their type's package, so only other
			// languages (Rust impls anywhere in a crate) get this guess.
			s.owner = t
			r.edge(r.syms[t].id, s.id, "method", graph.Inferred, InferredScore, f.Path, line)
		}
	}
	r.callFile = nil
}

func (r *resolver) indexMembers() {
	for gi := range r.syms {
		s := &r.syms[gi]
		if s.kind == "field" && s.parent >= 0 && isType(r.syms[s.parent].kind) {
			m := r.fields[s.parent]
			if m == nil {
				m = make(map[string][]int32)
				r.fields[s.parent] = m
			}
			m[s.name] = append(m[s.name], int32(gi))
			continue
		}
		if !isCallable(s.kind) {
			continue
		}
		owner := s.owner
		if owner < 0 && s.parent >= 0 && isType(r.syms[s.parent].kind) {
			owner = s.parent
		}
		if owner < 0 {
			continue
		}
		m := r.methods[owner]
		if m == nil {
			m = make(map[string][]int32)
			r.methods[owner] = m
		}
		m[s.name] = append(m[s.name], int32(gi))
	}
}

// findType finds a type named name visible from f without guessing: in f,
// in f's package, or through an import binding (for qualified names).
func (r *resolver) findType(f *fileInfo, name string, useBindings bool) int32 {
	r.note(name)
	if q, n, ok := splitQualified(name); ok {
		r.note(q)
		r.note(n)
		if !useBindings {
			return -1
		}
		for _, b := range f.bindings[q] {
			if t := r.lookupIn(b, n, isType); t >= 0 {
				return t
			}
		}
		return r.scopeQualifiedType(f, name)
	}
	if t := pick(r, r.topIn(f, name), isType); t >= 0 {
		return t
	}
	if f.pkg != nil {
		if t := pick(r, f.pkg.top[name], isType); t >= 0 {
			return t
		}
	}
	if useBindings {
		for _, b := range f.bindings[name] {
			if b.sym >= 0 && isType(r.syms[b.sym].kind) {
				return b.sym
			}
			if b.name != "" {
				if t := r.lookupIn(binding{pkg: b.pkg, file: b.file, sym: -1}, b.name, isType); t >= 0 {
					return t
				}
			}
		}
		return r.lookupWildcard(f, name, isType)
	}
	return -1
}

// lookupWildcard finds name through the file's wildcard imports (Go's
// `import . "pkg"`, Java's `import pkg.*`, Python's `from m import *`),
// which the language consults after the file's own scope. A name that more
// than one of them provides is ambiguous and resolves to nothing.
func (r *resolver) lookupWildcard(f *fileInfo, name string, ok func(string) bool) int32 {
	r.note(name)
	r.note("*")
	found := int32(-1)
	for _, b := range f.bindings["*"] {
		if b.sym >= 0 {
			continue // a static wildcard's members are methods, not types or functions
		}
		if t := r.lookupIn(b, name, ok); t >= 0 && t != found {
			if found >= 0 {
				return -1
			}
			found = t
		}
	}
	return found
}

// splitQualified splits "pkg.Type" or "a::b::Type" into qualifier and name.
func splitQualified(s string) (string, string, bool) {
	if i := strings.LastIndex(s, "::"); i > 0 {
		q := s[:i]
		if j := strings.LastIndex(q, "::"); j >= 0 {
			q = q[j+2:]
		}
		return q, s[i+2:], true
	}
	if i := strings.LastIndexByte(s, '.'); i > 0 {
		q := s[:i]
		if j := strings.LastIndexByte(q, '.'); j >= 0 {
			q = q[j+1:]
		}
		return q, s[i+1:], true
	}
	return "", s, false
}

// pick returns the single candidate satisfying ok, or -1 when there is none
// or more than one.
func pick(r *resolver, cands []int32, ok func(string) bool) int32 {
	found, n := int32(-1), 0
	for _, c := range cands {
		if ok(r.syms[c].kind) {
			found = c
			n++
		}
	}
	if n > 1 && n == len(cands) {
		return r.pickAmong(cands) // all match: no copy to make
	}
	if n > 1 {
		// A scratch list: pickAmong keeps none of it (areTwins and
		// twinPick copy what they keep), and pick does not recurse.
		matching := r.pickScratch[:0]
		for _, c := range cands {
			if ok(r.syms[c].kind) {
				matching = append(matching, c)
			}
		}
		r.pickScratch = matching
		return r.pickAmong(matching) // build variants; else ambiguous
	}
	return found
}

// lookupIn finds name inside a binding's package or module file.
func (r *resolver) lookupIn(b binding, name string, ok func(string) bool) int32 {
	r.note(name)
	if b.pkg != nil {
		return pick(r, b.pkg.top[name], ok)
	}
	if b.file >= 0 {
		return pick(r, r.topIn(&r.files[b.file], name), ok)
	}
	return -1
}

func (r *resolver) uniqueInFamily(family, name string, ok func(string) bool) int32 {
	r.note(name)
	return pick(r, r.byFamily[family][name], ok)
}

func (r *resolver) edge(src, dst, rel string, c graph.Confidence, score float64, file string, line uint32) {
	if score == 0 {
		score = c.DefaultScore()
	}
	r.edges = append(r.edges, graph.Edge{
		Source: src, Target: dst, Relation: rel, Confidence: c, ConfidenceScore: score,
		SourceFile: file, SourceLocation: r.loc(line), Weight: 1,
	})
}

// stub returns the id of an external node for name, creating it once.
func (r *resolver) stub(name, kind string) string {
	if r.stubs == nil {
		r.stubs = make(map[string]string)
	}
	key := kind + "\x00" + name
	if id, ok := r.stubs[key]; ok {
		return id
	}
	id := graph.MakeID(name)
	if r.ids[id] {
		id = graph.MakeID("external", kind, name)
	}
	id = r.uniqueID(id, 0)
	r.stubs[key] = id
	r.nodes = append(r.nodes, graph.Node{ID: id, Label: name, FileType: "code", SourceFile: "", Kind: kind})
	return id
}
