//go:build !wasip1

package main

import (
	"archive/zip"
	"io"
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

// jdkSources returns the src.zip of an installed JDK, "" if none: the
// JDK's own classes are a large, realistic Java corpus.
func jdkSources() string {
	var candidates []string
	if home := os.Getenv("JAVA_HOME"); home != "" {
		candidates = append(candidates, filepath.Join(home, "lib", "src.zip"))
	}
	globbed, _ := filepath.Glob("/usr/lib/jvm/*/lib/src.zip")
	candidates = append(candidates, globbed...)
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return ""
}

// corpusPrefixes pick packages of the JDK with classes of every shape:
// collections and concurrency (generics, nested and anonymous classes,
// lambdas) and the core language classes.
var corpusPrefixes = []string{"java.base/java/util/", "java.base/java/lang/"}

// maxCorpus bounds the corpus so the benchmark stays quick and its parsed
// trees (about 7× the source) stay small.
const maxCorpus = 8 << 20

type parsed struct {
	path         string
	records, src []byte
}

// corpus parses the JDK sources (or the fixtures when no JDK is installed)
// and returns them with the grammar.
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
	if zipPath := jdkSources(); zipPath != "" {
		zr, err := zip.OpenReader(zipPath)
		if err != nil {
			tb.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if total > maxCorpus || !strings.HasSuffix(f.Name, ".java") || !hasPrefix(f.Name, corpusPrefixes) {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				tb.Fatal(err)
			}
			src, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				tb.Fatal(err)
			}
			add(f.Name, src)
		}
	}
	if len(out) == 0 {
		tb.Logf("no JDK src.zip found; using the fixtures")
		files, _ := filepath.Glob("testdata/*.txtar")
		for _, f := range files {
			ar, err := txtar.ParseFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			for _, af := range ar.Files {
				if strings.HasSuffix(af.Name, ".java") {
					add(af.Name, af.Data)
				}
			}
		}
	}
	return out, extract.NewGrammar(&grammars[0]), total
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// BenchmarkExtract measures extraction alone (parsing is done before the
// timer starts) over the JDK's sources, in source bytes per second:
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
