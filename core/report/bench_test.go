package report

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// BenchmarkWrite is GRAPH_REPORT.md as extract makes it: on a fresh index
// whose communities are already computed (not timed), on the graph of
// $(go env GOROOT)/src at $SYNAPTIC_BIG_GRAPH (default
// /tmp/gosrc-out/graph.json). cpu-ms/op is the figure to compare on a
// shared machine.
//
//	SYNAPTIC_BIG_GRAPH=… go test ./core/report -run '^$' -bench Write -benchtime 3x
func BenchmarkWrite(b *testing.B) {
	p := os.Getenv("SYNAPTIC_BIG_GRAPH")
	if p == "" {
		p = "/tmp/gosrc-out/graph.json"
	}
	g, err := graph.ReadFile(p)
	if err != nil {
		b.Skipf("no benchmark graph: %v", err)
	}
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := graph.NewIndex(g)
		comms := analysis.Communities(x, nil)
		b.StartTimer()
		c0 := cputime.Process()
		if err := Write(io.Discard, Input{Graph: g, Index: x, Communities: comms}); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - c0
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
