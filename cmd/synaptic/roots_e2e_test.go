package main_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rootsModule is a Go module whose services/billing folder calls into its
// own subpackage, is tested by an external test package (plain and dot
// import), and calls a package outside the folder.
var rootsModule = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"internal/money/money.go": `package money

func Round(c int) int { return c }
`,
	"services/billing/billing.go": `package billing

import (
	"example.com/shop/internal/money"
	"example.com/shop/services/billing/invoice"
)

// Charge bills c cents.
func Charge(c int) int {
	inv := invoice.New(c)
	return money.Round(inv.Total())
}
`,
	"services/billing/invoice/invoice.go": `package invoice

type Invoice struct{ cents int }

func New(c int) *Invoice { return &Invoice{cents: c} }

func (i *Invoice) Total() int { return i.cents }
`,
	"services/billing/invoice/invoice_test.go": `package invoice_test

import (
	"testing"

	"example.com/shop/services/billing/invoice"
)

func TestNew(t *testing.T) { invoice.New(3) }
`,
	"services/billing/billing_test.go": `package billing_test

import (
	"testing"

	"example.com/shop/services/billing"
)

func TestCharge(t *testing.T) { billing.Charge(1) }
`,
	"services/billing/dot_test.go": `package billing_test

import (
	"testing"

	. "example.com/shop/services/billing"
)

func TestDot(t *testing.T) { Charge(2) }
`,
	"cmd/shop/main.go": `package main

import "example.com/shop/services/billing"

func main() { billing.Charge(5) }
`,
}

