package resolve

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// callsFrom lists the calls edges leaving the node labelled label in
// file, as "target label@file:confidence", sorted.
func callsFrom(t *testing.T, g *graph.Graph, label, file string) []string {
	t.Helper()
	byID := map[string]graph.Node{}
	src := ""
	for _, n := range g.Nodes {
		byID[n.ID] = n
		if n.Label == label && n.SourceFile == file {
			src = n.ID
		}
	}
	if src == "" {
		t.Fatalf("no node %s in %s", label, file)
	}
	var out []string
	for _, e := range g.Edges {
		if e.Source == src && e.Relation == "calls" {
			out = append(out, byID[e.Target].Label+"@"+byID[e.Target].SourceFile+":"+string(e.Confidence))
		}
	}
	slices.Sort(out)
	return out
}

// TestImportTypeMembers: an imported name qualified by a type of the
// module binds that member (a static import, a nested type), and "T.*"
// makes every method of T a wildcard; a member of a type that is not
// here links nothing and stops guesses.
func TestImportTypeMembers(t *testing.T) {
	sem := Semantics{Unqualified: UnqualifiedScope, ImplicitThis: true}
	file := func(p string, facts *abi.Facts) File {
		return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
	}
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	files := []File{
		file("p/Util.toy", &abi.Facts{
			File: abi.FileFacts{Scope: "p", Modules: []string{"p.Util", "p"}},
			Symbols: []abi.Symbol{
				{Name: "Util", Kind: "class", Parent: -1, Span: sp(1)},
				{Name: "join", Kind: "method", Parent: 0, Span: sp(2)},
				{Name: "split", Kind: "method", Parent: 0, Span: sp(3)},
				{Name: "Part", Kind: "class", Parent: 0, Span: sp(4)},
				{Name: "size", Kind: "method", Parent: 3, Span: sp(5)},
			},
		}),
		file("q/Use.toy", &abi.Facts{
			File: abi.FileFacts{Scope: "q", Modules: []string{"q.Use", "q"}},
			Imports: []abi.Import{
				{Path: "p.Util", Keys: []string{"p.Util", "p"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "Util.join"}}, Line: 1},
				{Path: "p.Util", Keys: []string{"p.Util", "p"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "Util.*"}}, Line: 2},
				{Path: "p.Util.Part", Keys: []string{"p.Util", "p"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "Util.Part", Alias: "Part"}}, Line: 3},
				{Path: "x.Ext", Keys: []string{"x.Ext", "x"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "Ext.assertThat"}}, Line: 4},
			},
			Symbols: []abi.Symbol{{Name: "Use", Kind: "class", Parent: -1, Span: sp(6)}, {Name: "run", Kind: "method", Parent: 0, Span: sp(7)}},
			Calls: []abi.Call{
				{Caller: 1, Name: "join", Line: 8},
				{Caller: 1, Name: "split", Line: 9},
				{Caller: 1, Name: "size", Receiver: "p", ReceiverRef: named("Part"), Line: 10},
				{Caller: 1, Name: "assertThat", Line: 11},
			},
		}),
	}
	g, _ := Build(files)
	want := []string{".join()@p/Util.toy:EXTRACTED", ".size()@p/Util.toy:EXTRACTED", ".split()@p/Util.toy:EXTRACTED"}
	if got := callsFrom(t, g, ".run()", "q/Use.toy"); !slices.Equal(got, want) {
		t.Errorf("run calls %v, want %v", got, want)
	}
}

