package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Function values. A function named where a value goes — an argument
// (sort.Slice(x, less), http.HandleFunc("/", serve)), a return value
// (a lexer's `return lexText`), an assignment (execute = executeDefault)
// or a composite literal's element (Handler: serve) — is not called
// there, but whoever receives it may call it. Each such name becomes a
// references relation with the value context; the host resolves it like
// a call and links it as a reference, so the function does not read as
// unused and impact walks reach it.

// valueKinds are the node kinds valueRefs reads, resolved with the
// walker's kinds (a lookup per call site cost a tenth of the guest's time).
type valueKinds struct {
	exprList, literalElem, keyedElem, assignStmt extract.KindID
}

func newValueKinds(g *extract.Grammar) valueKinds {
	return valueKinds{exprList: g.Kind("expression_list"), literalElem: g.Kind("literal_element"),
		keyedElem: g.Kind("keyed_element"), assignStmt: g.Kind("assignment_statement")}
}

// valueList records the function values among the named children of n:
// an argument list, an expression list, or a composite literal's body.
func (w *walker) valueList(n extract.Node) {
	if n == extract.None {
		return
	}
	t, vk := w.t, &w.k.values
	for c := range t.NamedChildren(n) {
		switch t.Kind(c) {
		case vk.exprList:
			w.valueList(c)
		case vk.literalElem:
			w.valueList(c)
		case vk.keyedElem:
			// Key: value — the key is a field name, never a value.
			if v := nthNamed(t, c, 1); v != extract.None && t.Kind(v) == vk.literalElem {
				w.valueList(v)
			}
		default:
			w.valueRef(c)
		}
	}
}

// valueRef records expression e when it names a function: a name of the
// package that no local or package variable of this file shadows, or
// pkg.F of an imported package.
func (w *walker) valueRef(e extract.Node) {
	if e == extract.None {
		return
	}
	t, k := w.t, w.k
	var target string
	switch t.Kind(e) {
	case k.identifier:
		name := w.text(e)
		if name == "_" || isBuiltinFunc(name) || isPredeclaredValue(name) {
			return
		}
		if _, local := w.lookup(name, true); local {
			return // a local variable or parameter
		}
		target = name
	case k.selectorExpr:
		op := t.Child(e, k.fOperand)
		if t.Kind(op) != k.identifier || !w.isImported(w.text(op)) {
			return
		}
		if _, local := w.lookup(w.text(op), true); local {
			return
		}
		target = w.text(e)
	default:
		return
	}
	w.f.Relation(abi.Relation{From: w.valueFrom(e), Kind: abi.RelReferences, Target: target, Context: abi.CtxValue, Line: uint32(t.StartLine(e))})
}

func isPredeclaredValue(name string) bool {
	switch name {
	case "nil", "true", "false", "iota":
		return true
	}
	return false
}

// values handles a node of roleValues: an assignment's right side, a
// composite literal's type (building a T{} obtains a T, whose methods an
// interface may then call: the literal is a reference to T), the others'
// children.
func (w *walker) values(n extract.Node) {
	switch w.t.Kind(n) {
	case w.k.values.assignStmt:
		w.valueList(w.t.Child(n, w.k.fRight))
	case w.k.compositeLit:
		w.refs(w.valueFrom(n), w.t.Child(n, w.k.fType), abi.CtxNone)
	default:
		w.valueList(n)
	}
}

// valueFrom is the symbol a value at node e belongs to: the enclosing
// function, or inside a package variable's initializer the variable.
func (w *walker) valueFrom(e extract.Node) int32 {
	if len(w.frames) == 0 && e < w.valueOwnerEnd {
		return w.valueOwner
	}
	return w.caller()
}

// packageValues makes the function values in a package-level var spec
// (whose symbols start at first) references of its variable when it
// declares one (var DefaultFilter = &Filter{strip}: users of the variable
// reach strip), else of the file, for the spec's direct values here and
// for the nested literals the walk reaches next.
func (w *walker) packageValues(spec extract.Node, first int) {
	w.valueOwner, w.valueOwnerEnd = -1, w.t.End(spec)
	if len(w.f.Symbols()) == first+1 {
		w.valueOwner = int32(first)
	}
	w.valueList(w.t.Child(spec, w.k.fValue))
}
