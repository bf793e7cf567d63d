package tools

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Test selection and dynamic dispatch. A method that is called through an
// interface (w.Write via io.Writer, fmt printing a Stringer, a Python
// __iter__) has no static caller for the test that runs it: the test holds
// an interface value. What the graph does show is where the value comes
// from: a constructor or any function declared to return the method's
// type (NewEncoder, Scanner.Init, List.PushBack) or a type embedding it.
// So when the walk reaches a method whose name is one that interfaces
// declare, it goes on from those providers, as rapid type analysis does:
// a test that obtains a T may run T's dispatchable methods.
//
// Only dispatchable names widen the walk: a method with a name no
// interface declares (Ring.Next) is called statically, and the static
// edges already say who calls it.

// wellKnownDispatch are the methods that the standard libraries'
// interfaces (or the language itself) call dynamically, per language, as
// name/parameter count, with ":results" when the result types tell an
// implementation from a look-alike (csv.Writer's Error() error is not an
// error). The graph holds the interfaces a repository declares, not
// io.Writer's, so these are listed here.
var wellKnownDispatch = map[string][]string{
	"go": {"Read/1:int,error", "Write/1:int,error", "Close/0:error", "Seek/2:int64,error",
		"ReadAt/2:int,error", "WriteAt/2:int,error", "ReadByte/0:byte,error", "UnreadByte/0:error",
		"WriteByte/1:error", "ReadRune/0:rune,int,error", "UnreadRune/0:error", "WriteString/1:int,error",
		"ReadFrom/1:int64,error", "WriteTo/1:int64,error", "String/0:string", "GoString/0:string",
		"Format/2", "Error/0:string", "Unwrap/0", "Is/1:bool", "As/1:bool", "Len/0:int", "Less/2:bool",
		"Swap/2", "Push/1", "Pop/0", "RGBA/0", "Convert/1", "At/2", "Bounds/0", "ColorModel/0",
		"MarshalText/0", "UnmarshalText/1:error", "MarshalJSON/0", "UnmarshalJSON/1:error",
		"MarshalBinary/0", "UnmarshalBinary/1:error", "ServeHTTP/2", "Scan/2:error", "Set/1:error",
		"Lock/0", "Unlock/0"},
	"python": {"__str__", "__repr__", "__iter__", "__next__", "__len__", "__getitem__", "__setitem__",
		"__contains__", "__eq__", "__lt__", "__hash__", "__call__", "__enter__", "__exit__", "__bool__",
		"__format__"},
	"java": {"toString/0", "equals/1", "hashCode/0", "compareTo/1", "compare/2", "run/0", "call/0",
		"close/0", "iterator/0", "hasNext/0", "next/0", "accept/1", "apply/1", "get/0", "test/1"},
	"javascript": {"toString/0", "valueOf/0", "toJSON", "then", "next", "handleEvent/1"},
	"typescript": {"toString/0", "valueOf/0", "toJSON", "then", "next", "handleEvent/1"},
}

// methodShape is how a dispatchable method is recognised: its name, and,
// when known, its parameter count and result types.
type methodShape struct {
	arity   int    // -1: any
	results string // "": any
}

// parseShape reads "Name/arity:results".
func parseShape(spec string) (string, methodShape) {
	sh := methodShape{arity: -1}
	spec, sh.results, _ = strings.Cut(spec, ":")
	name, ar, ok := strings.Cut(spec, "/")
	if ok {
		fmt.Sscan(ar, &sh.arity)
	}
	return name, sh
}

// resultTypes normalises a declared result, "(n int, err error)" or
// "string", to its types joined by commas: "int,error".
func resultTypes(ret string) string {
	ret = strings.TrimSpace(ret)
	ret = strings.TrimSuffix(strings.TrimPrefix(ret, "("), ")")
	var out []string
	for _, part := range strings.Split(ret, ",") {
		if f := strings.Fields(part); len(f) > 0 {
			out = append(out, f[len(f)-1])
		}
	}
	return strings.Join(out, ",")
}

