package tools

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// reportCPU reports the process's CPU time (user + system, GC included)
// per op: on a machine shared with other work it tells a slower run from
// a starved one, which ns/op (wall time) cannot.
func reportCPU(b *testing.B) func() {
	start := cputime.Process()
	return func() { b.ReportMetric(float64((cputime.Process()-start).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}
