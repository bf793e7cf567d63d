package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// method reports a method of the current class (one of an anonymous class
// is no symbol: its body's calls belong to the enclosing function); doc is
// the comment right before it.
func (x *state) method(n, doc node) {
	t, g := x.t, x.g
	if x.cls == nil {
		x.walkField(n, g.fBody)
		return
	}
	name := t.Text(t.Child(n, g.fName))
	if name == "" {
		return
	}
	sym := abi.Symbol{Name: name, Kind: abi.KindMethod, Parent: x.cls.sym, Visibility: x.visibilityOf(n)}
	if strings.EqualFold(name, "__construct") {
		sym.Kind = abi.KindConstructor
	}
	sym.Test = x.cls.test && strings.HasPrefix(name, "test") ||
		strings.Contains(t.Text(doc), "@test") || x.hasAttribute(n, "Test")
	x.callable(n, sym, t.Text(doc))
}

// function reports a function declared at file level.
func (x *state) function(n, _ node) {
	t, g := x.t, x.g
	name := t.Text(t.Child(n, g.fName))
	if name == "" {
		return
	}
	sym := abi.Symbol{Name: name, Kind: abi.KindFunction, Parent: -1, Visibility: abi.VisPublic}
	x.modules = append(x.modules, x.qualify(name))
	sym.Test = x.hasAttribute(n, "Test") || x.testFile && strings.HasPrefix(name, "test")
	saved := x.cls
	x.cls = nil // a function declared inside a method is global
	x.callable(n, sym, "")
	x.cls = saved
}

// callable reports a function or method with its signature and type
// references, then walks its body with its parameters as typed locals
// (an untyped one typed by its docblock's @param).
func (x *state) callable(n node, sym abi.Symbol, doc string) {
	t, g := x.t, x.g
	sym.Span = t.Span(n)
	params, ret := t.Child(n, g.fParameters), t.Child(n, g.fReturnType)
	sym.Signature = x.signature(n, params, ret)
	idx := x.f.Symbol(sym)
	locals := map[string]string{}
	for p := range t.NamedChildren(params) {
		typ := t.Child(p, g.fType)
		pname := t.Text(t.Child(p, g.fName))
		locals[pname] = x.typeOf(typ)
		if typ == None && doc != "" {
			locals[pname] = x.docType(docTag(doc, "@param", pname))
		}
		x.references(idx, typ, abi.CtxParameterType)
		if t.Kind(p) == g.promotedParam && x.cls != nil {
			x.f.Symbol(abi.Symbol{Name: strings.TrimPrefix(pname, "$"), Kind: abi.KindField, Parent: x.cls.sym,
				Visibility: x.visibilityOf(p), Span: t.Span(p), Signature: fieldSig(locals[pname])})
		}
	}
	x.references(idx, ret, abi.CtxReturnType)
	fn, saved, hinted := x.fn, x.locals, x.hinted
	x.fn, x.locals, x.hinted = idx, locals, map[string]bool{}
	for p := range t.NamedChildren(params) {
		x.walkField(p, g.fDefault)
	}
	x.walkField(n, g.fBody)
	x.fn, x.locals, x.hinted = fn, saved, hinted
}

func fieldSig(typ string) *abi.Signature {
	if typ == "" {
		return nil
	}
	return &abi.Signature{Return: typ, ReturnRef: typeRef(typ)}
}

// signature is a callable's parameters (name, type as written), return
// type and header from its first modifier to the return type.
func (x *state) signature(n, params, ret node) *abi.Signature {
	t, g := x.t, x.g
	sig := &abi.Signature{Return: x.typeOf(ret)}
	sig.ReturnRef = typeRef(sig.Return)
	for p := range t.NamedChildren(params) {
		if k := t.Kind(p); k != g.simpleParam && k != g.variadicParam && k != g.promotedParam {
			continue
		}
		name := t.Text(t.Child(p, g.fName))
		if t.Kind(p) == g.variadicParam {
			name = "..." + name
		}
		typ := t.Child(p, g.fType)
		sig.Params = append(sig.Params, abi.Param{Name: name, Type: extract.OneLine(t.Text(typ)), TypeRef: typeRef(x.typeOf(typ))})
	}
	start, end := t.StartByte(n), t.EndByte(params)
	if attrs := t.Child(n, g.fAttributes); attrs != None {
		start = t.EndByte(attrs)
	}
	if ret != None {
		end = t.EndByte(ret)
	}
	if src := t.Source(); start <= end && end <= len(src) {
		sig.Raw = extract.OneLine(string(src[start:end]))
	}
	return sig
}

