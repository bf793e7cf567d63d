//go:build !wasip1

package main

import (
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// BenchmarkExtract measures extraction alone over a real php tree named
// by PHP_CORPUS (the fixtures when unset).
func BenchmarkExtract(b *testing.B) {
	c := plugintest.NewCorpus(b)
	if dir := os.Getenv("PHP_CORPUS"); dir != "" {
		c.AddDir(dir)
	}
	if c.Len() == 0 {
		c.AddFixtures()
	}
	c.Bench(b, Extractor{})
}
