//go:build !wasip1

package main

import (
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// corpus is a real ruby tree named by RUBY_CORPUS (the fixtures when unset).
func corpus(b *testing.B) *plugintest.Corpus {
	c := plugintest.NewCorpus(b)
	if dir := os.Getenv("RUBY_CORPUS"); dir != "" {
		c.AddDir(dir)
	}
	if c.Len() == 0 {
		c.AddFixtures()
	}
	return c
}

// BenchmarkExtract measures extraction alone over the corpus.
func BenchmarkExtract(b *testing.B) { corpus(b).Bench(b, Extractor{}) }

// BenchmarkExtractWasm is BenchmarkExtract through the built plugin.
func BenchmarkExtractWasm(b *testing.B) { corpus(b).BenchWasm(b) }

// BenchmarkParse is tree-sitter parsing alone over the same files, the
// figure extraction is compared with.
func BenchmarkParse(b *testing.B) { corpus(b).BenchParse(b) }
