package main

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time used by the calling OS thread
// (getrusage RUSAGE_THREAD), or 0 if unavailable.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
