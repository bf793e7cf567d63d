//go:build !wasip1

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestGolden runs every testdata/*.txtar through the extractor natively and
// compares the facts with the archive's golden "facts" section.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestNamedOnly: the manifest sets named_only, so facts must not depend on
// keyword or punctuation nodes.
func TestNamedOnly(t *testing.T) { plugintest.CheckNamedOnly(t, Extractor{}) }

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
