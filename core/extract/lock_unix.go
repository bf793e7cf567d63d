//go:build unix

package extract

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockOutDir takes the output directory's lock for the run: two extracts
// writing one directory would interleave their outputs, and only the
// holder may clear temporary files a killed run left. The lock goes with
// the file's descriptor, so a killed run never leaves it held.
func lockOutDir(o *outDir) (*os.File, error) {
	f, err := o.root.OpenFile(lockFile, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", o.path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w %s; wait for it to finish", ErrOutDirBusy, o.path)
		}
		return nil, fmt.Errorf("lock %s: %w", o.path, err)
	}
	return f, nil
}
