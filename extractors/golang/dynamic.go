package main

import (
	"strconv"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// dynamic records the calls static analysis cannot follow: reflect's
// by-name lookups (v.MethodByName("Serve"), t.FieldByName(name)) and
// plugin.Open. method is the selected name, recv the receiver as written.
func (w *walker) dynamic(call extract.Node, recv, method string) {
	if !sitePasses {
		return
	}
	var kind abi.DynamicKind
	switch {
	case method == "MethodByName" || method == "FieldByName":
		kind = abi.DynamicReflection
	case recv == "plugin" && (method == "Open" || method == "Lookup"):
		kind = abi.DynamicImport
	default:
		return // decided on the names alone: this runs for every call
	}
	site := abi.DynamicSite{From: w.caller(), Kind: kind, Line: w.t.StartLine(call)}
	if kind == abi.DynamicReflection {
		site.Key = w.stringArg(call)
	}
	w.f.DynamicSite(site)
}

// stringArg is the call's first argument when it is a string literal.
func (w *walker) stringArg(call extract.Node) string {
	args := w.t.Child(call, w.k.fArguments)
	if args == extract.None {
		return ""
	}
	for a := range w.t.NamedChildren(args) {
		switch w.t.KindName(a) {
		case "interpreted_string_literal", "raw_string_literal":
			s, err := strconv.Unquote(w.text(a))
			if err != nil {
				return ""
			}
			return s
		case "comment":
			continue
		}
		return ""
	}
	return ""
}
