package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// mods is what a declaration's modifiers and annotations say.
type mods struct {
	node  node
	vis   abi.Visibility // explicit visibility modifier, "" if none
	class string         // class modifier: data, enum, annotation, sealed, inner, value
	konst bool           // const val
	test  bool           // a test annotation
}

// testAnnotations mark test functions: JUnit 4/5, kotlin.test, TestNG.
var testAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true,
	"TestFactory": true, "TestTemplate": true,
}

// kotestSpecs are the kotest spec styles; a class extending one is a test
// class whose tests are lambdas given to its constructor.
var kotestSpecs = map[string]bool{
	"StringSpec": true, "FunSpec": true, "BehaviorSpec": true, "DescribeSpec": true,
	"ShouldSpec": true, "WordSpec": true, "FreeSpec": true, "FeatureSpec": true,
	"ExpectSpec": true, "AnnotationSpec": true,
}

// compilerAnnotations instruct the compiler and name nothing in the code
// base.
var compilerAnnotations = map[string]bool{
	"Suppress": true, "JvmStatic": true, "JvmField": true, "JvmOverloads": true,
	"JvmName": true, "Deprecated": true, "Throws": true, "Volatile": true,
	"Synchronized": true, "OptIn": true, "PublishedApi": true,
}

func (w *walker) modifiers(decl node) mods {
	t, g := w.t, w.g
	m := mods{node: w.child(decl, g.modifiers)}
	if m.node == extract.None {
		return m
	}
	for c := range t.NamedChildren(m.node) {
		switch t.Kind(c) {
		case g.visibility:
			// public, protected, internal and private are Kotlin's own
			// words for what the vocabulary names the same.
			if v := abi.Visibility(w.text(c)); v.Valid() {
				m.vis = v
			}
		case g.classModifier:
			m.class = w.text(c)
		case g.propertyModifier:
			m.konst = m.konst || w.text(c) == "const"
		case g.annotation:
			if testAnnotations[lastSegment(w.annotationName(c))] {
				m.test = true
			}
		}
	}
	return m
}

// annotationName is the annotation's type as written: @Test, @org.junit.Test,
// @Tag("x") all name their type.
func (w *walker) annotationName(a node) string {
	g := w.g
	ty := w.child(a, g.userType)
	if ty == extract.None {
		ty = w.child(w.child(a, g.constructorInvocation), g.userType)
	}
	if ty == extract.None {
		return ""
	}
	return baseName(extract.OneLine(w.text(ty)))
}

// annotationRefs reports a declaration's annotations as references with
// context attribute (compiler instructions left out).
func (w *walker) annotationRefs(m mods, from int32) {
	t, g := w.t, w.g
	if m.node == extract.None {
		return
	}
	for c := range t.NamedChildren(m.node) {
		if t.Kind(c) != g.annotation {
			continue
		}
		if name := w.annotationName(c); name != "" && !compilerAnnotations[lastSegment(name)] {
			w.ref(from, name, abi.CtxAttribute, c)
		}
	}
}

// visibility is the explicit modifier, else public, or "" for a local
// declaration.
func (w *walker) visibility(m mods) abi.Visibility {
	if m.vis != "" {
		return m.vis
	}
	if w.inBody() {
		return ""
	}
	return abi.VisPublic
}

func (w *walker) typeDecl(i node) {
	t, g := w.t, w.g
	k := t.Kind(i)
	name := w.text(w.child(i, g.typeIdent))
	if name == "" && k == g.classDecl {
		name = w.text(w.child(i, g.simpleIdent)) // error recovery spells some names so
	}
	m := w.modifiers(i)
	kindName := abi.KindClass
	switch {
	case k == g.objectDecl || k == g.companion:
		kindName = abi.KindObject
	case w.child(i, g.kwInterface) != extract.None || m.class == "annotation":
		kindName = abi.KindInterface
	case m.class == "enum" || w.child(i, g.kwEnum) != extract.None || w.child(i, g.enumBody) != extract.None:
		kindName = abi.KindEnum
	}
	if k == g.companion && name == "" {
		name = "Companion"
	}
	if name == "" || len(w.frames) > 0 && w.frames[len(w.frames)-1].kind == frameAnon && k != g.companion {
		w.push(w.mark(t.End(i), frameAnon, w.parent()))
		return
	}
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: kindName, Parent: w.memberParent(), Visibility: w.visibility(m), Span: t.Span(i)})
	w.annotationRefs(m, sym)

	fr := w.mark(t.End(i), frameType, sym)
	fr.self, fr.iface = name, kindName == abi.KindInterface
	if k == g.companion {
		// Companion members are called as Outer.m(): they join the class.
		if outer := w.typeFrame(); outer != nil && outer.kind == frameType {
			fr.members, fr.self, fr.super = outer.members, outer.self, outer.super
		}
	}
	super, test := w.supertypes(i, sym, fr.iface)
	if k != g.companion {
		fr.super = super
	}
	if test {
		w.f.Symbols()[sym].Test = true
	}
	w.push(fr)
	if pc := w.child(i, g.primaryCtor); pc != extract.None {
		w.classParams(pc, sym)
	}
	body := w.child(i, g.classBody)
	if body == extract.None {
		body = w.child(i, g.enumBody)
	}
	w.memberVars(body)
}

