package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestProcessAdvances: spinning for a while must show up as CPU time on
// a platform that reports it.
func TestProcessAdvances(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("no CPU time on this platform")
	}
	start := Process()
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
	}
	if got := Process() - start; got <= 0 {
		t.Fatalf("CPU time did not advance after 50 ms of spinning: %v", got)
	}
}
