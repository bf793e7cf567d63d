package main_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An edit changes the tree of a repository under test.
type edit struct {
	name  string
	apply func(t *testing.T, root string)
}

// writeEdit writes files; removeEdit deletes them.
func writeEdit(name string, files map[string]string) edit {
	return edit{name, func(t *testing.T, root string) { write(t, root, files) }}
}

func removeEdit(name string, paths ...string) edit {
	return edit{name, func(t *testing.T, root string) {
		for _, p := range paths {
			if err := os.Remove(filepath.Join(root, p)); err != nil {
				t.Fatal(err)
			}
		}
	}}
}

// replaceEdit replaces old by new in file p (once; the edit must apply).
func replaceEdit(name, p, old, new string) edit {
	return edit{name, func(t *testing.T, root string) {
		t.Helper()
		body := string(read(t, filepath.Join(root, p)))
		if !strings.Contains(body, old) {
			t.Fatalf("%s: %q not in %s", name, old, p)
		}
		write(t, root, map[string]string{p: strings.Replace(body, old, new, 1)})
	}}
}

// assertIncrementalEqualsFull re-extracts root incrementally and checks
// that every output a full extraction writes is the same, byte for byte:
// the contract any incremental shortcut (cached facts, reused resolution)
// must keep.
func assertIncrementalEqualsFull(t *testing.T, root, step string) {
	t.Helper()
	run(t, root, false, "extract", "--quiet", ".")
	assertSameAsFull(t, root, step)
}

// assertIncrementalResolution is assertIncrementalEqualsFull for a step
// meant to exercise incremental resolution: extract -v must say the run
// reused the previous run's resolution of some files.
func assertIncrementalResolution(t *testing.T, root, step string) {
	t.Helper()
	out := run(t, root, false, "extract", "--quiet", "-v", ".")
	line := ""
	for l := range strings.Lines(out) {
		if s, ok := strings.CutPrefix(strings.TrimSpace(l), "resolve: "); ok {
			line = s
		}
	}
	var n, total int
	if _, err := fmt.Sscanf(line, "incremental, %d of %d files", &n, &total); err != nil || n >= total {
		t.Fatalf("after %q: resolution was not incremental (%q)\n%s", step, line, out)
	}
	assertSameAsFull(t, root, step)
}

// assertSameAsFull checks root's outputs against a full extraction's.
func assertSameAsFull(t *testing.T, root, step string) {
	t.Helper()
	full := filepath.Join(t.TempDir(), "full")
	run(t, root, false, "extract", "--quiet", "--full", "--out", full, ".")
	for _, name := range []string{"graph.json", "graph.bin", "GRAPH_REPORT.md"} {
		inc := read(t, filepath.Join(root, "synaptic-out", name))
		want := read(t, filepath.Join(full, name))
		if !bytes.Equal(inc, want) {
			t.Fatalf("after %q: incremental %s (%d bytes) differs from a full extraction's (%d bytes)", step, name, len(inc), len(want))
		}
	}
}

// editRepo is fixtureRepo with a Python module whose plain call is linked
// by its unique name (helper), so adding a second definition makes it
// ambiguous.
func editRepo() map[string]string {
	files := map[string]string{
		"tools/a.py": "def helper():\n    return 1\n",
		"tools/b.py": "def use():\n    return helper()\n",
	}
	for k, v := range fixtureRepo {
		files[k] = v
	}
	return files
}

