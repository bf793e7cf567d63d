package discover

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is returned by OpenRegular for FIFOs, sockets, devices and
// directories: reading them could block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens rel below root for reading, refusing anything but a
// regular file without ever blocking on it: the path is checked with lstat
// first (so a device is never opened), opened with O_NONBLOCK (so a FIFO
// swapped in meanwhile cannot hang the open), and the open file is checked
// again with fstat and compared with the first look, so the file read is
// the file checked. os.Root resolves every component below the root and
// refuses symlinks that leave it, so the check and the open are one
// operation with respect to escapes.
func OpenRegular(root *os.Root, rel string) (*os.File, fs.FileInfo, error) {
	before, err := root.Stat(rel)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%w (%s)", ErrNotRegular, fileType(before.Mode()))
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|oNonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	after, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !after.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w (%s)", ErrNotRegular, fileType(after.Mode()))
	}
	if !os.SameFile(before, after) {
		f.Close()
		return nil, nil, errors.New("the file changed while it was opened; try again")
	}
	return f, after, nil
}

func fileType(m fs.FileMode) string {
	switch t := m.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t.IsDir():
		return "a directory"
	default:
		return t.String()
	}
}
