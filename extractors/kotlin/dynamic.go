package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// reflectiveCalls are the JVM reflection entry points that find a class
// or member by a name given at run time; the name is their first argument.
var reflectiveCalls = map[string]bool{
	"forName": true, "loadClass": true, "getMethod": true, "getDeclaredMethod": true,
	"getField": true, "getDeclaredField": true,
}

// dynamic records a reflective lookup (Class.forName("a.B"),
// cls.java.getMethod("run")) keyed by its literal name, and
// Method.invoke(target, …), newInstance and KFunction.callBy, whose
// target is opaque.
func (w *walker) dynamic(call node, name string, recv node) {
	site := abi.DynamicSite{From: w.parent(), Kind: abi.DynamicReflection, Line: w.t.StartLine(call)}
	switch {
	case recv == extract.None:
		return
	case reflectiveCalls[name]:
		site.Key = w.firstStringArg(call)
	case name == "invoke":
		if !w.hasArgs(call) {
			return // f.invoke(): a function value called; Method.invoke takes the target
		}
	case name == "newInstance", name == "callBy":
	default:
		return
	}
	w.f.DynamicSite(site)
}

// hasArgs reports whether the call passes any value argument.
func (w *walker) hasArgs(call node) bool {
	t := w.t
	for suffix := range t.NamedChildren(call) {
		if t.KindName(suffix) == "call_suffix" {
			for args := range t.NamedChildren(suffix) {
				if t.KindName(args) == "value_arguments" && firstNamedChild(t, args) != extract.None {
					return true
				}
			}
		}
	}
	return false
}

// firstStringArg is the call's first argument when it is a plain string
// literal (no templates), else "".
func (w *walker) firstStringArg(call node) string {
	t := w.t
	for suffix := range t.NamedChildren(call) {
		if t.KindName(suffix) != "call_suffix" {
			continue
		}
		for args := range t.NamedChildren(suffix) {
			if t.KindName(args) != "value_arguments" {
				continue
			}
			for a := range t.NamedChildren(args) {
				lit := firstNamedChild(t, a)
				if t.KindName(lit) != "string_literal" {
					return ""
				}
				s := ""
				for c := range t.NamedChildren(lit) {
					if t.KindName(c) != "string_content" {
						return ""
					}
					s += w.text(c)
				}
				return s
			}
		}
	}
	return ""
}
