package main

import (
	"bytes"
	"slices"
	"strconv"

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
// The branches of one chain also carry the chain's own axis, which tells
// them apart exactly.

// literalValue is the one value a literal constrains its axis to.
var literalValue = []string{"1"}

// branch walks an #if or #ifdef chain: each branch's body under its
// condition, the negations of the one-literal conditions before it, and
// the chain's own axis ("#if io.c:3", value: the branch's ordinal), which
// makes the branches of one chain exclusive however complex their
// conditions.
func (w *walker) branch(n extract.Node, c ctx) {
	t, g := w.t, w.g
	axis := "#if " + w.f.Path + ":" + strconv.Itoa(int(t.StartLine(n)))
	base := c.cond // grows by the negation of each one-literal condition
	for k, b := 0, n; b != extract.None; k++ {
		var lits []abi.Constraint
		exact, alt := false, extract.None
		if t.Kind(b) != g.ppElse {
			lits, exact = w.condition(b)
			alt = t.Child(b, g.fAlternative)
		}
		inner := c
		inner.cond = addConstraints(base, append(lits, abi.Constraint{Axis: axis, Values: []string{strconv.Itoa(k)}})...)
		w.walkChildrenExcept(b, inner, alt)
		if exact && len(lits) == 1 {
			neg := lits[0]
			neg.Negated = !neg.Negated
			base = addConstraints(base, neg)
		}
		b = alt
	}
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
