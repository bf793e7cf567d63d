package host

import (
	"context"
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/trees"
)

// BenchmarkGuestTrees runs a real plugin over real parsed files, one
// worker, so the figure is the guest's own cost per file set. Make the
// trees with `synaptic parse --plugin DIR -o FILE …`:
//
//	SYNAPTIC_BENCH_PLUGIN=bin/plugins/golang SYNAPTIC_BENCH_TREES=go.trees \
//	  go test -run '^$' -bench GuestTrees -benchtime 5x ./plugins/host
//
// Quote its median next to `synaptic parse`'s time for the same files: the
// guest's share of a run's per-file cost. (It showed that pacing a Go
// guest's collector by a soft memory limit doubles its cost.)
func BenchmarkGuestTrees(b *testing.B) {
	dir, file := os.Getenv("SYNAPTIC_BENCH_PLUGIN"), os.Getenv("SYNAPTIC_BENCH_TREES")
	if dir == "" || file == "" {
		b.Skip("set SYNAPTIC_BENCH_PLUGIN and SYNAPTIC_BENCH_TREES")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	set, err := trees.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	m, err := manifest.Load(dir)
	if err != nil {
		b.Fatal(err)
	}
	var bytes int64
	for _, f := range set.Files {
		bytes += int64(len(f.Source))
	}
	h := newHost(b, Options{})
	p, err := h.Load(context.Background(), m, set.Grammars)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(bytes)
	ctx := context.Background()
	for b.Loop() {
		for _, f := range set.Files {
			if _, err := p.Extract(ctx, 0, f.Path, f.Grammar, f.Records, f.Source); err != nil {
				b.Fatalf("%s: %v", f.Path, err)
			}
		}
	}
	b.ReportMetric(float64(p.Stats().Recycled), "recycled")
}
