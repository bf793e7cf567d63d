package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// Caps on the files read beside graph.json.
const (
	maxReportFile    = 8 << 20
	maxWorkspaceFile = 4 << 20
)

// readBeside reads a file that extraction writes next to graph.json
// (GRAPH_REPORT.md, workspace-state.json). Extraction writes them as
// regular files, so anything else there was put by someone else: a
// symlink is refused outright (the attack run served /etc/shadow through
// one), a FIFO or device is refused without blocking, and the size is
// capped.
func readBeside(graphPath, name string, limit int64) ([]byte, error) {
	r, err := os.OpenRoot(filepath.Dir(graphPath))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	fi, err := r.Lstat(name)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symlink; synaptic writes it as a regular file, so it is not followed (rerun synaptic extract)", name)
	}
	data, err := safefile.ReadFile(r, name, limit, nil)
	if errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("%s is over the %d MiB cap", name, limit>>20)
	}
	return data, err
}
