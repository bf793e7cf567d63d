package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ABI v2 facts. Ruby needs no project metadata: the load path is lib/ by
// the gem convention, and constants are global, so File.Scope stays ""
// (the host's unique-name match stands for Ruby's one constant space).

// modules are the keys other files require this file by: its repository
// path without .rb ("lib/shop/invoice"), then the path under its lib/
// directory, as `require "shop/invoice"` names it on the load path.
// Other Ruby files (.rake, .gemspec) are keyed by their full path.
func modules(p string) []string {
	key, ok := strings.CutSuffix(p, ".rb")
	if !ok {
		return []string{p}
	}
	out := []string{key}
	if i := strings.Index("/"+key, "/lib/"); i >= 0 {
		if rest := key[i+len("lib/"):]; rest != "" {
			out = append(out, rest)
		}
	}
	return out
}

// moduleKey is the key a require names: its argument without .rb.
func moduleKey(spec string) string { return strings.TrimSuffix(spec, ".rb") }

// fromHere makes a file-relative import path ("./x.rb", "../lib/u.rb")
// the key of the file it names: its repository path without .rb.
func (x *state) fromHere(rel string) string {
	return moduleKey(path.Join(path.Dir(x.f.Path), rel))
}

// typeRef is the structured form of a receiver or field type; nil for "".
func typeRef(typ string) *abi.TypeRef {
	if typ == "" {
		return nil
	}
	r, err := abi.ParseTypeRef(typ)
	if err != nil {
		return nil
	}
	return r
}

// emit reports a call with its receiver type in both forms, the v2
// TypeRef and the v1 string, by the bare class name ("Gateway" for
// Shop::Gateway): the host matches it in the file first, then by a
// unique name, while it would look a qualified one up only through
// imports, which Ruby lacks (rack: 1833 calls linked with proof, against
// 1035 with qualified references).
func (x *state) emit(c abi.Call) {
	c.ReceiverType = lastSegment(c.ReceiverType)
	c.ReceiverRef = typeRef(c.ReceiverType)
	x.f.Call(c)
}
