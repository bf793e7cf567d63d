package main

import (
	"bytes"
	"strconv"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one JavaScript, TypeScript or TSX file.
type Extractor struct{}

// Extract walks the file once. Definitions, calls, imports and relations are
// emitted in preorder, so the output is deterministic.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	if t.Len() == 0 {
		return nil
	}
	w := &walker{t: t, l: langOf(t.Grammar), f: f, src: t.Source(), parent: -1, caller: -1}
	w.scanExports()
	w.end = t.End(0)
	if t.IsError(0) {
		// A file that does not parse at all: still harvest what the
		// parser recognised inside the top-level ERROR node.
		w.walk(1, w.end)
	} else {
		w.walk(0, w.end)
	}
	w.reportErrors()
	w.nextRoutes()
	fileFacts(f)
	typeRefs(f.Symbols())
	f.FillDocs(extract.DocBlockStar)
	return nil
}

// maxErrors bounds the syntax errors reported per file: the first few
// locate the problem, the rest are usually its echoes.
const maxErrors = 5

// reportErrors lists ERROR and MISSING nodes. It is a separate pass because
// the walk skips subtrees it has no use for, where errors can still hide.
func (w *walker) reportErrors() {
	t, n := w.t, w.t.Len()
	for i := extract.Node(0); int(i) < n && w.errors < maxErrors; i++ {
		switch {
		case t.IsError(i):
			w.errors++
			w.f.Errorf("syntax error at L%d:%d", t.StartLine(i), t.StartCol(i))
			i = t.End(i) - 1 // one report per ERROR node
		case t.IsMissing(i):
			w.errors++
			w.f.Errorf("missing %s at L%d:%d", t.KindName(i), t.StartLine(i), t.StartCol(i))
		}
	}
}

// walker carries the lexical context of the single preorder walk.
type walker struct {
	t   *extract.Tree
	l   *lang
	f   *extract.File
	src []byte

	eventGate int8 // channel.go: does the file use EventEmitter/CustomEvent (0 not yet known, 1 yes, -1 no)

	parent   int32        // enclosing symbol, the Parent of new symbols
	caller   int32        // enclosing callable (or class body), the Caller of calls
	thisType string       // class that `this` denotes here, "" if unknown
	baseType string       // superclass of thisType, the target of super calls
	end      extract.Node // end of the range being walked: siblings stop there

	argOf    string         // "f@i" while walking argument i of a call of f, for callback
	bindings []binding      // parameters and locals in scope (typed or not), innermost last
	fields   []binding      // typed fields of the enclosing classes, for this.f.m()
	ownField int            // fields[ownField:] belong to the class `this` denotes
	tparams  []extract.Node // type parameter names in scope, not references
	exports  [][]byte       // names exported by `export {…}`, `export default x`, `export = x`
	seen     []relKey       // references already emitted for the current symbol
	errors   int            // syntax errors reported so far
}

// binding is a name whose type is known locally (a typed parameter, a typed
// local, or a local initialised with `new T()`), for ReceiverType.
type binding struct {
	name extract.Node
	typ  string
}

// relKey identifies a references relation, to emit each one once per symbol.
type relKey struct {
	from   int32
	target string
	detail abi.RelationContext
}

// ctx is the part of the walker saved and restored around a scope.
type ctx struct {
	parent, caller     int32
	thisType, baseType string
	nb, ntp, nf, own   int
}

func (w *walker) save() ctx {
	return ctx{w.parent, w.caller, w.thisType, w.baseType, len(w.bindings), len(w.tparams), len(w.fields), w.ownField}
}

func (w *walker) restore(c ctx) {
	w.parent, w.caller, w.thisType, w.baseType = c.parent, c.caller, c.thisType, c.baseType
	w.bindings, w.tparams, w.fields, w.ownField = w.bindings[:c.nb], w.tparams[:c.ntp], w.fields[:c.nf], c.own
}

// walk visits the nodes in [from, to) in preorder, handing nodes with a role
// to their handler (which owns the node's subtree) and stepping into the rest.
func (w *walker) walk(from, to extract.Node) {
	t, roles := w.t, &w.l.roles
	saved := w.end
	w.end = to
	for i := from; i < to; {
		r := roles[t.Kind(i)]
		if r == rNone {
			i++
			continue
		}
		w.node(i, r)
		i = t.End(i)
	}
	w.end = saved
}

// walkNode walks n's subtree, n included.
func (w *walker) walkNode(n extract.Node) {
	if n != extract.None {
		w.walk(n, w.t.End(n))
	}
}

// walkInside walks n's descendants, n excluded.
func (w *walker) walkInside(n extract.Node) {
	if n != extract.None {
		w.walk(n+1, w.t.End(n))
	}
}

// node dispatches a node with a role to its handler.
func (w *walker) node(n extract.Node, r role) {
	switch r {
	case rError, rType:
		// ERROR subtrees are skipped (reportErrors lists them); types
		// hold no calls or definitions.
	case rFuncExpr, rObjMethod:
		w.callback(n)
	case rExport:
		w.export(n)
	case rImport:
		w.importStatement(n)
	case rCall:
		w.call(n)
	case rNew:
		w.newExpr(n)
	case rAssign:
		w.assign(n)
	case rJSX:
		w.jsx(n)
	default:
		w.declaration(n, n, false)
	}
}

// ---- definitions ----

// declaration handles a definition, exported when it is the declaration of
// an export_statement (stmt, which overload detection looks past).
func (w *walker) declaration(n, stmt extract.Node, exported bool) {
	switch w.l.roles[w.kind(n)] {
	case rFuncDecl:
		w.function(n, exported)
	case rFuncSig:
		w.functionSignature(n, stmt, exported)
	case rClass:
		w.class(n, w.nameOf(n), n, exported)
	case rInterface:
		w.interface_(n, exported)
	case rTypeAlias:
		w.simple(n, "type_alias", exported)
	case rEnum:
		w.enum(n, exported)
	case rNamespace:
		w.namespace(n, "namespace", exported)
	case rModule:
		w.namespace(n, "module", exported)
	case rVarDecl:
		w.varDecl(n, exported)
	default:
		if w.kind(n) == w.l.ambientDeclaration {
			// export declare …: the declaration inside is the exported one.
			if d := w.firstNamed(n); d != extract.None {
				w.declaration(d, d, exported)
				return
			}
		}
		w.walkNode(n)
	}
}

// visibility of a file- or namespace-level definition: exported ones are public.
func (w *walker) visibility(name string, exported bool) abi.Visibility {
	if exported || (w.parent == -1 && w.exportedName(name)) {
		return abi.VisPublic
	}
	return ""
}

