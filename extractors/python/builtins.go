package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

// Builtin values. A name assigned a literal ({}, [], "…", 1) or a builtin
// constructor's result (dict(), sorted(xs)) holds a value of a builtin
// type, whose methods are in no repository: d[k] = v on such a d runs
// dict.__setitem__, d.items() dict.items. Typing the name so ("dict")
// lets the host know the receiver is external, instead of recording an
// unlinked call that some repository method of the same name might
// answer.

// literalTypes maps literal kinds to their builtin type.
var literalTypes = map[string]string{
	"dictionary": "dict", "dictionary_comprehension": "dict", "list": "list", "list_comprehension": "list",
	"set": "set", "set_comprehension": "set", "tuple": "tuple", "string": "str", "concatenated_string": "str",
	"integer": "int", "float": "float", "true": "bool", "false": "bool",
}

// builtinResults maps builtin constructors to the type of their result.
var builtinResults = map[string]string{
	"dict": "dict", "list": "list", "set": "set", "frozenset": "frozenset", "tuple": "tuple", "str": "str",
	"bytes": "bytes", "bytearray": "bytearray", "int": "int", "float": "float", "sorted": "list",
	"len": "int", "repr": "str", "format": "str", "bool": "bool", "range": "range",
}

// builtinValueType is the builtin type of value e, or "".
func (x *state) builtinValueType(e extract.Node) string {
	t, l := x.t, x.l
	if e == extract.None {
		return ""
	}
	if typ := l.builtinValue[t.Kind(e)]; typ != "" {
		return typ
	}
	if t.Kind(e) == l.call {
		if fn := t.Child(e, l.fFunction); fn != extract.None && t.Kind(fn) == l.identifier && x.isBuiltin(t.Text(fn)) {
			return builtinResults[t.Text(fn)]
		}
	}
	return ""
}

// assignedType is the type a name assigned right (annotated typ) has: the
// annotation, a builtin value's type, else "F()" for a call of a dotted
// name (parser = argparse.ArgumentParser(), repo = make_repo()), which
// the host reads as the class F names or the return type F declares.
func (x *state) assignedType(typ, right extract.Node) string {
	t, l := x.t, x.l
	switch {
	case typ != extract.None:
		return x.typeName(typ)
	case x.builtinValueType(right) != "":
		return x.builtinValueType(right)
	case right != extract.None && t.Kind(right) == l.call:
		if fn := t.Child(right, l.fFunction); fn != extract.None && x.isDotted(fn) {
			return x.calleeText(fn) + "()"
		}
	}
	return ""
}
