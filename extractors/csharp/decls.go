package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// mods is what a declaration's modifiers and attributes say.
type mods struct {
	vis             abi.Visibility // explicit access modifier, "" if none
	static, const_  bool
	readonly, event bool
	test, testClass bool // a test framework's method or class attribute
	attrs           []node
}

// testMethodAttrs mark test methods in xUnit, NUnit and MSTest.
var testMethodAttrs = map[string]bool{
	"Fact": true, "Theory": true, // xUnit
	"Test": true, "TestCase": true, "TestCaseSource": true, // NUnit
	"TestMethod": true, "DataTestMethod": true, // MSTest
}

// testClassAttrs mark test classes (NUnit, MSTest).
var testClassAttrs = map[string]bool{"TestClass": true, "TestFixture": true}

// compilerAttrs are attributes that instruct the compiler or runtime and
// name nothing in the code base.
var compilerAttrs = map[string]bool{
	"Obsolete": true, "Serializable": true, "Flags": true, "NonSerialized": true,
	"CompilerGenerated": true, "MethodImpl": true, "StructLayout": true,
	"DllImport": true, "Conditional": true, "DebuggerStepThrough": true,
}

// attrName is an attribute's class name as written, without a namespace
// or the Attribute suffix: [Xunit.FactAttribute] is Fact.
func attrName(s string) string {
	s = lastSegment(baseName(s))
	if n := strings.TrimSuffix(s, "Attribute"); n != "" {
		return n
	}
	return s
}

func (w *walker) modifiers(decl node) mods {
	t, g := w.t, w.g
	var m mods
	for c := range t.Children(decl) {
		switch t.Kind(c) {
		case g.modifier:
			switch w.text(c) {
			case "public":
				m.vis = abi.VisPublic
			case "protected":
				if m.vis != abi.VisPublic {
					m.vis = abi.VisProtected
				}
			case "internal":
				if m.vis == "" {
					m.vis = abi.VisInternal
				}
			case "private":
				if m.vis == "" {
					m.vis = abi.VisPrivate
				}
			case "static":
				m.static = true
			case "const":
				m.const_ = true
			case "readonly":
				m.readonly = true
			}
		case g.kwEvent:
			m.event = true
		case g.attributeList:
			for a := range t.NamedChildren(c) {
				if t.Kind(a) != g.attribute {
					continue
				}
				m.attrs = append(m.attrs, a)
				name := attrName(extract.OneLine(w.text(t.Child(a, g.fName))))
				m.test = m.test || testMethodAttrs[name]
				m.testClass = m.testClass || testClassAttrs[name]
			}
		}
	}
	return m
}

// attributeRefs reports a declaration's attributes as references with
// context attribute (compiler instructions left out), to the attribute
// class: [Audited] is written for class AuditedAttribute, as C# reads it.
func (w *walker) attributeRefs(m mods, from int32) {
	for _, a := range m.attrs {
		name := w.t.Child(a, w.g.fName)
		target := baseName(extract.OneLine(w.text(name)))
		if target == "" || compilerAttrs[attrName(target)] {
			continue
		}
		if !strings.HasSuffix(target, "Attribute") {
			target += "Attribute"
		}
		w.ref(from, target, abi.CtxAttribute, name)
	}
}

// visibility is the explicit access modifier, else the default of the
// scope the declaration is in.
func (w *walker) visibility(m mods) abi.Visibility {
	if m.vis != "" {
		return m.vis
	}
	if len(w.frames) == 0 {
		return abi.VisInternal
	}
	switch top := w.frames[len(w.frames)-1]; {
	case top.kind == frameNamespace:
		return abi.VisInternal
	case top.kind == frameCallable:
		return abi.VisNone // a local function: not reachable from outside
	case top.public:
		return abi.VisPublic
	}
	return abi.VisPrivate
}

