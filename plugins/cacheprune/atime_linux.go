package cacheprune

import (
	"io/fs"
	"syscall"
	"time"
)

// lastUse is the later of a file's access and modification times.
func lastUse(info fs.FileInfo) time.Time {
	used := info.ModTime()
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		if at := time.Unix(st.Atim.Unix()); at.After(used) {
			used = at
		}
	}
	return used
}
