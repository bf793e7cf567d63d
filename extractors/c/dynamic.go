package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// pointerCall records a call through a dispatch table (handlers[op](x))
// or a dereferenced function pointer ((*fp)(x)) as an opaque dynamic
// site: which function runs is data, not syntax.
func (w *walker) pointerCall(n, fn extract.Node, c ctx) {
	switch w.t.KindName(fn) {
	case "subscript_expression":
	case "parenthesized_expression":
		if inner := w.t.Child(n, w.g.fFunction); w.t.KindName(firstNamed(w.t, inner)) != "pointer_expression" {
			return
		}
	default:
		return
	}
	w.f.DynamicSite(abi.DynamicSite{From: c.caller(), Kind: abi.DynamicReflection, Line: w.t.StartLine(n)})
}

// firstNamed is n's first named child, None if it has none.
func firstNamed(t *extract.Tree, n extract.Node) extract.Node {
	for c := range t.NamedChildren(n) {
		return c
	}
	return extract.None
}
