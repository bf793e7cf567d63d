package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"

	"github.com/synaptic-graph/synaptic/core/extract"
)

// TestWriteBackErrors: which failed runs turn write-back off (the output
// directory cannot be written) and which mean another writer holds it;
// wrapped as extract wraps them, and nothing else counts as either.
func TestWriteBackErrors(t *testing.T) {
	for _, tc := range []struct {
		name              string
		err               error
		readOnly, otherWr bool
	}{
		{"permission", fmt.Errorf("lock /x: %w", &fs.PathError{Op: "open", Path: ".lock", Err: syscall.EACCES}), true, false},
		{"read-only fs", fmt.Errorf("write graph.json: %w", &fs.PathError{Op: "open", Path: "g", Err: syscall.EROFS}), true, false},
		{"busy", fmt.Errorf("%w /x/synaptic-out; wait for it to finish", extract.ErrOutDirBusy), false, true},
		{"full disk", fmt.Errorf("write graph.json: %w", syscall.ENOSPC), false, false},
		{"other", errors.New("plugin crashed"), false, false},
	} {
		if got := cannotPersist(tc.err); got != tc.readOnly {
			t.Errorf("%s: cannotPersist = %v, want %v", tc.name, got, tc.readOnly)
		}
		if got := isBusy(tc.err); got != tc.otherWr {
			t.Errorf("%s: isBusy = %v, want %v", tc.name, got, tc.otherWr)
		}
	}
}
