package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutOfTreePluginResolvesLikeBuiltins builds the example extractor
// (sdk/example: Lua with LuaLS annotations in .toy files) from a folder
// of its own module that imports sdk/ only, drops it into a plugin
// directory, and runs the already-built binary over a repository holding
// the same program in toy and in Python. The plugin's cross-file import,
// its call through a module binding, its receiver calls (a local typed by
// a function's ---@return, self, an inherited method) and its inheritance
// must be linked at the tiers the built-in Python extractor gets for the
// same program (all EXTRACTED today: linked with proof, no name guess).
func TestOutOfTreePluginResolvesLikeBuiltins(t *testing.T) {
	needBin(t)
	src := t.TempDir()
	for _, name := range []string{"main.go", "plugin.toml"} {
		b, err := os.ReadFile(filepath.Join(repoRoot(), "sdk", "example", name))
		if err != nil {
			t.Fatal(err)
		}
		write(t, src, map[string]string{name: string(b)})
	}
	write(t, src, map[string]string{
		"go.mod": "module toy\n\ngo 1.26\n\nrequire github.com/synaptic-graph/synaptic v0.0.0\n\nreplace github.com/synaptic-graph/synaptic => " + repoRoot() + "\n",
	})
	if gosum, err := os.ReadFile(filepath.Join(repoRoot(), "go.sum")); err == nil {
		write(t, src, map[string]string{"go.sum": string(gosum)})
	}
	plugins := t.TempDir()
	manifest, err := os.ReadFile(filepath.Join(src, "plugin.toml"))
	if err != nil {
		t.Fatal(err)
	}
	buildPlugin(t, src, ".", filepath.Join(plugins, "toy"), "toy.wasm", string(manifest))

	repo := t.TempDir()
	write(t, repo, map[string]string{
		"lib/shapes.toy": `---@class Shape
local Shape = {}

function Shape:describe() return "shape" end

---@class Square : Shape
local Square = {}

---@return Square
function new_square(w) return w end

function Square:side() return 1 end

function Square:area() return self:side() * 2 end
`,
		"app/main.toy": `local shapes = require("lib.shapes")

function run()
  local sq = shapes.new_square(2)
  sq:describe()
  return sq:area()
end
`,
		"lib/shapes.py": `class Shape:
    def describe(self):
        return "shape"


class Square(Shape):
    def side(self):
        return 1

    def area(self):
        return self.side() * 2


def new_square(w) -> Square:
    return Square()
`,
		"app/main.py": `from lib import shapes


def run():
    sq = shapes.new_square(2)
    sq.describe()
    return sq.area()
`,
		"lib/__init__.py": "", "app/__init__.py": "",
	})
	out := run(t, repo, false, "extract", "--plugins", plugins, ".")
	if !strings.Contains(out, "toy 2") {
		t.Errorf("extract did not route the .toy files to the plugin:\n%s", out)
	}
	g := parseGraph(t, filepath.Join(repo, "synaptic-out", "graph.json"))

	// tier finds the confidence of the edge rel from the node labelled
	// from in fromFile to the node labelled to in toFile ("" if none).
	tier := func(fromFile, from, rel, toFile, to string) string {
		ids := func(file, label string) map[string]bool {
			m := map[string]bool{}
			for _, n := range g.Nodes {
				if n.SourceFile == file && (n.Label == label || label == "" && n.Kind == "file") {
					m[n.ID] = true
				}
			}
			return m
		}
		src, dst := ids(fromFile, from), ids(toFile, to)
		for _, l := range g.Links {
			if src[l.Source] && dst[l.Target] && l.Relation == rel {
				return l.Confidence
			}
		}
		return ""
	}
	for _, tc := range []struct {
		what            string
		rel             string
		from, to        string // labels; "" is the file node
		fromFile, toRel string // toRel: the target's file relative to lib/ or app/, without extension
	}{
		{"cross-file import", "imports_from", "", "", "app/main", "lib/shapes"},
		{"call through the module binding", "calls", "run()", "new_square()", "app/main", "lib/shapes"},
		{"receiver typed by the callee's result", "calls", "run()", ".area()", "app/main", "lib/shapes"},
		{"inherited method through that receiver", "calls", "run()", ".describe()", "app/main", "lib/shapes"},
		{"self", "calls", ".area()", ".side()", "lib/shapes", "lib/shapes"},
		{"inheritance", "inherits", "Square", "Shape", "lib/shapes", "lib/shapes"},
	} {
		toy := tier(tc.fromFile+".toy", tc.from, tc.rel, tc.toRel+".toy", tc.to)
		py := tier(tc.fromFile+".py", tc.from, tc.rel, tc.toRel+".py", tc.to)
		if py == "" {
			t.Errorf("%s: the built-in Python extractor has no %s edge %q -> %q; the comparison is void", tc.what, tc.rel, tc.from, tc.to)
			continue
		}
		if toy != py {
			t.Errorf("%s: the toy plugin's %s edge %q -> %q is %q, the built-in Python one %q", tc.what, tc.rel, tc.from, tc.to, toy, py)
		}
	}
	if t.Failed() {
		for _, l := range g.Links {
			if l.Relation != "contains" && l.Relation != "method" {
				t.Logf("edge %s -%s-> %s (%s)", l.Source, l.Relation, l.Target, l.Confidence)
			}
		}
	}
}

