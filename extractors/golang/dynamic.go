package main

import (
	"strconv"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// reflectLookups are the reflect methods that find a member by a name
// given at run time.
var reflectLookups = map[string]bool{"MethodByName": true, "FieldByName": true}

// dynamic records the calls static analysis cannot follow: reflect's
// by-name lookups (v.MethodByName("Serve"), t.FieldByName(name)) and
// plugin.Open. method is the selected name, recv the receiver as written.
func (w *walker) dynamic(call extract.Node, recv, method string) {
	if !sitePasses {
		return
	}
	site := abi.DynamicSite{From: w.caller(), Line: w.t.StartLine(call)}
	switch {
	case reflectLookups[method]:
		site.Kind = abi.DynamicReflection
		site.Key = w.stringArg(call)
	case recv == "plugin" && (method == "Open" || method == "Lookup"):
		site.Kind = abi.DynamicImport
	default:
		return
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
