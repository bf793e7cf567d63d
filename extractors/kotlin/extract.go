package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one Kotlin file:
//
//   - the package header (Facts.Package);
//   - classes and data classes (class), interfaces and annotation classes
//     (interface), enum classes (enum), objects and companion objects
//     (object), type aliases (type_alias); nested types are parented to
//     their enclosing type;
//   - functions (function at top level and inside functions, method in a
//     type); an extension function at top level is a method whose Receiver
//     is the extended type, so x.ext() links like a member call;
//     secondary constructors (constructor);
//   - properties: in a type and val/var constructor parameters (field;
//     const val is constant), at top level (variable or constant); enum
//     entries (constant);
//   - the members of a companion object are parented to its class (the
//     companion is still a symbol): Kotlin calls them as Foo.create(), and
//     that is how the host finds them;
//   - calls: plain f(), member calls with the receiver as written and its
//     type when this file gives it (this, super, typed parameters, vals and
//     vars, properties, casts, Foo() constructor calls, chains written for
//     the host as T#f and T#m()); Foo(…) is a call naming Foo, the host links
//     it to class Foo; supertype constructor calls (: Base(x)), this(…) and
//     super(…) delegation;
//   - imports: a.b.C, a.b.* (Names "*") and aliases (import a.b.C as D);
//   - supertypes: the one called with a constructor (Base()) is inherits,
//     the others implements (for an interface: inherits);
//   - type references from signatures and properties (parameter_type,
//     return_type, field, generic_arg) and annotations (attribute);
//   - tests: JUnit/kotlin.test @Test (and @ParameterizedTest, …) functions,
//     and kotest spec classes (extending StringSpec, FunSpec, …).
//
// Visibility comes from the modifiers; without one, declarations are
// public; local ones have none.
type Extractor struct{}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	if t.Len() == 0 {
		return nil
	}
	w := &walker{f: f, t: t, g: grammarFor(t.Grammar), src: t.SourceString(), prop: extract.None}
	w.topFunctions()
	w.walk()
	f.ReportSyntaxErrors(nil)
	f.FillDocs(extract.DocBlockStar)
	w.dropHeaderDocs()
	f.SetFile(w.fileFacts(w.pkg))
	return nil
}

// dropHeaderDocs undoes what FillDocs gives a constructor's val/var
// parameters written below the class's own line: the comment above them is
// the class's KDoc, not theirs.
func (w *walker) dropHeaderDocs() {
	syms := w.f.Symbols()
	for _, i := range w.headerParams {
		if p := syms[i].Parent; p >= 0 && syms[i].Doc == syms[p].Doc {
			syms[i].Doc = ""
		}
	}
}

// frameKind tells what an open scope is.
type frameKind uint8

const (
	frameType     frameKind = iota // a class, object or interface
	frameAnon                      // an object literal: `this` has no name we know
	frameCallable                  // a function, constructor, accessor or lambda
)

// frame is an open scope of the walk: a declaration whose subtree has not
// ended yet.
type frame struct {
	end  node
	kind frameKind
	sym  int32 // Parent/Caller for what the frame encloses
	// members is the Parent of members declared in the frame: the frame's
	// own symbol, except for a companion object, whose members go to its
	// class.
	members int32
	self    string // what `this` is: the type's name, an extension's receiver
	super   string // type frames: the superclass, without type arguments
	iface   bool   // type frames: an interface
	// the length of walker.vars when the frame opened; closing the frame
	// truncates it back.
	vars int
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
	seen   []seenRef
	// aliases maps an import alias to the last segment of what it names
	// (import a.b.Helper as H: H -> Helper), for the receivers it types.
	aliases map[string]string
	topFns  map[string]bool // functions declared at the top of this file
	pkg     string          // the package header's name
	// the last class-level property read, whose getter and setter follow
	prop    node
	propSym int32
	// symbols of val/var constructor parameters (see dropHeaderDocs)
	headerParams []int32
}

// seenRef dedups references per symbol: f(a: Bar, b: Bar) references Bar once.
type seenRef struct {
	from   int32
	target string
	ctx    abi.RelationContext
}

