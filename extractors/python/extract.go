package main

import (
	"slices"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports Python definitions, calls, imports and type relations.
//
// Conventions chosen where Python leaves room (the goldens pin them):
//   - A decorated definition's span starts at its first decorator, as
//     inspect.getsource does: the decorators are part of the definition.
//   - Classes deriving from Enum/IntEnum/StrEnum/Flag/IntFlag are enums
//     (members are fields), from Protocol interfaces.
//   - def directly in a class body is a method (Parent = the class),
//     __init__ included; @property / @cached_property / @x.setter methods are
//     properties. A def inside a def is a function whose Parent is the
//     enclosing function.
//   - Visibility: a leading underscore is private, anything else (dunders
//     included) public; definitions local to a function have no visibility.
//   - Module-level UPPER_CASE assignments are constants, X: TypeAlias = … and
//     `type X = …` are type aliases; class-level assignments and
//     `self.x = …` inside __init__ are fields of the class. Dunder names
//     (__all__, __slots__) and TypeVar assignments are not symbols.
//   - Calls belong to the innermost def (lambdas and comprehensions do not
//     count), to the class for calls in a class body, -1 at module level.
//     Expressions in a def's or class's header (decorators, defaults, bases)
//     run in the enclosing scope and are attributed there. A bare decorator
//     (@cache) is reported as a call, since Python calls it.
//   - Receiver is the receiver expression with call arguments dropped
//     (session.query().filter for session.query(X).filter(y).all()).
//     ReceiverType is the enclosing class for self/cls, the first base class
//     for super(), and the annotation for parameters and annotated locals.
//   - Imports keep relative dots in Path ("..pkg"); `from __future__` is a
//     compiler directive, not a dependency, and is not reported.
//   - Relations: inherits for each base (object and metaclass= skipped,
//     Generic[T] reported as Generic); references from functions
//     (parameter_type, return_type), fields (field) and classes (generic_arg
//     of their bases), skipping builtin and typing names and type variables.
//   - Test: top-level test_*/testX functions, Test* classes and classes
//     deriving from a *TestCase, and test* methods of those classes.
type Extractor struct{}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	if t.Len() == 0 {
		v2Facts(f) // an empty __init__.py is still its package
		return nil
	}
	x := states.Get().(*state)
	x.reset(f)
	f.SetDoc(x.docstring(0))
	x.run()
	v2Facts(f)
	x.f, x.t = nil, nil
	states.Put(x)
	return nil
}

// states recycles the per-file scratch (scope stack, buffers) so that a
// guest extracting thousands of files does not regrow it for each.
var states = sync.Pool{New: func() any { return new(state) }}

func (x *state) reset(f *extract.File) {
	x.f, x.t, x.l = f, f.Tree, langFor(f.Tree.Grammar)
	x.stack, x.vars, x.refs = x.stack[:0], x.vars[:0], x.refs[:0]
	x.typeVars, x.typing = x.typeVars[:0], x.typing[:0]
	if len(x.seen) > 1024 { // do not keep clearing a map grown by one huge file
		x.seen = nil
	}
	clear(x.seen)
	clear(x.shadowed)
	x.refsFrom, x.errEnd, x.decorated = -2, -1, extract.None
}

type scopeKind uint8

const (
	scopeClass scopeKind = iota + 1
	scopeFunc
)

// scope is an open class or def. Its header (decorators, parameters, bases)
// belongs to the enclosing scope; body marks where its own scope begins.
type scope struct {
	kind      scopeKind
	body, end extract.Node
	sym       int32
	local     bool   // inside a def: visibility does not apply
	class     int32  // class symbol for methods (fields from __init__), -1 otherwise
	selfType  string // type of self/cls: the enclosing class of the method
	superType string // type of super(): the first base of that class
	test      bool   // class: a test class whose test* methods are tests
	init      bool   // def: __init__ of a class
	vars      int    // len(state.vars) when the scope opened
}

// typedVar is a parameter or local in scope, with its type when known
// and the expression it is an alias of (aliases.go), else None.
type typedVar struct {
	name, typ string
	alias     extract.Node
	aliasSet  bool // an alias was considered: a second binding clears it
}

// newVar is a binding whose value is unknown (a parameter, a for
// target): never an alias.
func newVar(name, typ string) typedVar {
	return typedVar{name: name, typ: typ, alias: extract.None, aliasSet: true}
}

type state struct {
	f *extract.File
	t *extract.Tree
	l *lang

	stack      []scope
	vars       []typedVar
	typeVars   []string           // TypeVar names and PEP 695 type parameters: not references
	typing     []string           // local aliases of typing modules (import typing as t)
	seen       map[string][]int32 // field/constant name -> parents already holding it
	refs       []ref              // references of the current symbol, for dedup
	refsFrom   int32
	buf        []byte
	errEnd     extract.Node    // end of the last reported ERROR node
	decorated  extract.Node    // the decorated_definition whose definition comes next
	aliasDepth int             // aliases being looked through (aliases.go)
	shadowed   map[string]bool // builtin names the file binds itself (from fnmatch import filter)
	rebound    map[string]bool // names global statements declare (aliases.go)
	ffiLibs    map[string]bool // names bound to a ctypes library (crosslang.go)
}

type ref struct {
	target string
	ctx    abi.RelationContext
}