func (w *walker) function(n extract.Node, exported bool) {
	name := w.nameOf(n)
	if name == "" {
		w.walkInside(n)
		return
	}
	c := w.save()
	w.pushTypeParams(n)
	idx := w.defineCallable(n, n, name, "function", w.visibility(name, exported), w.t.StartByte(n), "")
	w.thisType, w.baseType = "", ""
	w.enter(idx, n)
	w.restore(c)
}

// functionSignature reports a body-less function (`declare function f();`)
// unless it is an overload signature: those are followed by another
// signature or the implementation, which stands for them all.
func (w *walker) functionSignature(n, stmt extract.Node, exported bool) {
	name := w.nameOf(n)
	if name == "" {
		return
	}
	if next := w.nextNamed(stmt, w.end); next != extract.None {
		k := w.kind(next)
		if k == w.l.exportStatement {
			next = w.t.Child(next, w.l.fDeclaration)
			if next == extract.None {
				k = 0
			} else {
				k = w.kind(next)
			}
		}
		if (k == w.l.functionDeclaration || k == w.l.functionSignature) && w.nameOf(next) == name {
			return
		}
	}
	c := w.save()
	w.pushTypeParams(n)
	w.defineCallable(n, n, name, "function", w.visibility(name, exported), w.t.StartByte(n), "")
	w.restore(c)
}

// nextNamed returns the next named sibling of n that is not a comment,
// looking no further than end (the end of n's parent).
func (w *walker) nextNamed(n, end extract.Node) extract.Node {
	for i := w.t.End(n); i < end; i = w.t.End(i) {
		if w.t.IsNamed(i) && w.kind(i) != w.l.comment {
			return i
		}
	}
	return extract.None
}

// defineCallable emits a function, method, constructor or accessor symbol
// with its signature and the type references of its parameters and result.
// def spans the definition; fn holds parameters, return_type and body.
func (w *walker) defineCallable(def, fn extract.Node, name string, kind abi.SymbolKind, vis abi.Visibility, header int, receiver string) int32 {
	t, l := w.t, w.l
	sig := &abi.Signature{}
	if ps := t.Child(fn, l.fParameters); ps != extract.None {
		for p := range t.NamedChildren(ps) {
			if w.kind(p) != l.comment {
				sig.Params = append(sig.Params, w.param(p))
			}
		}
	} else if p := t.Child(fn, l.fParameter); p != extract.None {
		sig.Params = append(sig.Params, abi.Param{Name: t.Text(p)})
	}
	ret := t.Child(fn, l.fReturnType)
	sig.Return = w.annotation(ret)
	headerEnd := t.EndByte(def)
	if body := t.Child(fn, l.fBody); body != extract.None {
		headerEnd = t.StartByte(body)
	}
	if header < headerEnd {
		raw := bytes.TrimRight(bytes.TrimSpace(w.src[header:headerEnd]), ";")
		sig.Raw = collapse(raw)
	}
	parent := w.parent
	if receiver != "" {
		parent = -1
	}
	idx := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kind, Parent: parent, Receiver: receiver, Visibility: vis,
		Span: t.Span(def), Signature: sig,
	})
	w.seen = w.seen[:0]
	if ps := t.Child(fn, l.fParameters); ps != extract.None {
		for p := range t.NamedChildren(ps) {
			w.typeRefs(t.Child(p, l.fType), idx, abi.CtxParameterType)
		}
	}
	w.typeRefs(ret, idx, abi.CtxReturnType)
	return idx
}

// enter walks a callable's parameters (default values) and body with idx as
// the enclosing symbol and caller, and its typed parameters in scope.
func (w *walker) enter(idx int32, fn extract.Node) {
	w.parent, w.caller = idx, idx
	w.bindParams(fn, "")
	w.walkNode(w.t.Child(fn, w.l.fParameters))
	w.walkNode(w.t.Child(fn, w.l.fBody))
}

// callback walks an anonymous function: no symbol, its calls belong to the
// enclosing callable. A non-arrow function rebinds `this`.
func (w *walker) callback(n extract.Node) {
	argOf := w.argOf
	w.argOf = "" // not for the callbacks inside this one
	c := w.save()
	if w.kind(n) != w.l.arrowFunction {
		w.thisType, w.baseType = "", ""
	}
	w.bindParams(n, argOf)
	w.walkInside(n)
	w.restore(c)
}

// param renders one formal parameter: the bare name (so the core can match
// receivers against it) and the type as written.
func (w *walker) param(p extract.Node) abi.Param {
	t, l := w.t, w.l
	pat, typ := p, extract.None
	if k := w.kind(p); k == l.requiredParameter || k == l.optionalParameter {
		pat, typ = t.Child(p, l.fPattern), t.Child(p, l.fType)
	}
	for pat != extract.None && w.kind(pat) == l.assignmentPattern {
		pat = t.Child(pat, l.fLeft)
	}
	return abi.Param{Name: collapse(w.bytes(pat)), Type: w.annotation(typ)}
}

// annotation returns the type written in a type annotation, without the colon.
func (w *walker) annotation(n extract.Node) string {
	if n == extract.None {
		return ""
	}
	for c := range w.t.NamedChildren(n) {
		if w.kind(c) != w.l.comment {
			return collapse(w.src[w.t.StartByte(c):w.t.EndByte(n)])
		}
	}
	return ""
}

func (w *walker) class(n extract.Node, name string, def extract.Node, exported bool) {
	t, l := w.t, w.l
	if name == "" {
		w.walkInside(n)
		return
	}
	vis := w.visibility(name, exported)
	idx := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindClass, Parent: w.parent, Visibility: vis, Span: t.Span(def)})
	c := w.save()
	w.pushTypeParams(n)
	w.seen = w.seen[:0]
	base := ""
	for h := range t.Children(n) {
		switch w.kind(h) {
		case l.decorator:
			w.walkNode(h)
		case l.classHeritage:
			for e := range t.NamedChildren(h) {
				switch w.kind(e) {
				case l.extendsClause:
					for v := range t.Children(e) {
						switch t.Field(v) {
						case l.fValue:
							if target := w.heritageName(v); target != "" {
								if base == "" {
									base = target
								}
								w.relation(idx, "inherits", target, "", v)
							}
							w.walkNode(v)
						case l.fTypeArguments:
							w.typeArgRefs(v, idx)
						}
					}
				case l.implementsClause:
					for ty := range t.NamedChildren(e) {
						w.heritageType(ty, idx, abi.RelImplements)
					}
				case l.comment:
				default: // JavaScript: the superclass expression itself
					if target := w.heritageName(e); target != "" {
						base = target
						w.relation(idx, "inherits", target, "", e)
					}
					w.walkNode(e)
				}
			}
		}
	}
	w.parent, w.caller, w.thisType, w.baseType = idx, idx, name, base
	if body := t.Child(n, l.fBody); body != extract.None {
		w.ownField = len(w.fields)
		w.bindFields(body)
		w.classBody(body)
	}
	w.restore(c)
}

