package cli

import (
	"io/fs"
	"time"
)

// fileStamp is what the graph watcher compares to notice that graph.json
// changed without reading it. Size and mtime alone miss a same-size edit
// whose mtime was set back (touch -d, os.utime); the inode change time
// cannot be set from user space and the inode number changes on every
// replace-by-rename, so with them any change is seen.
type fileStamp struct {
	size       int64
	mod, ctime time.Time
	dev, ino   uint64
}

func stampOf(fi fs.FileInfo) fileStamp {
	s := fileStamp{size: fi.Size(), mod: fi.ModTime()}
	s.ctime, s.dev, s.ino = sysStamp(fi)
	return s
}
