//go:build !linux

package cacheprune

import (
	"io/fs"
	"time"
)

// lastUse is a file's modification time where its access time is not read.
func lastUse(info fs.FileInfo) time.Time { return info.ModTime() }
