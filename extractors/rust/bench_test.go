//go:build !wasip1

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// corpusDirs are where crate sources live on a developer machine (cargo's
// registry) or on Debian (librust-*-dev packages).
func corpusDirs() []string {
	home, _ := os.UserHomeDir()
	return []string{filepath.Join(home, ".cargo", "registry", "src"), "/usr/share/cargo/registry"}
}

// maxCorpus bounds the corpus so the benchmark stays quick and its parsed
// trees (about 7× the source) stay small.
const maxCorpus = 8 << 20

type parsed struct {
	path         string
	records, src []byte
}

// corpus parses the .rs files of the first corpus directory found (or the
// fixtures when there is none) and returns them with the grammar.
func corpus(tb testing.TB) ([]parsed, *extract.Grammar, int64) {
	langs, err := plugintest.Languages(".")
	if err != nil {
		tb.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		tb.Fatal(err)
	}
	sg, _ := syntax.Lookup(langs[0].Grammar)
	p := syntax.NewParser()
	defer p.Close()
	var out []parsed
	var total int64
	add := func(path string, src []byte) {
		tree, err := p.Parse(sg, src, syntax.ParseOptions{})
		if err != nil {
			tb.Fatalf("parse %s: %v", path, err)
		}
		out = append(out, parsed{path, slices.Clone(tree.Records), src})
		total += int64(len(src))
	}
	for _, dir := range corpusDirs() {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || total > maxCorpus {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(path, ".rs") {
				if src, err := os.ReadFile(path); err == nil {
					add(path, src)
				}
			}
			return nil
		})
		if len(out) > 0 {
			break
		}
	}
	if len(out) == 0 {
		tb.Logf("no crate sources in %v; using the fixtures", corpusDirs())
		files, _ := filepath.Glob("testdata/*.txtar")
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			for _, af := range ar.Files {
				if strings.HasSuffix(af.Name, ".rs") {
					add(af.Name, af.Data)
				}
			}
		}
	}
	return out, extract.NewGrammar(&grammars[0]), total
}

// BenchmarkExtract measures extraction alone (parsing is done before the
// timer starts) over real crate sources, in source bytes per second:
// MB/s by the wall clock and cpu-MB/s by the benchmark thread's CPU time,
// which stays meaningful on a loaded machine.
func BenchmarkExtract(b *testing.B) {
	files, g, total := corpus(b)
	b.Logf("%d files, %d bytes", len(files), total)
	b.SetBytes(total)
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	for b.Loop() {
		for _, f := range files {
			if _, err := extract.Run(Extractor{}, g, f.path, f.records, f.src); err != nil {
				b.Fatal(err)
			}
		}
	}
	if cpu := threadCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(total)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// TestCorpus runs the extractor over the benchmark corpus: every file must
// extract without error and give valid facts.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	files, g, _ := corpus(t)
	for _, f := range files {
		if _, err := extract.Run(Extractor{}, g, f.path, f.records, f.src); err != nil {
			t.Errorf("%s: %v", f.path, err)
		}
	}
}
