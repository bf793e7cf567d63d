//go:build !wasip1

package main

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestGolden runs every testdata/*.txtar fixture through the extractor
// natively and compares the facts with the golden section.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestTruncated feeds every fixture source cut at many points (so most cuts
// leave syntax errors and MISSING nodes) through the extractor: it must
// never fail and its facts must always validate.
func TestTruncated(t *testing.T) {
	langs, err := plugintest.Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("testdata/*.txtar")
	p := syntax.NewParser()
	defer p.Close()
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			li := slices.IndexFunc(langs, func(l plugintest.Language) bool { return slices.Contains(l.Extensions, path.Ext(f.Name)) })
			if li < 0 {
				continue
			}
			g, _ := syntax.Lookup(grammars[li].Name)
			eg := extract.NewGrammar(&grammars[li])
			for cut := 0; cut <= len(f.Data); cut += 7 {
				src := f.Data[:cut]
				tree, err := p.Parse(g, src, syntax.ParseOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := extract.Run(Extractor{}, eg, f.Name, slices.Clone(tree.Records), src); err != nil {
					t.Fatalf("%s cut at %d: %v", f.Name, cut, err)
				}
			}
		}
	}
}

func TestCollapse(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"a":                "a",
		"  a  b ":          "a b",
		"f(a,\n\t  b)":     "f(a, b)",
		"x\r\n=>\n\n y":    "x => y",
		"already one line": "already one line",
	} {
		if got := collapse([]byte(in)); got != want {
			t.Errorf("collapse(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReceiver(t *testing.T) {
	if got := receiver([]byte("this.a\n  .b")); got != "this.a.b" { // a chain split over lines joins
		t.Errorf("got %q", got)
	}
	long := strings.Repeat("x", maxReceiver-1) + "é" + strings.Repeat("y", 10)
	got := receiver([]byte(long))
	if want := strings.Repeat("x", maxReceiver-3) + "..."; got != want {
		t.Errorf("long receiver cut at a rune boundary: got %q, want %q", got, want)
	}
}

func TestSkipType(t *testing.T) {
	for _, name := range []string{"string", "undefined", "symbol", "Promise", "Record"} {
		if !skipType(name) {
			t.Errorf("%s should be skipped", name)
		}
	}
	for _, name := range []string{"User", "models.User", "Error", "Date", "Strings"} {
		if skipType(name) {
			t.Errorf("%s should be a reference", name)
		}
	}
}

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLongChains: receiver types follow at most maxTypeDepth links,
// however long the chain.
func TestLongChains(t *testing.T) {
	src := "class C {\n  run(): void {\n    this" + plugintest.Chain(".m%d()", 3000) +
		";\n    this.a.b.c();\n  }\n}\n"
	plugintest.CheckBoundedChain(t, Extractor{}, "chain.ts", src, "c", "C#a#b")
}