func (x *state) run() {
	t, l := x.t, x.l
	n := extract.Node(t.Len())
	x.findRebound()
	for i := extract.Node(1); i < n; i++ {
		for len(x.stack) > 0 && i >= x.stack[len(x.stack)-1].end {
			x.vars = x.vars[:x.stack[len(x.stack)-1].vars]
			x.stack = x.stack[:len(x.stack)-1]
		}
		if t.IsError(i) || t.IsMissing(i) {
			x.syntaxError(i)
		}
		switch l.act[t.Kind(i)] {
		case actFunction:
			x.function(i)
		case actClass:
			x.class(i)
		case actDecorated:
			x.decorated = i
		case actDecorator:
			x.decorator(i)
		case actCall:
			x.call(i)
		case actImport:
			x.importStatement(i)
			i = t.End(i) - 1
		case actFromImport:
			x.fromImport(i)
			i = t.End(i) - 1
		case actFutureImport:
			i = t.End(i) - 1
		case actAssignment:
			x.assignment(i)
		case actTypeAlias:
			x.typeAlias(i)
		case actBindLeft:
			x.bindLocals(i, t.Child(i, l.fLeft))
		case actBindName:
			x.bindLocals(i, t.Child(i, l.fName))
		case actBindAll:
			x.bindAsTarget(i)
		case actBindExcept:
			x.bindExcept(i)
		case actDefault:
			x.defaultValue(i)
		case actBinary:
			x.binaryOperator(i)
		case actCompare:
			x.comparison(i)
		case actUnary:
			x.unaryOperator(i)
		case actAugmented:
			x.augmentedAssignment(i)
		case actSubscript:
			x.subscript(i)
		case actWithItem:
			x.withItem(i)
		case actBindComp:
			for c := range t.NamedChildren(i) {
				if t.Kind(c) == l.forInClause {
					x.bindLocals(i, t.Child(c, l.fLeft))
				}
			}
		}
	}
}

// syntaxError reports the outermost ERROR nodes and every MISSING node. The
// walk itself goes on through ERROR subtrees: tree-sitter keeps well-formed
// pieces (calls, whole defs) inside them.
func (x *state) syntaxError(i extract.Node) {
	t := x.t
	if t.IsMissing(i) {
		x.f.Errorf("syntax error at L%d:%d: missing %s", t.StartLine(i), t.StartCol(i), t.KindName(i))
		return
	}
	if i < x.errEnd {
		return
	}
	x.errEnd = t.End(i)
	x.f.Errorf("syntax error at L%d:%d", t.StartLine(i), t.StartCol(i))
}

// current returns the innermost scope whose body contains i, or nil.
func (x *state) current(i extract.Node) *scope {
	for j := len(x.stack) - 1; j >= 0; j-- {
		if i >= x.stack[j].body {
			return &x.stack[j]
		}
	}
	return nil
}

func (x *state) symbol(s abi.Symbol) int32 {
	x.refs, x.refsFrom = x.refs[:0], -2
	return x.f.Symbol(s)
}

// ---- definitions ----

// docstring returns the doc of a module, class or function body: its
// first statement when that is a lone string literal (comments before it
// allowed), as extract.DocString.
func (x *state) docstring(body extract.Node) string {
	t, l := x.t, x.l
	for c := range t.NamedChildren(body) {
		if t.Kind(c) == l.comment {
			continue
		}
		if t.Kind(c) != l.expressionStatement || t.ChildCount(c) != 1 {
			return ""
		}
		if s := extract.Node(c + 1); t.Kind(s) == l.str {
			return extract.DocString(t.Text(s))
		}
		return ""
	}
	return ""
}

func (x *state) function(i extract.Node) {
	t, l := x.t, x.l
	nameNode := t.Child(i, l.fName)
	body := t.Child(i, l.fBody)
	if nameNode == extract.None || body == extract.None {
		return
	}
	name := t.Text(nameNode)
	outer := x.current(i)
	start := x.definitionStart(i)

	s := abi.Symbol{Name: name, Kind: abi.KindFunction, Parent: -1, Span: x.span(start, i), Doc: x.docstring(body)}
	sc := scope{kind: scopeFunc, body: body, end: t.End(i), class: -1, vars: len(x.vars)}
	switch {
	case outer == nil:
		x.shadow(name)
		s.Visibility = visibility(name)
		s.Test = isTestFunc(name)
	case outer.kind == scopeClass:
		s.Parent = outer.sym
		s.Kind = abi.KindMethod
		if x.isProperty(start) {
			s.Kind = abi.KindProperty
		}
		if !outer.local {
			s.Visibility = visibility(name)
		}
		s.Test = outer.test && isTestFunc(name)
		sc.class, sc.selfType, sc.superType = outer.sym, outer.selfType, outer.superType
		sc.init = name == "__init__"
		sc.local = outer.local
		defer x.constructorCall(outer, nameNode)
	default: // nested def: closures see the method's self
		s.Parent = outer.sym
		sc.selfType, sc.superType = outer.selfType, outer.superType
		sc.local = true
	}
	x.typeParams(t.Child(i, l.fTypeParameters))
	params := t.Child(i, l.fParameters)
	ret := t.Child(i, l.fReturnType)
	s.Signature = x.signature(i, params, ret)
	if s.Kind == abi.KindMethod && ret == extract.None && x.returnsSelf(params, body) {
		s.Signature.ReturnRef = selfReturnRef() // with.go
	}
	sc.sym = x.symbol(s)
	x.routes(start, sc.sym)
	x.stack = append(x.stack, sc)

	// Typed parameters: references, and receiver types for calls in the body.
	// Untyped ones are locals too: they hide module-level names.
	if params != extract.None {
		for p := range t.NamedChildren(params) {
			pname, ptype := x.param(p)
			if ptype == extract.None {
				x.bindNames(&x.stack[len(x.stack)-1], pname)
				continue
			}
			x.typeRefs(ptype, sc.sym, abi.CtxParameterType)
			if typ := x.typeName(ptype); typ != "" && pname != extract.None && t.Kind(pname) == l.identifier {
				x.vars = append(x.vars, newVar(t.Text(pname), typ))
			}
		}
	}
	if ret != extract.None {
		x.typeRefs(ret, sc.sym, abi.CtxReturnType)
	}
}

