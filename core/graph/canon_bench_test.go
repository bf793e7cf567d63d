package graph

import (
	"cmp"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// BenchmarkCanonicalizeIndex is what every extraction does once resolution
// is done: sort the graph canonically, then index it for the communities.
// The records are shuffled afresh (untimed) before each iteration, as
// resolution leaves them in file order.
func BenchmarkCanonicalizeIndex(b *testing.B) {
	g0, _ := parseBenchGraph(b)
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

// BenchmarkCanonicalizeResolved times Canonicalize alone on records laid
// out as resolution leaves them: each site of a merged edge split back
// into a duplicate edge, and nodes and edges in source-file order (then
// line), not id order. Its cpu-ms/op is the figure to compare builds by.
func BenchmarkCanonicalizeResolved(b *testing.B) {
	g0, _ := parseBenchGraph(b)
	nodes, edges := resolvedOrder(g0)
	b.ReportAllocs()
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		g := &Graph{Directed: true, Nodes: slices.Clone(nodes), Edges: slices.Clone(edges)}
		runtime.GC()
		b.StartTimer()
		c0 := cputime.Process()
		g.Canonicalize()
		cpu += cputime.Process() - c0
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// resolvedOrder returns g's nodes and edges as a resolver would make
// them: sites split into duplicate edges, everything in file order.
func resolvedOrder(g *Graph) ([]Node, []Edge) {
	nodes := slices.Clone(g.Nodes)
	slices.SortStableFunc(nodes, func(a, b Node) int {
		return cmp.Or(strings.Compare(a.SourceFile, b.SourceFile), compareLocation(a.SourceLocation, b.SourceLocation))
	})
	var edges []Edge
	for _, e := range g.Edges {
		sites := e.Sites
		e.Sites = nil
		edges = append(edges, e)
		for _, s := range sites {
			e.SourceFile, e.SourceLocation = s.SourceFile, s.SourceLocation
			edges = append(edges, e)
		}
	}
	slices.SortStableFunc(edges, func(a, b Edge) int {
		return cmp.Or(strings.Compare(a.SourceFile, b.SourceFile), compareLocation(a.SourceLocation, b.SourceLocation))
	})
	return nodes, edges
}
