package graph

import (
	"io"
	"testing"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// BenchmarkWriteGoroot encodes the GOROOT/src graph as graph.json (what
// every extraction writes), to io.Discard: the encoding alone, on the
// cores GOMAXPROCS gives it.
func BenchmarkWriteGoroot(b *testing.B) {
	g, data := parseBenchGraph(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		if err := Write(io.Discard, g); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}