// supertypes reports the delegation specifiers: a supertype called with
// a constructor (Base(x)) is the superclass, inherits, and a call to its
// constructor; the others are interfaces, implements (an interface
// inherits them). It returns the superclass and whether it makes the type
// a kotest spec.
func (w *walker) supertypes(decl node, from int32, iface bool) (super string, test bool) {
	t, g := w.t, w.g
	for spec := range t.NamedChildren(decl) {
		if t.Kind(spec) != g.delegationSpec {
			continue
		}
		c := firstNamedChild(t, spec)
		rel := abi.RelImplements
		if iface {
			rel = abi.RelInherits
		}
		ty := c
		switch t.Kind(c) {
		case g.constructorInvocation:
			rel, ty = abi.RelInherits, w.child(c, g.userType)
		case g.explicitDelegation:
			ty = firstNamedChild(t, c)
		}
		target := baseName(extract.OneLine(w.text(ty)))
		if target == "" {
			continue
		}
		w.f.Relation(abi.Relation{From: from, Kind: rel, Target: target, Line: t.StartLine(ty)})
		w.typeArgRefs(ty, from)
		if t.Kind(c) == g.constructorInvocation {
			super = target
			if id := w.typeHead(ty); id != extract.None {
				w.f.Call(abi.Call{Caller: from, Name: w.text(id), Line: t.StartLine(id), Col: t.StartCol(id)})
			}
		}
		test = test || kotestSpecs[lastSegment(target)]
	}
	return super, test
}

// classParams reads a primary constructor: val/var parameters are
// properties (field), all are in scope for initializers.
func (w *walker) classParams(pc node, owner int32) {
	t, g := w.t, w.g
	for c := range t.NamedChildren(pc) {
		if t.Kind(c) != g.classParam {
			continue
		}
		name := w.text(w.child(c, g.simpleIdent))
		if name == "" {
			continue
		}
		ty := w.typeChild(c)
		typ := w.varType(ty)
		if w.child(c, g.bindingKind) != extract.None {
			m := w.modifiers(c)
			vis := m.vis
			if vis == "" {
				vis = abi.VisPublic
			}
			sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindField, Parent: owner, Visibility: vis, Span: t.Span(c), Signature: typeCarrier(typ)})
			w.headerParams = append(w.headerParams, sym)
			w.annotationRefs(m, sym)
			w.typeRefs(ty, sym, abi.CtxField)
		} else {
			w.typeRefs(ty, owner, abi.CtxParameterType)
		}
		w.vars = append(w.vars, variable{name, typ})
	}
}

// memberVars makes the properties of a type body (and of its companion
// object) known as variables before its functions are walked: functions
// may use properties declared below them.
func (w *walker) memberVars(body node) {
	t, g := w.t, w.g
	for c := range t.NamedChildren(body) {
		switch t.Kind(c) {
		case g.propertyDecl:
			if vd := w.child(c, g.variableDecl); vd != extract.None {
				w.vars = append(w.vars, variable{w.text(w.child(vd, g.simpleIdent)), w.propertyType(c, vd)})
			}
		case g.companion:
			w.memberVars(w.child(c, g.classBody))
		}
	}
}

// propertyType is a property's declared type, else the type of its
// initializer when this file tells it.
func (w *walker) propertyType(decl, vd node) string {
	if ty := w.typeChild(vd); ty != extract.None {
		return w.varType(ty)
	}
	if v := w.initializer(decl); v != extract.None {
		return w.exprType(v, 0)
	}
	return ""
}

