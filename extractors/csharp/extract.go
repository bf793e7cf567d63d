package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one C# file:
//
//   - the namespace (Facts.Package): file-scoped or block, nested blocks
//     joined ("A.B"); the first one the file declares a type in. Types of
//     any other namespace of the same file are parented to a namespace
//     symbol, so they never join the wrong package;
//   - classes, structs, records (record structs are structs), interfaces,
//     enums and delegates (type_alias), nested types parented to their
//     enclosing type;
//   - methods, local functions, operators, constructors, destructors
//     (method/constructor), properties, indexers' bodies and events with
//     accessors (property), fields and event fields (field; const and
//     static readonly are constant), enum members (constant), record
//     parameters (public properties);
//   - calls: plain M(), member calls with the receiver as written and its
//     type when this file gives it (this, base, typed parameters, locals,
//     fields, properties, var x = new T(), var x = a.M() as "A#M()", casts),
//     new T() (name T), : base(…) and : this(…);
//   - using directives: `using N;` (Names "*", a namespace's types),
//     `using static N.T;` (Path N.T, Names "*", T's members), `using A = N.T;`
//     (Alias A);
//   - the base list: for classes and records the first base is inherits
//     unless it is named like an interface (I + capital letter), the rest
//     implements; structs implement, interfaces inherit; enum underlying
//     types are not relations;
//   - type references from signatures, fields and properties (parameter_type,
//     return_type, field, generic_arg) and attributes (attribute);
//   - test markers: xUnit [Fact]/[Theory], NUnit [Test]/[TestCase]/…,
//     MSTest [TestMethod]/[DataTestMethod] on methods, [TestClass] and
//     [TestFixture] on classes;
//   - event subscriptions (ev += handler) and raises (ev?.Invoke(…), ev(…))
//     as event channel sites named "Type.Event";
//   - reflection lookups by name as dynamic sites.
//
// Visibility comes from the modifiers; without one, types are internal,
// members of classes and structs private, and members of interfaces and
// enums public. A partial class is reported in each file that declares a
// part of it.
type Extractor struct{}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	if t.Len() == 0 {
		return nil
	}
	w := &walker{f: f, t: t, g: grammarFor(t.Grammar), src: t.SourceString()}
	w.walk()
	f.ReportSyntaxErrors(nil)
	f.FillDocs(extract.DocTriple)
	w.cleanDocs()
	f.SetFile(w.fileFacts())
	return nil
}

// frameKind tells what an open scope is.
type frameKind uint8

const (
	frameNamespace frameKind = iota // a namespace block (or the file-scoped one)
	frameType                       // a class-like declaration
	frameCallable                   // a method, accessor body, lambda or local function
)

// frame is an open scope of the walk: a declaration whose subtree has not
// ended yet.
type frame struct {
	end   node
	kind  frameKind
	sym   int32  // Parent/Caller for what the frame encloses
	name  string // type frames: the type's name; namespace frames: the full namespace
	super string // type frames: the base class as written, without type arguments
	// type frames: members without an access modifier are public
	// (interfaces, enums) rather than private.
	public bool
	// namespace frames: the namespace symbol is made when the first type
	// needs it (pending until then).
	pending bool
	decl    node // namespace frames: the declaration, for the symbol's span
	// lengths of walker.vars and walker.events when the frame opened;
	// closing the frame truncates them back.
	vars, events int
}

// variable is a name with a declared type, used to type call receivers.
type variable struct {
	name string
	typ  string // base type name, or a "T#m()" chain; "" when unknown
}

type walker struct {
	f      *extract.File
	t      *extract.Tree
	g      *grammar
	src    string
	frames []frame
	vars   []variable
	events []string // events of the enclosing types, innermost last
	seen   []seenRef
	// aliases maps an import alias to the last segment of what it names
	// (import a.b.Helper as H: H -> Helper), for the receivers it types.
	aliases map[string]string
	pkg     string // the namespace chosen as Facts.Package
	pkgSet  bool
}

// seenRef dedups references per symbol: M(Bar a, Bar b) references Bar once.
type seenRef struct {
	from   int32
	target string
	ctx    abi.RelationContext
}

