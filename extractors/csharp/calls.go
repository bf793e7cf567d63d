package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// maxTypeDepth is how many links of a receiver chain exprType follows, and
// maxTypeLen how long the chain it spells may grow (through var x = a.M()
// inferences building on one another).
const (
	maxTypeDepth = 16
	maxTypeLen   = 256
)

// baseName strips type arguments, nullability and array brackets from a
// type as written: "List<Order>" → "List", "Order?" → "Order".
func baseName(s string) string {
	if i := strings.IndexAny(s, "<[?* \t\n("); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "::"); i >= 0 {
		s = s[i+2:] // global::System.String
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

func (w *walker) isThis(n node) bool {
	k := w.t.Kind(n)
	return k == w.g.kwThis || k != 0 && k == w.g.this
}

func (w *walker) isBase(n node) bool {
	k := w.t.Kind(n)
	return k == w.g.kwBase || k != 0 && k == w.g.base
}

// nameOf is the identifier of a member name: `M` or `M<T>`.
func (w *walker) nameOf(n node) node {
	t, g := w.t, w.g
	switch t.Kind(n) {
	case g.identifier:
		return n
	case g.genericName:
		return t.ChildOfKind(n, g.identifier)
	}
	return extract.None
}

func (w *walker) call(i node) {
	t, g := w.t, w.g
	fn := t.Child(i, g.fFunction)
	var nameN, recv node = extract.None, extract.None
	switch t.Kind(fn) {
	case g.identifier, g.genericName:
		nameN = w.nameOf(fn)
	case g.memberAccess:
		nameN, recv = w.nameOf(t.Child(fn, g.fName)), t.Child(fn, g.fExpression)
	case g.conditionalAccess:
		// a?.M(): the member binding names M, the condition is the receiver.
		if mb := t.ChildOfKind(fn, g.memberBinding); mb != extract.None {
			nameN, recv = w.nameOf(t.Child(mb, g.fName)), t.Child(fn, g.fCondition)
		}
	}
	name := w.text(nameN)
	if name == "" || recv == extract.None && name == "nameof" {
		return
	}
	w.dynamic(i, name)
	c := abi.Call{Caller: w.parent(), Name: name, Line: t.StartLine(nameN), Col: t.StartCol(nameN)}
	if recv != extract.None {
		c.Receiver = extract.Receiver(w.text(recv))
		c.ReceiverType = w.exprType(recv, 0)
		c.ReceiverRef = typeRef(c.ReceiverType)
		if name == "Invoke" {
			w.raise(recv)
		}
	} else {
		w.raise(nameN)
	}
	w.f.Call(c)
}

// exprType is the type of a receiver expression when this file tells it:
// this/base, a typed variable, field or property in scope, a cast, new T(),
// and beyond what is declared here "T#f" (member f of T) or "T#M()" (what
// method M of T returns), which the host follows wherever T is declared.
func (w *walker) exprType(n node, depth int) string {
	t, g := w.t, w.g
	for t.Kind(n) == g.parenthesized {
		n = firstNamedChild(t, n)
	}
	if n == extract.None || depth >= maxTypeDepth {
		return ""
	}
	switch {
	case w.isThis(n):
		if tf := w.typeFrame(); tf != nil {
			return tf.name
		}
	case w.isBase(n):
		if tf := w.typeFrame(); tf != nil {
			return tf.super
		}
	}
	switch t.Kind(n) {
	case g.identifier:
		name := w.text(n)
		if typ, ok := w.find(name); ok || w.aliases[name] == "" {
			return typ
		}
		return w.aliases[name] // an import alias names the type itself: H.run() with import a.Helper as H
	case g.memberAccess:
		obj, name := t.Child(n, g.fExpression), w.text(w.nameOf(t.Child(n, g.fName)))
		if name == "" {
			return ""
		}
		if w.isThis(obj) {
			return w.lookup(name)
		}
		return chain(w.ownerType(obj, depth), name)
	case g.invoke:
		fn := t.Child(n, g.fFunction)
		switch t.Kind(fn) {
		case g.memberAccess:
			name := w.text(w.nameOf(t.Child(fn, g.fName)))
			if name != "" {
				return chain(w.ownerType(t.Child(fn, g.fExpression), depth), name+"()")
			}
		case g.identifier, g.genericName:
			// M() inside a type is one of its (or its bases') methods.
			if tf := w.typeFrame(); tf != nil && w.lookup(w.text(w.nameOf(fn))) == "" {
				return chain(tf.name, w.text(w.nameOf(fn))+"()")
			}
		}
	case g.objectCreation:
		return w.varType(t.Child(n, g.fType))
	case g.castExpr:
		return w.varType(t.Child(n, g.fType))
	}
	return ""
}

// ownerType is the type of the expression a member is read from: as
// exprType, and an unknown capitalized name is taken as a type (Svc in
// Svc.Instance.Run()), which the host looks up and drops if it is not one.
func (w *walker) ownerType(obj node, depth int) string {
	if typ := w.exprType(obj, depth+1); typ != "" {
		return typ
	}
	if w.t.Kind(obj) == w.g.identifier {
		if s := w.text(obj); s != "" && 'A' <= s[0] && s[0] <= 'Z' && !w.declared(s) {
			return s
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

func firstNamedChild(t *extract.Tree, n node) node {
	for c := range t.NamedChildren(n) {
		return c
	}
	return extract.None
}

// lookup finds the declared type of a variable in scope, innermost first.
func (w *walker) lookup(name string) string {
	typ, _ := w.find(name)
	return typ
}

// declared reports whether name is a variable in scope, typed or not.
func (w *walker) declared(name string) bool {
	_, ok := w.find(name)
	return ok
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

// newCall reports `new T(…)` as a call to T.
func (w *walker) newCall(i node) {
	t, g := w.t, w.g
	if id := w.typeHead(t.Child(i, g.fType)); id != extract.None {
		w.f.Call(abi.Call{Caller: w.parent(), Name: w.text(id), Line: t.StartLine(id), Col: t.StartCol(id)})
	}
}

// typeHead returns the identifier naming a class type: the last segment
// of a qualified type, without type arguments.
func (w *walker) typeHead(ty node) node {
	t, g := w.t, w.g
	for ty != extract.None {
		switch t.Kind(ty) {
		case g.identifier:
			return ty
		case g.genericName:
			return t.ChildOfKind(ty, g.identifier)
		case g.qualifiedName:
			ty = t.Child(ty, g.fName)
		case g.nullableType:
			ty = firstNamedChild(t, ty)
		default:
			return extract.None
		}
	}
	return extract.None
}

// ctorInit reports `: base(…)` as a call to the base class's constructor
// and `: this(…)` as one to the type's own.
func (w *walker) ctorInit(i node) {
	t := w.t
	tf := w.typeFrame()
	if tf == nil {
		return
	}
	for c := range t.Children(i) {
		name := ""
		switch {
		case w.isBase(c):
			name = lastSegment(tf.super)
		case w.isThis(c):
			name = tf.name
		default:
			continue
		}
		if name != "" {
			w.f.Call(abi.Call{Caller: w.parent(), Name: name, Line: t.StartLine(c), Col: t.StartCol(c)})
		}
		return
	}
}

// local declares the variables of a variable_declaration inside a body:
// `T x = …` is a T, `var x = new T()` a T, `var x = a.M()` what M returns.
func (w *walker) local(i node) {
	if !w.inBody() {
		return // fields: declared with their type's members
	}
	t, g := w.t, w.g
	ty := t.Child(i, g.fType)
	typ := w.varType(ty)
	infer := t.Kind(ty) == g.implicitType
	for d := range t.NamedChildren(i) {
		if t.Kind(d) != g.variableDeclarator {
			continue
		}
		name := w.text(t.Child(d, g.fName))
		if name == "" {
			continue
		}
		vt := typ
		if infer {
			vt = ""
			for v := range t.NamedChildren(d) {
				if t.Field(v) != g.fName {
					vt = w.exprType(v, 0)
				}
			}
		}
		w.vars = append(w.vars, variable{name, vt})
	}
}

// typedVar declares the variable of a foreach, catch or declaration
// pattern.
func (w *walker) typedVar(i node) {
	t, g := w.t, w.g
	nameN := t.Child(i, g.fName)
	if nameN == extract.None {
		nameN = t.Child(i, g.fLeft) // foreach
	}
	if t.Kind(nameN) != g.identifier {
		return // a deconstruction: (a, b)
	}
	if name := w.text(nameN); name != "" {
		w.vars = append(w.vars, variable{name, w.varType(t.Child(i, g.fType))})
	}
}

// lambda opens a scope for a lambda's parameters (untyped unless written
// with types); its calls belong to the enclosing callable.
func (w *walker) lambda(i node) {
	t, g := w.t, w.g
	w.push(w.mark(t.End(i), frameCallable, w.parent()))
	params := t.Child(i, g.fParameters)
	if t.Kind(params) == g.identifier {
		w.vars = append(w.vars, variable{w.text(params), ""})
		return
	}
	w.params(params, -1, nil, true)
}

// varType is the base name of a declared class type, "" for predefined
// types, arrays, tuples, pointers and var.
func (w *walker) varType(ty node) string {
	t, g := w.t, w.g
	switch t.Kind(ty) {
	case g.identifier, g.qualifiedName, g.genericName, g.aliasQualified:
		return baseName(extract.OneLine(w.text(ty)))
	case g.nullableType:
		return w.varType(firstNamedChild(t, ty))
	}
	return ""
}

// typeRefs reports the named types in a type as references: the type
// itself with ctx, its type arguments with generic_arg. Predefined types
// and the type parameters of the declaration are not references.
func (w *walker) typeRefs(ty node, from int32, ctx abi.RelationContext) {
	if ty == extract.None || from < 0 {
		return
	}
	t, g := w.t, w.g
	switch t.Kind(ty) {
	case g.identifier, g.qualifiedName, g.aliasQualified:
		if name := baseName(extract.OneLine(w.text(ty))); name != "" && !w.isTypeParam(ty, name) {
			w.ref(from, name, ctx, ty)
		}
	case g.genericName:
		head, args := w.splitGeneric(ty)
		w.typeRefs(head, from, ctx)
		w.typeArgRefs(args, from)
	case g.nullableType, g.arrayType, g.pointerType, g.refType:
		w.typeRefs(firstNamedChild(t, ty), from, ctx)
	case g.tupleType:
		for c := range t.NamedChildren(ty) {
			w.typeRefs(t.Child(c, g.fType), from, abi.CtxGenericArg)
		}
	}
}

func (w *walker) typeArgRefs(args node, from int32) {
	if args == extract.None {
		return
	}
	for c := range w.t.NamedChildren(args) {
		w.typeRefs(c, from, abi.CtxGenericArg)
	}
}

// isTypeParam reports whether name is a type parameter of a declaration
// enclosing ty (class T<U>, void M<U>()).
func (w *walker) isTypeParam(ty node, name string) bool {
	t, g := w.t, w.g
	for p := t.Parent(ty); p != extract.None; p = t.Parent(p) {
		if a := g.action(t.Kind(p)); a != actType && a != actCallable && a != actDelegate {
			continue // only declarations have type parameters; a namespace's many members are not searched
		}
		list := t.Child(p, g.fTypeParameters)
		if list == extract.None {
			list = t.ChildOfKind(p, g.typeParamList)
		}
		for c := range t.NamedChildren(list) {
			if t.Kind(c) == g.typeParam && w.text(t.Child(c, g.fName)) == name {
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