// definitionStart returns the decorated_definition wrapping def node i, so
// spans include decorators, or i itself.
func (x *state) definitionStart(i extract.Node) extract.Node {
	d := x.decorated
	if d != extract.None && x.t.Field(i) == x.l.fDefinition && x.t.End(i) == x.t.End(d) && d < i {
		return d
	}
	return i
}

func (x *state) span(start, def extract.Node) abi.Span {
	s := x.t.Span(def)
	if start != def {
		s.StartLine, s.StartCol = x.t.StartLine(start), x.t.StartCol(start)
	}
	return s
}

// isProperty reports whether the decorated definition start carries
// @property, @cached_property (any module) or @x.setter/getter/deleter.
func (x *state) isProperty(start extract.Node) bool {
	t, l := x.t, x.l
	if t.Kind(start) != l.decoratedDefinition {
		return false
	}
	for d := range t.NamedChildren(start) {
		if t.Kind(d) != l.decorator {
			continue
		}
		for e := range t.NamedChildren(d) {
			var name []byte
			switch t.Kind(e) {
			case l.identifier:
				name = t.Bytes(e)
			case l.attribute:
				name = t.Bytes(t.Child(e, l.fAttribute))
			}
			switch string(name) {
			case "property", "cached_property", "setter", "getter", "deleter", "abstractproperty":
				return true
			}
		}
	}
	return false
}

// param returns the name node and type node (None if untyped) of one
// parameters child; separators give (None, None).
func (x *state) param(p extract.Node) (name, typ extract.Node) {
	t, l := x.t, x.l
	switch t.Kind(p) {
	case l.identifier, l.listSplatPattern, l.dictSplatPattern:
		return p, extract.None
	case l.typedParameter:
		for c := range t.NamedChildren(p) {
			if t.Field(c) != l.fType {
				return c, t.Child(p, l.fType)
			}
		}
		return extract.None, t.Child(p, l.fType)
	case l.defaultParameter:
		return t.Child(p, l.fName), extract.None
	case l.typedDefaultParameter:
		return t.Child(p, l.fName), t.Child(p, l.fType)
	}
	return extract.None, extract.None
}

func (x *state) signature(def, params, ret extract.Node) *abi.Signature {
	t := x.t
	sig := &abi.Signature{}
	headerEnd := t.StartByte(t.Child(def, x.l.fBody))
	if params != extract.None {
		headerEnd = t.EndByte(params)
		for p := range t.NamedChildren(params) {
			name, typ := x.param(p)
			if name == extract.None {
				continue
			}
			p := abi.Param{Name: x.oneLine(name), Type: x.oneLine(typ)}
			if typ != extract.None {
				if tn := x.typeName(typ); tn != "" {
					p.TypeRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: tn}}}
				}
			}
			sig.Params = append(sig.Params, p)
		}
	}
	if ret != extract.None {
		sig.Return = x.oneLine(ret)
		headerEnd = t.EndByte(ret)
		// The class the result holds, read like a parameter's annotation:
		// through Optional[X], X | None and a quoted forward reference "X".
		if tn := x.typeName(ret); tn != "" {
			sig.ReturnRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: tn}}}
		}
	}
	src := t.Source()
	if s := t.StartByte(def); s <= headerEnd && headerEnd <= len(src) {
		x.buf = collapse(x.buf[:0], src[s:headerEnd])
		sig.Raw = strings.TrimRight(string(x.buf), " :")
	}
	return sig
}

// oneLine returns n's text collapsed to one line ("" for None).
func (x *state) oneLine(n extract.Node) string {
	if n == extract.None {
		return ""
	}
	b := x.t.Bytes(n)
	for _, c := range b {
		if c == '\n' || c == '\r' || c == '#' || c == '\t' || c == '\\' {
			x.buf = collapse(x.buf[:0], b)
			return string(x.buf)
		}
	}
	return string(b)
}

