//go:build unix

package rulehost

import (
	"syscall"
	"time"
)

// processCPU returns the process's user+system CPU time: on a shared
// machine the benchmarks report it next to wall time, which the load of
// other processes inflates.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