func (w *walker) typeDecl(i node) node {
	t, g := w.t, w.g
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return i + 1
	}
	k := t.Kind(i)
	kindName := abi.KindClass
	switch {
	case k == g.structDecl || k == g.recordStructDecl || k == g.recordDecl && t.ChildOfKind(i, g.kwStruct) != extract.None:
		kindName = abi.KindStruct
	case k == g.recordDecl:
		kindName = abi.KindRecord
	case k == g.ifaceDecl:
		kindName = abi.KindInterface
	case k == g.enumDecl:
		kindName = abi.KindEnum
	}
	m := w.modifiers(i)
	sym := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kindName, Parent: w.parent(), Visibility: w.visibility(m),
		Span: t.Span(i), Test: m.testClass,
	})
	w.attributeRefs(m, sym)

	fr := w.mark(t.End(i), frameType, sym)
	fr.name, fr.public = name, kindName == abi.KindInterface || kindName == abi.KindEnum
	for c := range t.NamedChildren(i) {
		if t.Kind(c) == g.baseList && kindName != abi.KindEnum {
			fr.super = w.bases(c, sym, kindName)
		}
	}
	w.push(fr)
	// A record's (or a class's primary constructor's) parameters: record
	// parameters are public properties; both are in scope in the body.
	if params := t.ChildOfKind(i, g.parameterList); params != extract.None {
		w.primaryParams(params, sym, kindName == abi.KindRecord || k == g.recordDecl)
	}
	if body := t.Child(i, g.fBody); body != extract.None {
		w.memberVars(body)
	}
	// The walk goes on inside: a record's `: Base(x)` arguments and
	// parameter defaults hold calls too.
	return i + 1
}

// bases reports the base list and returns the base class, if any.
func (w *walker) bases(list node, from int32, kindName abi.SymbolKind) string {
	t, g := w.t, w.g
	super, first := "", true
	for c := range t.NamedChildren(list) {
		ty := c
		if t.Kind(c) == g.primaryBase {
			ty = t.Child(c, g.fType)
		}
		head, args := w.splitGeneric(ty)
		target := baseName(extract.OneLine(w.text(head)))
		if target == "" {
			continue
		}
		rel := abi.RelImplements
		switch {
		case kindName == abi.KindInterface:
			rel = abi.RelInherits
		case kindName != abi.KindStruct && first && !interfaceName(lastSegment(target)):
			rel, super = abi.RelInherits, target
		}
		first = false
		w.f.Relation(abi.Relation{From: from, Kind: rel, Target: target, Line: t.StartLine(head)})
		if t.Kind(c) == g.primaryBase {
			// record R(int X) : Base(X): the primary constructor calls Base's.
			if id := w.typeHead(ty); id != extract.None {
				w.f.Call(abi.Call{Caller: from, Name: w.text(id), Line: t.StartLine(id), Col: t.StartCol(id)})
			}
		}
		if args != extract.None {
			w.typeArgRefs(args, from)
		}
	}
	return super
}

// interfaceName reports a name following the .NET convention for
// interfaces: I, then a capitalized word (IDisposable, IOrderService; not
// IPAddress or IO).
func interfaceName(s string) bool {
	return len(s) > 2 && s[0] == 'I' && 'A' <= s[1] && s[1] <= 'Z' && 'a' <= s[2] && s[2] <= 'z'
}

// splitGeneric splits `Base<T>` into its name and type arguments.
func (w *walker) splitGeneric(ty node) (head, args node) {
	t, g := w.t, w.g
	if t.Kind(ty) != g.genericName {
		return ty, extract.None
	}
	head, args = extract.None, extract.None
	for c := range t.NamedChildren(ty) {
		if t.Kind(c) == g.typeArgList {
			args = c
		} else if head == extract.None {
			head = c
		}
	}
	return head, args
}

// primaryParams reads a record's or primary constructor's parameters.
func (w *walker) primaryParams(list node, owner int32, properties bool) {
	t, g := w.t, w.g
	for c := range t.NamedChildren(list) {
		if t.Kind(c) != g.parameter {
			continue
		}
		name := w.text(t.Child(c, g.fName))
		if name == "" {
			continue
		}
		ty := t.Child(c, g.fType)
		typ := w.varType(ty)
		if properties {
			sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindProperty, Parent: owner, Visibility: abi.VisPublic, Span: t.Span(c), Signature: typeCarrier(typ)})
			w.typeRefs(ty, sym, abi.CtxField)
		} else {
			w.typeRefs(ty, owner, abi.CtxParameterType)
		}
		w.vars = append(w.vars, variable{name, typ})
	}
}

