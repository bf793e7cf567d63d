package bigfile

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// Read reads the whole file at path. Large files are mapped from the page
// cache under a read lease when the kernel grants one (leased), else read
// into huge-page memory (hugeRead), else read plainly.
//
// Only a regular file is read, opened without blocking (safefile.OpenPath):
// a FIFO put in its place once hung hot reload for good.
func Read(path string) (*Buffer, error) {
	f, st, err := safefile.OpenPath(path)
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size >= minMapped && size == int64(int(size)) {
		if b := leased(f, size); b != nil {
			return b, nil // f stays open: it holds the lease until Release
		}
	}
	defer f.Close()
	if size >= minMapped && size == int64(int(size)) {
		if b, err := hugeRead(f, path, size); b != nil || err != nil {
			return b, err
		}
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return &Buffer{data: data}, nil
}

// leased maps the file itself: no copy, and the page cache already holds
// it (0.09 s for 238 MB, against 0.05–0.5 s to fault in fresh huge pages,
// 0.8 s for 4 KiB pages). A mapped file that is truncated while it is read
// would kill the process with SIGBUS; the read lease rules that out. While
// it is held, any open of the file for writing and any truncate(2) waits
// (up to /proc/sys/fs/lease-break-time) until Release, which comes as soon
// as the caller has parsed the bytes. Atomic replacement by rename, which
// is how synaptic writes graph.json, does not wait. The kernel refuses the
// lease when someone has the file open for writing, to other users without
// CAP_LEASE, and on filesystems without leases: then nil. (A holder that
// keeps a lease past lease-break-time, 45 s by default, loses it; parsing
// takes about a second per 250 MB, so only a graph.json of several GB could
// get there.)
func leased(f *os.File, size int64) *Buffer {
	fd := f.Fd()
	if err := setLease(fd, syscall.F_RDLCK); err != nil {
		return nil
	}
	unlease := func() { setLease(fd, syscall.F_UNLCK) }
	// A writer that had the file open before the lease may have changed its
	// size since Stat; after the lease nobody can.
	if st, err := f.Stat(); err != nil || st.Size() != size {
		unlease()
		return nil
	}
	mem, err := syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	if err != nil {
		unlease()
		return nil
	}
	return &Buffer{data: mem[:size:size], leased: true, release: func() {
		syscall.Munmap(mem)
		unlease()
		f.Close()
	}}
}

func setLease(fd uintptr, typ int) error {
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_SETLEASE, uintptr(typ)); e != 0 {
		return e
	}
	return nil
}

// hugeRead reads the file into an anonymous mapping advised for huge pages,
// outside the Go heap. It returns nil, nil when no mapping can be made.
func hugeRead(f *os.File, path string, size int64) (*Buffer, error) {
	// One page more than the file, so a file that grew since Stat shows
	// up as a read that fills the whole mapping.
	mem, err := syscall.Mmap(-1, 0, int(size)+os.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		return nil, nil // no address space: the slow way still works
	}
	_ = syscall.Madvise(mem, 14) // MADV_HUGEPAGE; advice only, so errors (THP off) do not matter
	release := func() { syscall.Munmap(mem) }
	n, err := io.ReadFull(f, mem)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		// The file shrank since Stat (rewritten in place): the bytes we
		// have are what it holds now, and the parser judges them.
	case err != nil:
		release()
		return nil, fmt.Errorf("read %s: %w", path, err)
	default:
		// It grew while we read it: give up rather than parse a prefix.
		release()
		return nil, fmt.Errorf("read %s: the file grew while it was read (being rewritten?)", path)
	}
	return &Buffer{data: mem[:n:n], release: release}, nil
}
