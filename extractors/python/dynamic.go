package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// dynamicBuiltins are the builtins that dispatch by a run-time name: the
// kind of site and which argument holds the name (-1: none).
var dynamicBuiltins = map[string]struct {
	kind abi.DynamicKind
	arg  int
}{
	"getattr":    {abi.DynamicReflection, 1},
	"__import__": {abi.DynamicImport, 0},
	"eval":       {abi.DynamicEval, -1},
	"exec":       {abi.DynamicEval, -1},
}

// dynamic records a call that static analysis cannot follow: getattr,
// __import__, eval/exec and importlib.import_module.
func (x *state) dynamic(at, fn extract.Node) {
	t, l := x.t, x.l
	kind, arg := abi.DynamicKind(""), -1
	switch t.Kind(fn) {
	case l.identifier:
		d, ok := dynamicBuiltins[string(t.Bytes(fn))]
		if !ok {
			return
		}
		kind, arg = d.kind, d.arg
	case l.attribute:
		obj, attr := t.Child(fn, l.fObject), t.Child(fn, l.fAttribute)
		if obj == extract.None || attr == extract.None || string(t.Bytes(obj)) != "importlib" || string(t.Bytes(attr)) != "import_module" {
			return
		}
		kind, arg = abi.DynamicImport, 0
	default:
		return
	}
	site := abi.DynamicSite{From: x.caller(at), Kind: kind, Line: t.StartLine(at)}
	if arg >= 0 {
		site.Key = x.literalArg(at, arg)
	}
	x.f.DynamicSite(site)
}

// literalArg returns positional argument n of a call when it is a plain
// string literal, else "": an f-string or a concatenation ("a" "b" is a
// concatenated_string) is computed.
func (x *state) literalArg(call extract.Node, n int) string {
	t, l := x.t, x.l
	args := t.Child(call, l.fArguments)
	if args == extract.None {
		return ""
	}
	k := 0
	for a := range t.NamedChildren(args) {
		switch t.Kind(a) {
		case l.keywordArgument, l.comment:
			continue
		}
		if k++; k <= n {
			continue
		}
		if t.Kind(a) != l.str {
			return ""
		}
		b := t.Bytes(a)
		if len(b) == 0 || b[0] != '\'' && b[0] != '"' {
			return "" // f"", b"", r"": computed or not a name
		}
		c := t.ChildOfKind(a, l.stringContent)
		if c == extract.None {
			return ""
		}
		return string(t.Bytes(c))
	}
	return ""
}