// heritageName is the superclass as written when it is a (dotted) name.
func (w *walker) heritageName(v extract.Node) string {
	if k := w.kind(v); k == w.l.identifier || k == w.l.memberExpression || k == w.l.nestedIdentifier {
		return collapse(w.bytes(v))
	}
	return ""
}

// heritageType emits an implements/inherits relation to a type (TS clauses),
// plus generic_arg references for its type arguments.
func (w *walker) heritageType(ty extract.Node, from int32, kind abi.RelationKind) {
	t, l := w.t, w.l
	name := ty
	if w.kind(ty) == l.genericType {
		name = t.Child(ty, l.fName)
		w.typeArgRefs(t.Child(ty, l.fTypeArguments), from)
	}
	if k := w.kind(name); k == l.typeIdentifier || k == l.nestedTypeIdentifier || k == l.identifier || k == l.memberExpression {
		w.relation(from, kind, collapse(w.bytes(name)), "", name)
	}
}

// bindFields puts the class's typed fields in scope before its members are
// walked (a method may use a field declared below it): declared fields and
// constructor parameter properties (`constructor(private api: Api)`).
func (w *walker) bindFields(body extract.Node) {
	t, l := w.t, w.l
	for m := range t.NamedChildren(body) {
		switch w.kind(m) {
		case l.publicFieldDefinition:
			name, typ := t.Child(m, l.fName), t.Child(m, l.fType)
			if typ != extract.None && name != extract.None {
				if s := w.bareType(typ); s != "" {
					w.fields = append(w.fields, binding{name, s})
				}
			}
		case l.methodDefinition:
			if string(w.bytes(t.Child(m, l.fName))) != "constructor" {
				continue
			}
			if ps := t.Child(m, l.fParameters); ps != extract.None {
				for p := range t.NamedChildren(ps) {
					pat, typ := t.Child(p, l.fPattern), t.Child(p, l.fType)
					if t.ChildOfKind(p, l.accessibilityModifier) == extract.None || typ == extract.None || w.kind(pat) != l.identifier {
						continue
					}
					if s := w.bareType(typ); s != "" {
						w.fields = append(w.fields, binding{pat, s})
					}
				}
			}
		}
	}
}

func (w *walker) classBody(body extract.Node) {
	t, l := w.t, w.l
	end := t.End(body)
	for m := body + 1; m < end; m = t.End(m) {
		switch w.kind(m) {
		case l.methodDefinition:
			w.method(m)
		case l.publicFieldDefinition, l.fieldDefinition:
			w.field(m)
		case l.methodSignature, l.abstractMethodSignature:
			w.methodSignature(m, end)
		default:
			w.walk(m, t.End(m))
		}
	}
}

// memberKind tells methods, constructors and accessors apart.
func (w *walker) memberKind(m extract.Node, name string) abi.SymbolKind {
	if name == "constructor" {
		return abi.KindConstructor
	}
	for c := range w.t.Children(m) {
		if k := w.kind(c); k == w.l.kwGet || k == w.l.kwSet {
			return abi.KindProperty
		}
		if w.t.Field(c) == w.l.fName {
			break
		}
	}
	return abi.KindMethod
}

// memberVisibility reads TS accessibility modifiers and #private names.
func (w *walker) memberVisibility(m, name extract.Node) abi.Visibility {
	if name != extract.None && w.kind(name) == w.l.privatePropertyIdentifier {
		return abi.VisPrivate
	}
	if a := w.t.ChildOfKind(m, w.l.accessibilityModifier); a != extract.None {
		return abi.Visibility(w.t.Text(a)) // public, protected or private; the host checks
	}
	return abi.VisNone
}

// headerStart is where a member's header begins: after its decorators,
// whose calls are walked here (they run in the class body's context).
func (w *walker) headerStart(m extract.Node) int {
	start := w.t.StartByte(m)
	for c := range w.t.Children(m) {
		k := w.kind(c)
		if k != w.l.decorator && k != w.l.comment {
			return w.t.StartByte(c)
		}
		if k == w.l.decorator {
			w.walkNode(c)
		}
	}
	return start
}

func (w *walker) method(m extract.Node) {
	t, l := w.t, w.l
	nameNode := t.Child(m, l.fName)
	name := w.memberName(nameNode)
	if name == "" {
		w.walkInside(m)
		return
	}
	kind := w.memberKind(m, name)
	hdr := w.headerStart(m)
	c := w.save()
	w.pushTypeParams(m)
	idx := w.defineCallable(m, m, name, kind, w.memberVisibility(m, nameNode), hdr, "")
	if kind == abi.KindConstructor {
		w.parameterProperties(m)
	}
	w.enter(idx, m)
	w.restore(c)
}

// parameterProperties reports constructor parameters with an accessibility
// modifier (`constructor(private db: DB)`): they declare class fields.
func (w *walker) parameterProperties(m extract.Node) {
	t, l := w.t, w.l
	ps := t.Child(m, l.fParameters)
	if ps == extract.None {
		return
	}
	for p := range t.NamedChildren(ps) {
		mod := t.ChildOfKind(p, l.accessibilityModifier)
		pat := t.Child(p, l.fPattern)
		if mod == extract.None || pat == extract.None || w.kind(pat) != l.identifier {
			continue
		}
		idx := w.f.Symbol(abi.Symbol{Name: t.Text(pat), Kind: abi.KindField, Parent: w.parent, Visibility: abi.Visibility(t.Text(mod)), Span: t.Span(p), Signature: w.fieldType(t.Child(p, l.fType))})
		w.seen = w.seen[:0]
		w.typeRefs(t.Child(p, l.fType), idx, abi.CtxField)
	}
}

// field reports a class field; one initialised with a function is a method
// (the usual `handle = () => {…}` of React classes).
func (w *walker) field(m extract.Node) {
	t, l := w.t, w.l
	nameNode := t.Child(m, l.fName)
	if nameNode == extract.None {
		nameNode = t.Child(m, l.fProperty) // JavaScript field_definition
	}
	name := w.memberName(nameNode)
	hdr := w.headerStart(m)
	if name == "" {
		w.walkNode(t.Child(m, l.fValue))
		return
	}
	vis := w.memberVisibility(m, nameNode)
	value := w.unparen(t.Child(m, l.fValue))
	if value != extract.None {
		if k := w.kind(value); k == l.arrowFunction || k == l.functionExpression || k == l.generatorFunction {
			c := w.save()
			w.pushTypeParams(value)
			idx := w.defineCallable(m, value, name, "method", vis, hdr, "")
			if k != l.arrowFunction {
				w.thisType, w.baseType = "", ""
			}
			w.enter(idx, value)
			w.restore(c)
			return
		}
	}
	idx := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindField, Parent: w.parent, Visibility: vis, Span: t.Span(m), Signature: w.fieldType(t.Child(m, l.fType))})
	w.seen = w.seen[:0]
	w.typeRefs(t.Child(m, l.fType), idx, abi.CtxField)
	w.walkNode(value)
}