// initializer is the expression after a declaration's "=", or None.
func (w *walker) initializer(decl node) node {
	t, g := w.t, w.g
	eq := false
	for c := range t.Children(decl) {
		if eq && t.IsNamed(c) {
			return c
		}
		eq = eq || t.Kind(c) == g.kwEq
	}
	return extract.None
}

// typeChild is n's first direct child that is a type.
func (w *walker) typeChild(n node) node {
	t, g := w.t, w.g
	for c := range t.NamedChildren(n) {
		switch t.Kind(c) {
		case g.userType, g.nullableType, g.functionType, g.parenthesizedType:
			return c
		}
	}
	return extract.None
}

func (w *walker) typeAlias(i node) {
	t, g := w.t, w.g
	name := w.text(w.child(i, g.typeIdent))
	if name == "" {
		return
	}
	m := w.modifiers(i)
	ty := w.typeChild(i)
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindTypeAlias, Parent: w.memberParent(), Visibility: w.visibility(m), Span: t.Span(i),
		Signature: &abi.Signature{Return: extract.OneLine(w.text(ty))}})
	w.typeRefs(ty, sym, abi.CtxGenericArg)
}

// receiverNode is the receiver type of an extension function (the type
// written before its name), or None.
func (w *walker) receiverNode(fn node) node {
	t, g := w.t, w.g
	for c := range t.NamedChildren(fn) {
		switch t.Kind(c) {
		case g.simpleIdent:
			return extract.None
		case g.userType, g.nullableType, g.parenthesizedType, g.functionType:
			return c
		}
	}
	return extract.None
}

// returnNode is the declared return type of a function, or None.
func (w *walker) returnNode(fn node) node {
	t, g := w.t, w.g
	after := false
	for c := range t.NamedChildren(fn) {
		switch k := t.Kind(c); {
		case k == g.functionParams:
			after = true
		case after && (k == g.userType || k == g.nullableType || k == g.functionType || k == g.parenthesizedType):
			return c
		}
	}
	return extract.None
}

func (w *walker) function(i node) {
	t, g := w.t, w.g
	name := w.text(w.child(i, g.simpleIdent))
	params := w.child(i, g.functionParams)
	recv := w.receiverNode(i)
	if name == "" || w.typeFrame() != nil && w.typeFrame().kind == frameAnon && !w.inBody() {
		// A member of an object literal (or a broken declaration): its
		// parameters are in scope, its calls belong to the enclosing scope.
		w.push(w.mark(t.End(i), frameCallable, w.parent()))
		w.params(params, -1, nil)
		return
	}
	m := w.modifiers(i)
	kindName, receiver := abi.KindFunction, ""
	if w.inType() {
		kindName = abi.KindMethod
	} else if recv != extract.None && len(w.frames) == 0 {
		kindName, receiver = abi.KindMethod, w.varType(recv)
	}
	ret := w.returnNode(i)
	sig := &abi.Signature{Return: extract.OneLine(w.text(ret)), ReturnRef: typeRef(w.varType(ret)), Raw: w.header(i, m)}
	sym := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kindName, Parent: w.memberParent(), Receiver: receiver,
		Visibility: w.visibility(m), Span: t.Span(i), Signature: sig, Test: m.test,
	})
	w.annotationRefs(m, sym)
	fr := w.mark(t.End(i), frameCallable, sym)
	if recv != extract.None {
		fr.self = w.varType(recv)
		w.typeRefs(recv, sym, abi.CtxParameterType)
	}
	w.push(fr)
	w.params(params, sym, sig)
	w.typeRefs(ret, sym, abi.CtxReturnType)
}

// params reads function parameters into sig (when not nil), reports their
// types as references from sym (when >= 0) and declares them as variables.
func (w *walker) params(list node, sym int32, sig *abi.Signature) {
	if list == extract.None {
		return
	}
	t, g := w.t, w.g
	for c := range t.NamedChildren(list) {
		if t.Kind(c) != g.parameter {
			continue
		}
		name := w.text(w.child(c, g.simpleIdent))
		ty := w.typeChild(c)
		if sig != nil {
			sig.Params = append(sig.Params, abi.Param{Name: name, Type: extract.OneLine(w.text(ty)), TypeRef: typeRef(w.varType(ty))})
		}
		if sym >= 0 {
			w.typeRefs(ty, sym, abi.CtxParameterType)
		}
		if name != "" {
			w.vars = append(w.vars, variable{name, w.varType(ty)})
		}
	}
}

