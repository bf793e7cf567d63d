package analysis

import (
	"testing"
	"weak"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// The benchmarks run on the real Go standard library graph when
// /tmp/gosrc-out/graph.json (or $SYNAPTIC_BIG_GRAPH) exists, else on a
// synthetic graph; loading is not timed.
//
//	go test ./core/analysis -run '^$' -bench . -benchtime 3x -cpu 2

func BenchmarkCommunities(b *testing.B) {
	x, name := bigIndex(b)
	b.Logf("graph: %s, %d nodes, %d edges", name, x.Len(), len(x.G.Edges))
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		partitionOf(x, nil)
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAnalyze times everything extraction and the report compute:
// communities, the top 10 god nodes with their test reach, surprises,
// questions, import cycles, the audit and isolated symbols.
func BenchmarkAnalyze(b *testing.B) {
	x, _ := bigIndex(b)
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		cache.Delete(weak.Make(x)) // nothing carried over between iterations
		analyze(x)
	}
	b.ReportMetric(float64(cputime.Process()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

func analyze(x *graph.Index) {
	Communities(x, nil)
	GodNodes(x, 10, 0)
	Surprises(x, 5)
	Questions(x)
	ImportCycles(x, 5)
	ConfidenceAudit(x)
	Isolated(x)
}
