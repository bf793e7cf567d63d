//go:build !wasip1

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// corpus is real crate sources: cargo's registry on a developer machine,
// librust-*-dev packages on Debian, else the fixtures.
func corpus(tb testing.TB) *plugintest.Corpus {
	c := plugintest.NewCorpus(tb)
	home, _ := os.UserHomeDir()
	for _, dir := range []string{filepath.Join(home, ".cargo", "registry", "src"), "/usr/share/cargo/registry"} {
		if c.AddDir(dir); c.Len() > 0 {
			break
		}
	}
	if c.Len() == 0 {
		c.AddFixtures()
	}
	return c
}

// BenchmarkExtract measures extraction alone over real crate sources.
func BenchmarkExtract(b *testing.B) { corpus(b).Bench(b, Extractor{}) }

// TestCorpus: every corpus file extracts without error and gives valid facts.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	corpus(t).Check(t, Extractor{})
}
