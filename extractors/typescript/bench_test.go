//go:build !wasip1

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// benchCorpusBytes caps each corpus so a run stays short and its parsed
// trees fit comfortably in memory.
const benchCorpusBytes = 16 << 20

type parsed struct {
	path            string
	records, source []byte
}

// loadCorpus parses up to benchCorpusBytes of files with one of exts under
// roots (in walk order, so runs are comparable) outside the timer.
func loadCorpus(b *testing.B, grammar string, exts []string, roots ...string) (*extract.Grammar, []parsed, int64) {
	g, ok := syntax.Lookup(grammar)
	if !ok {
		b.Fatalf("no grammar %s", grammar)
	}
	p := syntax.NewParser()
	defer p.Close()
	var files []parsed
	var total int64
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || total >= benchCorpusBytes {
				return filepath.SkipDir
			}
			if d.IsDir() || !hasSuffix(path, exts) {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil || len(src) > 1<<20 {
				return nil
			}
			tree, err := p.Parse(g, src, syntax.ParseOptions{})
			if err != nil {
				return nil
			}
			files = append(files, parsed{path, tree.Clone().Records, src})
			total += int64(len(src))
			return nil
		})
	}
	if len(files) == 0 {
		b.Skipf("no %v files under %v", exts, roots)
	}
	eg := extract.NewGrammar(&abi.Grammar{Language: grammar, Name: g.Name, Kinds: g.Kinds, Named: g.Named, Fields: g.Fields})
	return eg, files, total
}

func hasSuffix(path string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(path, e) {
			return true
		}
	}
	return false
}

// BenchmarkExtract measures extraction alone (trees are parsed beforehand)
// over real npm code: MB/s is source bytes extracted per wall-clock second,
// cpu-MB/s per second of process CPU time (robust to a busy machine).
// SYNAPTIC_BENCH_JS / SYNAPTIC_BENCH_TS override the corpus directories.
func BenchmarkExtract(b *testing.B) {
	corpora := []struct {
		name, grammar string
		exts          []string
		env           string
		roots         []string
	}{
		{"javascript", "javascript", []string{".js", ".mjs", ".cjs"}, "SYNAPTIC_BENCH_JS", []string{"/usr/lib/node_modules"}},
		{"typescript", "typescript", []string{".ts", ".mts"}, "SYNAPTIC_BENCH_TS", []string{"../../.tools/conformance/node_modules", "/usr/lib/node_modules"}},
	}
	for _, c := range corpora {
		b.Run(c.name, func(b *testing.B) {
			roots := c.roots
			if dir := os.Getenv(c.env); dir != "" {
				roots = []string{dir}
			}
			g, files, total := loadCorpus(b, c.grammar, c.exts, roots...)
			b.SetBytes(total)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuSeconds()
			for range b.N {
				for _, f := range files {
					if _, err := extract.Run(Extractor{}, g, f.path, f.records, f.source); err != nil {
						b.Fatal(err)
					}
				}
			}
			if used := cpuSeconds() - cpu; used > 0 {
				b.ReportMetric(float64(total)*float64(b.N)/used/1e6, "cpu-MB/s")
			}
			b.ReportMetric(float64(len(files)), "files")
		})
	}
}