// TestParseCommand: `synaptic parse` routes by the plugin's manifest and
// refuses what it cannot do with a message naming the file and the fix.
func TestParseCommand(t *testing.T) {
	needBin(t)
	dir := t.TempDir()
	write(t, dir, map[string]string{"a.toy": "print(1)\n", "b.lua": "print(2)\n", "c.toy": "x\x00\xff(", "d.go": "package d\n"})
	example := filepath.Join(repoRoot(), "sdk", "example")
	out := run(t, dir, false, "parse", "--plugin", example, "-o", "trees.bin", "a.toy", "c.toy")
	if b, err := os.ReadFile(filepath.Join(dir, "trees.bin")); err != nil || !strings.HasPrefix(string(b), "synaptic-trees 1\n") {
		t.Errorf("no trees written (%v):\n%s", err, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"parse", "--plugin", example, "b.lua"}, "b.lua: no language of plugin toy claims it (it routes .toy)"},
		{[]string{"parse", "--plugin", filepath.Join(dir, "nowhere"), "a.toy"}, "no plugin.toml"},
		{[]string{"parse", "--plugin", example, "missing.toy"}, "missing.toy"},
		{[]string{"parse", "a.toy"}, "need --plugin DIR"},
	} {
		if out := run(t, dir, true, tc.args...); !strings.Contains(out, tc.want) {
			t.Errorf("synaptic %s: want %q in:\n%s", strings.Join(tc.args, " "), tc.want, out)
		}
	}
	if out := run(t, dir, false, "parse", "--help"); !strings.Contains(out, "sdk/extracttest") {
		t.Errorf("parse --help:\n%s", out)
	}
}

// TestOffVocabularyFactsDropped: a plugin reporting a symbol kind, a
// visibility, a relation kind and a context outside sdk/abi's vocabulary
// gets those facts left out of the graph, and extract's summary names the
// plugin and the file.
func TestOffVocabularyFactsDropped(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	write(t, repo, map[string]string{"h/vocab.hx": "x = 1\n"})
	plugins := t.TempDir()
	buildPlugin(t, repoRoot(), "./plugins/host/testdata/hostile", filepath.Join(plugins, "hostile"), "hostile.wasm", `name = "hostile"
version = "0.0.1"
kind = "extractor"
abi = 1
module = "hostile.wasm"

[[languages]]
name = "hx"
grammar = "python"
extensions = [".hx"]
`)
	out := run(t, repo, false, "extract", "--plugins", plugins, ".")
	for _, want := range []string{"h/vocab.hx", "plugin hostile reported words outside the fact vocabulary", `symbol kind "klass"`} { // the summary clips a long note
		if !strings.Contains(out, want) {
			t.Errorf("extract output lacks %q:\n%s", want, out)
		}
	}
	g := parseGraph(t, filepath.Join(repo, "synaptic-out", "graph.json"))
	kept := false
	for _, n := range g.Nodes {
		if n.SourceFile == "h/vocab.hx" && (n.Label == "Bad" || n.Label == "odd" || n.Kind == "klass") {
			t.Errorf("off-vocabulary symbol in the graph: %+v", n)
		}
		kept = kept || n.SourceFile == "h/vocab.hx" && n.Label == ".ok()"
	}
	if !kept {
		t.Error("the well-formed method ok() of the same file is missing")
	}
}