// matches reports whether a method's signature has the shape (no
// signature: the name decides).
func (sh methodShape) matches(sig *graph.Signature) bool {
	if sig == nil {
		return true
	}
	if sh.arity >= 0 && len(sig.Params) != sh.arity {
		return false
	}
	return sh.results == "" || resultTypes(sig.ReturnType) == sh.results
}

// providerHops bounds how far up a chain of embedding or inheriting types
// the providers are looked for.
const providerHops = 3

// dispatchIndex is what the dispatch step needs, built once per snapshot.
type dispatchIndex struct {
	// shapes are the dispatchable methods per language and name; ""
	// holds the members of the interfaces declared in the graph, for
	// every language.
	shapes map[string]map[string][]methodShape
	// providers are, per type node, the functions and methods of its
	// directory declared to return it or named as its constructor.
	providers map[int32][]int32
	// testsByDir and testsByRepo are the runnable test functions and
	// methods, by directory and by repository.
	testsByDir, testsByRepo map[string][]int32
	// walk are the per-node facts of the selection walks.
	walk walkFacts
}

func (s *snapshot) dispatchIdx() *dispatchIndex {
	s.dispatchOnce.Do(func() { s.dispatch = buildDispatchIndex(s) })
	return s.dispatch
}

func buildDispatchIndex(s *snapshot) *dispatchIndex {
	d := &dispatchIndex{shapes: map[string]map[string][]methodShape{"": {}}, providers: map[int32][]int32{},
		testsByDir: map[string][]int32{}, testsByRepo: map[string][]int32{}}
	for lang, specs := range wellKnownDispatch {
		d.shapes[lang] = map[string][]methodShape{}
		for _, spec := range specs {
			name, sh := parseShape(spec)
			d.shapes[lang][name] = append(d.shapes[lang][name], sh)
		}
	}
	// Types by directory and lower-case name, so "NewEncoder" finds
	// encoder and "Dumper" finds dumper.
	types := map[string]map[string][]int32{}
	for i := range int32(s.x.Len()) {
		n := s.x.Node(i)
		if !s.methodOwner(i) || n.SourceFile == "" {
			continue
		}
		dir := path.Dir(n.SourceFile)
		if types[dir] == nil {
			types[dir] = map[string][]int32{}
		}
		types[dir][strings.ToLower(n.Label)] = append(types[dir][strings.ToLower(n.Label)], i)
		if (n.Kind == "interface" || n.Kind == "protocol" || n.Kind == "trait") && s.named(i) {
			for _, m := range s.members(i) {
				mn := s.x.Node(m)
				sh := methodShape{arity: -1}
				if mn.Signature != nil {
					sh.arity = len(mn.Signature.Params)
				}
				d.shapes[""][bareName(mn.Label)] = append(d.shapes[""][bareName(mn.Label)], sh)
			}
		}
	}
	for i := range int32(s.x.Len()) {
		n := s.x.Node(i)
		if n.Kind != "function" && n.Kind != "method" || n.SourceFile == "" {
			continue
		}
		if graph.IsTestNode(n) {
			if runsByDefault(n) {
				d.testsByDir[path.Dir(n.SourceFile)] = append(d.testsByDir[path.Dir(n.SourceFile)], i)
				d.testsByRepo[n.Repo] = append(d.testsByRepo[n.Repo], i)
			}
			continue
		}
		byName := types[path.Dir(n.SourceFile)]
		if byName == nil {
			continue
		}
		made := map[int32]bool{}
		name := strings.ToLower(bareName(n.Label))
		for _, c := range []string{name, strings.TrimPrefix(name, "new")} {
			if nameIsNoProvider(n) {
				break // its declared result says what it hands out
			}
			for _, t := range byName[c] {
				made[t] = true
			}
		}
		if n.Signature != nil {
			for _, tok := range strings.FieldsFunc(n.Signature.ReturnType, notIdent) {
				for _, t := range byName[strings.ToLower(tok)] {
					if s.x.Node(t).Label == tok {
						made[t] = true
					}
				}
			}
		}
		for t := range made {
			d.providers[t] = append(d.providers[t], i)
		}
	}
	d.walk = buildWalkFacts(s, d)
	return d
}

