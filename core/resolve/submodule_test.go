package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestSubmoduleSeparator: with [semantics] submodule_separator, an
// imported name that is a module of its own (from pkg import mod) binds
// that module, and an import of names that are all submodules needs no
// stub for a parent that is not here; without it, the name is looked up
// in the module as before.
func TestSubmoduleSeparator(t *testing.T) {
	build := func(sep string) map[string]bool {
		sem := Semantics{SubmoduleSeparator: sep}
		file := func(p string, facts *abi.Facts) File {
			return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
		}
		files := []File{
			file("pkg/init.toy", &abi.Facts{File: abi.FileFacts{Modules: []string{"pkg"}}}),
			file("pkg/mod.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"pkg.mod"}},
				Symbols: []abi.Symbol{{Name: "run", Kind: "function", Parent: -1, Span: sp(1)}},
			}),
			file("ns/leaf.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"ns.leaf"}},
				Symbols: []abi.Symbol{{Name: "grow", Kind: "function", Parent: -1, Span: sp(1)}},
			}),
			file("app.toy", &abi.Facts{
				Imports: []abi.Import{
					{Path: "pkg", Keys: []string{"pkg"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "mod"}}, Line: 1},
					{Path: "ns", Keys: []string{"ns"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "leaf", Alias: "l"}}, Line: 2},
				},
				Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(3)}},
				Calls: []abi.Call{
					{Caller: 0, Name: "run", Receiver: "mod", Line: 4},
					{Caller: 0, Name: "grow", Receiver: "l", Line: 5},
				},
			}),
		}
		g, _ := Build(files, Options{})
		got := map[string]bool{}
		for k := range edgeSet(g) {
			got[k] = true
		}
		return got
	}
	with := build(".")
	for _, e := range []string{
		"app_main -calls-> pkg_mod_run", "app_main -calls-> ns_leaf_grow",
		"app_toy -imports_from-> pkg_mod_toy", "app_toy -imports_from-> pkg_init_toy", "app_toy -imports_from-> ns_leaf_toy",
	} {
		if !with[e] {
			t.Errorf("with a separator: missing %s; have %v", e, with)
		}
	}
	if with["app_toy -imports-> ns"] {
		t.Error("with a separator: a stub for ns, whose only imported name is a module here")
	}
	without := build("")
	if without["app_main -calls-> pkg_mod_run"] || !without["app_toy -imports-> ns"] {
		t.Errorf("without a separator, names are not modules: %v", without)
	}
}
