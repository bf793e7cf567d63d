//go:build !(linux && (amd64 || arm64 || riscv64 || loong64))

package discover

import (
	"errors"
	"io/fs"
)

// haveStatAt is false here: Walk uses the directory entry's own lstat.
const haveStatAt = false

func statAt(int, string) (fs.FileInfo, error) { return nil, errors.ErrUnsupported }