// references reports the class types of a parameter, return or property
// type (each member of a union).
func (x *state) references(from int32, typ node, ctx abi.RelationContext) {
	t, g := x.t, x.g
	if typ == None {
		return
	}
	each := func(n node) {
		typ := x.typeOf(n)
		if typ == "" || x.cls != nil && typ == x.cls.name {
			return // a scalar, or the class itself (self, static)
		}
		{
			x.f.Relation(abi.Relation{From: from, Kind: abi.RelReferences, Target: typ, Context: ctx, Line: t.StartLine(n)})
		}
	}
	if k := t.Kind(typ); k == g.unionType || k == g.intersectionType {
		for c := range t.NamedChildren(typ) {
			each(c)
		}
		return
	}
	each(typ)
}

// visibilityOf reads a declaration's visibility modifier; public without.
func (x *state) visibilityOf(n node) abi.Visibility {
	t := x.t
	if v := t.ChildOfKind(n, x.g.visibility); v != None {
		switch s := strings.ToLower(t.Text(v)); {
		case strings.HasPrefix(s, "private"):
			return abi.VisPrivate
		case strings.HasPrefix(s, "protected"):
			return abi.VisProtected
		}
	}
	return abi.VisPublic
}

// hasAttribute reports a #[name] (or #[…\name]) attribute on n.
func (x *state) hasAttribute(n node, name string) bool {
	t, g := x.t, x.g
	attrs := t.Child(n, g.fAttributes)
	if attrs == None {
		return false
	}
	for a := range t.Descendants(attrs) {
		if t.Kind(a) == g.attribute && lastSegment(t.Text(firstNamed(t, a))) == name {
			return true
		}
	}
	return false
}

// properties reports a property declaration's properties as fields typed
// by the declaration.
func (x *state) properties(n, doc node) {
	t, g := x.t, x.g
	typNode := t.Child(n, g.fType)
	typ, vis := x.typeOf(typNode), x.visibilityOf(n)
	if typ == "" {
		typ = x.docType(docTag(t.Text(doc), "@var", ""))
	}
	for el := range t.NamedChildren(n) {
		if t.Kind(el) != g.propElement {
			continue
		}
		name := strings.TrimPrefix(t.Text(firstNamed(t, el)), "$")
		if name == "" {
			continue
		}
		idx := x.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindField, Parent: x.cls.sym, Visibility: vis, Span: t.Span(el), Signature: fieldSig(typ)})
		x.references(idx, typNode, abi.CtxField)
		for v := range t.NamedChildren(el) {
			if t.Kind(v) != g.varName {
				x.visit(v) // the initializer
			}
		}
	}
}

// constants reports const declarations (class constants or file-level).
func (x *state) constants(n node) {
	t, g := x.t, x.g
	parent, vis := int32(-1), x.visibilityOf(n)
	if x.cls != nil {
		parent = x.cls.sym
	}
	for el := range t.NamedChildren(n) {
		if t.Kind(el) != g.constElement {
			continue
		}
		name := t.Text(firstNamed(t, el))
		if name == "" {
			continue
		}
		x.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindConstant, Parent: parent, Visibility: vis, Span: t.Span(el)})
		for v := range t.NamedChildren(el) {
			if t.Kind(v) != g.name {
				x.visit(v)
			}
		}
	}
}

// propertyTypes fills c.props from typed property declarations, promoted
// constructor parameters and `$this->p = new X` anywhere in the body; a
// property given two classes is untyped.
func (x *state) propertyTypes(c *class, body node) {
	t, g := x.t, x.g
	declared := map[string]bool{}
	set := func(name, typ string) {
		if declared[name] {
			return // the declared type wins over assignments
		}
		if prev, seen := c.props[name]; seen && prev != typ {
			typ = ""
		}
		c.props[name] = typ
	}
	for i, end := body+1, t.End(body); body != None && i < end; i++ {
		switch t.Kind(i) {
		case g.propDecl:
			typ := x.typeOf(t.Child(i, g.fType))
			if doc := i - 1; typ == "" && t.Kind(doc) == g.comment && t.Parent(doc) == t.Parent(i) {
				typ = x.docType(docTag(t.Text(doc), "@var", ""))
			}
			for el := range t.NamedChildren(i) {
				if t.Kind(el) == g.propElement && typ != "" {
					name := strings.TrimPrefix(t.Text(firstNamed(t, el)), "$")
					set(name, typ)
					declared[name] = true
				}
			}
		case g.promotedParam:
			if typ := x.typeOf(t.Child(i, g.fType)); typ != "" {
				name := strings.TrimPrefix(t.Text(t.Child(i, g.fName)), "$")
				set(name, typ)
				declared[name] = true
			}
		case g.assignment:
			left := t.Child(i, g.fLeft)
			if t.Kind(left) != g.memberAccess || t.Text(t.Child(left, g.fObject)) != "$this" {
				continue
			}
			if typ := x.newType(t.Child(i, g.fRight)); typ != "" {
				set(t.Text(t.Child(left, g.fName)), typ)
			}
		case g.objectCreation:
			if t.ChildOfKind(i, g.declList) != None {
				i = t.End(i) - 1 // an anonymous class has its own $this
			}
		}
	}
}
