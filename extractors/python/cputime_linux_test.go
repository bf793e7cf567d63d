package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time used by the process (all threads, GC
// included), or 0 if unavailable. The benchmark reports throughput per CPU
// second too, because wall time on a shared machine says little.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
