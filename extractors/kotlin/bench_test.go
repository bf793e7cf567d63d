//go:build !wasip1

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// corpusEnv names a folder of real kotlin sources to measure on (for example
// a package unpacked from the registries); without it the fixtures are
// the corpus.
const corpusEnv = "SYNAPTIC_KOTLIN_CORPUS"

func corpus(tb testing.TB) *plugintest.Corpus {
	c := plugintest.NewCorpus(tb)
	if dir := os.Getenv(corpusEnv); dir != "" {
		c.AddDir(dir, ".kt")
	}
	if c.Len() == 0 {
		c.AddFixtures()
	}
	return c
}

// BenchmarkExtract measures extraction alone (the tree already parsed).
func BenchmarkExtract(b *testing.B) { corpus(b).Bench(b, Extractor{}) }

// BenchmarkExtractWasm measures the built plugin in the real sandbox.
func BenchmarkExtractWasm(b *testing.B) { corpus(b).BenchWasm(b) }

// BenchmarkParse is tree-sitter parsing alone over the same files, the
// figure extraction is compared with.
func BenchmarkParse(b *testing.B) {
	srcs := corpusSources(b)
	g, ok := syntax.Lookup("kotlin")
	if !ok {
		b.Skip("no kotlin grammar")
	}
	p := syntax.NewParser()
	defer p.Close()
	var n int64
	for _, s := range srcs {
		n += int64(len(s))
	}
	b.SetBytes(n)
	for b.Loop() {
		for _, s := range srcs {
			if _, err := p.Parse(g, s, syntax.ParseOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// corpusSources are the bytes of the corpus folder's .kt files, up to
// the 8 MiB a Corpus holds; the benchmark skips without a folder.
func corpusSources(tb testing.TB) [][]byte {
	dir := os.Getenv(corpusEnv)
	if dir == "" {
		tb.Skip("set " + corpusEnv + " to a folder of sources")
	}
	var out [][]byte
	total := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".kt") && total < 8<<20 {
			if src, err := os.ReadFile(p); err == nil && len(src) <= 1<<20 {
				out, total = append(out, src), total+len(src)
			}
		}
		return nil
	})
	return out
}

// TestCorpus: every corpus file extracts without error and gives valid facts.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	corpus(t).Check(t, Extractor{})
}