func (x *state) class(i extract.Node) {
	t, l := x.t, x.l
	nameNode := t.Child(i, l.fName)
	body := t.Child(i, l.fBody)
	if nameNode == extract.None || body == extract.None {
		return
	}
	name := t.Text(nameNode)
	outer := x.current(i)
	s := abi.Symbol{Name: name, Kind: abi.KindClass, Parent: -1, Span: x.span(x.definitionStart(i), i), Doc: x.docstring(body)}
	sc := scope{kind: scopeClass, body: body, end: t.End(i), class: -1, selfType: name, vars: len(x.vars)}
	if outer != nil {
		s.Parent = outer.sym
		sc.local = outer.local || outer.kind == scopeFunc
	}
	if !sc.local {
		s.Visibility = visibility(name)
	}
	x.typeParams(t.Child(i, l.fTypeParameters))
	bases := t.Child(i, l.fSuperclasses)
	test := isTestClass(name)
	if bases != extract.None && !test {
		for b := range t.NamedChildren(bases) {
			if base := x.baseName(b); base != "" && isTestBase(base) {
				test = true
			}
		}
	}
	if bases != extract.None {
		s.Kind = x.classKind(bases)
	}
	s.Test = test && outer == nil || test && outer.kind == scopeClass && outer.test
	sc.test = s.Test
	sc.sym = x.symbol(s)
	if bases != extract.None {
		for b := range t.NamedChildren(bases) {
			base := x.baseName(b)
			if base == "" || base == "object" {
				continue
			}
			x.f.Relation(abi.Relation{From: sc.sym, Kind: abi.RelInherits, Target: base, Line: t.StartLine(b)})
			if sc.superType == "" {
				if last := lastSegment(base); last != "Generic" && last != "Protocol" {
					sc.superType = base
				}
			}
			if t.Kind(b) == l.subscript {
				for a := range t.NamedChildren(b) {
					if t.Field(a) == l.fSubscript {
						x.typeRefs(a, sc.sym, abi.CtxGenericArg)
					}
				}
			}
		}
	}
	x.stack = append(x.stack, sc)
}

// classKind tells enums (a base named Enum, IntEnum, StrEnum, Flag or
// IntFlag) and protocols (a base named Protocol: structural interfaces)
// from plain classes.
func (x *state) classKind(bases extract.Node) abi.SymbolKind {
	for b := range x.t.NamedChildren(bases) {
		switch lastSegment(x.baseName(b)) {
		case "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum":
			return "enum"
		case "Protocol":
			return "interface"
		}
	}
	return "class"
}

// baseName returns the class named by a superclasses entry: Base, mod.Base,
// or Generic for Generic[T]; "" for keywords (metaclass=), splats and calls.
func (x *state) baseName(b extract.Node) string {
	t, l := x.t, x.l
	switch t.Kind(b) {
	case l.identifier, l.attribute:
		if x.isDotted(b) {
			return x.oneLine(b)
		}
	case l.subscript:
		if v := t.Child(b, l.fValue); v != extract.None && x.isDotted(v) {
			return x.oneLine(v)
		}
	}
	return ""
}

// isDotted reports whether n is an identifier or a chain of attributes on one.
func (x *state) isDotted(n extract.Node) bool {
	t, l := x.t, x.l
	for t.Kind(n) == l.attribute {
		n = t.Child(n, l.fObject)
	}
	return n != extract.None && t.Kind(n) == l.identifier
}

// typeParams records PEP 695 type parameters ([T, K: str, *Ts]) so they
// are not reported as references to types named T.
func (x *state) typeParams(tp extract.Node) {
	if tp == extract.None {
		return
	}
	t, l := x.t, x.l
	for c := range t.NamedChildren(tp) {
		for d := range t.Descendants(c) {
			if t.Kind(d) == l.identifier {
				x.addTypeVar(t.Text(d))
				break
			}
		}
	}
}

func (x *state) addTypeVar(name string) {
	for _, v := range x.typeVars {
		if v == name {
			return
		}
	}
	x.typeVars = append(x.typeVars, name)
}

func (x *state) isTypeVar(name []byte) bool {
	for _, v := range x.typeVars {
		if v == string(name) {
			return true
		}
	}
	return false
}

// assignment handles constants, fields, type aliases and annotated locals.
func (x *state) assignment(i extract.Node) {
	t, l := x.t, x.l
	left, typ, right := t.Child(i, l.fLeft), t.Child(i, l.fType), t.Child(i, l.fRight)
	if left == extract.None {
		return
	}
	sc := x.current(i)
	switch {
	case sc == nil:
		x.moduleAssignment(i, left, typ, right)
	case sc.kind == scopeClass:
		x.targets(left, func(n extract.Node) {
			if t.Kind(n) == l.identifier {
				x.field(i, n, typ, right, sc.sym, sc.local)
			}
		})
	case sc.init:
		x.targets(left, func(n extract.Node) {
			if t.Kind(n) != l.attribute {
				return
			}
			if obj := t.Child(n, l.fObject); string(t.Bytes(obj)) == "self" {
				x.field(i, t.Child(n, l.fAttribute), typ, right, sc.class, sc.local)
			}
		})
	}
	if sc != nil && sc.kind == scopeFunc && t.Kind(left) == l.identifier {
		// A local's type: its annotation, else "F()" for a call of a
		// dotted name (parser = argparse.ArgumentParser(), repo =
		// make_repo()), which the host reads as the class F names or the
		// return type F declares. Other locals are kept untyped so they
		// hide an outer name's type.
		name := x.assignedType(typ, right)
		if name != "" || !x.isLocal(sc, t.Text(left)) {
			x.vars = append(x.vars, assignedVar(t.Text(left), name))
		}
		x.noteAlias(t.Text(left), right, sc.vars)
	}
}

// isLocal reports whether the function scope sc already binds name. A
// name is local to its whole function in Python, so an untyped
// reassignment (loop = loop or get_loop()) keeps the type it had there;
// it only hides a module-level name.
func (x *state) isLocal(sc *scope, name string) bool {
	for _, v := range x.vars[sc.vars:] {
		if v.name == name {
			return true
		}
	}
	return false
}

