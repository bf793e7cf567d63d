package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
)

// busyRetry is how long the background exact run waits before trying
// again while another synaptic process holds the output directory.
const busyRetry = 500 * time.Millisecond

// cannotPersist reports whether a run failed because the output directory
// cannot be written (read-only file system, no permission). serve then
// keeps the graph current in memory only, and says so once.
func cannotPersist(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)
}

// persistOff records that nothing can be written back; fr.mu is held.
func (fr *freshener) persistOff(err error) {
	if fr.noPersist {
		return
	}
	fr.noPersist = true
	fmt.Fprintf(fr.log, "[synaptic] auto-freshen: cannot write %s (%v); edits are patched into the served graph in memory only: nothing is saved, and links from other packages are not re-resolved\n", fr.out, err)
}

// otherWriter records that another synaptic process (a second serve, an
// extract, a hook's update) holds the output directory: this server
// writes nothing and serves the graph.json that process writes when it
// lands (the graph watcher reloads it). Said once; fr.mu is held.
func (fr *freshener) otherWriter() {
	fr.othersWriting = true
	if !fr.busySaid {
		fr.busySaid = true
		fmt.Fprintf(fr.log, "[synaptic] auto-freshen: another synaptic process is writing %s; this server serves the graph it writes and writes nothing meanwhile\n", fr.out)
	}
}

// isBusy reports an exact run refused because another process writes.
func isBusy(err error) bool { return errors.Is(err, extract.ErrOutDirBusy) }
