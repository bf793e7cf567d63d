package analysis

import (
	"syscall"
	"testing"
	"time"
	"weak"

	"github.com/synaptic-graph/synaptic/core/graph"
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
	c0 := cpuTime()
	for b.Loop() {
		partitionOf(x, nil)
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAnalyze times everything extraction and the report compute:
// communities, the top 10 god nodes with their test reach, surprises,
// questions, import cycles, the audit and isolated symbols.
func BenchmarkAnalyze(b *testing.B) {
	x, _ := bigIndex(b)
	b.ResetTimer()
	c0 := cpuTime()
	for b.Loop() {
		cache.Delete(weak.Make(x)) // nothing carried over between iterations
		analyze(x)
	}
	b.ReportMetric(float64(cpuTime()-c0)/float64(b.N)/1e6, "cpu-ms/op")
}

// cpuTime is the process's user+system time so far: cpu-ms/op is the
// figure to compare on a shared machine, where wall time follows the load.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
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
