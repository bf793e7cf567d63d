// Package safefile reads files an attacker may have placed or swapped:
// the inputs of an extraction, its own cache and manifest, plugin
// manifests and modules. Every open is one operation that cannot block
// and cannot leave the folder it was asked about:
//
//   - files are opened relative to a held directory (os.Root), so a path
//     component swapped for a symlink leading out of it is refused by the
//     same system call that opens the file: there is no check-then-open
//     window;
//   - the open never waits: O_NONBLOCK makes a FIFO open return at once
//     (a plain open of a FIFO waits for a writer forever, pinning an OS
//     thread), and O_NOCTTY keeps a terminal device from becoming ours;
//   - what was opened is checked with fstat, on the descriptor: anything
//     but a regular file (FIFO, socket, device, directory) is refused;
//   - reads stop at a size cap, so /dev/zero behind a name, or a file that
//     grew after it was listed, cannot exhaust memory.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// NotRegularError is a name that resolved to something other than a
// regular file.
type NotRegularError struct {
	Name string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is a %s, not a regular file; reading it could block or never end", e.Name, Kind(e.Mode))
}

// TooLargeError is a file over the caller's size cap.
type TooLargeError struct {
	Name     string
	Size     int64 // bytes seen (at least Max+1 when the file grew while read)
	Max      int64
	Appeared bool // the file was under the cap when listed and grew since
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s has more than %d bytes (the limit)", e.Name, e.Max)
}

// ErrNotRegular and ErrTooLarge match the errors above with errors.Is.
var (
	ErrNotRegular = errors.New("not a regular file")
	ErrTooLarge   = errors.New("file too large")
)

// Is lets errors.Is(err, ErrNotRegular) match.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Is lets errors.Is(err, ErrTooLarge) match.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// Kind names a file mode's type for messages: "FIFO", "socket",
// "device", "directory", "symlink", "regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}

// Open opens the regular file name inside root for reading, without
// blocking and without leaving root (see the package doc). The FileInfo is
// the descriptor's own fstat.
func Open(root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	return checkRegular(f, name)
}

// OpenPath is Open for a path with no root to hold it to: it still never
// blocks and refuses anything but a regular file.
func OpenPath(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	return checkRegular(f, path)
}

func checkRegular(f *os.File, name string) (*os.File, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Name: name, Mode: fi.Mode()}
	}
	return f, fi, nil
}

// ReadFile reads the regular file name inside root, at most max bytes
// (max < 0: no cap). buf, if not nil, is reused when large enough.
func ReadFile(root *os.Root, name string, max int64, buf []byte) ([]byte, error) {
	f, fi, err := Open(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, name, fi.Size(), max, buf)
}

// ReadPath is ReadFile for a path with no root (see OpenPath).
func ReadPath(path string, max int64) ([]byte, error) {
	f, fi, err := OpenPath(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(f, path, fi.Size(), max, nil)
}

// ReadIn reads the file at the slash- or OS-separated path rel below the
// directory dir, opening dir as a root first: the one-call form of
// ReadFile for a folder the caller does not keep open. A path leading out
// of dir fails with an error EscapesRoot recognises.
func ReadIn(dir, rel string, max int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return ReadFile(root, filepath.FromSlash(rel), max, nil)
}

// EscapesRoot reports whether err is os.Root's refusal of a path that
// leads out of the root (through "..", an absolute or an outside symlink).
func EscapesRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// readCapped reads f (size bytes by fstat) up to max bytes into buf.
func readCapped(f *os.File, name string, size, max int64, buf []byte) ([]byte, error) {
	if max >= 0 && size > max {
		return nil, &TooLargeError{Name: name, Size: size, Max: max}
	}
	want := int(size) + 1 // one more, to see growth without a second read
	if cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	b := buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if max >= 0 && int64(len(b)) > max {
			return nil, &TooLargeError{Name: name, Size: int64(len(b)), Max: max, Appeared: true}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
