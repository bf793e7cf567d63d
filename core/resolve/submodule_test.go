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
		g, _ := Build(files)
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

// TestReexports: with [semantics] reexports, a name imported from a
// package whose index imports it (from .decoder import Decoder in
// json/__init__) is that definition, through a chain of re-exports and
// for a re-exported module and a wildcard import's names too; a cycle ends; without the key the name
// stays unresolved in the package.
func TestReexports(t *testing.T) {
	build := func(on bool) map[string]bool {
		sem := Semantics{Reexports: on}
		file := func(p string, facts *abi.Facts) File {
			return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
		}
		sym := func(from, name string) abi.Import {
			return abi.Import{Path: from, Keys: []string{from}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: name}}, Line: 1}
		}
		files := []File{
			file("json/decoder.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"json.decoder"}},
				Symbols: []abi.Symbol{{Name: "Decoder", Kind: "class", Parent: -1, Span: sp(1)}, {Name: "decode", Kind: "method", Parent: 0, Span: sp(2)}, {Name: "parse", Kind: "function", Parent: -1, Span: sp(4)}},
			}),
			file("json/index.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"json"}},
				Imports: []abi.Import{sym("json.decoder", "Decoder"), {Path: "json.decoder", Keys: []string{"json.decoder"}, Kind: abi.ImportModule, Alias: "dec", Line: 2}, sym("top", "Loop")},
			}),
			file("top.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"top"}},
				Imports: []abi.Import{sym("json", "Decoder"), sym("json", "Loop"), {Path: "lib", Keys: []string{"lib"}, Kind: abi.ImportWildcard, Line: 3}},
			}),
			file("lib.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"lib"}},
				Symbols: []abi.Symbol{{Name: "helper", Kind: "function", Parent: -1, Span: sp(1)}},
			}),
			file("app.toy", &abi.Facts{
				Imports: []abi.Import{sym("top", "Decoder"), sym("json", "dec"), sym("json", "Loop"), sym("top", "helper")},
				Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(3)}},
				Calls: []abi.Call{
					{Caller: 0, Name: "Decoder", Line: 4},
					{Caller: 0, Name: "decode", Receiver: "Decoder", Line: 5},
					{Caller: 0, Name: "parse", Receiver: "dec", Line: 6},
					{Caller: 0, Name: "Loop", Line: 7},
					{Caller: 0, Name: "helper", Line: 8},
				},
			}),
		}
		g, _ := Build(files)
		got := map[string]bool{}
		for _, e := range g.Edges {
			if e.Relation == "calls" {
				got[e.Source+" -> "+e.Target+" "+string(e.Confidence)+" "+e.SourceLocation] = true
			}
		}
		return got
	}
	on := build(true)
	for _, e := range []string{
		"app_main -> json_decoder_decoder EXTRACTED L4",
		"app_main -> json_decoder_decoder_decode EXTRACTED L5",
		"app_main -> json_decoder_parse EXTRACTED L6",
		"app_main -> lib_helper EXTRACTED L8",
	} {
		if !on[e] {
			t.Errorf("with reexports: missing %s; have %v", e, on)
		}
	}
	if len(on) != 4 {
		t.Errorf("with reexports: %d calls linked, want 4 (Loop is a cycle): %v", len(on), on)
	}
	if off := build(false); off["app_main -> json_decoder_decoder EXTRACTED L4"] || off["app_main -> json_decoder_parse EXTRACTED L6"] {
		t.Errorf("without reexports, names imported through an index resolved: %v", off)
	}
}

// TestFallbackImports: a name two imports bind (try: import fast as impl /
// except ImportError: import slow as impl) links a call through it to
// both definitions, as a plain call and as a module member; one import
// still links one.
func TestFallbackImports(t *testing.T) {
	file := func(p string, facts *abi.Facts) File {
		return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Facts: facts}
	}
	mod := func(name string) File {
		return file(name+".toy", &abi.Facts{
			File:    abi.FileFacts{Modules: []string{name}},
			Symbols: []abi.Symbol{{Name: "dumps", Kind: "function", Parent: -1, Span: sp(1)}},
		})
	}
	files := []File{mod("fast"), mod("slow"), mod("only"),
		file("app.toy", &abi.Facts{
			Imports: []abi.Import{
				{Path: "fast", Keys: []string{"fast"}, Kind: abi.ImportModule, Alias: "impl", Line: 2},
				{Path: "slow", Keys: []string{"slow"}, Kind: abi.ImportModule, Alias: "impl", Line: 4},
				{Path: "fast", Keys: []string{"fast"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "dumps"}}, Line: 6},
				{Path: "slow", Keys: []string{"slow"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "dumps"}}, Line: 8},
				{Path: "only", Keys: []string{"only"}, Kind: abi.ImportModule, Line: 9},
			},
			Symbols: []abi.Symbol{{Name: "a", Kind: "function", Parent: -1, Span: sp(10)}, {Name: "b", Kind: "function", Parent: -1, Span: sp(12)}, {Name: "c", Kind: "function", Parent: -1, Span: sp(14)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "dumps", Receiver: "impl", Line: 11},
				{Caller: 1, Name: "dumps", Line: 13},
				{Caller: 2, Name: "dumps", Receiver: "only", Line: 15},
			},
		}),
	}
	g, _ := Build(files)
	got := map[string][]string{}
	for _, e := range g.Edges {
		if e.Relation == "calls" {
			got[e.Source] = append(got[e.Source], e.Target)
		}
	}
	want := map[string][]string{"app_a": {"fast_dumps", "slow_dumps"}, "app_b": {"fast_dumps", "slow_dumps"}, "app_c": {"only_dumps"}}
	for src, targets := range want {
		if !equalSets(got[src], targets) {
			t.Errorf("%s calls %v, want %v", src, got[src], targets)
		}
	}
}

func equalSets(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		if m[x]--; m[x] < 0 {
			return false
		}
	}
	return true
}

// TestSubmoduleStopsAtTheImportedModule: a submodule is looked for under
// the import's keys up to the one the import resolves by. When an
// earlier key names a module here without that child, the name is a
// definition of that module, not a same-named module that a later
// spelling of the import would reach (Rust's use foo::{bar} inside
// crate::x, with both crate::x::foo and a crate foo having a bar).
func TestSubmoduleStopsAtTheImportedModule(t *testing.T) {
	sem := Semantics{SubmoduleSeparator: "::"}
	file := func(p string, facts *abi.Facts) File {
		return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
	}
	g, _ := Build([]File{
		file("x/foo.toy", &abi.Facts{
			File:    abi.FileFacts{Modules: []string{"app::x::foo"}},
			Symbols: []abi.Symbol{{Name: "bar", Kind: "function", Parent: -1, Span: sp(1)}},
		}),
		file("dep/bar.toy", &abi.Facts{
			File:    abi.FileFacts{Modules: []string{"foo::bar"}},
			Symbols: []abi.Symbol{{Name: "run", Kind: "function", Parent: -1, Span: sp(1)}},
		}),
		file("x/use.toy", &abi.Facts{
			Imports: []abi.Import{{Path: "foo", Keys: []string{"app::x::foo", "foo"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "bar"}}, Line: 1}},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(2)}},
			Calls:   []abi.Call{{Caller: 0, Name: "bar", Line: 3}},
		}),
	})
	edges := edgeSet(g)
	if _, ok := edges["x_use_main -calls-> x_foo_bar"]; !ok {
		t.Errorf("bar() does not link to the function of the imported module; edges %v", edges)
	}
	if _, ok := edges["x_use_toy -imports_from-> dep_bar_toy"]; ok {
		t.Error("bar bound to module foo::bar, which a later key of the import names")
	}
}

// TestModulePathReceivers: with a submodule separator and reexports, a
// call through a module path walks the path submodule by submodule
// (root::a::f()) and through a module binding follows the module's own
// imports (a::g() with a re-exporting g); a path through a type or an
// inline module, or without the separator, links nothing.
func TestModulePathReceivers(t *testing.T) {
	build := func(sem Semantics) map[string]bool {
		file := func(p string, facts *abi.Facts) File {
			return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
		}
		mod := func(key string) abi.Import {
			return abi.Import{Path: key, Alias: key, Keys: []string{key}, Kind: abi.ImportModule, Line: 1}
		}
		g, _ := Build([]File{
			file("lib.toy", &abi.Facts{File: abi.FileFacts{Modules: []string{"app"}},
				Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(2)}},
				Imports: []abi.Import{mod("app"), {Path: "app::a", Alias: "a", Keys: []string{"app::a"}, Kind: abi.ImportModule, Line: 1}},
				Calls: []abi.Call{
					{Caller: 0, Name: "f", Receiver: "app::a::b", Line: 3},
					{Caller: 0, Name: "g", Receiver: "a", Line: 4},
					{Caller: 0, Name: "g", Receiver: "app::a", Line: 5},
					{Caller: 0, Name: "new", Receiver: "app::a::T", Line: 6},
				},
			}),
			file("a.toy", &abi.Facts{File: abi.FileFacts{Modules: []string{"app::a"}},
				Imports: []abi.Import{{Path: "app::a::b", Keys: []string{"app::a::b"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "g"}}, Line: 1}},
				Symbols: []abi.Symbol{{Name: "T", Kind: "struct", Parent: -1, Span: sp(2)}, {Name: "new", Kind: "function", Parent: -1, Span: sp(3)}},
			}),
			file("b.toy", &abi.Facts{File: abi.FileFacts{Modules: []string{"app::a::b"}},
				Symbols: []abi.Symbol{{Name: "f", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "g", Kind: "function", Parent: -1, Span: sp(2)}},
			}),
		})
		got := map[string]bool{}
		for k := range edgeSet(g) {
			got[k] = true
		}
		return got
	}
	with := build(Semantics{Unqualified: UnqualifiedScope, SubmoduleSeparator: "::", Reexports: true})
	for _, e := range []string{"lib_main -calls-> b_f", "lib_main -calls-> b_g"} {
		if !with[e] {
			t.Errorf("missing %s; have %v", e, with)
		}
	}
	if with["lib_main -calls-> a_new"] {
		t.Error("app::a::T::new() linked to the module function new: T is a type, not a module")
	}
	without := build(Semantics{Unqualified: UnqualifiedScope})
	if without["lib_main -calls-> b_f"] || without["lib_main -calls-> b_g"] {
		t.Errorf("without a separator and reexports: %v", without)
	}
}
