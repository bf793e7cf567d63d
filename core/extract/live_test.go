package extract

import (
	"maps"
	"path"
	"reflect"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// goFile is a Go file of package pkg defining funcs, each calling the
// names in calls[func], with the v2 facts and semantics the go plugin
// gives it (its package is its scope; plain names resolve there only).
func goFile(p, pkg string, funcs []string, calls map[string][]string) resolve.File {
	f := &abi.Facts{Package: pkg, File: abi.FileFacts{Scope: path.Dir(p) + ":" + pkg, Modules: []string{path.Dir(p)}}}
	for i, name := range funcs {
		line := uint32(3 + 2*i)
		f.Symbols = append(f.Symbols, abi.Symbol{Name: name, Kind: "function", Parent: -1, Span: abi.Span{StartLine: line, StartCol: 1, EndLine: line, EndCol: 30}})
		for _, c := range calls[name] {
			f.Calls = append(f.Calls, abi.Call{Caller: int32(i), Name: c, Line: line, Col: 10})
		}
	}
	return resolve.File{Path: p, Language: "go", Family: "go", Facts: f, ABI: 2,
		Semantics: resolve.Semantics{Unqualified: resolve.UnqualifiedScope, TypeCall: resolve.TypeCallNone, ImportStubKind: "package"}}
}

// TestPatchAgreesWithFullResolution: a patch resolved from the changed
// files' directories gives the exact graph's nodes, and only edges the
// exact graph has (what needs the whole graph waits for the exact run).
func TestPatchAgreesWithFullResolution(t *testing.T) {
	before := []resolve.File{
		goFile("a/a.go", "a", []string{"A"}, map[string][]string{"A": {"B"}}),
		goFile("a/b.go", "a", []string{"B"}, nil),
		goFile("c/c.go", "c", []string{"C"}, map[string][]string{"C": {"Unique"}}),
		goFile("d/d.go", "d", []string{"Unique"}, nil),
	}
	cases := []struct {
		name   string
		change []resolve.File // replaced or added files
		remove []string
	}{
		{"add a function", []resolve.File{goFile("a/b.go", "a", []string{"B", "New"}, map[string][]string{"New": {"A"}})}, nil},
		{"rename, callers in the package follow", []resolve.File{goFile("a/b.go", "a", []string{"B2"}, nil), goFile("a/a.go", "a", []string{"A"}, map[string][]string{"A": {"B2"}})}, nil},
		{"delete a file", nil, []string{"a/b.go"}},
		{"new file in a new package", []resolve.File{goFile("e/e.go", "e", []string{"E"}, map[string][]string{"E": {"E"}})}, nil},
		{"a unique name gets a twin elsewhere", []resolve.File{goFile("a/b.go", "a", []string{"B", "Unique"}, nil)}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			old, _ := resolve.Build(before)
			files := map[string]resolve.File{}
			for _, f := range before {
				files[f.Path] = f
			}
			p := graph.Patch{Files: map[string]bool{}}
			dirs := map[string]bool{}
			for _, f := range tc.change {
				files[f.Path], p.Files[f.Path], dirs[path.Dir(f.Path)] = f, true, true
			}
			for _, r := range tc.remove {
				delete(files, r)
				p.Files[r], dirs[path.Dir(r)] = true, true
			}
			var all, part []resolve.File
			for _, k := range slices.Sorted(maps.Keys(files)) {
				all = append(all, files[k])
				if dirs[path.Dir(k)] {
					part = append(part, files[k])
				}
			}
			exact, _ := resolve.Build(all)
			pg, _ := resolve.Build(part)
			p.Nodes, p.Edges = pg.Nodes, pg.Edges
			got, _ := old.Apply(p, nil)
			viaIndex, _ := old.Apply(p, graph.NewIndex(old))
			if !reflect.DeepEqual(got, viaIndex) {
				t.Error("Apply with the index differs from Apply without")
			}
			ids := func(g *graph.Graph) []string {
				var out []string
				for _, n := range g.Nodes {
					if n.SourceFile != "" {
						out = append(out, n.ID)
					}
				}
				return out
			}
			if g, w := ids(got), ids(exact); !slices.Equal(g, w) {
				t.Errorf("nodes:\n got %v\nwant %v", g, w)
			}
			if !slices.IsSortedFunc(got.Nodes, func(a, b graph.Node) int { return cmpString(a.ID, b.ID) }) {
				t.Error("nodes not in id order")
			}
			want := map[graph.Key]bool{}
			for i := range exact.Edges {
				want[exact.Edges[i].Key()] = true
			}
			for i := range got.Edges {
				if e := &got.Edges[i]; !want[e.Key()] {
					t.Errorf("edge the exact graph lacks: %s -%s-> %s (%s)", e.Source, e.Relation, e.Target, e.Confidence)
				}
			}
			if g, w := len(got.Edges), len(exact.Edges); g > w {
				t.Errorf("%d edges, the exact graph has %d", g, w)
			}
		})
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
