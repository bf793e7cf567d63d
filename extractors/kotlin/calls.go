package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// maxTypeDepth is how many links of a receiver chain exprType follows, and
// maxTypeLen how long the chain it spells may grow (through val x = a.m()
// inferences building on one another).
const (
	maxTypeDepth = 16
	maxTypeLen   = 256
)

// baseName strips type arguments, nullability and spaces from a type as
// written: "List<Order>?" → "List".
func baseName(s string) string {
	if i := strings.IndexAny(s, "<?( \t\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// lastSegment returns the part after the last '.' of a qualified name.
func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func firstNamedChild(t *extract.Tree, n node) node {
	for c := range t.NamedChildren(n) {
		return c
	}
	return extract.None
}

// capitalized reports a name spelled like a Kotlin class (Order, HTTP).
func capitalized(s string) bool { return s != "" && 'A' <= s[0] && s[0] <= 'Z' }

// member splits a navigation expression a.b into a and the name b.
func (w *walker) member(nav node) (obj node, name string) {
	t, g := w.t, w.g
	obj = firstNamedChild(t, nav)
	suffix := w.child(nav, g.navigationSuffix)
	return obj, w.text(w.child(suffix, g.simpleIdent))
}

func (w *walker) call(i node) {
	t, g := w.t, w.g
	callee := firstNamedChild(t, i)
	var nameN, recv node = extract.None, extract.None
	switch t.Kind(callee) {
	case g.simpleIdent:
		nameN = callee
	case g.navigation:
		recv = firstNamedChild(t, callee)
		nameN = w.child(w.child(callee, g.navigationSuffix), g.simpleIdent)
	}
	name := w.text(nameN)
	if name == "" {
		return
	}
	if recv == extract.None && w.aliases[name] != "" {
		if _, local := w.find(name); !local {
			name = w.aliases[name] // D() with import a.C as D constructs (or calls) C
		}
	}
	w.dynamic(i, name, recv)
	c := abi.Call{Caller: w.parent(), Name: name, Line: t.StartLine(nameN), Col: t.StartCol(nameN)}
	if recv != extract.None {
		c.Receiver = extract.Receiver(w.text(recv))
		c.ReceiverType = w.exprType(recv, 0)
		c.ReceiverRef = typeRef(c.ReceiverType)
	}
	w.f.Call(c)
}

// exprType is the type of a receiver expression when this file tells it:
// this (the class, or an extension's receiver), super, a typed parameter,
// val/var or property in scope, a cast, Foo() of a class, and beyond what
// is declared here "T#p" (property p of T) or "T#m()" (what m of T
// returns), which the host follows wherever T is declared.
func (w *walker) exprType(n node, depth int) string {
	t, g := w.t, w.g
	for k := t.Kind(n); k == g.parenthesized || k == g.postfix; k = t.Kind(n) {
		n = firstNamedChild(t, n) // (x), x!!
	}
	if n == extract.None || depth >= maxTypeDepth {
		return ""
	}
	switch t.Kind(n) {
	case g.thisExpr:
		if label := w.child(n, g.typeIdent); label != extract.None {
			return w.text(label) // this@Outer
		}
		return w.selfType()
	case g.superExpr:
		if tf := w.typeFrame(); tf != nil {
			return tf.super
		}
	case g.simpleIdent:
		name := w.text(n)
		if typ, ok := w.find(name); ok || w.aliases[name] == "" {
			return typ
		}
		return w.aliases[name] // an import alias names the type itself: H.run() with import a.Helper as H
	case g.navigation:
		obj, name := w.member(n)
		if name == "" {
			return ""
		}
		if t.Kind(obj) == g.thisExpr && w.child(obj, g.typeIdent) == extract.None {
			if typ, ok := w.find(name); ok {
				return typ
			}
		}
		return chain(w.ownerType(obj, depth), name)
	case g.callExpr:
		callee := firstNamedChild(t, n)
		switch t.Kind(callee) {
		case g.navigation:
			obj, name := w.member(callee)
			if name != "" {
				return chain(w.ownerType(obj, depth), name+"()")
			}
		case g.simpleIdent:
			return w.plainCallType(w.text(callee))
		}
	case g.asExpr:
		return w.varType(w.typeChild(n))
	}
	return ""
}

// plainCallType is the type a plain call f() gives: Foo() constructs a
// Foo (Kotlin names classes with a capital), f() returns what f declares:
// a top-level function of this file ("f()"), else, inside a type, its
// method ("T#f()").
func (w *walker) plainCallType(name string) string {
	switch {
	case name == "":
		return ""
	case capitalized(name):
		return name
	case w.topFns[name]:
		return name + "()"
	}
	if self := w.selfType(); self != "" {
		return chain(self, name+"()")
	}
	return name + "()"
}

// ownerType is the type of the expression a member is read from: as
// exprType, and an unknown capitalized name is taken as a type (Config in
// Config.default.load()), which the host looks up and drops if it is not
// one.
func (w *walker) ownerType(obj node, depth int) string {
	if typ := w.exprType(obj, depth+1); typ != "" {
		return typ
	}
	if w.t.Kind(obj) == w.g.simpleIdent {
		if s := w.text(obj); capitalized(s) {
			if _, ok := w.find(s); !ok {
				return s
			}
		}
	}
	return ""
}

// chain spells member m of type owner, "" when owner is unknown or the
// chain grew too long.
func chain(owner, m string) string {
	if owner == "" || len(owner)+len(m)+1 > maxTypeLen {
		return ""
	}
	return owner + "#" + m
}

// lookup finds the declared type of a variable in scope, innermost first.
func (w *walker) lookup(name string) string {
	typ, _ := w.find(name)
	return typ
}

// find is lookup that also tells whether the name is a variable at all.
func (w *walker) find(name string) (string, bool) {
	for i := len(w.vars) - 1; i >= 0; i-- {
		if w.vars[i].name == name {
			return w.vars[i].typ, true
		}
	}
	return "", false
}

// delegationCall reports this(…) as a call to the class's constructor and
// super(…) as one to the superclass's.
func (w *walker) delegationCall(i node) {
	t, g := w.t, w.g
	tf := w.typeFrame()
	if tf == nil {
		return
	}
	for c := range t.Children(i) {
		name := ""
		switch t.Kind(c) {
		case g.kwThis:
			name = tf.self
		case g.kwSuper:
			name = lastSegment(tf.super)
		default:
			continue
		}
		if name != "" {
			w.f.Call(abi.Call{Caller: w.parent(), Name: name, Line: t.StartLine(c), Col: t.StartCol(c)})
		}
		return
	}
}

// forLoop declares the loop variable (typed only when written with a type).
func (w *walker) forLoop(i node) {
	t, g := w.t, w.g
	w.push(w.mark(t.End(i), frameCallable, w.parent()))
	if vd := w.child(i, g.variableDecl); vd != extract.None {
		w.vars = append(w.vars, variable{w.text(w.child(vd, g.simpleIdent)), w.varType(w.typeChild(vd))})
	}
	for d := range t.NamedChildren(w.child(i, g.multiVariableDecl)) {
		w.vars = append(w.vars, variable{w.text(w.child(d, g.simpleIdent)), ""})
	}
}

// catchBlock declares the caught exception: catch (e: IOException).
func (w *walker) catchBlock(i node) {
	t, g := w.t, w.g
	w.push(w.mark(t.End(i), frameCallable, w.parent()))
	if name := w.text(w.child(i, g.simpleIdent)); name != "" {
		w.vars = append(w.vars, variable{name, w.varType(w.typeChild(i))})
	}
}

// lambda opens a scope for a lambda's parameters (typed only when written
// with types) and its implicit `it`; its calls belong to the enclosing
// callable.
func (w *walker) lambda(i node) {
	t, g := w.t, w.g
	fr := w.mark(t.End(i), frameCallable, w.parent())
	scope, recv := w.scopeFunction(i)
	if scope == scopeThis {
		fr.self = recv
	}
	w.push(fr)
	params := w.child(i, g.lambdaParams)
	if params == extract.None {
		it := ""
		if scope == scopeIt {
			it = recv
		}
		w.vars = append(w.vars, variable{"it", it})
		return
	}
	for d := range t.NamedChildren(params) {
		if t.Kind(d) == g.variableDecl {
			w.vars = append(w.vars, variable{w.text(w.child(d, g.simpleIdent)), w.varType(w.typeChild(d))})
		}
	}
}

// scopeKind is how a scope function hands its receiver to its lambda.
type scopeKind uint8

const (
	scopeNone scopeKind = iota
	scopeIt             // x.let { it }, also, takeIf, takeUnless
	scopeThis           // x.apply { this }, run
)

// scopeFunctions are the standard library's scope functions.
var scopeFunctions = map[string]scopeKind{
	"let": scopeIt, "also": scopeIt, "takeIf": scopeIt, "takeUnless": scopeIt,
	"apply": scopeThis, "run": scopeThis,
}

// scopeFunction tells whether lambda i is the trailing lambda of a scope
// function called on a receiver (x?.let { … }), and the receiver's type.
func (w *walker) scopeFunction(i node) (scopeKind, string) {
	t, g := w.t, w.g
	suffix := t.Parent(t.Parent(i)) // lambda_literal < annotated_lambda < call_suffix
	if t.Kind(suffix) != g.callSuffix {
		return scopeNone, ""
	}
	callee := firstNamedChild(t, t.Parent(suffix))
	if t.Kind(callee) != g.navigation {
		return scopeNone, ""
	}
	obj, name := w.member(callee)
	kind := scopeFunctions[name]
	if kind == scopeNone {
		return scopeNone, ""
	}
	typ := w.exprType(obj, 0)
	if typ == "" {
		return scopeNone, ""
	}
	return kind, typ
}

// varType is the base name of a declared class type: "Order" for
// Order, Order? and a.b.Order<T>... as "a.b.Order"; "" for function types.
func (w *walker) varType(ty node) string {
	t, g := w.t, w.g
	switch t.Kind(ty) {
	case g.userType:
		return baseName(extract.OneLine(w.text(ty)))
	case g.nullableType, g.parenthesizedType:
		return w.varType(w.typeChild(ty))
	}
	return ""
}

// typeHead is the identifier naming a user type: its last segment.
func (w *walker) typeHead(ty node) node {
	t, g := w.t, w.g
	last := extract.None
	for c := range t.NamedChildren(ty) {
		if t.Kind(c) == g.typeIdent {
			last = c
		}
	}
	return last
}

// builtinTypes are kotlin.* basics every file sees; references to them say
// nothing about the code base.
var builtinTypes = map[string]bool{
	"Any": true, "Unit": true, "Nothing": true, "String": true, "Int": true, "Long": true,
	"Short": true, "Byte": true, "Char": true, "Boolean": true, "Double": true, "Float": true,
	"Number": true,
}

// typeRefs reports the named types in a type as references: the type
// itself with ctx, its type arguments with generic_arg. kotlin basics and
// type parameters are not references.
func (w *walker) typeRefs(ty node, from int32, ctx abi.RelationContext) {
	if ty == extract.None || from < 0 {
		return
	}
	t, g := w.t, w.g
	switch t.Kind(ty) {
	case g.userType:
		name := baseName(extract.OneLine(w.text(ty)))
		if name != "" && !builtinTypes[name] && !w.isTypeParam(ty, name) {
			w.ref(from, name, ctx, ty)
		}
		w.typeArgRefs(ty, from)
	case g.nullableType, g.parenthesizedType:
		w.typeRefs(w.typeChild(ty), from, ctx)
	case g.functionType:
		for c := range t.Descendants(ty) {
			if t.Kind(c) == g.userType && t.Parent(c) != extract.None && t.Kind(t.Parent(c)) != g.userType {
				w.typeRefs(c, from, abi.CtxGenericArg)
			}
		}
	}
}

// typeArgRefs reports the type arguments of a user type.
func (w *walker) typeArgRefs(ty node, from int32) {
	t, g := w.t, w.g
	for args := range t.NamedChildren(ty) {
		if t.Kind(args) != g.typeArgs {
			continue
		}
		for p := range t.NamedChildren(args) {
			if t.Kind(p) == g.typeProjection {
				w.typeRefs(w.typeChild(p), from, abi.CtxGenericArg)
			}
		}
	}
}

// isTypeParam reports whether name is a type parameter of a declaration
// enclosing ty (class C<T>, fun <T> f()).
func (w *walker) isTypeParam(ty node, name string) bool {
	t, g := w.t, w.g
	for p := t.Parent(ty); p != extract.None; p = t.Parent(p) {
		if k := t.Kind(p); k != g.classDecl && k != g.functionDecl && k != g.typeAliasDecl {
			continue // only declarations have type parameters; a file's many children are not searched
		}
		for c := range t.NamedChildren(w.child(p, g.typeParams)) {
			if t.Kind(c) == g.typeParam && w.text(w.child(c, g.typeIdent)) == name {
				return true
			}
		}
	}
	return false
}

// ref reports a references relation once per (symbol, target, context).
func (w *walker) ref(from int32, target string, ctx abi.RelationContext, at node) {
	if len(w.seen) > 0 && w.seen[0].from != from {
		w.seen = w.seen[:0]
	}
	for _, s := range w.seen {
		if s.target == target && s.ctx == ctx {
			return
		}
	}
	w.seen = append(w.seen, seenRef{from, target, ctx})
	w.f.Relation(abi.Relation{From: from, Kind: abi.RelReferences, Target: target, Context: ctx, Line: w.t.StartLine(at)})
}
