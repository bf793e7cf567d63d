package plugintest

import (
	"runtime"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/sdk/extract"
	"golang.org/x/sys/unix"
)

// BenchPair measures what an optional pass of an extractor costs: every
// file is extracted twice per iteration, once with set(true) and once
// with set(false), the order flipping from file to file, and timed by
// the thread's CPU clock, so a loaded machine's noise (waiting for a
// core) falls on neither. It reports each side's CPU seconds per
// iteration and "overhead-%", the extra time the pass takes; the pass is
// left on.
func (c *Corpus) BenchPair(b *testing.B, ex extract.Extractor, set func(on bool)) {
	if len(c.files) == 0 {
		b.Skip("empty corpus")
	}
	defer set(true)
	runtime.LockOSThread() // the thread clock must stay this goroutine's
	defer runtime.UnlockOSThread()
	var with, without time.Duration
	flip := false
	for b.Loop() {
		for _, f := range c.files {
			flip = !flip
			for _, on := range [2]bool{flip, !flip} {
				set(on)
				start := threadCPU()
				if _, err := extract.Run(ex, c.grammars[f.lang], f.path, f.records, f.source); err != nil {
					b.Fatalf("%s: %v", f.path, err)
				}
				if took := threadCPU() - start; on {
					with += took
				} else {
					without += took
				}
			}
		}
	}
	n := float64(b.N)
	b.ReportMetric(with.Seconds()/n, "with-cpu-s/op")
	b.ReportMetric(without.Seconds()/n, "without-cpu-s/op")
	if without > 0 {
		b.ReportMetric(100*(with.Seconds()-without.Seconds())/without.Seconds(), "overhead-%")
	}
}

// threadCPU is the calling thread's CPU time.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
