package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// dynamicCall records a call static analysis cannot follow: obj[key](),
// eval(…), import(expr) and require(expr) with a computed specifier (a
// literal one is an import, handled before), and Reflect.apply/get/construct.
func (w *walker) dynamicCall(call, fn extract.Node) {
	t, l := w.t, w.l
	if fn == extract.None {
		return
	}
	site := abi.DynamicSite{From: w.caller, Line: t.StartLine(call)}
	switch w.kind(fn) {
	case l.subscriptExpression:
		site.Kind = abi.DynamicReflection
		if idx := t.Child(fn, l.fIndex); idx != extract.None {
			site.Key = w.literal(idx)
		}
	case l.importExpr:
		site.Kind = abi.DynamicImport
	case l.identifier:
		switch string(w.bytes(fn)) {
		case "eval":
			site.Kind = abi.DynamicEval
		case "require":
			site.Kind = abi.DynamicImport
		default:
			return
		}
	case l.memberExpression:
		obj, prop := t.Child(fn, l.fObject), t.Child(fn, l.fProperty)
		if obj == extract.None || prop == extract.None || string(w.bytes(obj)) != "Reflect" {
			return
		}
		switch string(w.bytes(prop)) {
		case "apply", "construct", "get":
			site.Kind = abi.DynamicReflection
		default:
			return
		}
	default:
		return
	}
	w.f.DynamicSite(site)
}

// dynamicNew records new Function(…): code compiled from a string.
func (w *walker) dynamicNew(n extract.Node) {
	c := w.t.Child(n, w.l.fConstructor)
	if c != extract.None && w.kind(c) == w.l.identifier && string(w.bytes(c)) == "Function" {
		w.f.DynamicSite(abi.DynamicSite{From: w.caller, Kind: abi.DynamicEval, Line: w.t.StartLine(n)})
	}
}

// literal is a string literal's value, or "" for anything computed.
func (w *walker) literal(n extract.Node) string {
	switch w.kind(n) {
	case w.l.str:
		return w.stringValue(n)
	case w.l.templateString:
		if w.t.ChildOfKind(n, w.l.templateSubstitution) == extract.None {
			return w.stringValue(n)
		}
	}
	return ""
}