// methodSignature reports an abstract method, an interface method or a
// body-less class method; overload signatures followed by a same-named
// member are left to the implementation.
func (w *walker) methodSignature(m, end extract.Node) {
	t, l := w.t, w.l
	nameNode := t.Child(m, l.fName)
	name := w.memberName(nameNode)
	if name == "" {
		return
	}
	if next := w.nextNamed(m, end); next != extract.None {
		if k := w.kind(next); (k == l.methodDefinition || k == l.methodSignature) && w.memberName(t.Child(next, l.fName)) == name {
			return
		}
	}
	c := w.save()
	w.pushTypeParams(m)
	w.defineCallable(m, m, name, w.memberKind(m, name), w.memberVisibility(m, nameNode), w.headerStart(m), "")
	w.restore(c)
}

func (w *walker) interface_(n extract.Node, exported bool) {
	t, l := w.t, w.l
	name := w.nameOf(n)
	if name == "" {
		return
	}
	idx := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindInterface, Parent: w.parent, Visibility: w.visibility(name, exported), Span: t.Span(n)})
	c := w.save()
	w.pushTypeParams(n)
	w.seen = w.seen[:0]
	if ext := t.ChildOfKind(n, l.extendsTypeClause); ext != extract.None {
		for ty := range t.NamedChildren(ext) {
			w.heritageType(ty, idx, abi.RelInherits)
		}
	}
	w.parent = idx
	if body := t.Child(n, l.fBody); body != extract.None {
		end := t.End(body)
		for m := body + 1; m < end; m = t.End(m) {
			switch w.kind(m) {
			case l.propertySignature:
				nameNode := t.Child(m, l.fName)
				if fname := w.memberName(nameNode); fname != "" {
					f := w.f.Symbol(abi.Symbol{Name: fname, Kind: abi.KindField, Parent: idx, Visibility: w.memberVisibility(m, nameNode), Span: t.Span(m), Signature: w.fieldType(t.Child(m, l.fType))})
					w.seen = w.seen[:0]
					w.typeRefs(t.Child(m, l.fType), f, abi.CtxField)
				}
			case l.methodSignature:
				w.methodSignature(m, end)
			}
		}
	}
	w.restore(c)
}

// simple reports a definition with nothing inside worth walking.
func (w *walker) simple(n extract.Node, kind abi.SymbolKind, exported bool) {
	if name := w.nameOf(n); name != "" {
		w.f.Symbol(abi.Symbol{Name: name, Kind: kind, Parent: w.parent, Visibility: w.visibility(name, exported), Span: w.t.Span(n)})
	}
}

func (w *walker) enum(n extract.Node, exported bool) {
	t, l := w.t, w.l
	name := w.nameOf(n)
	if name == "" {
		return
	}
	idx := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindEnum, Parent: w.parent, Visibility: w.visibility(name, exported), Span: t.Span(n)})
	body := t.Child(n, l.fBody)
	if body == extract.None {
		return
	}
	for m := range t.NamedChildren(body) {
		nameNode := m
		if w.kind(m) == l.enumAssignment {
			nameNode = t.Child(m, l.fName)
		}
		if k := w.kind(nameNode); k == l.propertyIdentifier || k == l.str || k == l.identifier {
			if mname := w.memberName(nameNode); mname != "" {
				w.f.Symbol(abi.Symbol{Name: mname, Kind: abi.KindConstant, Parent: idx, Span: t.Span(m)})
			}
		}
	}
}

func (w *walker) namespace(n extract.Node, kind abi.SymbolKind, exported bool) {
	name := w.nameOf(n)
	if name == "" {
		w.walkInside(n)
		return
	}
	idx := w.f.Symbol(abi.Symbol{Name: name, Kind: kind, Parent: w.parent, Visibility: w.visibility(name, exported), Span: w.t.Span(n)})
	c := w.save()
	w.parent = idx
	w.walkNode(w.t.Child(n, w.l.fBody))
	w.restore(c)
}

// varDecl handles const/let/var: functions and classes bound to a name,
// require()/import() bindings, typed locals, and module-level constants.
func (w *walker) varDecl(n extract.Node, exported bool) {
	t, l := w.t, w.l
	count := 0
	for d := range t.Children(n) {
		if w.kind(d) == l.variableDeclarator {
			count++
		}
	}
	isConst := w.kind(t.Child(n, l.fKind)) == l.kwConst
	for d := range t.Children(n) {
		if w.kind(d) != l.variableDeclarator {
			if t.IsNamed(d) {
				w.walkNode(d)
			}
			continue
		}
		nameNode, value := t.Child(d, l.fName), t.Child(d, l.fValue)
		def, hdr := d, t.StartByte(d)
		if count == 1 {
			def, hdr = n, t.StartByte(n)
		}
		v := w.unparen(value)
		named := nameNode != extract.None && w.kind(nameNode) == l.identifier && t.EndByte(nameNode) > t.StartByte(nameNode)
		if named && v != extract.None {
			switch k := w.kind(v); {
			case k == l.arrowFunction || k == l.functionExpression || k == l.generatorFunction:
				name := t.Text(nameNode)
				if w.hasErrorChild(d) {
					// `const x = ; function f() {}`: error recovery glued
					// a later function onto the declarator; it is f, not x.
					if name = w.nameOf(v); name == "" {
						break
					}
					def, hdr = v, t.StartByte(v)
				}
				c := w.save()
				w.pushTypeParams(v)
				idx := w.defineCallable(def, v, name, "function", w.visibility(name, exported), hdr, "")
				if k != l.arrowFunction {
					w.thisType, w.baseType = "", ""
				}
				w.enter(idx, v)
				w.restore(c)
				continue
			case k == l.class:
				w.class(v, t.Text(nameNode), def, exported)
				continue
			}
		}
		if w.requireImport(nameNode, value) {
			continue
		}
		if !named {
			w.bindPattern(nameNode, 0) // const { a, b: [c] } = …
		}
		if named {
			w.bindings = append(w.bindings, binding{nameNode, w.declaredType(t.Child(d, l.fType), v)})
			if w.caller == -1 {
				name, kind := t.Text(nameNode), abi.KindVariable
				if isConst {
					kind = abi.KindConstant
				}
				w.f.Symbol(abi.Symbol{Name: name, Kind: kind, Parent: w.parent, Visibility: w.visibility(name, exported), Span: t.Span(def)})
			}
		}
		w.walkNode(value)
	}
}