// walk visits the tree once in preorder. Declarations push frames that
// close when the walk passes their end.
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
		case actPackage:
			w.packageHeader(i)
			next = t.End(i)
		case actImport:
			w.importHeader(i)
			next = t.End(i)
		case actType:
			w.typeDecl(i)
		case actAlias:
			w.typeAlias(i)
			next = t.End(i)
		case actFunction:
			w.function(i)
		case actSecondary:
			w.secondaryCtor(i)
		case actInit:
			// init { … } runs as part of construction: its calls belong to the class.
		case actProperty:
			w.property(i)
		case actEnumEntry:
			w.enumEntry(i)
		case actCall:
			w.call(i)
		case actDelegation:
			w.delegationCall(i)
		case actFor:
			w.forLoop(i)
		case actCatch:
			w.catchBlock(i)
		case actLambda:
			w.lambda(i)
		case actObjectLiteral:
			w.objectLiteral(i)
		case actAccessor:
			w.accessor(i)
		}
		i = next
	}
}

func (w *walker) pop() {
	fr := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	w.vars = w.vars[:fr.vars]
}

func (w *walker) push(fr frame) { w.frames = append(w.frames, fr) }

// mark returns a frame with the current scope length recorded.
func (w *walker) mark(end node, k frameKind, sym int32) frame {
	return frame{end: end, kind: k, sym: sym, members: sym, vars: len(w.vars)}
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

// child returns n's first direct child of kind k, or None.
func (w *walker) child(n node, k kind) node { return w.t.ChildOfKind(n, k) }

// parent is the symbol that what the walk meets now belongs to, -1 at
// file level.
func (w *walker) parent() int32 {
	if len(w.frames) == 0 {
		return -1
	}
	return w.frames[len(w.frames)-1].sym
}

// memberParent is the Parent of a declaration made now.
func (w *walker) memberParent() int32 {
	if len(w.frames) == 0 {
		return -1
	}
	return w.frames[len(w.frames)-1].members
}

// typeFrame is the innermost type frame (named or anonymous), or nil.
func (w *walker) typeFrame() *frame {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i].kind != frameCallable {
			return &w.frames[i]
		}
	}
	return nil
}

// selfType is what `this` is: the innermost extension receiver or named
// type; "" inside an object literal.
func (w *walker) selfType() string {
	for i := len(w.frames) - 1; i >= 0; i-- {
		fr := &w.frames[i]
		if fr.self != "" || fr.kind == frameAnon {
			return fr.self
		}
	}
	return ""
}

// inType reports whether a declaration made now is a member of a named
// type (not local to a function, not in an object literal).
func (w *walker) inType() bool {
	return len(w.frames) > 0 && w.frames[len(w.frames)-1].kind == frameType
}

// inBody reports whether the walk is inside a function-like scope.
func (w *walker) inBody() bool {
	return len(w.frames) > 0 && w.frames[len(w.frames)-1].kind == frameCallable
}

// topFunctions collects the names of the file's top-level functions (not
// extensions): a plain call of one of them returns its declared type.
func (w *walker) topFunctions() {
	t, g := w.t, w.g
	for c := range t.NamedChildren(0) {
		if t.Kind(c) == g.functionDecl && w.receiverNode(c) == extract.None {
			if w.topFns == nil {
				w.topFns = map[string]bool{}
			}
			w.topFns[w.text(w.child(c, g.simpleIdent))] = true
		}
	}
}

func (w *walker) packageHeader(i node) {
	if id := w.child(i, w.g.identifier); id != extract.None {
		w.pkg = extract.OneLine(w.text(id))
		w.f.SetPackage(w.pkg)
	}
}

// importHeader reports `import a.b.C` as Path "a.b.C", `import a.b.*` as
// Path "a.b" with Names "*", and `import a.b.C as D` with Alias D.
func (w *walker) importHeader(i node) {
	t, g := w.t, w.g
	id := w.child(i, g.identifier)
	path := extract.OneLine(w.text(id))
	if path == "" {
		return
	}
	im := abi.Import{Path: path, Line: t.StartLine(i)}
	if w.child(i, g.wildcardImport) != extract.None {
		im.Names = []abi.ImportName{{Name: "*"}}
	}
	if a := w.child(i, g.importAlias); a != extract.None {
		im.Alias = w.text(w.child(a, g.typeIdent))
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
