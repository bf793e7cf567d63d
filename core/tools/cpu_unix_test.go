//go:build unix

package tools

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU reports the process's CPU time (user + system, GC included)
// per op: on a machine shared with other work it tells a slower run from
// a starved one, which ns/op (wall time) cannot.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
