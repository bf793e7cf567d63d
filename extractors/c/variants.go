package main

import (
	"bytes"
	"slices"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// #if branches as build variants. A definition inside #ifdef _WIN32 gets
// the constraint {defined:_WIN32}, one in its #else the negation, so two
// same-named definitions of the two branches are twins and a call links
// to each branch its own code can be built with (core/resolve). A
// condition is read as a conjunction of literals: defined(X) / #ifdef X
// (axis "defined:X"), a bare macro X (axis "if:X"), their negations, &&
// and parentheses. Anything else (||, comparisons, numbers) says nothing,
// and an #else negates its #if only when that was one literal: the
// constraints always hold wherever the code is compiled, so they can only
// fail to tell twins apart, never make two compatible definitions twins.

// literalValue is the one value a literal constrains its axis to.
var literalValue = []string{"1"}

// branch walks an #if, #ifdef, #elif or #elifdef node: its body under the
// condition, its #elif/#else alternative under the negation when it can
// be written.
func (w *walker) branch(n extract.Node, c ctx) {
	lits, exact := w.condition(n)
	alt := w.t.Child(n, w.g.fAlternative)
	inner := c
	inner.cond = addConstraints(c.cond, lits...)
	w.walkChildrenExcept(n, inner, alt)
	if alt == extract.None {
		return
	}
	other := c
	if exact && len(lits) == 1 {
		neg := lits[0]
		neg.Negated = !neg.Negated
		other.cond = addConstraints(c.cond, neg)
	}
	w.walk(alt, other)
}

// addConstraints appends to a copy of cond, up to abi.MaxSymbolVariants
// (dropping a literal only weakens what is known).
func addConstraints(cond []abi.Constraint, add ...abi.Constraint) []abi.Constraint {
	if len(add) == 0 {
		return cond
	}
	out := slices.Clip(cond)
	for _, a := range add {
		if len(out) >= abi.MaxSymbolVariants {
			break
		}
		out = append(out, a)
	}
	return out
}

// condition reads a branch's condition: #ifdef / #ifndef / #elifdef name,
// or #if / #elif expression. exact reports that the literals are all of it.
func (w *walker) condition(n extract.Node) (lits []abi.Constraint, exact bool) {
	t := w.t
	if k := t.Kind(n); k == w.g.ppIfdef || k == w.g.ppElifdef {
		name := t.Child(n, w.g.fName)
		if name == extract.None {
			return nil, false
		}
		directive := bytes.TrimLeft(t.Source()[t.StartByte(n):t.StartByte(name)], "# \t")
		neg := bytes.HasPrefix(directive, []byte("ifndef")) || bytes.HasPrefix(directive, []byte("elifndef"))
		return []abi.Constraint{{Axis: "defined:" + w.text(name), Values: literalValue, Negated: neg}}, true
	}
	cond := t.Child(n, w.g.fCondition)
	if cond == extract.None {
		return nil, false
	}
	return w.literals(cond, 0)
}

// literals splits a preprocessor expression into a conjunction of
// literals; exact is false when a part could not be read (and was left
// out).
func (w *walker) literals(e extract.Node, depth int) (lits []abi.Constraint, exact bool) {
	t, g := w.t, w.g
	if depth > 16 {
		return nil, false
	}
	switch k := t.Kind(e); k {
	case g.identifier:
		return []abi.Constraint{{Axis: "if:" + w.text(e), Values: literalValue}}, true
	case g.ppDefined:
		if id := t.ChildOfKind(e, g.identifier); id != extract.None {
			return []abi.Constraint{{Axis: "defined:" + w.text(id), Values: literalValue}}, true
		}
	case g.parenExpr:
		for ch := range t.NamedChildren(e) {
			return w.literals(ch, depth+1)
		}
	case g.unaryExpr:
		arg := t.Child(e, g.fArgument)
		if arg == extract.None || !bytes.HasPrefix(bytes.TrimSpace(t.Source()[t.StartByte(e):t.StartByte(arg)]), []byte("!")) {
			return nil, false
		}
		if in, ok := w.literals(arg, depth+1); ok && len(in) == 1 {
			in[0].Negated = !in[0].Negated
			return in, true
		}
	case g.binaryExpr:
		l, r := t.Child(e, g.fLeft), t.Child(e, g.fRight)
		if l == extract.None || r == extract.None || string(bytes.TrimSpace(t.Source()[t.EndByte(l):t.StartByte(r)])) != "&&" {
			return nil, false
		}
		a, okA := w.literals(l, depth+1)
		b, okB := w.literals(r, depth+1)
		return append(a, b...), okA && okB
	}
	return nil, false
}