// bindLocals records the names a function-scope binding form (a for
// target, a walrus, with … as, an untyped parameter) introduces, untyped:
// they hide a module-level name's type for the rest of the function. at
// locates the scope; n is the target (pattern lists and tuples unpacked,
// nested ones too).
func (x *state) bindLocals(at, n extract.Node) {
	sc := x.current(at)
	if sc == nil || sc.kind != scopeFunc {
		return
	}
	x.bindNames(sc, n)
}

// bindNames records the names target n binds in function scope sc,
// untyped, unless sc binds them already (see isLocal).
func (x *state) bindNames(sc *scope, n extract.Node) {
	if n == extract.None {
		return
	}
	t, l := x.t, x.l
	bind := func(id extract.Node) {
		if name := t.Text(id); !x.isLocal(sc, name) {
			x.vars = append(x.vars, newVar(name, ""))
		}
	}
	switch t.Kind(n) {
	case l.identifier:
		bind(n)
	case l.attribute, l.subscript:
		// x.a = …, x[i] = …: no new name
	default:
		for c := range t.Descendants(n) {
			if t.Kind(c) == l.identifier && t.Kind(t.Parent(c)) != l.attribute && t.Kind(t.Parent(c)) != l.subscript {
				bind(c)
			}
		}
	}
}

// bindExcept binds e in `except E as e:`: the last of two or more
// expressions before the block.
func (x *state) bindExcept(i extract.Node) {
	t, l := x.t, x.l
	var exprs []extract.Node
	for c := range t.NamedChildren(i) {
		if k := t.Kind(c); k != l.block && k != l.comment {
			exprs = append(exprs, c)
		}
	}
	if n := len(exprs); n >= 2 && t.Kind(exprs[n-1]) == l.identifier {
		x.bindLocals(i, exprs[n-1])
	}
}

// targets calls fn for each assignment target in left, unpacking
// a, b = … and (a, b) = ….
func (x *state) targets(left extract.Node, fn func(extract.Node)) {
	t, l := x.t, x.l
	if k := t.Kind(left); k == l.patternList || k == l.tuplePattern {
		for c := range t.NamedChildren(left) {
			fn(c)
		}
		return
	}
	fn(left)
}

func (x *state) moduleAssignment(i, left, typ, right extract.Node) {
	t, l := x.t, x.l
	if right != extract.None && t.Kind(right) == l.call {
		if fn := t.Child(right, l.fFunction); fn != extract.None && typeVarFactories[lastSegment(string(t.Bytes(fn)))] {
			x.targets(left, func(n extract.Node) {
				if t.Kind(n) == l.identifier {
					x.addTypeVar(t.Text(n))
				}
			})
			return
		}
	}
	// A module-level name assigned a call of a dotted name (root =
	// RootLogger(WARNING)) or annotated is typed for the functions that
	// follow; locals and parameters of those functions hide it.
	if t.Kind(left) == l.identifier {
		name := x.assignedType(typ, right)
		x.vars = append(x.vars, assignedVar(t.Text(left), name))
		x.noteAlias(t.Text(left), right, 0)
	}
	alias := typ != extract.None && lastSegment(x.oneLine(typ)) == "TypeAlias"
	x.targets(left, func(n extract.Node) {
		if t.Kind(n) != l.identifier {
			return
		}
		name := string(t.Bytes(n))
		kind := abi.KindConstant
		switch {
		case alias:
			kind = abi.KindTypeAlias
		case !isConstName(name):
			return
		}
		if x.dup(-1, name) {
			return
		}
		x.symbol(abi.Symbol{Name: t.Text(n), Kind: kind, Parent: -1, Visibility: visibility(name), Span: t.Span(i)})
	})
}

// field reports a class field once per class (a class attribute assigned
// again in __init__ is one field), with a reference to its annotated type.
func (x *state) field(assign, name, typ, value extract.Node, class int32, local bool) {
	t := x.t
	if name == extract.None || t.Kind(name) != x.l.identifier {
		return
	}
	n := string(t.Bytes(name))
	if isDunder(n) || x.dup(class, n) {
		return
	}
	s := abi.Symbol{Name: t.Text(name), Kind: abi.KindField, Parent: class, Span: t.Span(assign)}
	if !local {
		s.Visibility = visibility(n)
	}
	// The field's type, for the host to follow self.f.m(): the annotation,
	// else the class a constructor call names (self.repo = Repo(db)); the
	// host links only if that name is a class.
	ft := ""
	if typ != extract.None {
		ft = x.typeName(typ)
	} else if value != extract.None && t.Kind(value) == x.l.call {
		if fn := t.Child(value, x.l.fFunction); fn != extract.None && x.isDotted(fn) {
			ft = x.oneLine(fn)
		}
	}
	if ft != "" {
		s.Signature = &abi.Signature{Return: ft}
	}
	sym := x.symbol(s)
	if typ != extract.None {
		x.typeRefs(typ, sym, abi.CtxField)
	}
}

// dup reports whether parent already has a field or constant called name,
// and records it otherwise.
func (x *state) dup(parent int32, name string) bool {
	if x.seen == nil {
		x.seen = map[string][]int32{}
	}
	ps := x.seen[name]
	for _, p := range ps {
		if p == parent {
			return true
		}
	}
	x.seen[name] = append(ps, parent)
	return false
}

