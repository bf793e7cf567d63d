package synaptic_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// languageWords are what a language-neutral core must not spell: language
// and family names, source extensions and project metadata files. What a
// language means belongs in its plugin (docs/abi-v2.md).
var languageWords = []string{
	"go", "golang", "python", "java", "rust", "typescript", "javascript", "ecmascript", "tsx", "jsx",
	"c", "cpp", "c++", "csharp", "kotlin", "ruby", "php", "sql",
	".go", ".py", ".pyi", ".rs", ".java", ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts",
	"go.mod", "go.work", "package.json", "tsconfig.json", "pyproject.toml", "setup.py", "setup.cfg",
	"cargo.toml", "__init__.py", "__init__.pyi", "mod.rs", "lib.rs", "main.rs", "_test.go", "vendor/",
	// Type-syntax words: parsing a language's types is the plugin's job
	// (Signature.ReturnRef, Param.TypeRef). Kind names that are also
	// keywords ("struct", "interface") are spelled by sdk/abi's constants.
	"chan", "map", "struct", "interface", "func", "fn", "mut", "dyn", "impl", "const",
}

// languageDebt is what core/ still spells today, per file: the v1 rules
// kept for our built-in extractors until each migrates to ABI v2 (issue
// 9, docs/abi-v2.md "Migration status"). The test fails on any word not
// listed here, so nothing new is added, and on a listed word that is gone,
// so the list only shrinks.
var languageDebt = map[string][]string{
	// Not a language branch: the graph's own SQL vocabulary (the context of
	// SQL edges, the id namespace of roles, the edge's "sql" text member).
	"core/resolve/sqlrefs.go": {"sql", "sql", "sql"},
}

func TestNoLanguageInCore(t *testing.T) {
	words := map[string]bool{}
	for _, w := range languageWords {
		words[w] = true
	}
	got := map[string][]string{}
	for _, dir := range []string{"core/resolve", "core/extract", "core/graph"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			for _, lit := range stringLiterals(t, name) {
				if w := languageWord(lit, words); w != "" {
					got[filepath.ToSlash(name)] = append(got[filepath.ToSlash(name)], w)
				}
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(got)) {
		slices.Sort(got[f])
		want := slices.Clone(languageDebt[f])
		slices.Sort(want)
		if !slices.Equal(got[f], want) {
			t.Errorf("%s spells %q, the recorded v1 debt is %q: move what a language means into its plugin (facts, [semantics], the project entry point); if you removed debt, shrink languageDebt", f, got[f], want)
		}
	}
	for f, want := range languageDebt {
		if len(want) > 0 && len(got[f]) == 0 {
			t.Errorf("%s no longer spells %q: remove it from languageDebt", f, want)
		}
	}
}

// languageWord is the language word lit is (case-insensitive), or one it
// starts with followed by ':' (a family-keyed map key), or "".
func languageWord(lit string, words map[string]bool) string {
	l := strings.ToLower(lit)
	if words[l] {
		return l
	}
	if i := strings.IndexByte(l, ':'); i > 0 && words[l[:i]] {
		return l[:i+1]
	}
	return ""
}

func stringLiterals(t *testing.T, name string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatal(fmt.Errorf("%s: %v", name, err))
			}
			out = append(out, s)
		}
		return true
	})
	return out
}
