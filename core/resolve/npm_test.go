package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestJSPackageImports: bare specifiers naming a package of the tree (or
// the one enclosing the root) resolve through its exports or main field.
func TestJSPackageImports(t *testing.T) {
	build := func(spec string, pkgs ...JSPackage) bool {
		files := []File{
			{Path: "src/v4/core/index.ts", Language: "typescript", Family: "ecmascript", Facts: &abi.Facts{
				Symbols: []abi.Symbol{{Name: "parse", Kind: "function", Parent: -1, Span: sp(1)}},
			}},
			{Path: "test/a.test.ts", Language: "typescript", Family: "ecmascript", Facts: &abi.Facts{
				Imports: []abi.Import{{Path: spec, Names: []abi.ImportName{{Name: "parse"}}, Line: 1}},
				Symbols: []abi.Symbol{{Name: "check", Kind: "function", Parent: -1, Span: sp(3)}},
				Calls:   []abi.Call{{Caller: 0, Name: "parse", Line: 4}},
			}},
		}
		g, _ := Build(files, Options{JSPackages: pkgs})
		_, ok := edgeSet(g)["test_a_test_check -calls-> src_v4_core_index_parse"]
		return ok
	}
	zod := JSPackage{Name: "zod", Dir: ".", Exports: []JSExport{
		{".", []string{"./index.js"}},
		{"./v4/core", []string{"./src/v4/core/index.ts", "./v4/core/index.js"}},
		{"./dist/*", []string{"./src/*/index.js"}},
	}}
	enclosing := JSPackage{Name: "zod", Inside: "packages/zod", Exports: []JSExport{{"./v4/core", []string{"./src/v4/core/index.ts"}}}}
	outside := JSPackage{Name: "zod", Inside: "src/v4/classic", Exports: []JSExport{{"./v4/core", []string{"./src/v4/core/index.ts"}}}}
	tests := []struct {
		name string
		spec string
		pkgs []JSPackage
		want bool
	}{
		{"exact exports subpath", "zod/v4/core", []JSPackage{zod}, true},
		{"pattern subpath, .js written for .ts", "zod/dist/v4/core", []JSPackage{zod}, true},
		{"subpath not exported", "zod/src/v4/core/index", []JSPackage{zod}, false},
		{"enclosing package (self-reference)", "zod/v4/core", []JSPackage{{Name: "zod", Inside: "pkg", Exports: []JSExport{{"./v4/core", []string{"./pkg/src/v4/core/index.ts"}}}}}, true},
		{"enclosing package, target outside the root", "zod/v4/core", []JSPackage{outside}, false},
		{"enclosing package, target beside the root", "zod/v4/core", []JSPackage{enclosing}, false},
		{"no exports: main", "core", []JSPackage{{Name: "core", Dir: "src/v4/core", Main: []string{"./index.js"}}}, true},
		{"no exports: subpath is a path", "core/index", []JSPackage{{Name: "core", Dir: "src/v4/core"}}, true},
		{"scoped name, longest wins", "@z/core/sub", []JSPackage{{Name: "@z/core", Dir: "x"}, {Name: "@z/core/sub", Dir: "src/v4/core"}}, true},
		{"two packages of one name: ambiguous", "zod/v4/core", []JSPackage{zod, zod}, false},
		{"a dependency, not a package of the tree", "zod-mini/v4/core", []JSPackage{zod}, false},
		{"no packages", "zod/v4/core", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := build(tt.spec, tt.pkgs...); got != tt.want {
				t.Errorf("import %q linked = %v, want %v", tt.spec, got, tt.want)
			}
		})
	}
}
