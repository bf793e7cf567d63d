//go:build !linux && !wasip1

package main

import "time"

func threadCPU() time.Duration { return 0 }