// memberVars makes the fields, properties and events of a type body known
// as variables before its methods are walked: methods may use members
// declared below them.
func (w *walker) memberVars(body node) {
	t, g := w.t, w.g
	for c := range t.NamedChildren(body) {
		switch t.Kind(c) {
		case g.fieldDecl, g.eventFieldDecl:
			event := t.Kind(c) == g.eventFieldDecl
			for vd := range t.NamedChildren(c) {
				if t.Kind(vd) != g.variableDecl {
					continue
				}
				typ := w.varType(t.Child(vd, g.fType))
				for d := range t.NamedChildren(vd) {
					if t.Kind(d) == g.variableDeclarator {
						name := w.text(t.Child(d, g.fName))
						w.vars = append(w.vars, variable{name, typ})
						if event {
							w.events = append(w.events, name)
						}
					}
				}
			}
		case g.eventDecl:
			name := w.text(t.Child(c, g.fName))
			w.vars = append(w.vars, variable{name, w.varType(t.Child(c, g.fType))})
			w.events = append(w.events, name)
		default:
			if w.g.action(t.Kind(c)) == actProperty && t.Kind(c) != g.indexerDecl {
				w.vars = append(w.vars, variable{w.text(t.Child(c, g.fName)), w.varType(t.Child(c, g.fType))})
			}
		}
	}
}

// delegate reports a delegate type: a named signature (type_alias).
func (w *walker) delegate(i node) {
	t, g := w.t, w.g
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return
	}
	m := w.modifiers(i)
	sig := &abi.Signature{Return: extract.OneLine(w.text(t.Child(i, g.fType))), Raw: w.header(i, extract.None)}
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindTypeAlias, Parent: w.parent(), Visibility: w.visibility(m), Span: t.Span(i), Signature: sig})
	w.attributeRefs(m, sym)
	w.params(t.Child(i, g.fParameters), sym, sig, false)
	w.typeRefs(t.Child(i, g.fType), sym, abi.CtxReturnType)
}

func (w *walker) callable(i node) node {
	t, g := w.t, w.g
	body := t.Child(i, g.fBody)
	// The walk goes on inside the declaration: its body, and a
	// constructor's `: base(…)`, which comes before the body.
	next := i + 1
	k := t.Kind(i)
	name := w.text(t.Child(i, g.fName))
	switch k {
	case g.dtorDecl:
		name = "~" + name
	case g.operatorDecl:
		name = "operator " + w.text(t.Child(i, g.fOperator))
	case g.convDecl:
		name = "operator " + extract.OneLine(w.text(t.Child(i, g.fType)))
	}
	if name == "" || w.typeFrame() == nil && k != g.localFunc {
		// A member outside any type (a syntax error): its calls belong
		// to the enclosing scope.
		w.push(w.mark(t.End(i), frameCallable, w.parent()))
		w.params(t.Child(i, g.fParameters), -1, nil, true)
		return next
	}
	kindName := abi.KindMethod
	switch k {
	case g.ctorDecl:
		kindName = abi.KindConstructor
	case g.localFunc:
		kindName = abi.KindFunction
	}
	m := w.modifiers(i)
	ret := t.Child(i, g.fReturns)
	if ret == extract.None {
		ret = t.Child(i, g.fType)
	}
	sig := &abi.Signature{Raw: w.header(i, body)}
	if k != g.ctorDecl && k != g.dtorDecl {
		sig.Return = extract.OneLine(w.text(ret))
		sig.ReturnRef = typeRef(w.varType(ret))
	}
	vis := w.visibility(m)
	switch k {
	case g.dtorDecl:
		vis = abi.VisPrivate
	case g.localFunc:
		vis = "" // not reachable from outside its scope
	}
	sym := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kindName, Parent: w.parent(), Visibility: vis,
		Span: t.Span(i), Signature: sig, Test: m.test && kindName == abi.KindMethod,
	})
	w.attributeRefs(m, sym)
	w.push(w.mark(t.End(i), frameCallable, sym))
	w.params(t.Child(i, g.fParameters), sym, sig, true)
	if k != g.convDecl {
		w.typeRefs(ret, sym, abi.CtxReturnType)
	}
	return next
}

