package graphbin

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// BenchmarkEncodeBody is the sidecar encoding of every extraction, on
// $SYNAPTIC_BENCH_GRAPH (or the fixture): "map" looks endpoints up by id,
// "index" takes them from the index extract built for the communities.
// cpu-ms/op is the figure to compare on a shared machine.
func BenchmarkEncodeBody(b *testing.B) {
	path := fixtures[len(fixtures)-1]
	_, g := parseFixture(b, path)
	b.Run("map", func(b *testing.B) {
		c0 := cputime.Process()
		for b.Loop() {
			EncodeBody(g)
		}
		b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
	})
	x := graph.NewIndex(g)
	b.Run("index", func(b *testing.B) {
		c0 := cputime.Process()
		for b.Loop() {
			EncodeBodyIndexed(x)
		}
		b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
	})
}
