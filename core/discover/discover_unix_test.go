//go:build unix

package discover

import (
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user plus system CPU time, so the benchmark
// can report a cost that does not depend on how busy the machine is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestWalkSpecialFiles(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.go": "x", ".gitignore": "ignored.fifo\n"})
	for _, name := range []string{"pipe", "ignored.fifo"} {
		if err := syscall.Mkfifo(filepath.Join(root, name), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
	}
	res := mustWalk(t, root, Options{})
	if got := rels(res.Files); !slices.Equal(got, []string{".gitignore", "a.go"}) {
		t.Errorf("files %q", got)
	}
	if got := skips(res.Skipped); !slices.Equal(got, []string{"pipe special"}) {
		t.Errorf("skipped %q", got)
	}
	if res.IgnoredCount != 1 {
		t.Errorf("IgnoredCount = %d, want 1", res.IgnoredCount)
	}
}