// typeAlias handles `type Name[T] = …` (Python 3.12).
func (x *state) typeAlias(i extract.Node) {
	t, l := x.t, x.l
	var nameNode extract.Node = extract.None
	for c := range t.NamedChildren(i) {
		if t.Kind(c) == l.typ {
			nameNode = c
			break
		}
	}
	if nameNode == extract.None {
		return
	}
	for c := range t.NamedChildren(nameNode) {
		switch t.Kind(c) {
		case l.identifier:
			nameNode = c
		case l.genericType:
			for g := range t.NamedChildren(c) {
				if t.Kind(g) == l.identifier {
					nameNode = g
				} else if t.Kind(g) == l.typeParameter {
					x.typeParams(g)
				}
			}
		}
	}
	if t.Kind(nameNode) != l.identifier {
		return
	}
	name := t.Text(nameNode)
	s := abi.Symbol{Name: name, Kind: abi.KindTypeAlias, Parent: -1, Span: t.Span(i)}
	if sc := x.current(i); sc != nil {
		s.Parent = sc.sym
		if !sc.local && sc.kind == scopeClass {
			s.Visibility = visibility(name)
		}
	} else {
		s.Visibility = visibility(name)
	}
	x.symbol(s)
}

// ---- calls ----

func (x *state) caller(i extract.Node) int32 {
	if sc := x.current(i); sc != nil {
		return sc.sym
	}
	return -1
}

func (x *state) call(i extract.Node) {
	fn := x.t.Child(i, x.l.fFunction)
	if fn != extract.None {
		x.dynamic(i, fn)
		x.httpClient(i, fn)
		x.crossLang(i, fn)
		x.callee(i, fn)
		x.builtinProtocol(i, fn)
	}
	x.argumentValues(i)
}

// decorator reports a bare decorator (@cache, @app.route without
// arguments) as a call; a decorator call (@app.route("/")) is a call node
// the walk reaches by itself.
func (x *state) decorator(d extract.Node) {
	t, l := x.t, x.l
	for e := range t.NamedChildren(d) {
		switch t.Kind(e) {
		case l.identifier:
			x.callee(d, e)
		case l.attribute:
			// @name.setter is property plumbing, not a project call.
			switch string(t.Bytes(t.Child(e, l.fAttribute))) {
			case "setter", "getter", "deleter":
			default:
				x.callee(d, e)
			}
		}
		return
	}
}

// callee reports a call to fn (an identifier or attribute) made at node at.
func (x *state) callee(at, fn extract.Node) {
	if c, ok := x.calleeCall(at, fn); ok {
		x.f.Call(c)
	}
}

// calleeCall is the call of fn made at node at; a callee that is an
// alias (aliases.go) is reported as a call of its target, at fn.
func (x *state) calleeCall(at, fn extract.Node) (abi.Call, bool) {
	t, l := x.t, x.l
	c := abi.Call{Caller: x.caller(at)}
	switch t.Kind(fn) {
	case l.identifier:
		b := t.Bytes(fn)
		if x.isBuiltin(string(b)) || keywords[string(b)] {
			return c, false
		}
		if a := x.callAlias(string(b)); a != extract.None {
			x.aliasDepth++
			ac, ok := x.calleeCall(at, a)
			x.aliasDepth--
			ac.Line, ac.Col = t.StartLine(fn), t.StartCol(fn)
			return ac, ok
		}
		c.Name = string(b)
		c.Line, c.Col = t.StartLine(fn), t.StartCol(fn)
	case l.attribute:
		attr, obj := t.Child(fn, l.fAttribute), t.Child(fn, l.fObject)
		if attr == extract.None || obj == extract.None {
			return c, false
		}
		c.Name = t.Text(attr)
		c.Line, c.Col = t.StartLine(attr), t.StartCol(attr)
		c.Receiver, c.ReceiverType = x.receiver(at, obj)
		c.ReceiverRef = receiverRef(c.ReceiverType)
	default:
		return c, false
	}
	return c, true
}

// calleeText is a dotted callee's text, an alias at its root replaced
// by its target (G.from_float with G = fractions.Fraction is
// fractions.Fraction.from_float).
func (x *state) calleeText(fn extract.Node) string {
	t, l := x.t, x.l
	root := fn
	for t.Kind(root) == l.attribute {
		root = t.Child(root, l.fObject)
	}
	if root != extract.None && t.Kind(root) == l.identifier {
		if a := x.callAlias(t.Text(root)); a != extract.None {
			text := x.oneLine(fn)
			return x.oneLine(a) + text[min(len(t.Text(root)), len(text)):]
		}
	}
	return x.oneLine(fn)
}

// receiver renders a call's receiver expression and its type when known.
func (x *state) receiver(at, obj extract.Node) (text, typ string) {
	t, l := x.t, x.l
	switch t.Kind(obj) {
	case l.identifier:
		b := t.Bytes(obj)
		if a := x.callAlias(string(b)); a != extract.None {
			x.aliasDepth++
			text, typ = x.receiver(at, a)
			x.aliasDepth--
			return text, typ
		}
		if string(b) == "self" || string(b) == "cls" {
			if sc := x.current(at); sc != nil && sc.kind == scopeFunc {
				typ = sc.selfType
			}
		} else if x.current(at) != nil {
			for j := len(x.vars) - 1; j >= 0; j-- {
				if x.vars[j].name == string(b) {
					typ = x.vars[j].typ
					break
				}
			}
		}
		return string(b), typ
	case l.call:
		fn := t.Child(obj, l.fFunction)
		if fn != extract.None && string(t.Bytes(fn)) == "super" {
			if sc := x.current(at); sc != nil && sc.kind == scopeFunc {
				typ = sc.superType
			}
			return "super", typ
		}
		if fn != extract.None && x.isDotted(fn) && !(t.Kind(fn) == l.identifier && x.isBuiltin(t.Text(fn))) {
			// Differ(a, b).compare(): an instance of the class the callee
			// names, or of what the function returns.
			x.buf = x.renderReceiver(x.buf[:0], obj)
			return string(x.buf), x.calleeText(fn) + "()"
		}
	}
	x.buf = x.renderReceiver(x.buf[:0], obj)
	return string(x.buf), x.memberType(at, obj)
}