// nameIsNoProvider reports a Go method with a signature: a method named
// after a type is no constructor of it (color.NRGBA's RGBA() returns four
// uint32s, not an RGBA), so only its declared result counts. A function's
// name still does (NewEncoder may return an io.WriteCloser whose dynamic
// type is *encoder).
func nameIsNoProvider(n *graph.Node) bool {
	return n.Language == "go" && n.Kind == "method" && n.Signature != nil
}

func notIdent(r rune) bool {
	return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// dispatchable returns the type owning method i (-1 when i is not a
// method of a type) and whether callers may reach i through an interface.
func (s *snapshot) dispatchable(i int32) (owner int32, dynamic bool) {
	f := s.walkFacts()
	return f.owner[i], f.dynamic[i]
}

// dispatchableIn computes dispatchable's answer against d for node i,
// whose ownerType is owner (once per node, for walkFacts).
func (s *snapshot) dispatchableIn(d *dispatchIndex, i, owner int32) (int32, bool) {
	n := s.x.Node(i)
	if n.Kind != "method" || owner < 0 {
		return -1, false
	}
	name := bareName(n.Label)
	// Two look-ups, not one append: appending to the index's own slice
	// would write into its spare capacity, shared by concurrent requests.
	return owner, anyShapeFits(d.shapes[""][name], n.Signature) || anyShapeFits(d.shapes[n.Language][name], n.Signature)
}

// anyShapeFits reports whether one of shapes matches signature.
func anyShapeFits(shapes []methodShape, signature *graph.Signature) bool {
	for _, sh := range shapes {
		if sh.matches(signature) {
			return true
		}
	}
	return false
}

// providersOf returns the nodes that hand out a value of type t: its
// providers, those of the types embedding or extending it or holding it
// in a field (encoders and printers walk into fields: json.Unmarshal of
// a Claims runs its NumericDate field's UnmarshalJSON), and the type
// itself (a Python or Java class is called to construct it).
func (s *snapshot) providersOf(t int32) []int32 {
	d := s.dispatchIdx()
	seen := map[int32]bool{t: true}
	out := []int32{t}
	frontier := []int32{t}
	for range providerHops {
		var next []int32
		for _, ty := range frontier {
			for _, p := range d.providers[ty] {
				if !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
			for _, e := range s.x.In(ty) {
				holder := int32(-1)
				switch ed := s.x.Edge(e); ed.Relation {
				case "embeds", "inherits", "extends", "mixes_in":
					holder, _ = s.x.Ends(e)
				case "references":
					if ed.Context == "field" {
						field, _ := s.x.Ends(e)
						holder = s.walkFacts().ownerType[field]
					}
				}
				if holder >= 0 && !seen[holder] && s.methodOwner(holder) {
					seen[holder] = true
					out = append(out, holder)
					next = append(next, holder)
				}
			}
		}
		frontier = next
	}
	return out
}

// dispatchHits continues the walk from the providers of every
// dispatchable method among the seeds (hop 0) and the hits, spending what
// is left of depth. For any other method it continues from the callers of
// its type's providers that call none of the type's methods: they obtain
// a T and use it through calls the extractor could not link (a receiver
// typed by a closure's result, a value passed on), so any method of T may
// be what they run. Hits already found are not repeated.
func (s *snapshot) dispatchHits(seeds []int32, hits []impactHit, rels []bool, depth int) []impactHit {
	seen := s.p.scratch(s.x.Len())
	defer s.p.release(seen)
	for _, sd := range seeds {
		seen.mark(sd)
	}
	for _, h := range hits {
		seen.mark(h.node)
	}
	starts := make([]impactHit, 0, len(seeds)+len(hits))
	for _, sd := range seeds {
		starts = append(starts, impactHit{node: sd})
	}
	starts = append(starts, hits...)
	var out []impactHit
	test := s.walkFacts().test
	add := func(from []int32, d int, via string) {
		for _, p := range from {
			if !seen.has(p) {
				seen.mark(p)
				out = append(out, impactHit{node: p, depth: d, via: via})
			}
		}
		for _, h := range s.reverseImpact(from, rels, depth-d) {
			if !seen.has(h.node) {
				seen.mark(h.node)
				out = append(out, impactHit{node: h.node, depth: d + h.depth, via: testVia(test, h, via)})
			}
		}
	}
	dispatched, held := map[int32]bool{}, map[int32]bool{}
	for _, st := range starts {
		t, dyn := s.dispatchable(st.node)
		switch {
		case t < 0:
		case dyn && !dispatched[t]:
			dispatched[t] = true
			add(s.providersOf(t), st.depth, "dispatch on "+s.label(t))
		case !dyn && !held[t] && st.depth < depth:
			held[t] = true
			add(s.unlinkedHolders(t, rels), st.depth+1, "holds a "+s.label(t)+", calls on it unlinked")
		}
	}
	return out
}

// testVia is the via of a hit found through another step: "calls
// (dispatch on T)". Only test rows are ever shown, so a hit that is no
// test keeps its relation alone, sparing a string per node of a walk
// that can pass tens of thousands.
func testVia(test []bool, h impactHit, step string) string {
	if !test[h.node] {
		return h.via
	}
	return h.via + " (" + step + ")"
}

// unlinkedHolders returns the callers of t's providers that have no edge
// to t or any of its members but make an unlinked member call that one
// of t's methods answers to (unlinked_calls): evidence that they use
// the T they obtain. A caller that obtains a T and calls nothing on it
// passes it on, and where it goes the edges say.
func (s *snapshot) unlinkedHolders(t int32, rels []bool) []int32 {
	var own map[int32]bool
	var names map[string]bool
	var out []int32
	seen := map[int32]bool{}
	for _, p := range s.dispatchIdx().providers[t] {
		for _, e := range s.x.In(p) {
			c, _ := s.x.Ends(e)
			calls := s.unlinkedNames(c)
			if len(calls) == 0 || !rels[s.p.relID[e]] || seen[c] {
				continue // a caller with no unlinked call is never a holder
			}
			if own == nil { // t's members, only once some caller needs them
				own, names = map[int32]bool{t: true}, map[string]bool{}
				for _, m := range s.members(t) {
					own[m] = true
					names[bareName(s.x.Node(m).Label)] = true
				}
			}
			if own[c] {
				continue
			}
			seen[c] = true
			if !slices.ContainsFunc(s.x.Out(c), func(e int32) bool { _, to := s.x.Ends(e); return own[to] }) &&
				slices.ContainsFunc(calls, func(n string) bool { return names[n] }) {
				out = append(out, c)
			}
		}
	}
	return out
}

// testWalk is everything test selection reaches from seeds: the static
// reverse walk, the dispatch step, unlinked member calls, then test
// helpers.
func (s *snapshot) testWalk(seeds []int32, hits []impactHit, rels []bool, depth int) []impactHit {
	all := append(hits[:len(hits):len(hits)], s.dispatchHits(seeds, hits, rels, depth)...)
	all = append(all, s.unlinkedHits(seeds, all, rels, depth)...)
	return append(all, s.throughTestCode(all, rels)...)
}

// minNamedAfter is the shortest name namedTests matches: shorter ones
// ("Len", "Pos") are part of too many unrelated test names.
const minNamedAfter = 4

// namedTests returns the tests named after a changed symbol (TestDecode
// and ExampleEncoding_Decode for decode): tests are named for what they
// test, and that holds where the calls are not linked (a package-level
// variable's methods, a composite literal's). Go tests count only in the
// symbol's own package; other languages keep tests in a tree of their
// own, so there any test of the same repository counts.
func (s *snapshot) namedTests(seeds []int32) []impactHit {
	var out []impactHit
	seen := map[int32]bool{}
	for _, sd := range seeds {
		n := s.x.Node(sd)
		if n.Kind != "function" && n.Kind != "method" || graph.IsTestNode(n) {
			continue
		}
		out = append(out, s.testsNamed(n, bareName(n.Label), "named after "+s.label(sd), seen)...)
	}
	return out
}

// testsNamed returns the tests that may test n whose name holds name as
// a word, skipping those in seen (and adding them to it).
func (s *snapshot) testsNamed(n *graph.Node, name, via string, seen map[int32]bool) []impactHit {
	if len(name) < minNamedAfter {
		return nil
	}
	var out []impactHit
	for _, t := range s.testsIn(n) {
		if !seen[t] && namesWord(bareName(s.x.Node(t).Label), strings.ToLower(name)) {
			seen[t] = true
			out = append(out, impactHit{node: t, depth: 1, via: via})
		}
	}
	return out
}

// testsIn returns the runnable tests that may test n: the test functions
// of n's package (Go) or of n's repository.
func (s *snapshot) testsIn(n *graph.Node) []int32 {
	d := s.dispatchIdx()
	if n.Language == "go" {
		return d.testsByDir[path.Dir(n.SourceFile)]
	}
	return d.testsByRepo[n.Repo]
}

// namesWord reports whether test's name holds name (lower case) as a
// word: "TestDecodeCorrupt" and "test_decode" hold "decode",
// "TestDumper" does not hold "dump".
func namesWord(test, name string) bool {
	lower := strings.ToLower(test)
	for from := 0; ; {
		i := strings.Index(lower[from:], name)
		if i < 0 {
			return false
		}
		end := from + i + len(name)
		if end == len(test) || test[end] == '_' || test[end] >= 'A' && test[end] <= 'Z' || test[end] >= '0' && test[end] <= '9' {
			return true
		}
		from += i + 1
	}
}

// ownerType is the type declaring member i, or -1 (walkFacts holds it
// for every node).
func (s *snapshot) ownerType(i int32) int32 {
	for _, e := range s.x.In(i) {
		if o, _ := s.x.Ends(e); memberRelations[s.x.Edge(e).Relation] && s.methodOwner(o) {
			return o
		}
	}
	return -1
}

// named reports whether some code names interface i or one of its
// methods: a parameter, field, variable or result of its type, an
// embedding, a call through it. An interface nothing names (compat's
// Matcher, declared to document a surface and checked by var _ Matcher =
// …) holds no value, so no call is dispatched through it and its method
// names do not make every implementation's method dynamic.
func (s *snapshot) named(i int32) bool {
	uses := func(n int32) bool {
		for _, e := range s.x.In(n) {
			switch s.x.Edge(e).Relation {
			case "contains", "method", "has_method", "implements":
			default:
				return true
			}
		}
		return false
	}
	return uses(i) || slices.ContainsFunc(s.members(i), uses)
}

// methodOwner reports a type that declares methods: a class, struct,
// interface and their kin (typeKinds), or a Go defined type over another
// type (type HeaderExtractor []string, type HandlerFunc func(…)), which
// the graph keeps as a type_alias and which has methods like any other.
func (s *snapshot) methodOwner(i int32) bool {
	switch s.x.Node(i).Kind {
	case "type_alias":
		return slices.ContainsFunc(s.x.Out(i), func(e int32) bool { return s.x.Edge(e).Relation == "method" })
	default:
		return typeKinds[s.x.Node(i).Kind]
	}
}
