package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Function values. A function passed as an argument (sorted(xs,
// key=by_name), Thread(target=work), _operator_fallbacks(_mul, …)) or
// given as a parameter's default (def check(…, fn=fnmatch)) is not called
// there, but whoever receives it calls it. Each such name becomes a
// references relation with the value context; the host resolves it like
// a call (a module's function, pkg.f, self.method) and links it as a
// reference, so the function does not read as unused and impact walks
// and test selection reach it.

// argumentValues records the function values among call i's arguments.
func (x *state) argumentValues(i extract.Node) {
	t, l := x.t, x.l
	args := t.Child(i, l.fArguments)
	if args == extract.None {
		return
	}
	for a := range t.NamedChildren(args) {
		if t.Kind(a) == l.keywordArgument {
			a = t.Child(a, l.fValue)
		}
		x.valueRef(i, a)
	}
}

// defaultValue records a parameter default (node i is a default_parameter
// or typed_default_parameter) that names a function. The function whose
// parameter it is holds it (def check(…, fn=fnmatch) calls fnmatch
// through fn), not the scope around the def.
func (x *state) defaultValue(i extract.Node) {
	from := x.caller(i)
	if n := len(x.stack); n > 0 && x.stack[n-1].kind == scopeFunc && i < x.stack[n-1].body {
		from = x.stack[n-1].sym // in the header of the def just opened
	}
	x.valueRefFrom(from, i, x.t.Child(i, x.l.fValue))
}

// valueRef records expression e, found at node at, when it may name a
// function: a name that is not a local of the enclosing function, or an
// attribute of one (module.f, self.method).
func (x *state) valueRef(at, e extract.Node) { x.valueRefFrom(x.caller(at), at, e) }

// valueRefFrom is valueRef with the holding symbol given.
func (x *state) valueRefFrom(from int32, at, e extract.Node) {
	if e == extract.None {
		return
	}
	t, l := x.t, x.l
	var target string
	switch t.Kind(e) {
	case l.identifier:
		name := t.Text(e)
		if x.isBuiltin(name) || keywords[name] || isInstanceName(name) || isDunder(name) || x.localAt(at, name) {
			return // self is an instance; __name__ and kin are the module's
		}
		target = name
	case l.attribute:
		obj, attr := t.Child(e, l.fObject), t.Child(e, l.fAttribute)
		if obj == extract.None || attr == extract.None || t.Kind(obj) != l.identifier {
			return
		}
		if o := t.Text(obj); !isInstanceName(o) && x.localAt(at, o) {
			return // an attribute of a local value: its type is not known here
		}
		target = t.Text(obj) + "." + t.Text(attr)
	default:
		return
	}
	x.f.Relation(abi.Relation{From: from, Kind: abi.RelReferences, Target: target, Context: abi.CtxValue, Line: t.StartLine(e)})
}

// localAt reports whether name is bound in the function scope enclosing
// node at (a parameter or a local).
func (x *state) localAt(at extract.Node, name string) bool {
	sc := x.current(at)
	return sc != nil && sc.kind == scopeFunc && x.isLocal(sc, name)
}

func isInstanceName(name string) bool { return name == "self" || name == "cls" }
