package graph

import (
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// BenchmarkCanonicalizeIndex is what every extraction does once resolution
// is done: sort the graph canonically, then index it for the communities.
// The records are shuffled afresh (untimed) before each iteration, as
// resolution leaves them in file order.
func BenchmarkCanonicalizeIndex(b *testing.B) {
	data, err := os.ReadFile(benchGraphPath(b))
	if err != nil {
		b.Fatal(err)
	}
	g0, err := Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var cpu time.Duration // of the timed part: on a shared machine, wall time is noise
	for b.Loop() {
		b.StopTimer()
		g := &Graph{Directed: true, Nodes: slices.Clone(g0.Nodes), Edges: slices.Clone(g0.Edges)}
		rng.Shuffle(len(g.Nodes), func(i, j int) { g.Nodes[i], g.Nodes[j] = g.Nodes[j], g.Nodes[i] })
		rng.Shuffle(len(g.Edges), func(i, j int) { g.Edges[i], g.Edges[j] = g.Edges[j], g.Edges[i] })
		runtime.GC()
		b.StartTimer()
		c0 := cputime.Process()
		g.Canonicalize()
		NewIndex(g)
		cpu += cputime.Process() - c0
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