// hasErrorChild reports whether error recovery put an ERROR node directly in n.
func (w *walker) hasErrorChild(n extract.Node) bool {
	for c := range w.t.Children(n) {
		if w.t.IsError(c) {
			return true
		}
	}
	return false
}

// declaredType is the type of a local: its annotation's, else what its
// initializer evidently holds: new T(), or a receiver form exprType
// writes (another typed local, f(), x.f, x.m()).
func (w *walker) declaredType(annot, value extract.Node) string {
	if annot != extract.None {
		return w.bareType(annot)
	}
	if value != extract.None && w.kind(value) == w.l.newExpression {
		if c := w.t.Child(value, w.l.fConstructor); c != extract.None {
			return w.heritageName(c)
		}
	}
	if value != extract.None {
		return w.exprType(value, 0)
	}
	return ""
}

// bareType strips a type annotation to the named type it denotes: generics
// dropped, unions, arrays, functions and primitives give "".
func (w *walker) bareType(annot extract.Node) string {
	t, l := w.t, w.l
	ty := extract.None
	for c := range t.NamedChildren(annot) {
		if w.kind(c) != l.comment {
			ty = c
			break
		}
	}
	return w.namedType(ty, 0)
}

// namedType is bareType for the type node ty. A union with null or
// undefined (T | null, the usual optional member or local) is T.
func (w *walker) namedType(ty extract.Node, depth int) string {
	t, l := w.t, w.l
	if ty != extract.None && w.kind(ty) == l.unionType && depth < maxTypeDepth {
		only := extract.None
		for c := range t.NamedChildren(ty) {
			switch s := string(w.bytes(c)); {
			case w.kind(c) == l.comment, s == "null", s == "undefined":
			case only != extract.None:
				return "" // a real union
			default:
				only = c
			}
		}
		return w.namedType(only, depth+1)
	}
	if ty != extract.None && w.kind(ty) == l.genericType {
		ty = t.Child(ty, l.fName)
	}
	if ty == extract.None {
		return ""
	}
	if k := w.kind(ty); k == l.typeIdentifier || k == l.nestedTypeIdentifier {
		if s := collapse(w.bytes(ty)); !skipType(s) {
			return s
		}
	}
	return ""
}

// fieldType carries a field's declared type to the host, which follows
// x.f.m() through it ("T#f"); nil when the annotation names no class.
func (w *walker) fieldType(annot extract.Node) *abi.Signature {
	if annot == extract.None {
		return nil
	}
	if typ := w.bareType(annot); typ != "" {
		return &abi.Signature{Return: typ}
	}
	return nil
}

// bindParams puts a callable's parameters in scope, typed when their
// annotation names a type. argOf ("f@i", see walkArgs) types the others of
// a function literal passed to f: parameter j is "f@i.j".
func (w *walker) bindParams(fn extract.Node, argOf string) {
	t, l := w.t, w.l
	ps := t.Child(fn, l.fParameters)
	if ps == extract.None {
		if p := t.Child(fn, l.fParameter); p != extract.None && w.kind(p) == l.identifier && argOf != "" {
			w.bindings = append(w.bindings, binding{p, argOf + ".0"}) // x => …
		} else {
			w.bindPattern(p, 0)
		}
		return
	}
	j := -1
	for p := range t.NamedChildren(ps) {
		if w.kind(p) == l.comment {
			continue
		}
		j++
		pat, typ := t.Child(p, l.fPattern), t.Child(p, l.fType)
		if pat == extract.None {
			continue
		}
		if w.kind(pat) != l.identifier {
			w.bindPattern(pat, 0)
			continue
		}
		s := ""
		if typ != extract.None {
			s = w.bareType(typ)
		} else if argOf != "" {
			s = argOf + "." + strconv.Itoa(j)
		}
		w.bindings = append(w.bindings, binding{pat, s})
	}
}

// bindPattern puts every name a parameter or declarator pattern binds in
// scope, untyped. Untyped bindings still shadow: a local or parameter named
// delay is not the delay() function of another module, and an untyped
// inner x does not inherit the type of an outer one.
func (w *walker) bindPattern(p extract.Node, depth int) {
	if p == extract.None || depth > maxTypeDepth {
		return
	}
	t, l := w.t, w.l
	switch w.kind(p) {
	case l.identifier, l.shorthandPattern:
		w.bindings = append(w.bindings, binding{p, ""})
	case l.pairPattern:
		w.bindPattern(t.Child(p, l.fValue), depth+1)
	case l.assignmentPattern, l.objectAssignmentPattern:
		w.bindPattern(t.Child(p, l.fLeft), depth+1)
	case l.objectPattern, l.arrayPattern, l.restPattern:
		for c := range t.NamedChildren(p) {
			w.bindPattern(c, depth+1)
		}
	}
}

// bound reports whether name is a parameter or local in scope.
func (w *walker) bound(name []byte) bool {
	for i := len(w.bindings) - 1; i >= 0; i-- {
		if bytes.Equal(w.bytes(w.bindings[i].name), name) {
			return true
		}
	}
	return false
}

// export handles export_statement: exported declarations, default exports
// and re-exports (`export … from`), which are reported as imports.
func (w *walker) export(n extract.Node) {
	t, l := w.t, w.l
	if src := t.Child(n, l.fSource); src != extract.None {
		w.reexport(n, src)
		return
	}
	for c := range t.Children(n) {
		if w.kind(c) == l.decorator {
			w.walkNode(c)
		}
	}
	if decl := t.Child(n, l.fDeclaration); decl != extract.None {
		w.declaration(decl, n, true)
		return
	}
	val := w.unparen(t.Child(n, l.fValue))
	if val == extract.None {
		return
	}
	// export default <anonymous function or class>: the module's default
	// export, named by its own name or "default".
	name := w.nameOf(val)
	if name == "" {
		name = "default"
	}
	switch k := w.kind(val); {
	case k == l.arrowFunction || k == l.functionExpression || k == l.generatorFunction:
		c := w.save()
		w.pushTypeParams(val)
		idx := w.defineCallable(val, val, name, "function", "public", t.StartByte(val), "")
		w.thisType, w.baseType = "", ""
		w.enter(idx, val)
		w.restore(c)
	case k == l.class:
		w.class(val, name, val, true)
	default:
		w.walkNode(val)
	}
}

