package graph

import (
	"io"
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// BenchmarkWriteGoroot encodes the GOROOT/src graph as graph.json (what
// every extraction writes), to io.Discard: the encoding alone, on the
// cores GOMAXPROCS gives it.
func BenchmarkWriteGoroot(b *testing.B) {
	data, err := os.ReadFile(benchGraphPath(b))
	if err != nil {
		b.Fatal(err)
	}
	g, err := Parse(data)
	if err != nil {
		b.Fatal(err)
	}
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