// TestIncrementalEditSequenceEqualsFull runs a scripted sequence of edits
// over Go, Python and TypeScript files and project files; after each one
// the incremental extraction must equal a full one.
func TestIncrementalEditSequenceEqualsFull(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, editRepo())
	run(t, root, false, "extract", "--quiet", ".")
	steps := []edit{
		replaceEdit("add a Go function", "price/price.go",
			"func round(", "// Half halves.\nfunc Half(x int) int { return x / 2 }\n\nfunc round("),
		replaceEdit("call it from another package", "cart/cart.go", "sum += price.WithTax(it.Cents)", "sum += price.Half(price.WithTax(it.Cents))"),
		replaceEdit("rename a function its callers still name", "price/price.go", "func round(", "func roundDown("),
		replaceEdit("change a signature", "price/price.go", "func WithTax(cents int) int", "func WithTax(cents, extra int) int"),
		replaceEdit("add a method", "cart/cart.go", "func (c *Cart) Add(", "func (c *Cart) Len() int { return len(c.items) }\n\nfunc (c *Cart) Add("),
		writeEdit("a second helper makes the unique name ambiguous", map[string]string{"tools/c.py": "def helper():\n    return 2\n"}),
		removeEdit("delete it again: the guess links once more", "tools/c.py"),
		replaceEdit("delete a Python function others import", "tools/fmt.py", "def money(cents):", "def cents(cents):"),
		{"delete a TypeScript file, add it back under another name", func(t *testing.T, root string) {
			removeEdit("", "web/money.ts").apply(t, root)
			writeEdit("", map[string]string{"web/cash.ts": "export function money(c: number): string { return String(c); }\n"}).apply(t, root)
		}},
		writeEdit("a syntax error keeps what parses", map[string]string{"price/broken.go": "package price\n\nfunc Fine() int { return 1 }\n\nfunc (\n"}),
		{"rename a Go file", func(t *testing.T, root string) {
			if err := os.Rename(filepath.Join(root, "cart", "cart.go"), filepath.Join(root, "cart", "basket.go")); err != nil {
				t.Fatal(err)
			}
		}},
		replaceEdit("change the module path in go.mod", "go.mod", "module example.com/shop", "module example.com/store"),
		{"add a package.json and a pyproject.toml with a src layout", func(t *testing.T, root string) {
			write(t, root, map[string]string{
				"web/package.json":   `{"name": "web", "exports": {".": "./app.ts"}}` + "\n",
				"pyproject.toml":     "[project]\nname = \"tools\"\n",
				"src/tools/extra.py": "from tools.fmt import cents\n\ndef total(x):\n    return cents(x)\n",
			})
		}},
		removeEdit("delete the project files again", "web/package.json", "pyproject.toml"),
	}
	for _, s := range steps {
		s.apply(t, root)
		assertIncrementalEqualsFull(t, root, s.name)
	}
}

// TestIncrementalRandomEditsEqualFull applies seeded random edits (add,
// remove or rename a function, add or delete a file, in Go, Python and
// TypeScript) and checks incremental against full after each: a short
// fuzz of the incremental path with a reproducible sequence.
func TestIncrementalRandomEditsEqualFull(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, editRepo())
	run(t, root, false, "extract", "--quiet", ".")
	rng := rand.New(rand.NewPCG(11, 2026))
	type lang struct{ ext, fn, call string }
	langs := []lang{
		{".go", "package price\n\nfunc %s() int { return %s() }\n", "WithTax(1)"},
		{".py", "def %s():\n    return %s()\n", "money(1)"},
		{".ts", "export function %s(): number { return %s(); }\n", "Number(1)"},
	}
	dirs := map[string]string{".go": "price", ".py": "tools", ".ts": "web"}
	names := []string{"alpha", "beta", "gamma", "helper", "money", "round"}
	var added []string
	steps := 6
	for i := range steps {
		l := langs[rng.IntN(len(langs))]
		var step string
		switch op := rng.IntN(3); {
		case op == 0 || len(added) == 0:
			p := fmt.Sprintf("%s/gen%d%s", dirs[l.ext], i, l.ext)
			callee := names[rng.IntN(len(names))]
			body := fmt.Sprintf(l.fn, names[rng.IntN(len(names))], callee)
			if l.ext == ".go" {
				body = strings.Replace(body, callee+"()", l.call, 1) // Go needs a callee that exists
			}
			write(t, root, map[string]string{p: body})
			added = append(added, p)
			step = "add " + p
		case op == 1:
			j := rng.IntN(len(added))
			p := added[j]
			if err := os.Remove(filepath.Join(root, p)); err != nil {
				t.Fatal(err)
			}
			added = slices.Delete(added, j, j+1)
			step = "delete " + p
		default:
			p := added[rng.IntN(len(added))]
			body := string(read(t, filepath.Join(root, p)))
			for _, n := range names {
				if strings.Contains(body, " "+n+"(") {
					body = strings.Replace(body, " "+n+"(", " "+names[rng.IntN(len(names))]+"(", 1)
					break
				}
			}
			write(t, root, map[string]string{p: body})
			step = "rename in " + p
		}
		assertIncrementalEqualsFull(t, root, fmt.Sprintf("step %d: %s", i, step))
	}
}

