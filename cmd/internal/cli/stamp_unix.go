//go:build linux

package cli

import (
	"io/fs"
	"syscall"
	"time"
)

func sysStamp(fi fs.FileInfo) (ctime time.Time, dev, ino uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, 0, 0
	}
	return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec)), uint64(st.Dev), uint64(st.Ino)
}
