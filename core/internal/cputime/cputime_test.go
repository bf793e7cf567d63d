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

// TestThreadAdvances: spinning on a locked thread shows up as that
// thread's CPU time on Linux, the platform that reports it.
func TestThreadAdvances(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no thread CPU time on this platform")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := Thread()
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
	}
	if got := Thread() - start; got <= 0 {
		t.Fatalf("thread CPU time did not advance after 50 ms of spinning: %v", got)
	}
}
