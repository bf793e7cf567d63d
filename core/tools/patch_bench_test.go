package tools

import (
	"os"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// BenchmarkPatchSnapshot is serve's provisional update after a one-file
// edit, without the extraction: graph.Apply of the file's own nodes and
// edges plus one new function, then the snapshot the catalog serves;
// rebuilt from scratch, carried over (ApplyIndexed, SetPatched), and in
// place (Catalog.Patch).
// The graph is $SYNAPTIC_BENCH_GRAPH (e.g. the GOROOT/src graph.json).
//
//	SYNAPTIC_BENCH_GRAPH=/path/graph.json go test -run '^$' -bench BenchmarkPatchSnapshot ./core/tools
func BenchmarkPatchSnapshot(b *testing.B) {
	path := os.Getenv("SYNAPTIC_BENCH_GRAPH")
	if path == "" {
		b.Skip("SYNAPTIC_BENCH_GRAPH not set")
	}
	g, err := graph.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	const file = "time/format.go"
	p := graph.Patch{Files: map[string]bool{file: true}}
	for _, n := range g.Nodes {
		if n.SourceFile == file {
			p.Nodes = append(p.Nodes, n)
		}
	}
	for _, e := range g.Edges {
		if e.SourceFile == file {
			p.Edges = append(p.Edges, e)
		}
	}
	fresh := p.Nodes[0]
	fresh.ID, fresh.Label = fresh.ID+"_bench", "BenchFresh()"
	p.Nodes = append(p.Nodes, fresh)
	b.Run("in-place", func(b *testing.B) {
		// Catalog.Patch with no reader, as serve patches: records moved
		// inside the graph's arrays once makeRoom gave them spare room.
		c := New(Options{})
		c.SetGraph(g)
		c.current().queryIndex() // the background build holds a pin: wait it out
		x, _ := c.Index().G.ApplyIndexed(graph.Patch{}, c.Index())
		x.PreparePatches()
		c.SetPatched(x)
		inPlace := 0
		time.Sleep(100 * time.Millisecond) // the build's goroutine unpins
		for b.Loop() {
			st, _, err := c.Patch(p)
			if err != nil {
				b.Fatal(err)
			}
			if st.InPlace {
				inPlace++
			}
		}
		b.ReportMetric(float64(inPlace)/float64(b.N), "in-place/op")
	})
	for _, carried := range []bool{false, true} {
		name := "rebuilt"
		if carried {
			name = "carried"
		}
		b.Run(name, func(b *testing.B) {
			c := New(Options{})
			c.SetGraph(g)
			var apply, snap time.Duration
			for b.Loop() {
				s := c.current()
				t0 := time.Now()
				if carried {
					x, _ := s.g.ApplyIndexed(p, s.x)
					t1 := time.Now()
					c.SetPatched(x)
					apply += t1.Sub(t0)
					snap += time.Since(t1)
					continue
				}
				ng, _ := s.g.Apply(p, s.x)
				t1 := time.Now()
				c.snap.Store(newSnapshot(ng, Options{}))
				apply += t1.Sub(t0)
				snap += time.Since(t1)
			}
			b.ReportMetric(float64(apply.Microseconds())/1000/float64(b.N), "apply-ms")
			b.ReportMetric(float64(snap.Microseconds())/1000/float64(b.N), "snapshot-ms")
		})
	}
}
