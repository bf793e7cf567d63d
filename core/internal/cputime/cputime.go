// Package cputime reads the process's CPU time, the figure benchmarks
// report next to wall time: on the shared 2-core machines they run on,
// wall time mostly measures the neighbours.
package cputime

import "time"

// Process is the CPU time (user plus system, all threads) this process has
// used so far; 0 where the platform cannot say.
func Process() time.Duration { return process() }

// Thread is the calling OS thread's CPU time; 0 where the platform cannot
// say. With a goroutine locked to its thread, the difference around a call
// is that call's own CPU, which a loaded machine does not inflate the way
// it does wall time (extract times plugin calls with it).
func Thread() time.Duration { return thread() }