// TestImportSubmodules: with submodule_separator "::" (the old
// import_submodules), a name imported from a module may be the module one
// key element below it (use a::{b}), bound before a definition of that
// name; without it the name is looked up in the module only.
func TestImportSubmodules(t *testing.T) {
	build := func(sem Semantics) *graph.Graph {
		file := func(p string, facts *abi.Facts) File {
			return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
		}
		g, _ := Build([]File{
			file("src/lib.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"app"}},
				Symbols: []abi.Symbol{{Name: "ast", Kind: "module", Parent: -1, Span: sp(1)}, {Name: "helper", Kind: "function", Parent: -1, Span: sp(2)}},
			}),
			file("src/ast.toy", &abi.Facts{
				File:    abi.FileFacts{Modules: []string{"app::ast"}},
				Symbols: []abi.Symbol{{Name: "parse", Kind: "function", Parent: -1, Span: sp(1)}},
			}),
			file("src/main.toy", &abi.Facts{
				File: abi.FileFacts{Modules: []string{"app#bin"}},
				Imports: []abi.Import{
					{Path: "crate", Keys: []string{"nope", "app"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "ast"}, {Name: "helper"}}, Line: 1},
				},
				Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(3)}},
				Calls:   []abi.Call{{Caller: 0, Name: "parse", Receiver: "ast", Line: 4}, {Caller: 0, Name: "helper", Line: 5}},
			}),
		})
		return g
	}
	sem := Semantics{Unqualified: UnqualifiedScope, SubmoduleSeparator: "::"}
	want := []string{"helper()@src/lib.toy:EXTRACTED", "parse()@src/ast.toy:EXTRACTED"}
	if got := callsFrom(t, build(sem), "main()", "src/main.toy"); !slices.Equal(got, want) {
		t.Errorf("with import_submodules: main calls %v, want %v", got, want)
	}
	sem.SubmoduleSeparator = ""
	want = []string{"helper()@src/lib.toy:EXTRACTED"}
	if got := callsFrom(t, build(sem), "main()", "src/main.toy"); !slices.Equal(got, want) {
		t.Errorf("without: main calls %v, want %v", got, want)
	}
}

// TestScopeQualifiedTypes: a type written qualified by a whole scope of
// the family (a fully qualified Java name, a C# namespace) resolves in
// that scope without an import; a qualifier that is no scope here links
// nothing.
func TestScopeQualifiedTypes(t *testing.T) {
	sem := Semantics{Unqualified: UnqualifiedScope}
	file := func(p string, facts *abi.Facts) File {
		return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
	}
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	g, _ := Build([]File{
		file("p/q/C.toy", &abi.Facts{
			File:    abi.FileFacts{Scope: "p.q"},
			Symbols: []abi.Symbol{{Name: "C", Kind: "class", Parent: -1, Span: sp(1)}, {Name: "m", Kind: "method", Parent: 0, Span: sp(2)}},
		}),
		file("x/D.toy", &abi.Facts{
			File:      abi.FileFacts{Scope: "x"},
			Symbols:   []abi.Symbol{{Name: "D", Kind: "class", Parent: -1, Span: sp(1)}, {Name: "run", Kind: "method", Parent: 0, Span: sp(2)}},
			Relations: []abi.Relation{{From: 0, Kind: abi.RelInherits, Target: "p.q.C", Line: 1}, {From: 0, Kind: abi.RelImplements, Target: "z.C", Line: 1}},
			Calls: []abi.Call{
				{Caller: 1, Name: "m", Receiver: "c", ReceiverRef: named("p.q.C"), Line: 3},
				{Caller: 1, Name: "m", Receiver: "e", ReceiverRef: named("q.C"), Line: 4},
			},
		}),
	})
	if got, want := callsFrom(t, g, ".run()", "x/D.toy"), []string{".m()@p/q/C.toy:EXTRACTED"}; !slices.Equal(got, want) {
		t.Errorf("run calls %v, want %v (p.q.C is a scope's type, q.C is not)", got, want)
	}
	rels := map[string]string{}
	for _, e := range g.Edges {
		if e.Relation == "inherits" || e.Relation == "implements" {
			rels[e.Relation] = e.Target
		}
	}
	if rels["inherits"] != "p_q_c_c" || rels["implements"] == "p_q_c_c" {
		t.Errorf("relations %v: want inherits the scope's C, implements a stub", rels)
	}
}