func (w *walker) reexport(n, src extract.Node) {
	t, l := w.t, w.l
	im := abi.Import{Path: w.stringValue(src), Line: t.StartLine(n)}
	if clause := t.ChildOfKind(n, l.exportClause); clause != extract.None {
		for s := range t.NamedChildren(clause) {
			if w.kind(s) == l.exportSpecifier {
				im.Names = append(im.Names, w.specifier(s))
			}
		}
	} else if ns := t.ChildOfKind(n, l.namespaceExport); ns != extract.None {
		im.Names = append(im.Names, abi.ImportName{Name: "*", Alias: w.lastNamedText(ns)})
	} else {
		im.Names = append(im.Names, abi.ImportName{Name: "*"})
	}
	w.f.Import(im)
}

// scanExports collects names exported separately from their definition
// (`export { a, b as c }`, `export default a`, `export = a`) so file-level
// definitions of those names are public.
func (w *walker) scanExports() {
	t, l := w.t, w.l
	for s := range t.Children(0) {
		if w.kind(s) != l.exportStatement || t.Child(s, l.fSource) != extract.None {
			continue
		}
		for c := range t.NamedChildren(s) {
			switch {
			case w.kind(c) == l.exportClause:
				for sp := range t.NamedChildren(c) {
					if name := t.Child(sp, l.fName); name != extract.None {
						w.exports = append(w.exports, w.bytes(name))
					}
				}
			case w.kind(c) == l.identifier:
				w.exports = append(w.exports, w.bytes(c))
			}
		}
	}
}

func (w *walker) exportedName(name string) bool {
	for _, e := range w.exports {
		if string(e) == name {
			return true
		}
	}
	return false
}

// ---- imports ----

func (w *walker) importStatement(n extract.Node) {
	t, l := w.t, w.l
	src := t.Child(n, l.fSource)
	if req := t.ChildOfKind(n, l.importRequireClause); req != extract.None {
		// import fs = require("fs")
		im := abi.Import{Path: w.stringValue(t.Child(req, l.fSource)), Line: t.StartLine(n)}
		if id := t.ChildOfKind(req, l.identifier); id != extract.None {
			im.Alias = t.Text(id)
		}
		w.f.Import(im)
		return
	}
	if src == extract.None {
		return // import A = B.C (a TS alias, not a module import)
	}
	im := abi.Import{Path: w.stringValue(src), Line: t.StartLine(n)}
	if clause := t.ChildOfKind(n, l.importClause); clause != extract.None {
		for c := range t.NamedChildren(clause) {
			switch w.kind(c) {
			case l.identifier:
				im.Names = append(im.Names, abi.ImportName{Name: "default", Alias: t.Text(c)})
			case l.namespaceImport:
				im.Alias = w.lastNamedText(c)
			case l.namedImports:
				for s := range t.NamedChildren(c) {
					if w.kind(s) == l.importSpecifier {
						im.Names = append(im.Names, w.specifier(s))
					}
				}
			}
		}
	}
	w.f.Import(im)
}

// specifier renders `a` or `a as b` of an import or export clause.
func (w *walker) specifier(s extract.Node) abi.ImportName {
	n := abi.ImportName{Name: w.memberName(w.t.Child(s, w.l.fName))}
	if a := w.t.Child(s, w.l.fAlias); a != extract.None {
		n.Alias = w.memberName(a)
	}
	return n
}

// requireImport reports `x = require("m")`, `{a, b: c} = require("m")`,
// `x = require("m").y` and `x = await import("m")` bindings as imports.
func (w *walker) requireImport(nameNode, value extract.Node) bool {
	t, l := w.t, w.l
	v := w.unparen(value)
	if v != extract.None && w.kind(v) == l.awaitExpression {
		v = w.unparen(w.firstNamed(v))
	}
	prop := extract.None
	if v != extract.None && w.kind(v) == l.memberExpression {
		prop, v = t.Child(v, l.fProperty), w.unparen(t.Child(v, l.fObject))
	}
	path, ok := w.moduleCall(v)
	if !ok {
		return false
	}
	w.nativeAddon(v, path)
	im := abi.Import{Path: path, Line: t.StartLine(v)}
	switch w.kind(nameNode) {
	case l.identifier:
		local := t.Text(nameNode)
		if prop != extract.None {
			n := abi.ImportName{Name: t.Text(prop)}
			if n.Name != local {
				n.Alias = local
			}
			im.Names = append(im.Names, n)
		} else {
			im.Alias = local
		}
	case l.objectPattern:
		for p := range t.NamedChildren(nameNode) {
			switch w.kind(p) {
			case l.shorthandPattern:
				im.Names = append(im.Names, abi.ImportName{Name: t.Text(p)})
			case l.objectAssignmentPattern:
				im.Names = append(im.Names, abi.ImportName{Name: t.Text(t.Child(p, l.fLeft))})
			case l.pairPattern:
				n := abi.ImportName{Name: w.memberName(t.Child(p, l.fKey))}
				if val := t.Child(p, l.fValue); val != extract.None && w.kind(val) == l.identifier {
					n.Alias = t.Text(val)
				}
				if n.Name != "" {
					im.Names = append(im.Names, n)
				}
			}
		}
	}
	w.f.Import(im)
	return true
}

// moduleCall recognises require("m") and import("m") with a literal
// specifier and returns the specifier.
func (w *walker) moduleCall(call extract.Node) (string, bool) {
	t, l := w.t, w.l
	if call == extract.None || w.kind(call) != l.callExpression {
		return "", false
	}
	fn := t.Child(call, l.fFunction)
	if fn == extract.None {
		return "", false
	}
	if k := w.kind(fn); k != l.importExpr && !(k == l.identifier && string(w.bytes(fn)) == "require") {
		return "", false
	}
	args := t.Child(call, l.fArguments)
	if args == extract.None {
		return "", false
	}
	arg := w.firstNamed(args)
	if arg == extract.None {
		return "", false
	}
	switch w.kind(arg) {
	case l.str:
		return w.stringValue(arg), true
	case l.templateString:
		if t.ChildOfKind(arg, l.templateSubstitution) == extract.None {
			return w.stringValue(arg), true
		}
	}
	return "", false
}

// ---- calls ----

func (w *walker) call(n extract.Node) {
	t, l := w.t, w.l
	if path, ok := w.moduleCall(n); ok {
		w.f.Import(abi.Import{Path: path, Line: t.StartLine(n)})
		w.nativeAddon(n, path)
		return
	}
	fn := t.Child(n, l.fFunction)
	w.dynamicCall(n, fn)
	w.channelCall(n, fn)
	w.routeCall(n, fn)
	w.crossLangCall(n, fn)
	if fn != extract.None {
		switch w.kind(fn) {
		case l.identifier:
			// require() with a computed specifier loads a module, it does
			// not call anything defined in the repository.
			// A parameter or local holds a function value, it names no
			// declaration.
			if name := w.bytes(fn); string(name) != "require" && !w.bound(name) {
				w.emitCall(string(name), "", "", fn)
				w.walkCall(n, fn, string(name))
				return
			}
		case l.memberExpression:
			w.memberCall(fn)
		case l.super:
			if w.baseType != "" {
				w.emitCall(w.baseType, "", "", fn)
			}
		}
	}
	w.walkInside(n)
}

