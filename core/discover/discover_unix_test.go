//go:build unix

package discover

import (
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

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
