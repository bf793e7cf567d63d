//go:build !wasip1

package main

import (
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// BenchmarkExtract measures extraction alone (trees are parsed beforehand)
// over real npm code, per language. SYNAPTIC_BENCH_JS / SYNAPTIC_BENCH_TS
// override the corpus directories.
func BenchmarkExtract(b *testing.B) {
	corpora := []struct {
		name string
		exts []string
		env  string
		root []string
	}{
		{"javascript", []string{".js", ".mjs", ".cjs"}, "SYNAPTIC_BENCH_JS", []string{"/usr/lib/node_modules"}},
		{"typescript", []string{".ts", ".mts"}, "SYNAPTIC_BENCH_TS", []string{"../../.tools/conformance/node_modules", "/usr/lib/node_modules"}},
	}
	for _, k := range corpora {
		b.Run(k.name, func(b *testing.B) {
			roots := k.root
			if dir := os.Getenv(k.env); dir != "" {
				roots = []string{dir}
			}
			c := plugintest.NewCorpus(b)
			c.Max = 16 << 20
			for _, r := range roots {
				c.AddDir(r, k.exts...)
			}
			if c.Len() == 0 {
				b.Skipf("no %v files under %v", k.exts, roots)
			}
			c.Bench(b, Extractor{})
		})
	}
}