// walkCall walks call (f(…) or new f(…)) whose callee node is named f,
// telling a function literal passed as argument i where it sits ("f@i"):
// its untyped parameters are typed by f's declaration, so in
// operate((source, subscriber) => subscriber.next(x)) the receiver is
// parameter 1 of operate's parameter 0, read by the host.
func (w *walker) walkCall(call, callee extract.Node, f string) {
	t, l := w.t, w.l
	w.walkNode(callee)
	w.walkNode(t.Child(call, l.fTypeArguments))
	args := t.Child(call, l.fArguments)
	if args == extract.None {
		return
	}
	i := 0
	for a := range t.NamedChildren(args) {
		switch k := w.kind(a); {
		case k == l.comment:
			continue
		case k == l.arrowFunction || k == l.functionExpression:
			w.argOf = f + "@" + strconv.Itoa(i)
		}
		w.walkNode(a)
		w.argOf = ""
		i++
	}
}

// memberCall emits obj.name(): the receiver as written, and its type when
// it is this/super or a typed local.
func (w *walker) memberCall(fn extract.Node) {
	t, l := w.t, w.l
	prop, obj := t.Child(fn, l.fProperty), t.Child(fn, l.fObject)
	if prop == extract.None || obj == extract.None {
		return
	}
	w.emitCall(string(w.bytes(prop)), receiver(w.bytes(obj)), w.exprType(obj, 0), prop)
}

// maxTypeDepth is how many links of a receiver chain exprType follows: a
// generated chain of thousands would otherwise spell the whole chain below
// every link.
const maxTypeDepth = 16

// exprType is the type of a receiver expression when it can be named:
// this/super, a typed local, a declared field of this class, and beyond
// the file "T#f" (field f of T) or "T#m()" (what method m of T returns),
// which the host follows through the declarations wherever they are.
func (w *walker) exprType(n extract.Node, depth int) string {
	t, l := w.t, w.l
	n = w.unparen(n)
	for n != extract.None && (w.kind(n) == l.nonNull || w.kind(n) == l.parenthesized) {
		n = w.firstNamed(n) // x!, (x!): the same value, asserted non-null
	}
	if n == extract.None || depth >= maxTypeDepth {
		return ""
	}
	switch w.kind(n) {
	case l.this:
		return w.thisType
	case l.super:
		return w.baseType
	case l.identifier:
		return w.lookup(w.bindings, w.bytes(n))
	case l.memberExpression:
		obj, prop := t.Child(n, l.fObject), t.Child(n, l.fProperty)
		if prop == extract.None {
			return ""
		}
		// this.f: the declared type of field f of this class.
		if w.thisType != "" && w.kind(obj) == l.this {
			if typ := w.lookup(w.fields[w.ownField:], w.bytes(prop)); typ != "" {
				return typ
			}
		}
		if owner := w.exprType(obj, depth+1); owner != "" {
			return owner + "#" + string(w.bytes(prop))
		}
	case l.callExpression:
		fn := w.unparen(t.Child(n, l.fFunction))
		if w.kind(fn) == l.identifier {
			// f(x).m(): what f returns, which the host reads from f's
			// declaration; a local f holds some function value.
			if name := w.bytes(fn); !w.bound(name) {
				return string(name) + "()"
			}
			return ""
		}
		if w.kind(fn) != l.memberExpression {
			return ""
		}
		obj, prop := t.Child(fn, l.fObject), t.Child(fn, l.fProperty)
		if prop == extract.None {
			return ""
		}
		if owner := w.exprType(obj, depth+1); owner != "" {
			return owner + "#" + string(w.bytes(prop)) + "()"
		}
	}
	return ""
}

// lookup finds the innermost binding of name in bs.
func (w *walker) lookup(bs []binding, name []byte) string {
	for i := len(bs) - 1; i >= 0; i-- {
		if bytes.Equal(w.bytes(bs[i].name), name) {
			return bs[i].typ
		}
	}
	return ""
}

func (w *walker) newExpr(n extract.Node) {
	t, l := w.t, w.l
	w.dynamicNew(n)
	if c := t.Child(n, l.fConstructor); c != extract.None {
		switch w.kind(c) {
		case l.identifier:
			w.emitCall(string(w.bytes(c)), "", "", c)
			if name := w.bytes(c); !w.bound(name) {
				w.walkCall(n, c, string(name))
				return
			}
		case l.memberExpression:
			if prop, obj := t.Child(c, l.fProperty), t.Child(c, l.fObject); prop != extract.None && obj != extract.None {
				w.emitCall(string(w.bytes(prop)), receiver(w.bytes(obj)), "", prop)
			}
		}
	}
	w.walkInside(n)
}

// jsx treats rendering a component (<Foo/>, <ns.Foo>) as a call to it;
// lower-case intrinsic elements (<div>) are not calls.
func (w *walker) jsx(n extract.Node) {
	t, l := w.t, w.l
	if name := t.Child(n, l.fName); name != extract.None {
		switch w.kind(name) {
		case l.identifier:
			if b := w.bytes(name); len(b) > 0 && b[0] >= 'A' && b[0] <= 'Z' {
				w.emitCall(string(b), "", "", name)
			}
		case l.memberExpression, l.nestedIdentifier:
			prop, obj := t.Child(name, l.fProperty), t.Child(name, l.fObject)
			if prop != extract.None && obj != extract.None {
				w.emitCall(string(w.bytes(prop)), receiver(w.bytes(obj)), "", prop)
			}
		}
	}
	w.walkInside(n)
}

func (w *walker) emitCall(name, recv, typ string, at extract.Node) {
	if name == "" {
		return
	}
	w.f.Call(abi.Call{Caller: w.caller, Name: name, Receiver: recv, ReceiverType: typ, ReceiverRef: receiverRef(typ), Line: w.t.StartLine(at), Col: w.t.StartCol(at)})
}

