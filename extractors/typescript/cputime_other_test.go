//go:build !linux && !wasip1

package main

// cpuSeconds is unavailable here; the benchmark then reports no cpu-MB/s.
func cpuSeconds() float64 { return 0 }
