package main

import (
	"bytes"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Context managers. `with EXPR as v:` runs EXPR.__enter__() and binds
// its result to v, then runs EXPR.__exit__(…) when the block ends
// (`async with`: __aenter__ and __aexit__). No call is written there, so
// each with item is reported as the two member calls it makes, like an
// operator (operators.go), and v is typed as that __enter__'s result:
// "Popen()#__enter__()" (the first result of method __enter__ of the
// class Popen names), which the host follows only when it finds that
// method and its result type. An __enter__ that returns self (the common
// case: no annotation and every return is `return self`, or `-> Self`)
// carries the result type Self, the receiver's own type, so a subclass's
// instance keeps its class. Anything else leaves v untyped.

// withItem reports the __enter__ and __exit__ calls of with item i.
func (x *state) withItem(i extract.Node) {
	expr := x.withExpr(i)
	if expr == extract.None {
		return
	}
	enter, exit := x.withMethods(i)
	x.protocolCall(i, expr, enter)
	x.protocolCall(i, expr, exit)
}

// withExpr is the context manager expression of with item i (EXPR of
// EXPR as v), or None.
func (x *state) withExpr(i extract.Node) extract.Node {
	t, l := x.t, x.l
	v := t.Child(i, l.fValue)
	if v != extract.None && t.Kind(v) == l.asPattern {
		v = x.firstNamed(v)
	}
	return v
}

// withMethods names the methods with item i runs: __aenter__ and
// __aexit__ in an `async with`.
func (x *state) withMethods(i extract.Node) (enter, exit string) {
	t := x.t
	stmt := t.Parent(t.Parent(i)) // with_item ← with_clause ← with_statement
	if stmt != extract.None && bytes.HasPrefix(t.Bytes(stmt), []byte("async")) {
		return "__aenter__", "__aexit__"
	}
	return "__enter__", "__exit__"
}

// bindAsTarget binds the names of as_pattern_target i. The target of a
// with item that is one name gets the type of its __enter__'s result,
// as an assignment from a call would; every other target is bound
// untyped (bindLocals).
func (x *state) bindAsTarget(i extract.Node) {
	t, l := x.t, x.l
	pat := t.Parent(i)
	item := t.Parent(pat)
	name := x.firstNamed(i)
	sc := x.current(i)
	if sc == nil || sc.kind != scopeFunc || t.Kind(pat) != l.asPattern || t.Kind(item) != l.withItem ||
		name == extract.None || t.Kind(name) != l.identifier {
		x.bindLocals(i, i)
		return
	}
	typ := x.enteredType(i, x.firstNamed(pat), item)
	if typ == "" {
		x.bindLocals(i, i)
		return
	}
	x.vars = append(x.vars, assignedVar(t.Text(name), typ))
}

// enteredType is the receiver type of the value with item `item` binds:
// the first result of __enter__ of expr's type, or "" when expr's type
// is unknown (a builtin's result such as open(), an untyped name).
func (x *state) enteredType(at, expr, item extract.Node) string {
	t, l := x.t, x.l
	for expr != extract.None && t.Kind(expr) == l.parenthesizedExpression {
		expr = x.firstNamed(expr)
	}
	if expr == extract.None {
		return ""
	}
	var base string
	switch t.Kind(expr) {
	case l.call:
		fn := t.Child(expr, l.fFunction)
		if fn == extract.None || !x.isDotted(fn) || t.Kind(fn) == l.identifier && x.isBuiltin(t.Text(fn)) {
			return ""
		}
		base = x.calleeText(fn) + "()"
	case l.identifier, l.attribute:
		_, base = x.receiver(at, expr)
	}
	if base == "" {
		return ""
	}
	enter, _ := x.withMethods(item)
	return base + "#" + enter + "()"
}

// returnsSelf reports whether method body `body` of a method whose first
// parameter is self returns self and nothing else: it ends in `return
// self` and every return in it (outside nested defs, classes and
// lambdas) is `return self`; a generator does not qualify.
func (x *state) returnsSelf(params, body extract.Node) bool {
	t, l := x.t, x.l
	if first := x.firstNamed(params); first == extract.None || t.Text(first) != "self" {
		return false
	}
	var last extract.Node = extract.None
	for c := range t.NamedChildren(body) {
		if t.Kind(c) != l.comment {
			last = c
		}
	}
	if last == extract.None || t.Kind(last) != l.returnStatement {
		return false
	}
	for c := body + 1; c < t.End(body); c++ {
		switch t.Kind(c) {
		case l.functionDefinition, l.classDefinition, l.lambda:
			c = t.End(c) - 1
		case l.yield:
			return false
		case l.returnStatement:
			if v := x.firstNamed(c); v == extract.None || t.Kind(v) != l.identifier || t.Text(v) != "self" {
				return false
			}
		}
	}
	return true
}

// selfReturnRef is the result reference of a method that returns self.
func selfReturnRef() *abi.TypeRef {
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: abi.SelfResult}}}
}