// assign recognises CommonJS definitions: `exports.f = function…`,
// `module.exports = function f…` and `C.prototype.m = function…`.
func (w *walker) assign(n extract.Node) {
	t, l := w.t, w.l
	left, right := t.Child(n, l.fLeft), w.unparen(t.Child(n, l.fRight))
	if left == extract.None || right == extract.None || w.kind(left) != l.memberExpression {
		w.walkInside(n)
		return
	}
	k := w.kind(right)
	isFunc := k == l.arrowFunction || k == l.functionExpression || k == l.generatorFunction
	if !isFunc && k != l.class {
		w.walkInside(n)
		return
	}
	obj, prop := t.Child(left, l.fObject), t.Child(left, l.fProperty)
	objText, propText := string(w.bytes(obj)), string(w.bytes(prop))
	name, receiverType, vis := "", "", abi.VisPublic
	switch {
	case objText == "exports" || objText == "module.exports":
		name = propText
	case objText == "module" && propText == "exports":
		name = w.nameOf(right)
	case isFunc && w.kind(obj) == l.memberExpression && string(w.bytes(t.Child(obj, l.fProperty))) == "prototype":
		name, receiverType, vis = propText, collapse(w.bytes(t.Child(obj, l.fObject))), ""
	}
	if name == "" {
		w.walkInside(n)
		return
	}
	w.walkNode(left)
	if !isFunc {
		w.class(right, name, n, true)
		return
	}
	kind := abi.KindFunction
	if receiverType != "" {
		kind = abi.KindMethod
	}
	c := w.save()
	w.pushTypeParams(right)
	idx := w.defineCallable(n, right, name, kind, vis, t.StartByte(n), receiverType)
	if k != l.arrowFunction {
		w.thisType, w.baseType, w.ownField = receiverType, "", len(w.fields)
	}
	w.enter(idx, right)
	w.restore(c)
}

// ---- type references ----

// typeRefs emits a references relation for each named type inside n.
func (w *walker) typeRefs(n extract.Node, from int32, context abi.RelationContext) {
	t, l := w.t, w.l
	if n == extract.None {
		return
	}
	switch k := w.kind(n); k {
	case l.typeIdentifier, l.nestedTypeIdentifier:
		w.reference(n, from, context)
	case l.genericType:
		w.typeRefs(t.Child(n, l.fName), from, context)
		w.typeArgRefs(t.Child(n, l.fTypeArguments), from)
	case l.predefinedType, l.literalType, l.typeQuery, l.thisType, l.comment:
	default:
		for c := range t.NamedChildren(n) {
			w.typeRefs(c, from, context)
		}
	}
}

func (w *walker) typeArgRefs(args extract.Node, from int32) {
	if args == extract.None {
		return
	}
	for c := range w.t.NamedChildren(args) {
		w.typeRefs(c, from, abi.CtxGenericArg)
	}
}

func (w *walker) reference(n extract.Node, from int32, context abi.RelationContext) {
	b := w.bytes(n)
	if w.kind(n) == w.l.typeIdentifier {
		for _, p := range w.tparams {
			if bytes.Equal(w.bytes(p), b) {
				return
			}
		}
	}
	name := collapse(b)
	if skipType(name) {
		return
	}
	for _, s := range w.seen {
		if s.from == from && s.target == name && s.detail == context {
			return
		}
	}
	w.seen = append(w.seen, relKey{from, name, context})
	w.relation(from, abi.RelReferences, name, context, n)
}

func (w *walker) relation(from int32, kind abi.RelationKind, target string, context abi.RelationContext, at extract.Node) {
	w.f.Relation(abi.Relation{From: from, Kind: kind, Target: target, Context: context, Line: w.t.StartLine(at)})
}

// pushTypeParams puts n's type parameters in scope: uses of them are not
// references to a type defined anywhere.
func (w *walker) pushTypeParams(n extract.Node) {
	tp := w.t.Child(n, w.l.fTypeParameters)
	if tp == extract.None {
		return
	}
	for p := range w.t.NamedChildren(tp) {
		if name := w.t.Child(p, w.l.fName); name != extract.None {
			w.tparams = append(w.tparams, name)
		}
	}
}

// ---- small helpers ----

// kind is n's kind, 0 for None (fields are often absent in broken code).
func (w *walker) kind(n extract.Node) extract.KindID {
	if n == extract.None {
		return 0
	}
	return w.t.Kind(n)
}

// bytes is n's source, nil for None.
func (w *walker) bytes(n extract.Node) []byte {
	if n == extract.None {
		return nil
	}
	return w.t.Bytes(n)
}

// nameOf returns the text of n's name field ("" if none or missing).
func (w *walker) nameOf(n extract.Node) string {
	name := w.t.Child(n, w.l.fName)
	if name == extract.None {
		return ""
	}
	if k := w.kind(name); k == w.l.str {
		return w.stringValue(name)
	}
	return collapse(w.bytes(name))
}

// memberName names a class member, property or specifier: identifiers and
// #private names as written, string keys unquoted, computed keys as written.
func (w *walker) memberName(n extract.Node) string {
	if n == extract.None {
		return ""
	}
	if w.kind(n) == w.l.str {
		return w.stringValue(n)
	}
	return collapse(w.bytes(n))
}

// stringValue is a string literal's content as written, quotes removed.
func (w *walker) stringValue(n extract.Node) string {
	b := w.bytes(n)
	if len(b) >= 2 {
		b = b[1 : len(b)-1]
	}
	return string(b)
}

func (w *walker) firstNamed(n extract.Node) extract.Node {
	for c := range w.t.NamedChildren(n) {
		if w.kind(c) != w.l.comment {
			return c
		}
	}
	return extract.None
}

func (w *walker) lastNamedText(n extract.Node) string {
	last := extract.None
	for c := range w.t.NamedChildren(n) {
		last = c
	}
	return w.t.Text(last)
}

// unparen strips parentheses around an expression.
func (w *walker) unparen(n extract.Node) extract.Node {
	for n != extract.None && w.kind(n) == w.l.parenthesized {
		n = w.firstNamed(n)
	}
	return n
}

// maxReceiver is the sdk's one cap on a receiver expression copied into a
// call fact (extract.MaxReceiver).
const maxReceiver = extract.MaxReceiver

// receiver is the receiver expression as written, on one line and capped
// (extract.Receiver).
func receiver(b []byte) string { return extract.Receiver(string(b)) }

// collapse returns b with runs of whitespace replaced by one space, trimmed.
func collapse(b []byte) string { return extract.Collapse(string(b)) }

// skipType reports primitive types and the standard generic wrappers and
// utility types: references to them name nothing in the repository.
func skipType(name string) bool {
	switch name {
	case "string", "number", "boolean", "any", "unknown", "void", "never", "object",
		"undefined", "null", "bigint", "symbol",
		"Array", "ReadonlyArray", "Promise", "PromiseLike", "Record", "Partial", "Required",
		"Readonly", "Pick", "Omit", "Exclude", "Extract", "NonNullable", "ReturnType",
		"Parameters", "InstanceType", "Awaited", "Map", "Set", "WeakMap", "WeakSet",
		"ReadonlyMap", "ReadonlySet", "Iterable", "Iterator", "IterableIterator",
		"AsyncIterable", "AsyncIterator", "Generator", "AsyncGenerator":
		return true
	}
	return false
}