// header is a declaration from after its modifiers up to its body, on one
// line.
func (w *walker) header(decl node, m mods) string {
	t, g := w.t, w.g
	start := t.StartByte(decl)
	if m.node != extract.None {
		start = t.EndByte(m.node)
	}
	end := t.EndByte(decl)
	if body := w.child(decl, g.functionBody); body != extract.None {
		end = t.StartByte(body)
	}
	if end < start || end > len(w.src) {
		return ""
	}
	return extract.OneLine(w.src[start:end])
}

func (w *walker) secondaryCtor(i node) {
	t, g := w.t, w.g
	tf := w.typeFrame()
	if tf == nil || tf.kind != frameType || !w.inType() {
		w.push(w.mark(t.End(i), frameCallable, w.parent()))
		return
	}
	m := w.modifiers(i)
	sig := &abi.Signature{Raw: w.header(i, m)}
	if brace := w.child(i, g.kwLBrace); brace != extract.None {
		// The body is braces around statements, no function_body node.
		start := t.StartByte(i)
		if m.node != extract.None {
			start = t.EndByte(m.node)
		}
		sig.Raw = extract.OneLine(w.src[start:t.StartByte(brace)])
	}
	sym := w.f.Symbol(abi.Symbol{Name: tf.self, Kind: abi.KindConstructor, Parent: w.memberParent(), Visibility: w.visibility(m), Span: t.Span(i), Signature: sig})
	w.annotationRefs(m, sym)
	w.push(w.mark(t.End(i), frameCallable, sym))
	w.params(w.child(i, g.functionParams), sym, sig)
}

func (w *walker) property(i node) {
	t, g := w.t, w.g
	vd := w.child(i, g.variableDecl)
	if vd == extract.None {
		// val (a, b) = pair(): destructured locals, types unknown.
		for d := range t.NamedChildren(w.child(i, g.multiVariableDecl)) {
			w.vars = append(w.vars, variable{w.text(w.child(d, g.simpleIdent)), w.varType(w.typeChild(d))})
		}
		return
	}
	name := w.text(w.child(vd, g.simpleIdent))
	if name == "" {
		return
	}
	if !w.inType() && len(w.frames) > 0 {
		w.vars = append(w.vars, variable{name, w.propertyType(i, vd)})
		return // a local, or a property of an object literal
	}
	m := w.modifiers(i)
	kindName := abi.KindField
	switch {
	case m.konst:
		kindName = abi.KindConstant
	case len(w.frames) == 0:
		kindName = abi.KindVariable
	}
	ty := w.typeChild(vd)
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: kindName, Parent: w.memberParent(), Visibility: w.visibility(m), Span: t.Span(i),
		Signature: typeCarrier(w.propertyType(i, vd))})
	w.annotationRefs(m, sym)
	w.typeRefs(ty, sym, abi.CtxField)
	w.prop, w.propSym = i, sym
}

// accessor opens the scope of a property's getter or setter: its calls
// belong to the property.
func (w *walker) accessor(i node) {
	sym := w.parent()
	if w.t.Parent(i) == w.prop {
		sym = w.propSym
	}
	w.push(w.mark(w.t.End(i), frameCallable, sym))
	if w.t.Kind(i) == w.g.setter {
		w.vars = append(w.vars, variable{"value", ""})
	}
}

func (w *walker) enumEntry(i node) {
	if name := w.text(w.child(i, w.g.simpleIdent)); name != "" && w.inType() {
		w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindConstant, Parent: w.memberParent(), Visibility: abi.VisPublic, Span: w.t.Span(i)})
	}
}

// objectLiteral opens the scope of `object : T { … }`: an anonymous class
// whose members are not symbols and whose calls belong to the enclosing
// callable.
func (w *walker) objectLiteral(i node) {
	w.push(w.mark(w.t.End(i), frameAnon, w.parent()))
}

// typeCarrier carries a property's type to the host, which follows x.p.m()
// through it ("T#p"); nil when there is none.
func typeCarrier(typ string) *abi.Signature {
	if typ == "" || strings.Contains(typ, "#") {
		return nil
	}
	return &abi.Signature{Return: typ, ReturnRef: typeRef(typ)}
}
