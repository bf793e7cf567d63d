//go:build unix

package discover

import (
	"os"
	"syscall"
)

// openDir opens a directory for reading its entries. A name swapped for a
// FIFO since its parent was read fails at once (O_DIRECTORY) instead of
// waiting for a writer that never comes.
func openDir(p string) (*os.File, error) {
	return os.OpenFile(p, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
}
