package main_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// These tests run the real binary with the real plugins. `make test` passes
// SYNAPTIC_BIN (built by `make`, plugins next to it); otherwise TestMain
// builds both into a temporary directory.

var bin string

func TestMain(m *testing.M) {
	flag.Parse() // testing.Short needs parsed flags
	bin = os.Getenv("SYNAPTIC_BIN")
	var tmp string
	if bin == "" && !testing.Short() {
		var err error
		tmp, err = os.MkdirTemp("", "synaptic-e2e")
		if err != nil {
			panic(err)
		}
		root := repoRoot()
		if out, err := exec.Command("make", "-C", root, "BIN="+tmp, "build").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building synaptic: %v\n%s", err, out)
			os.Exit(1)
		}
		bin = filepath.Join(tmp, "synaptic")
	}
	code := m.Run()
	if tmp != "" {
		os.RemoveAll(tmp)
	}
	os.Exit(code)
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func needBin(t *testing.T) {
	t.Helper()
	if bin == "" {
		t.Skip("-short: no synaptic binary built")
	}
}

// run runs the binary and returns stdout+stderr; it fails the test on a
// non-zero exit unless wantFail.
func run(t *testing.T, dir string, wantFail bool, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SYNAPTIC_PLUGINS=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if (err != nil) != wantFail {
		t.Fatalf("synaptic %s: err=%v, want failure=%v\n%s", strings.Join(args, " "), err, wantFail, out.String())
	}
	return out.String()
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var fixtureRepo = map[string]string{
	"go.mod": "module example.com/shop\n\ngo 1.22\n",
	"cart/cart.go": `package cart

import "example.com/shop/price"

// Cart holds items.
type Cart struct{ items []Item }

type Item struct{ SKU string; Cents int }

func (c *Cart) Add(it Item) { c.items = append(c.items, it) }

func (c *Cart) Total() int {
	sum := 0
	for _, it := range c.items {
		sum += price.WithTax(it.Cents)
	}
	return sum
}
`,
	"price/price.go": `package price

const rate = 20

// WithTax adds VAT.
func WithTax(cents int) int { return cents + round(cents*rate) }

func round(x int) int { return x / 100 }
`,
	"cart/cart_test.go": `package cart

import "testing"

func TestTotal(t *testing.T) {
	var c Cart
	c.Add(Item{"a", 100})
	if c.Total() != 120 { t.Fatal(c.Total()) }
}
`,
	"tools/report.py": `from .fmt import money

class Report:
    def render(self, total):
        return self.header() + money(total)

    def header(self):
        return "Total: "
`,
	"tools/fmt.py": `def money(cents):
    return "%d.%02d" % divmod(cents, 100)
`,
	"web/app.ts": `import { money } from "./money";
export class App {
  show(c: number): string { return money(c); }
}
`,
	"web/money.ts":      "export function money(c: number): string { return (c / 100).toFixed(2); }\n",
	".gitignore":        "ignored/\n",
	"ignored/x.go":      "package ignored\nfunc Hidden() {}\n",
	".env":              "SECRET=1\n",
	"package-lock.json": "{}\n",
}

type graphFile struct {
	Nodes []struct {
		ID, Label, Kind string
		SourceFile      string `json:"source_file"`
	}
	Links []struct {
		Source, Target, Relation, Confidence string
	}
}

func parseGraph(t *testing.T, p string) graphFile {
	t.Helper()
	var g graphFile
	if err := json.Unmarshal(read(t, p), &g); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return g
}

func hasEdge(g graphFile, src, rel, dst string) bool {
	for _, l := range g.Links {
		if l.Source == src && l.Relation == rel && l.Target == dst {
			return true
		}
	}
	return false
}

func TestExtractFixtureRepo(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	out := run(t, root, false, "extract", ".")
	// package-lock.json is no extractor's file type, so discovery drops it
	// silently; .env is reported because secrets are always worth saying.
	for _, want := range []string{"7 files", "go 3", "python 2", "typescript 2", "sensitive (1)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"graph.json", ".manifest.json", "GRAPH_REPORT.md"} {
		if _, err := os.Stat(filepath.Join(root, "synaptic-out", f)); err != nil {
			t.Errorf("missing synaptic-out/%s", f)
		}
	}
	g := parseGraph(t, filepath.Join(root, "synaptic-out", "graph.json"))
	for _, e := range [][3]string{
		{"cart_cart_cart_total", "calls", "price_price_withtax"},    // cross-package, proven by the import
		{"price_price_withtax", "calls", "price_price_round"},       // same file
		{"cart_cart_test_testtotal", "calls", "cart_cart_cart_add"}, // typed local var c Cart
		{"cart_cart_cart", "method", "cart_cart_cart_total"},
		{"tools_report_report_render", "calls", "tools_fmt_money"},            // python relative import
		{"tools_report_report_render", "calls", "tools_report_report_header"}, // self.header()
		{"web_app_app_show", "calls", "web_money_money"},                      // ES import
		{"web_app_ts", "imports_from", "web_money_ts"},
	} {
		if !hasEdge(g, e[0], e[1], e[2]) {
			t.Errorf("missing edge %s -%s-> %s", e[0], e[1], e[2])
		}
	}
	for _, n := range g.Nodes {
		if strings.Contains(n.SourceFile, "ignored/") || n.SourceFile == ".env" {
			t.Errorf("ignored or sensitive file in graph: %s", n.SourceFile)
		}
	}
	report := string(read(t, filepath.Join(root, "synaptic-out", "GRAPH_REPORT.md")))
	if !strings.Contains(report, "sensitive") || !strings.Contains(report, "| go | 3 |") {
		t.Errorf("GRAPH_REPORT.md lacks counts or skips:\n%s", report)
	}
}

// TestIncrementalEqualsFull edits, adds and deletes files and checks that the
// incremental result is byte-identical to a full extraction of the same tree.
func TestIncrementalEqualsFull(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	run(t, root, false, "extract", ".")
	graphPath := filepath.Join(root, "synaptic-out", "graph.json")
	first := read(t, graphPath)

	out := run(t, root, false, "extract", ".")
	if !strings.Contains(out, "0 extracted, 7 unchanged") {
		t.Errorf("no-op rerun re-extracted files:\n%s", out)
	}
	if !bytes.Equal(first, read(t, graphPath)) {
		t.Error("no-op rerun changed graph.json")
	}

	write(t, root, map[string]string{
		"price/price.go":    strings.Replace(fixtureRepo["price/price.go"], "round(cents*rate)", "roundUp(cents*rate)", 1) + "\nfunc roundUp(x int) int { return (x + 99) / 100 }\n",
		"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n",
	})
	os.Remove(filepath.Join(root, "web", "money.ts"))
	out = run(t, root, false, "extract", ".")
	if !strings.Contains(out, "2 extracted") || !strings.Contains(out, "1 removed") {
		t.Errorf("incremental run did not re-extract exactly the changes:\n%s", out)
	}
	incremental := read(t, graphPath)
	run(t, root, false, "extract", "--full", "--out", filepath.Join(root, "full-out"), ".")
	full := read(t, filepath.Join(root, "full-out", "graph.json"))
	if !bytes.Equal(incremental, full) {
		t.Fatalf("incremental graph.json differs from a full extraction (%d vs %d bytes)", len(incremental), len(full))
	}
	g := parseGraph(t, graphPath)
	if !hasEdge(g, "price_price_withtax", "calls", "price_price_roundup") || hasEdge(g, "price_price_withtax", "calls", "price_price_round") {
		t.Error("edge into the edited file not re-resolved")
	}
	if !hasEdge(g, "price_discount_discount", "calls", "price_price_withtax") {
		t.Error("new file's call into an unchanged file not resolved")
	}

	// A corrupted manifest means a full re-extraction, with a note.
	os.WriteFile(filepath.Join(root, "synaptic-out", ".manifest.json"), []byte("{not json"), 0o644)
	out = run(t, root, false, "extract", ".")
	if !strings.Contains(out, "full run") || !strings.Contains(out, "corrupted") {
		t.Errorf("corrupted manifest not reported / not a full run:\n%s", out)
	}
	if !bytes.Equal(full, read(t, graphPath)) {
		t.Error("graph after corrupted-manifest rebuild differs")
	}
}

// TestUnchangedInputsKeepGraph: a run whose facts, skips and module layout
// are those graph.json was made from leaves graph.json and GRAPH_REPORT.md
// untouched, and what it keeps is what a full extraction writes; any change
// to those inputs, or to the outputs on disk, rebuilds them.
func TestUnchangedInputsKeepGraph(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	run(t, root, false, "extract", ".")
	outDir := filepath.Join(root, "synaptic-out")
	graphPath, reportPath := filepath.Join(outDir, "graph.json"), filepath.Join(outDir, "GRAPH_REPORT.md")
	stamp := func(p string) time.Time {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.ModTime()
	}
	kept := func(why string, want bool) {
		t.Helper()
		before := stamp(graphPath)
		out := run(t, root, false, "extract", ".")
		if got := strings.Contains(out, "kept"); got != want {
			t.Fatalf("%s: graph kept = %v, want %v:\n%s", why, got, want, out)
		}
		if want && !stamp(graphPath).Equal(before) {
			t.Fatalf("%s: graph.json rewritten although kept", why)
		}
		full := filepath.Join(t.TempDir(), "full")
		run(t, root, false, "extract", "--full", "--out", full, ".")
		for _, name := range []string{"graph.json", "GRAPH_REPORT.md"} {
			if !bytes.Equal(read(t, filepath.Join(outDir, name)), read(t, filepath.Join(full, name))) {
				t.Fatalf("%s: %s differs from a full extraction", why, name)
			}
		}
	}
	kept("rerun", true)
	// A rerun with every file as it was does not even read the facts
	// cache, and reports what a run that resolves reports.
	summary := func(out string) string {
		out = regexp.MustCompile(` in [0-9.]+s\n`).ReplaceAllString(out, "\n")
		return regexp.MustCompile(`(?m)^  (graph.json and GRAPH_REPORT.md kept|phase|workers|full run|incremental run).*\n`).ReplaceAllString(out, "")
	}
	write(t, root, map[string]string{"bad/bad.go": "package bad\n\nfunc ok() {}\n\nfunc (\n"}) // notes a syntax error
	resolved := run(t, root, false, "extract", "--full", ".")
	if !strings.Contains(resolved, "syntax error") {
		t.Fatalf("no syntax error noted:\n%s", resolved)
	}
	again := run(t, root, false, "extract", "-v", ".")
	if strings.Contains(again, "phase load cache") || !strings.Contains(again, "kept") {
		t.Errorf("rerun of an unchanged tree read the facts cache or rebuilt:\n%s", again)
	}
	if got, want := summary(again), summary(resolved); got != want {
		t.Errorf("kept-graph summary differs from a resolving run's:\n%s\nwant:\n%s", got, want)
	}
	cart := filepath.Join(root, "cart", "cart.go")
	now := time.Now().Add(time.Minute)
	os.Chtimes(cart, now, now)
	kept("touched file", true)
	write(t, root, map[string]string{"cart/cart.go": strings.Replace(fixtureRepo["cart/cart.go"], "\tsum := 0\n", "\tsum := 0 // running total\n", 1)})
	kept("comment edit", true)
	// A doc comment is the node's doc: editing it changes the graph.
	write(t, root, map[string]string{"cart/cart.go": strings.Replace(fixtureRepo["cart/cart.go"], "// Cart holds items.", "// Cart holds goods.", 1)})
	kept("doc comment edit", false)
	write(t, root, map[string]string{"cart/cart.go": fixtureRepo["cart/cart.go"] + "\nfunc Empty() *Cart { return &Cart{} }\n"})
	kept("new function", false)
	os.Remove(reportPath)
	kept("report deleted", false)
	os.Truncate(graphPath, 100)
	kept("half-written graph.json", false)
	write(t, root, map[string]string{"go.mod": "module example.com/store\n\ngo 1.22\n"})
	kept("module path changed", false)
	write(t, root, map[string]string{"secrets/server.pem": "-----BEGIN PRIVATE KEY-----\n"})
	kept("new skipped file", false)
	kept("rerun after changes", true)
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	for i := 0; i < 30; i++ { // enough files for workers to interleave
		write(t, root, map[string]string{fmt.Sprintf("gen/f%02d.py", i): fmt.Sprintf("from .f%02d import g\n\ndef f%d():\n    return g()\n\ndef g():\n    return f%d()\n", (i+1)%30, i, i)})
	}
	var outs [][]byte
	for _, w := range []string{"1", "4", "4"} {
		o := filepath.Join(root, "out-"+w+fmt.Sprint(len(outs)))
		run(t, root, false, "extract", "--full", "--workers", w, "--out", o, ".")
		outs = append(outs, read(t, filepath.Join(o, "graph.json")))
	}
	if !bytes.Equal(outs[0], outs[1]) || !bytes.Equal(outs[1], outs[2]) {
		t.Fatal("graph.json differs between worker counts or runs")
	}
}

// buildPlugin compiles a plugin package (dir, relative to cwd) into
// dest/<module> and writes dest/plugin.toml.
func buildPlugin(t *testing.T, cwd, pkg, dest, module, manifest string) {
	t.Helper()
	if err := os.MkdirAll(dest, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(dest, module), pkg)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build plugin %s: %v\n%s", pkg, err, out)
	}
	if err := os.WriteFile(filepath.Join(dest, "plugin.toml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCustomPluginDropIn writes a new extractor with sdk/ in a folder of its
// own module, builds it, drops it into <repo>/.synaptic/plugins, and checks
// that the already-built binary uses it (with the --repo-plugins opt-in).
func TestCustomPluginDropIn(t *testing.T) {
	needBin(t)
	src := t.TempDir()
	write(t, src, map[string]string{
		"go.mod": "module toy\n\ngo 1.26\n\nrequire github.com/synaptic-graph/synaptic v0.0.0\n\nreplace github.com/synaptic-graph/synaptic => " + repoRoot() + "\n",
		"main.go": `package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// toy reads "recipe" files (Python syntax) and reports each def as a step.
type toy struct{}

func (toy) Extract(f *extract.File) error {
	t, g := f.Tree, f.Tree.Grammar
	def, name := g.Kind("function_definition"), g.Field("name")
	for n := range t.NamedChildren(0) {
		if t.Kind(n) == def {
			f.Symbol(abi.Symbol{Name: "step_" + t.Text(t.Child(n, name)), Kind: "function", Parent: -1, Span: t.Span(n)})
		}
	}
	return nil
}

func init() { extract.Register(toy{}) }

func main() {}
`,
	})
	if gosum, err := os.ReadFile(filepath.Join(repoRoot(), "go.sum")); err == nil {
		os.WriteFile(filepath.Join(src, "go.sum"), gosum, 0o644)
	}
	repo := t.TempDir()
	write(t, repo, map[string]string{"kitchen/bake.recipe": "def mix():\n    pass\n\ndef bake():\n    mix()\n"})
	buildPlugin(t, src, ".", filepath.Join(repo, ".synaptic", "plugins", "toy"), "toy.wasm", `name = "toy"
version = "1.0.0"
kind = "extractor"
abi = 1
module = "toy.wasm"

[[languages]]
name = "recipe"
grammar = "python"
extensions = [".recipe"]
`)
	out := run(t, repo, false, "plugins", "--repo-plugins")
	if !strings.Contains(out, "toy") || !strings.Contains(out, "repo") {
		t.Errorf("plugins listing lacks the drop-in:\n%s", out)
	}
	run(t, repo, false, "extract", "--repo-plugins", ".")
	g := parseGraph(t, filepath.Join(repo, "synaptic-out", "graph.json"))
	found := 0
	for _, n := range g.Nodes {
		if n.Label == "step_mix()" || n.Label == "step_bake()" {
			found++
		}
	}
	if found != 2 {
		t.Errorf("drop-in plugin's symbols: found %d of 2 in %+v", found, g.Nodes)
	}
}

// TestHostilePluginsContained runs a plugin that loops, exhausts memory,
// panics and traps depending on the file, next to broken plugin folders:
// extraction finishes, each bad file is skipped with its reason, and the
// good files (and other plugins) are unaffected.
func TestHostilePluginsContained(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	write(t, repo, fixtureRepo)
	write(t, repo, map[string]string{
		"h/loop.hx": "x = 1\n", "h/bomb.hx": "x = 1\n", "h/panic.hx": "x = 1\n",
		"h/trap.hx": "x = 1\n", "h/fine.hx": "def ok():\n    pass\n",
	})
	plugins := filepath.Join(repo, ".synaptic", "plugins")
	buildPlugin(t, repoRoot(), "./plugins/host/testdata/hostile", filepath.Join(plugins, "hostile"), "hostile.wasm", `name = "hostile"
version = "0.0.1"
kind = "extractor"
abi = 1
module = "hostile.wasm"

[[languages]]
name = "hx"
grammar = "python"
extensions = [".hx"]

[limits]
memory_pages = 512
timeout = "500ms"
`)
	write(t, plugins, map[string]string{
		"broken/plugin.toml": "name = \"broken\"\nversion = \"1\"\nkind = \"extractor\"\nabi = 1\nmodule = \"b.wasm\"\nextensionz = [\".b\"]\n",
		"pinned/plugin.toml": "name = \"pinned\"\nversion = \"1\"\nkind = \"extractor\"\nabi = 1\nmodule = \"p.wasm\"\nsha256 = \"" + strings.Repeat("0", 64) + "\"\n[[languages]]\nname = \"p\"\ngrammar = \"python\"\nextensions = [\".p\"]\n",
		"pinned/p.wasm":      "\x00asm\x01\x00\x00\x00",
	})
	out := run(t, repo, false, "extract", "--repo-plugins", ".")
	for _, want := range []string{
		"broken", "extensionz", // bad manifest named, with the key
		"pinned", "sha256", // pin mismatch reported
		"plugin-failed (4)", "h/loop.hx", "timeout", "h/bomb.hx", "memory", "h/panic.hx", "boom", "h/trap.hx",
		"go 3", // other plugins unaffected
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	g := parseGraph(t, filepath.Join(repo, "synaptic-out", "graph.json"))
	ok := false
	for _, n := range g.Nodes {
		if n.SourceFile == "h/fine.hx" && n.Kind == "file" {
			ok = true
		}
	}
	if !ok {
		t.Error("the well-behaved .hx file is missing from the graph")
	}
	if out := run(t, repo, true, "plugins", "--check", filepath.Join(plugins, "broken")); !strings.Contains(out, "extensionz") {
		t.Errorf("plugins --check did not name the bad key:\n%s", out)
	}
}

// TestCLICallQueryReport: the CLI runs the same tool catalog as serve.
func TestCLICallQueryReport(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "find_callers", "label=WithTax")
	if !strings.Contains(out, ".Total()") || !strings.Contains(out, "cart/cart.go") {
		t.Errorf("find_callers WithTax:\n%s", out)
	}
	out = run(t, root, false, "call", "get_source", "label=round")
	if !strings.Contains(out, "return x / 100") {
		t.Errorf("get_source round:\n%s", out)
	}
	out = run(t, root, true, "call", "get_node", "label=NoSuchThing")
	if !strings.Contains(strings.ToLower(out), "no node") && !strings.Contains(strings.ToLower(out), "not found") {
		t.Errorf("get_node on a missing name should explain:\n%s", out)
	}
	if out := run(t, root, true, "call", "find_callers", "lable=x"); !strings.Contains(out, `no argument "lable"`) {
		t.Errorf("misspelt argument not named:\n%s", out)
	}
	if out := run(t, root, false, "query", "tax", "price"); !strings.Contains(out, "WithTax") {
		t.Errorf("query:\n%s", out)
	}
	out = run(t, root, false, "report", "--out", "-")
	for _, want := range []string{"# Graph Report", "## God Nodes", "## Communities"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if out := run(t, root, true, "serve", "--graph", "nope/graph.json"); !strings.Contains(out, "synaptic extract") {
		t.Errorf("serve without a graph should point to extract:\n%s", out)
	}
}