// memberType types an attribute receiver whose object is typed:
// self.repo is "Service#repo" (the field repo of Service), which the host
// follows through the field's declared or constructed type; chains nest
// (self.a.b is "Service#a#b"). Anything else gives "".
func (x *state) memberType(at, n extract.Node) string {
	t, l := x.t, x.l
	if t.Kind(n) != l.attribute || x.chainDepth(n) > maxChain {
		return "" // a long generated chain is not followed (each link would spell all below it)
	}
	obj, attr := t.Child(n, l.fObject), t.Child(n, l.fAttribute)
	if obj == extract.None || attr == extract.None {
		return ""
	}
	var owner string
	switch t.Kind(obj) {
	case l.identifier:
		_, owner = x.receiver(at, obj)
	case l.attribute:
		owner = x.memberType(at, obj)
	}
	if owner == "" {
		return ""
	}
	return owner + "#" + t.Text(attr)
}

// Receivers are rendered structurally (identifiers, attributes, calls with
// their arguments dropped) up to maxChain links; deeper chains and other
// expressions ({...}.items(), "".join) fall back to their collapsed text,
// capped at maxReceiver bytes (the sdk's one cap). Both bounds keep a generated 5,000-link
// builder chain linear instead of quadratic.
const (
	maxReceiver = extract.MaxReceiver
	maxChain    = 16
)

func (x *state) renderReceiver(dst []byte, n extract.Node) []byte {
	if x.chainDepth(n) > maxChain {
		return x.renderText(dst, n)
	}
	return x.renderChain(dst, n)
}

// chainDepth counts the attribute and call links under n, up to maxChain+1.
func (x *state) chainDepth(n extract.Node) int {
	t, l := x.t, x.l
	d := 0
	for ; d <= maxChain; d++ {
		switch t.Kind(n) {
		case l.attribute:
			n = t.Child(n, l.fObject)
		case l.call:
			n = t.Child(n, l.fFunction)
		default:
			return d
		}
	}
	return d
}

func (x *state) renderChain(dst []byte, n extract.Node) []byte {
	t, l := x.t, x.l
	switch t.Kind(n) {
	case l.identifier:
		return append(dst, t.Bytes(n)...)
	case l.attribute:
		dst = x.renderChain(dst, t.Child(n, l.fObject))
		return append(append(dst, '.'), t.Bytes(t.Child(n, l.fAttribute))...)
	case l.call:
		if fn := t.Child(n, l.fFunction); fn != extract.None {
			return append(x.renderChain(dst, fn), "()"...)
		}
	}
	return x.renderText(dst, n)
}

// renderText appends n's collapsed text, cut at maxReceiver bytes.
func (x *state) renderText(dst []byte, n extract.Node) []byte {
	start := len(dst)
	dst = collapseMax(dst, x.t.Bytes(n), maxReceiver)
	if len(dst)-start > maxReceiver {
		cut := start + maxReceiver
		for cut > start && dst[cut]&0xC0 == 0x80 { // keep UTF-8 whole
			cut--
		}
		dst = append(dst[:cut], "..."...)
	}
	return dst
}

// ---- imports ----

func (x *state) importStatement(i extract.Node) {
	t, l := x.t, x.l
	for c := range t.NamedChildren(i) {
		if t.Field(c) != l.fName {
			continue
		}
		im := abi.Import{Line: t.StartLine(i)}
		switch t.Kind(c) {
		case l.dottedName:
			im.Path = x.compact(c)
		case l.aliasedImport:
			im.Path = x.compact(t.Child(c, l.fName))
			im.Alias = t.Text(t.Child(c, l.fAlias))
			x.shadow(im.Alias)
			if typingModules[im.Path] {
				x.typing = append(x.typing, im.Alias)
			}
		default:
			continue
		}
		x.f.Import(im)
	}
}

func (x *state) fromImport(i extract.Node) {
	t, l := x.t, x.l
	im := abi.Import{Line: t.StartLine(i)}
	for c := range t.NamedChildren(i) {
		switch {
		case t.Field(c) == l.fModuleName:
			im.Path = x.compact(c)
		case t.Kind(c) == l.wildcardImport:
			im.Names = append(im.Names, abi.ImportName{Name: "*"})
		case t.Field(c) != l.fName:
		case t.Kind(c) == l.dottedName:
			im.Names = append(im.Names, abi.ImportName{Name: x.compact(c)})
			x.shadow(im.Names[len(im.Names)-1].Name)
		case t.Kind(c) == l.aliasedImport:
			im.Names = append(im.Names, abi.ImportName{
				Name:  x.compact(t.Child(c, l.fName)),
				Alias: t.Text(t.Child(c, l.fAlias)),
			})
			x.shadow(im.Names[len(im.Names)-1].Alias)
		}
	}
	if im.Path != "" {
		x.f.Import(im)
	}
}