// callsUnder lists the calls edges of graph.json between nodes of files
// under dir (a prefix of source_file, "" = all), as "file:line label ->
// file:line label" with dir trimmed, so graphs rooted at different
// folders compare.
func callsUnder(t *testing.T, graphPath, dir string) []string {
	t.Helper()
	var g struct {
		Nodes []struct {
			ID, Label  string
			SourceFile string `json:"source_file"`
			Span       *struct {
				StartLine int `json:"start_line"`
			}
		}
		Links []struct{ Source, Target, Relation string }
	}
	if err := json.Unmarshal(read(t, graphPath), &g); err != nil {
		t.Fatal(err)
	}
	name := map[string]string{}
	for _, n := range g.Nodes {
		if n.SourceFile == "" || n.Span == nil || !strings.HasPrefix(n.SourceFile, dir) {
			continue
		}
		name[n.ID] = fmt.Sprintf("%s:%d %s", strings.TrimPrefix(n.SourceFile, dir), n.Span.StartLine, n.Label)
	}
	set := map[string]bool{}
	for _, e := range g.Links {
		s, ok1 := name[e.Source]
		d, ok2 := name[e.Target]
		if e.Relation == "calls" && ok1 && ok2 {
			set[s+" -> "+d] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// TestExtractFolderOfModule: extracting services/billing of a module links
// its calls (into its subpackage, from its external test package, through
// a dot import) exactly as extracting the whole module does, and says
// which module it resolved the folder in. The same folder copied out of
// any module still links its external test package.
func TestExtractFolderOfModule(t *testing.T) {
	needBin(t)
	mod := t.TempDir()
	write(t, mod, rootsModule)
	outs := t.TempDir()
	run(t, mod, false, "extract", "--out", filepath.Join(outs, "whole"), ".")
	whole := callsUnder(t, filepath.Join(outs, "whole", "graph.json"), "services/billing/")
	for _, want := range []string{
		"billing.go:9 Charge() -> invoice/invoice.go:5 New()",
		"billing.go:9 Charge() -> invoice/invoice.go:7 .Total()",
		"billing_test.go:9 TestCharge() -> billing.go:9 Charge()",
		"dot_test.go:9 TestDot() -> billing.go:9 Charge()",
		"invoice/invoice_test.go:9 TestNew() -> invoice/invoice.go:5 New()",
	} {
		if !slices.Contains(whole, want) {
			t.Errorf("whole-module graph lacks %q; has:\n%s", want, strings.Join(whole, "\n"))
		}
	}

	out := run(t, mod, false, "extract", "--out", filepath.Join(outs, "folder"), "services/billing")
	wantLine := fmt.Sprintf(`project: go: module "example.com/shop" (go.mod above the root: %s), root imported as "example.com/shop/services/billing"`, filepath.Join(mod, "go.mod"))
	if !strings.Contains(out, wantLine) {
		t.Errorf("summary does not say which module it used; want %q in:\n%s", wantLine, out)
	}
	folder := callsUnder(t, filepath.Join(outs, "folder", "graph.json"), "")
	if !slices.Equal(folder, whole) {
		t.Errorf("folder extraction links calls differently from the whole module:\nfolder:\n%s\nwhole:\n%s", strings.Join(folder, "\n"), strings.Join(whole, "\n"))
	}

	// The folder on its own, no go.mod anywhere above: its external test
	// package still reaches the folder's package (plain and dot import).
	alone := filepath.Join(t.TempDir(), "billing")
	files := map[string]string{}
	for p, body := range rootsModule {
		if rel, ok := strings.CutPrefix(p, "services/billing/"); ok && !strings.HasPrefix(rel, "invoice/") {
			files[rel] = body
		}
	}
	write(t, alone, files)
	if _, err := os.Stat(filepath.Join(filepath.Dir(alone), "go.mod")); err == nil {
		t.Fatal("a go.mod above the temporary directory")
	}
	out = run(t, alone, false, "extract", "--out", filepath.Join(outs, "alone"), ".")
	if strings.Contains(out, "project: go:") {
		t.Errorf("a folder in no Go project reports one:\n%s", out)
	}
	got := callsUnder(t, filepath.Join(outs, "alone", "graph.json"), "")
	for _, want := range []string{"billing_test.go:9 TestCharge() -> billing.go:9 Charge()", "dot_test.go:9 TestDot() -> billing.go:9 Charge()"} {
		if !slices.Contains(got, want) {
			t.Errorf("folder without go.mod lacks %q; has:\n%s", want, strings.Join(got, "\n"))
		}
	}
}

// TestExtractFolderOfPythonProject: a package folder of a src/ layout
// links its absolute imports of its own modules as the whole project does.
func TestExtractFolderOfPythonProject(t *testing.T) {
	needBin(t)
	proj := t.TempDir()
	write(t, proj, map[string]string{
		"pyproject.toml":                   "[project]\nname = \"shop\"\n",
		"src/shop/__init__.py":             "",
		"src/shop/billing/__init__.py":     "",
		"src/shop/billing/invoice.py":      "def total(c):\n    return c\n",
		"src/shop/billing/api/__init__.py": "",
		"src/shop/billing/api/views.py":    "from shop.billing.invoice import total\nimport shop.billing.invoice\n\n\ndef show():\n    total(1)\n    shop.billing.invoice.total(2)\n",
	})
	outs := t.TempDir()
	run(t, proj, false, "extract", "--out", filepath.Join(outs, "whole"), ".")
	whole := callsUnder(t, filepath.Join(outs, "whole", "graph.json"), "src/shop/billing/")
	if want := "api/views.py:5 show() -> invoice.py:1 total()"; !slices.Contains(whole, want) {
		t.Fatalf("whole-project graph lacks %q; has:\n%s", want, strings.Join(whole, "\n"))
	}
	out := run(t, proj, false, "extract", "--out", filepath.Join(outs, "folder"), "src/shop/billing")
	if want := `project: python: root imported as "shop.billing"`; !strings.Contains(out, want) {
		t.Errorf("summary does not say which package it used; want %q in:\n%s", want, out)
	}
	if folder := callsUnder(t, filepath.Join(outs, "folder", "graph.json"), ""); !slices.Equal(folder, whole) {
		t.Errorf("folder extraction links calls differently from the whole project:\nfolder:\n%s\nwhole:\n%s", strings.Join(folder, "\n"), strings.Join(whole, "\n"))
	}
}

// TestExtractFolderOfNPMWorkspace: a folder of a workspace package links
// its self-references ("zod/v4/core" inside zod, through "exports") as
// the whole workspace does, and names the package and workspace it used.
func TestExtractFolderOfNPMWorkspace(t *testing.T) {
	needBin(t)
	ws := t.TempDir()
	write(t, ws, map[string]string{
		"package.json":                          `{"name":"mono","private":true,"workspaces":["packages/*"]}`,
		"packages/zod/package.json":             `{"name":"zod","exports":{".":"./index.js","./v4/core":{"@zod/source":"./src/v4/core/index.ts","import":"./v4/core/index.js"}}}`,
		"packages/zod/src/v4/core/index.ts":     "export function parse(x: string): string {\n  return x;\n}\n",
		"packages/zod/src/v4/classic/schema.ts": "import { parse } from \"zod/v4/core\";\n\nexport function run(): string {\n  return parse(\"a\");\n}\n",
		"packages/app/package.json":             `{"name":"app"}`,
		"packages/app/main.ts":                  "import { parse } from \"zod/v4/core\";\n\nexport function main(): string {\n  return parse(\"b\");\n}\n",
	})
	outs := t.TempDir()
	run(t, ws, false, "extract", "--out", filepath.Join(outs, "whole"), ".")
	whole := callsUnder(t, filepath.Join(outs, "whole", "graph.json"), "packages/zod/src/v4/")
	if want := "classic/schema.ts:3 run() -> core/index.ts:1 parse()"; !slices.Contains(whole, want) {
		t.Fatalf("whole-workspace graph lacks %q; has:\n%s", want, strings.Join(whole, "\n"))
	}
	if all := callsUnder(t, filepath.Join(outs, "whole", "graph.json"), ""); !slices.Contains(all, "packages/app/main.ts:3 main() -> packages/zod/src/v4/core/index.ts:1 parse()") {
		t.Errorf("a workspace package's import of another does not link; calls:\n%s", strings.Join(all, "\n"))
	}
	out := run(t, ws, false, "extract", "--out", filepath.Join(outs, "folder"), "packages/zod/src/v4")
	want := fmt.Sprintf(`project: typescript: package "zod" (package.json above the root: %s), root is its src/v4; workspace root %s`, filepath.Join(ws, "packages/zod/package.json"), ws)
	if !strings.Contains(out, want) {
		t.Errorf("summary does not say which package it used; want %q in:\n%s", want, out)
	}
	if folder := callsUnder(t, filepath.Join(outs, "folder", "graph.json"), ""); !slices.Equal(folder, whole) {
		t.Errorf("folder extraction links calls differently from the whole workspace:\nfolder:\n%s\nwhole:\n%s", strings.Join(folder, "\n"), strings.Join(whole, "\n"))
	}
}
