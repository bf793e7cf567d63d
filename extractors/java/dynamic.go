package main

import (
	"strconv"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// reflectiveCalls are the JVM reflection entry points that find a class or
// member by a name given at run time; the name is their first argument.
var reflectiveCalls = map[string]bool{
	"forName": true, "loadClass": true, "getMethod": true, "getDeclaredMethod": true,
	"getField": true, "getDeclaredField": true,
}

// dynamic records a reflective lookup (Class.forName("x.Y"),
// cls.getMethod("run")) and Method.invoke, whose target is opaque.
func (w *walker) dynamic(call node, name string) {
	site := abi.DynamicSite{From: w.parent(), Kind: abi.DynamicReflection, Line: w.t.StartLine(call)}
	switch {
	case reflectiveCalls[name]:
		site.Key = w.firstStringArg(call)
	case name == "invoke" || name == "newInstance":
	default:
		return
	}
	w.f.DynamicSite(site)
}

// firstStringArg is the call's first argument when it is a plain string
// literal, else "".
func (w *walker) firstStringArg(call node) string {
	t := w.t
	for c := range t.NamedChildren(call) {
		if t.KindName(c) != "argument_list" {
			continue
		}
		for a := range t.NamedChildren(c) {
			if t.KindName(a) != "string_literal" {
				return ""
			}
			s, err := strconv.Unquote(w.text(a))
			if err != nil {
				return ""
			}
			return s
		}
	}
	return ""
}