// compact returns a dotted or relative module name without the whitespace
// and comments Python allows inside it ("from . import" spans, "a . b").
func (x *state) compact(n extract.Node) string {
	b := x.t.Bytes(n)
	clean := true
	for _, c := range b {
		if c <= ' ' || c == '#' || c == '\\' {
			clean = false
			break
		}
	}
	if clean {
		return string(b)
	}
	x.buf = collapse(x.buf[:0], b)
	out := x.buf[:0]
	for _, c := range x.buf {
		if c != ' ' {
			out = append(out, c)
		}
	}
	return string(out)
}

// ---- types ----

// typeRefs reports the project types an annotation uses. Container and
// generic arguments get context generic_arg; Optional/Union/Annotated are
// looked through.
func (x *state) typeRefs(n extract.Node, from int32, ctx abi.RelationContext) {
	t, l := x.t, x.l
	switch k := t.Kind(n); k {
	case l.typ, l.unionType:
		for c := range t.NamedChildren(n) {
			x.typeRefs(c, from, ctx)
		}
	case l.binaryOperator: // X | Y inside a subscript
		for c := range t.NamedChildren(n) {
			x.typeRefs(c, from, ctx)
		}
	case l.identifier, l.attribute, l.memberType:
		if x.isDotted(n) || k == l.memberType {
			x.ref(x.oneLine(n), from, ctx, t.StartLine(n))
		}
	case l.str:
		if c := t.ChildOfKind(n, l.stringContent); c != extract.None && isDottedName(string(t.Bytes(c))) {
			x.ref(t.Text(c), from, ctx, t.StartLine(n))
		}
	case l.list: // Callable[[A, B], R]
		for c := range t.NamedChildren(n) {
			x.typeRefs(c, from, ctx)
		}
	case l.genericType, l.subscript:
		base := x.firstNamed(n)
		if k == l.subscript {
			base = t.Child(n, l.fValue)
		}
		if base == extract.None {
			return
		}
		name := x.oneLine(base)
		last := lastSegment(name)
		if last == "Literal" {
			return
		}
		argCtx := abi.CtxGenericArg
		if transparentGenerics[last] {
			argCtx = ctx
		} else {
			x.typeRefs(base, from, ctx)
		}
		first := true
		visit := func(a extract.Node) {
			if last == "Annotated" && !first {
				return
			}
			first = false
			x.typeRefs(a, from, argCtx)
		}
		for c := range t.NamedChildren(n) {
			switch {
			case c == base:
			case k == l.subscript && t.Field(c) == l.fSubscript:
				visit(c)
			case k == l.genericType && t.Kind(c) == l.typeParameter:
				for a := range t.NamedChildren(c) {
					visit(a)
				}
			}
		}
	}
}

// ref reports one type reference, skipping builtin and typing names, type
// variables, and repeats from the same symbol.
func (x *state) ref(name string, from int32, ctx abi.RelationContext, line uint32) {
	last := lastSegment(name)
	if last == name {
		if builtinTypes[name] || x.isTypeVar([]byte(name)) {
			return
		}
	} else if builtinTypes[last] {
		mod := name[:len(name)-len(last)-1]
		if typingModules[mod] || slices.Contains(x.typing, mod) {
			return
		}
	}
	if x.refsFrom != from {
		x.refs, x.refsFrom = x.refs[:0], from
	}
	for _, r := range x.refs {
		if r.target == name && r.ctx == ctx {
			return
		}
	}
	x.refs = append(x.refs, ref{name, ctx})
	x.f.Relation(abi.Relation{From: from, Kind: abi.RelReferences, Target: name, Context: ctx, Line: line})
}

// typeName returns the type a variable annotated with n holds, for
// receiver types: the annotation without generic arguments, looking
// through Optional[X], X | None and "X".
func (x *state) typeName(n extract.Node) string {
	t, l := x.t, x.l
	switch k := t.Kind(n); k {
	case l.typ:
		return x.typeName(x.firstNamed(n))
	case l.identifier, l.attribute:
		if x.isDotted(n) {
			name := x.oneLine(n)
			if name == "None" {
				return ""
			}
			return name
		}
	case l.str:
		if c := t.ChildOfKind(n, l.stringContent); c != extract.None && isDottedName(string(t.Bytes(c))) {
			return t.Text(c)
		}
	case l.unionType, l.binaryOperator:
		var only string
		for c := range t.NamedChildren(n) {
			name := x.typeName(c)
			if name == "" {
				continue
			}
			if only != "" {
				return ""
			}
			only = name
		}
		return only
	case l.genericType, l.subscript:
		base := x.firstNamed(n)
		if k == l.subscript {
			base = t.Child(n, l.fValue)
		}
		if base == extract.None {
			return ""
		}
		name := x.typeName(base)
		if lastSegment(name) != "Optional" {
			return name
		}
		for c := range t.NamedChildren(n) {
			if c == base {
				continue
			}
			if t.Kind(c) == l.typeParameter {
				for a := range t.NamedChildren(c) {
					return x.typeName(a)
				}
			}
			return x.typeName(c)
		}
	}
	return ""
}

// firstNamed returns n's first named child, or None.
func (x *state) firstNamed(n extract.Node) extract.Node {
	for c := range x.t.NamedChildren(n) {
		return c
	}
	return extract.None
}