// walk visits the tree once in preorder. Declarations push frames that
// close when the walk passes their end; handlers return the next node to
// visit, which lets them skip subtrees they have fully read.
func (w *walker) walk() {
	t, g := w.t, w.g
	n := node(t.Len())
	for i := node(1); i < n; {
		for len(w.frames) > 0 && i >= w.frames[len(w.frames)-1].end {
			w.pop()
		}
		next := i + 1
		switch g.action(t.Kind(i)) {
		case actSkip:
			next = t.End(i)
		case actUsing:
			w.using(i)
			next = t.End(i)
		case actNamespace:
			next = w.namespace(i, t.End(i))
		case actFileNS:
			next = w.namespace(i, n)
		case actType:
			next = w.typeDecl(i)
		case actDelegate:
			w.delegate(i)
			next = t.End(i)
		case actCallable:
			next = w.callable(i)
		case actField:
			w.fieldDecl(i)
		case actProperty:
			next = w.property(i)
		case actEnumMember:
			w.enumMember(i)
		case actCall:
			w.call(i)
		case actNew:
			w.newCall(i)
		case actCtorInit:
			w.ctorInit(i)
		case actLocal:
			w.local(i)
		case actTypedVar:
			w.typedVar(i)
		case actAssign:
			w.assign(i)
		case actLambda:
			w.lambda(i)
		}
		i = next
	}
}

func (w *walker) pop() {
	fr := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	w.vars = w.vars[:fr.vars]
	w.events = w.events[:fr.events]
}

func (w *walker) push(fr frame) { w.frames = append(w.frames, fr) }

// mark returns a frame with the current scope lengths recorded.
func (w *walker) mark(end node, k frameKind, sym int32) frame {
	return frame{end: end, kind: k, sym: sym, vars: len(w.vars), events: len(w.events)}
}

func (w *walker) text(n node) string {
	if n == extract.None {
		return ""
	}
	s, e := w.t.ByteRange(n)
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

// parent is the symbol enclosing the current node, -1 at file level. A
// namespace other than the file's package gets its symbol here, on first
// need.
func (w *walker) parent() int32 {
	if len(w.frames) == 0 {
		return -1
	}
	top := &w.frames[len(w.frames)-1]
	if top.pending {
		top.pending = false
		top.sym = w.namespaceSymbol(top)
	}
	return top.sym
}

// typeFrame is the innermost type frame, or nil.
func (w *walker) typeFrame() *frame {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i].kind == frameType {
			return &w.frames[i]
		}
	}
	return nil
}

// inBody reports whether the walk is inside a callable's body (locals
// live there) rather than at type or namespace level.
func (w *walker) inBody() bool {
	return len(w.frames) > 0 && w.frames[len(w.frames)-1].kind == frameCallable
}

// currentNamespace is the innermost namespace frame's name, "" for the
// global namespace.
func (w *walker) currentNamespace() string {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i].kind == frameNamespace {
			return w.frames[i].name
		}
	}
	return ""
}

// namespace opens a namespace scope that ends at end: the declaration's
// own end for a block, the end of the file for a file-scoped one.
func (w *walker) namespace(i, end node) node {
	t, g := w.t, w.g
	name := extract.OneLine(w.text(t.Child(i, g.fName)))
	if outer := w.currentNamespace(); outer != "" && name != "" {
		name = outer + "." + name
	}
	fr := w.mark(end, frameNamespace, -1)
	fr.name, fr.pending, fr.decl = name, true, i
	if len(w.frames) > 0 {
		fr.sym = w.frames[len(w.frames)-1].sym
	}
	w.push(fr)
	if body := t.Child(i, g.fBody); body != extract.None {
		return body
	}
	return t.End(i) // file-scoped: the rest of the file follows as siblings
}

// namespaceSymbol decides where the types of a namespace frame go: the
// first namespace that declares a type becomes the file's package (its
// types are top-level); any other gets a namespace symbol of its own.
func (w *walker) namespaceSymbol(fr *frame) int32 {
	if !w.pkgSet {
		w.pkgSet, w.pkg = true, fr.name
		w.f.SetPackage(fr.name)
	}
	if fr.name == w.pkg {
		return -1
	}
	return w.f.Symbol(abi.Symbol{Name: fr.name, Kind: abi.KindNamespace, Parent: -1, Span: w.t.Span(fr.decl)})
}

// using reports a using directive. `global using` is the same fact: the
// project sees it in every file, which this file cannot know.
func (w *walker) using(i node) {
	t, g := w.t, w.g
	alias, target := extract.None, extract.None
	for c := range t.Children(i) {
		switch {
		case t.Field(c) == g.fName || t.Field(c) == g.fAlias:
			alias = c
		case t.IsNamed(c) && target == extract.None && t.Kind(c) != g.attributeList:
			target = c
		}
	}
	path := extract.OneLine(w.text(target))
	if path == "" {
		return
	}
	im := abi.Import{Path: path, Line: t.StartLine(i)}
	if alias != extract.None {
		im.Alias = w.text(alias)
	} else {
		// using N brings in N's types, using static N.T T's members:
		// both are wildcards over what the path names.
		im.Names = []abi.ImportName{{Name: "*"}}
	}
	if im.Alias != "" {
		if w.aliases == nil {
			w.aliases = map[string]string{}
		}
		w.aliases[im.Alias] = lastSegment(im.Path)
	}
	importKeys(&im)
	w.f.Import(im)
}
