//go:build !wasip1

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestGolden runs every testdata/*.txtar through the extractor natively and
// compares the facts with the archive's golden "facts" section.
func TestGolden(t *testing.T) {
	langs, err := plugintest.Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	plugintest.Run(t, ".", langs, plugintest.Native(Extractor{}, grammars))
}

// TestNamedOnly checks that the extractor gives the same facts when the host
// sends named nodes only (plugin.toml [options] named_only), which the
// golden harness does not exercise: the extractor must never depend on
// punctuation or keyword tokens.
func TestNamedOnly(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	g, gr := pythonGrammar(t)
	p := syntax.NewParser()
	defer p.Close()
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "facts" {
				continue
			}
			var dumps [2]string
			for i, named := range []bool{false, true} {
				tree, err := p.Parse(g, f.Data, syntax.ParseOptions{NamedOnly: named})
				if err != nil {
					t.Fatal(err)
				}
				facts, err := extract.Run(Extractor{}, gr, f.Name, tree.Records, f.Data)
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				dumps[i] = plugintest.Dump(facts)
			}
			if dumps[0] != dumps[1] {
				t.Errorf("%s/%s: named-only facts differ:\nfull:\n%s\nnamed only:\n%s", file, f.Name, dumps[0], dumps[1])
			}
		}
	}
}

// pythonGrammar returns the host grammar and the guest view of it.
func pythonGrammar(tb testing.TB) (*syntax.Grammar, *extract.Grammar) {
	tb.Helper()
	g, ok := syntax.Lookup("python")
	if !ok {
		tb.Fatal("no python grammar")
	}
	return g, extract.NewGrammar(&abi.Grammar{Language: "python", Name: g.Name, Kinds: g.Kinds, Named: g.Named, Fields: g.Fields})
}

// BenchmarkExtract measures extraction alone over the Python standard
// library's top-level modules (parsed before the timer starts); b.SetBytes
// makes the MB/s figure source bytes extracted per second.
func BenchmarkExtract(b *testing.B) {
	dir := os.Getenv("PYTHON_CORPUS")
	if dir == "" {
		for _, d := range []string{"/root/.pyenv/versions/3.11.7/lib/python3.11"} {
			if _, err := os.Stat(d); err == nil {
				dir = d
			}
		}
		if m, _ := filepath.Glob("/usr/lib/python3*/"); dir == "" && len(m) > 0 {
			dir = m[0]
		}
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	if len(paths) == 0 {
		b.Skip("no Python corpus; set PYTHON_CORPUS to a directory of .py files")
	}
	g, gr := pythonGrammar(b)
	p := syntax.NewParser()
	defer p.Close()
	type file struct {
		path         string
		records, src []byte
	}
	var files []file
	var total int64
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		tree, err := p.Parse(g, src, syntax.ParseOptions{})
		if err != nil {
			continue
		}
		files = append(files, file{path, slices.Clone(tree.Records), src})
		total += int64(len(src))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	cpu0 := processCPU()
	for b.Loop() {
		for _, f := range files {
			if _, err := extract.Run(Extractor{}, gr, f.path, f.records, f.src); err != nil {
				b.Fatalf("%s: %v", f.path, err)
			}
		}
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(total)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
	b.ReportMetric(float64(len(files)), "files")
}

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }
