// Package cputime reads the process's CPU time, the figure benchmarks
// report next to wall time: on the shared 2-core machines they run on,
// wall time mostly measures the neighbours.
package cputime

import "time"

// Process is the CPU time (user plus system, all threads) this process has
// used so far; 0 where the platform cannot say.
func Process() time.Duration { return process() }
