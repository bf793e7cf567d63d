//go:build linux

package extract

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU is the calling thread's CPU time: with the worker locked to
// its thread, the difference around a plugin call is the guest's own
// CPU, which a loaded machine does not inflate the way it does wall time.
func threadCPU() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