// params reads parameters into sig (when not nil), reports their types as
// references from sym (when >= 0) and, with declare, makes them variables.
func (w *walker) params(list node, sym int32, sig *abi.Signature, declare bool) {
	if list == extract.None {
		return
	}
	t, g := w.t, w.g
	for c := range t.NamedChildren(list) {
		if t.Kind(c) != g.parameter {
			continue
		}
		name := w.text(t.Child(c, g.fName))
		ty := t.Child(c, g.fType)
		if sig != nil {
			sig.Params = append(sig.Params, abi.Param{Name: name, Type: extract.OneLine(w.text(ty)), TypeRef: typeRef(w.varType(ty))})
		}
		if sym >= 0 {
			w.typeRefs(ty, sym, abi.CtxParameterType)
		}
		if declare && name != "" {
			w.vars = append(w.vars, variable{name, w.varType(ty)})
		}
	}
}

// header is a declaration from its first modifier (attributes left out)
// up to its body, on one line, without a closing semicolon.
func (w *walker) header(decl, body node) string {
	t, g := w.t, w.g
	start := t.StartByte(decl)
	for c := range t.Children(decl) {
		if t.Kind(c) != g.attributeList {
			start = t.StartByte(c)
			break
		}
	}
	end := t.EndByte(decl)
	if body != extract.None {
		end = t.StartByte(body)
	}
	if end < start || end > len(w.src) {
		return ""
	}
	s := extract.OneLine(w.src[start:end])
	s = strings.TrimSuffix(strings.TrimSuffix(s, ";"), "=>")
	return extract.OneLine(s)
}

func (w *walker) fieldDecl(i node) {
	t, g := w.t, w.g
	if top := len(w.frames) - 1; top < 0 || w.frames[top].kind != frameType {
		return // a local or a syntax error: no owner
	}
	m := w.modifiers(i)
	kindName := abi.KindField
	if m.const_ || m.static && m.readonly {
		kindName = abi.KindConstant
	}
	vis := w.visibility(m)
	for vd := range t.NamedChildren(i) {
		if t.Kind(vd) != g.variableDecl {
			continue
		}
		ty := t.Child(vd, g.fType)
		typ := w.varType(ty)
		for d := range t.NamedChildren(vd) {
			if t.Kind(d) != g.variableDeclarator {
				continue
			}
			name := w.text(t.Child(d, g.fName))
			if name == "" {
				continue
			}
			sym := w.f.Symbol(abi.Symbol{Name: name, Kind: kindName, Parent: w.parent(), Visibility: vis, Span: t.Span(i), Signature: typeCarrier(typ)})
			w.attributeRefs(m, sym)
			w.typeRefs(ty, sym, abi.CtxField)
		}
	}
}

// property reports a property or an event with accessors; their bodies'
// calls belong to it. An indexer has no name: its bodies' calls belong to
// the type.
func (w *walker) property(i node) node {
	t, g := w.t, w.g
	if w.typeFrame() == nil {
		return i + 1
	}
	ty := t.Child(i, g.fType)
	sym := w.parent()
	if t.Kind(i) != g.indexerDecl {
		name := w.text(t.Child(i, g.fName))
		if name == "" {
			return i + 1
		}
		m := w.modifiers(i)
		sym = w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindProperty, Parent: w.parent(), Visibility: w.visibility(m), Span: t.Span(i), Signature: typeCarrier(w.varType(ty))})
		w.attributeRefs(m, sym)
		w.typeRefs(ty, sym, abi.CtxField)
	}
	w.push(w.mark(t.End(i), frameCallable, sym))
	w.params(t.Child(i, g.fParameters), -1, nil, true)
	return i + 1
}

func (w *walker) enumMember(i node) {
	if name := w.text(w.t.Child(i, w.g.fName)); name != "" && w.typeFrame() != nil {
		w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindConstant, Parent: w.parent(), Visibility: abi.VisPublic, Span: w.t.Span(i)})
	}
}

// typeCarrier carries a field's or property's declared type to the host,
// which follows x.f.m() through it ("T#f"); nil when there is none.
func typeCarrier(typ string) *abi.Signature {
	if typ == "" || strings.Contains(typ, "#") {
		return nil
	}
	return &abi.Signature{Return: typ, ReturnRef: typeRef(typ)}
}
