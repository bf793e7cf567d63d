package bigfile

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// minMapped is the size below which a plain read is as fast: the huge-page
// advice pays off only when there are thousands of pages to fault in.
const minMapped = 4 << 20

// Read reads the whole file at path.
func Read(path string) (*Buffer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size < minMapped || size != int64(int(size)) {
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, err
		}
		return &Buffer{data: data}, nil
	}
	// One page more than the file, so a file that grew since Stat shows
	// up as a read that fills the whole mapping.
	mem, err := syscall.Mmap(-1, 0, int(size)+os.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS)
	if err != nil {
		data, err := io.ReadAll(f) // no address space: the slow way still works
		if err != nil {
			return nil, err
		}
		return &Buffer{data: data}, nil
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
