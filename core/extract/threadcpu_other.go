//go:build !linux

package extract

import "time"

// threadCPU is 0 where no per-thread CPU clock is read: plugin CPU times
// then read as 0 (wall times are still kept).
func threadCPU() time.Duration { return 0 }