// resolutionRepo adds what incremental resolution can get wrong to
// editRepo: calls that do not resolve yet, a caller in another package of
// a method, a receiver typed by another package's type, a Python method
// linked by its unique name, a Java class calling another's method.
func resolutionRepo() map[string]string {
	files := editRepo()
	for k, v := range map[string]string{
		"app/main.go": `package main

import (
	"example.com/shop/cart"
	"example.com/shop/price"
)

func main() {
	var c cart.Cart
	println(c.Total())
	var r price.Rule
	r.Apply()
	var t price.Tax
	t.Levy()
	price.Missing()
	Later()
}
`,
		"price/rule.go":    "package price\n\n// Rule is a pricing rule.\ntype Rule struct{ Pct int }\n",
		"tools/use.py":     "def go(x):\n    return x.render(1)\n",
		"java/shop/A.java": "package shop;\n\npublic class A {\n  public int run(B b) { return b.count(); }\n}\n",
		"java/shop/B.java": "package shop;\n\npublic class B {\n  public int size() { return 1; }\n}\n",
		"web/view.ts":      "import { fmt } from \"./money\";\nexport function view(c: number): string { return fmt(c); }\n",
	} {
		files[k] = v
	}
	return files
}

// TestIncrementalResolutionEqualsFull edits where copying an unchanged
// file's resolution would be wrong unless it is re-resolved: each step
// must run incrementally (extract -v says so) and equal a full run.
func TestIncrementalResolutionEqualsFull(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, resolutionRepo())
	run(t, root, false, "extract", "--quiet", ".")
	steps := []edit{
		replaceEdit("an added function resolves another package's call", "price/price.go",
			"func round(", "func Missing() {}\n\nfunc round("),
		writeEdit("a new file in an existing package resolves a plain call", map[string]string{
			"app/later.go": "package main\n\nfunc Later() {}\n"}),
		writeEdit("a new method on another package's type resolves a receiver call", map[string]string{
			"price/apply.go": "package price\n\nfunc (r Rule) Apply() int { return r.Pct }\n"}),
		replaceEdit("an added type with a member resolves a receiver call elsewhere", "price/rule.go",
			"type Rule struct", "type Tax struct{}\n\nfunc (Tax) Levy() {}\n\ntype Rule struct"),
		replaceEdit("a removed method loses its caller in another package", "cart/cart.go",
			"func (c *Cart) Total() int {", "func (c *Cart) Sum() int {"),
		replaceEdit("the method comes back", "cart/cart.go", "func (c *Cart) Sum() int {", "func (c *Cart) Total() int {"),
		writeEdit("a second render makes the unique method ambiguous", map[string]string{
			"tools/other.py": "class Other:\n    def render(self, x):\n        return x\n"}),
		replaceEdit("renaming it clears the ambiguity", "tools/other.py", "def render(", "def draw("),
		replaceEdit("a TypeScript export resolves an import elsewhere", "web/money.ts",
			"export function money(", "export function fmt(c: number): string { return String(c); }\nexport function money("),
		replaceEdit("a Java method its caller names appears", "java/shop/B.java",
			"public int size()", "public int count() { return 2; }\n  public int size()"),
		replaceEdit("and is renamed away", "java/shop/B.java", "public int count()", "public int total()"),
		replaceEdit("a Python signature nobody else reads", "tools/use.py", "def go(x):", "def go(x, y=0):"),
	}
	for _, s := range steps {
		s.apply(t, root)
		assertIncrementalResolution(t, root, s.name)
	}
}

// TestIncrementalResolutionFallsBack: a corrupted or missing memo, or
// --full, resolves in full, says why in -v, and equals a full run.
func TestIncrementalResolutionFallsBack(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, resolutionRepo())
	memo := filepath.Join(root, "synaptic-out", "cache", "resolve.bin")
	resolveLine := func(args ...string) string {
		t.Helper()
		out := run(t, root, false, append([]string{"extract", "--quiet", "-v"}, args...)...)
		for l := range strings.Lines(out) {
			if s, ok := strings.CutPrefix(strings.TrimSpace(l), "resolve: "); ok {
				return s
			}
		}
		t.Fatalf("no resolve line in\n%s", out)
		return ""
	}
	if got := resolveLine("."); !strings.HasPrefix(got, "full, because no earlier run") {
		t.Errorf("first run: %q", got)
	}
	for _, tc := range []struct {
		name, want string
		spoil      func()
	}{
		{"corrupted memo", "full, because cache/resolve.bin cannot be used", func() {
			b := read(t, memo)
			b[len(b)/2] ^= 1
			if err := os.WriteFile(memo, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing memo", "full, because no memo of an earlier run", func() {
			if err := os.Remove(memo); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		tc.spoil()
		replaceEdit(tc.name, "price/price.go", "func round(", "func Extra"+strings.ReplaceAll(tc.name, " ", "_")+"() {}\n\nfunc round(").apply(t, root)
		if got := resolveLine("."); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want %q…", tc.name, got, tc.want)
		}
		assertSameAsFull(t, root, tc.name)
	}
	if got := resolveLine("--full", "."); got != "full, because --full" {
		t.Errorf("--full: %q", got)
	}
}
