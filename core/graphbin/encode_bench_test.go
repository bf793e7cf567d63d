package graphbin

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// BenchmarkEncodeBody is the sidecar encoding of every extraction, on
// $SYNAPTIC_BENCH_GRAPH (or the fixture): "map" looks endpoints up by id,
// "index" takes them from the index extract built for the communities.
func BenchmarkEncodeBody(b *testing.B) {
	path := fixtures[len(fixtures)-1]
	_, g := parseFixture(b, path)
	b.Run("map", func(b *testing.B) {
		for b.Loop() {
			EncodeBody(g)
		}
	})
	x := graph.NewIndex(g)
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			EncodeBodyIndexed(x)
		}
	})
}
