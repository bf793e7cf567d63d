//go:build !wasip1

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs every testdata/*.txtar through the extractor natively and
// compares the facts with the archive's golden "facts" section.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestNamedOnly: the manifest sets named_only, so facts must not depend on
// keyword or punctuation nodes.
func TestNamedOnly(t *testing.T) { plugintest.CheckNamedOnly(t, Extractor{}) }

// BenchmarkExtract measures extraction alone over the Python standard
// library's top-level modules (PYTHON_CORPUS overrides the directory).
func BenchmarkExtract(b *testing.B) {
	dir := os.Getenv("PYTHON_CORPUS")
	if dir == "" {
		dir = "/root/.pyenv/versions/3.11.7/lib/python3.11"
		if m, _ := filepath.Glob("/usr/lib/python3*/"); len(m) > 0 {
			if _, err := os.Stat(dir); err != nil {
				dir = m[0]
			}
		}
	}
	c := plugintest.NewCorpus(b)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			c.Add(p, src)
		}
	}
	if c.Len() == 0 {
		c.AddFixtures()
	}
	c.Bench(b, Extractor{})
}

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLongAttributeChains: receiver types follow at most maxChain links of
// self.a.b.…, however long the chain.
func TestLongAttributeChains(t *testing.T) {
	src := "class C:\n    def m(self):\n        self" + plugintest.Chain(".a%d", 3000) +
		".run()\n        self.b.stop()\n"
	plugintest.CheckBoundedChain(t, Extractor{}, "chain.py", src, "stop", "C#b")
}
