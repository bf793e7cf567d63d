//go:build !wasip1

package main

import (
	"os"
	"testing"

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
func BenchmarkParse(b *testing.B) { corpus(b).BenchParse(b) }

// TestCorpus: every corpus file extracts without error and gives valid facts.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	corpus(t).Check(t, Extractor{})
}
