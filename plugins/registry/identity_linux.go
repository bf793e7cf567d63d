//go:build linux

package registry

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// fileIdentity describes the regular file at path (not following a final
// symlink) by device, inode, size, mtime and ctime, and returns the later
// of its two change times. ok is false for anything else.
func fileIdentity(path string) (id string, changed time.Time, ok bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", time.Time{}, false
	}
	st, isStat := fi.Sys().(*syscall.Stat_t)
	if !isStat {
		return "", time.Time{}, false
	}
	mtime := time.Unix(int64(st.Mtim.Sec), int64(st.Mtim.Nsec))
	ctime := time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	id = fmt.Sprintf("%d:%d:%d:%d:%d", uint64(st.Dev), uint64(st.Ino), st.Size, mtime.UnixNano(), ctime.UnixNano())
	return id, later(mtime, ctime), true
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
