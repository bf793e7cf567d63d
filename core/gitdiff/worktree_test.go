package gitdiff

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWorktreeLifecycle(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx := context.Background()
	r := newTestRepo(t, "main")
	r.write("a.txt", "v1\n")
	r.commit("one")
	first := r.git("rev-parse", "HEAD")
	r.write("a.txt", "v2\n")
	r.commit("two")

	w, err := r.repo().AddWorktree(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(w.Dir, "a.txt")); err != nil || string(b) != "v1\n" {
		t.Fatalf("worktree content %q, %v", b, err)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Fatalf("worktree left behind: %v", err)
	}
	if list := r.git("worktree", "list"); strings.Count(list, "\n") != 0 {
		t.Fatalf("git still lists worktrees:\n%s", list)
	}

	// A worktree whose owner died (a pid that cannot exist) is removed by
	// the next run.
	w, err = r.repo().AddWorktree(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(w.marker, []byte("999999999"), 0o600); err != nil {
		t.Fatal(err)
	}
	if n := r.repo().CleanStale(ctx); n != 1 {
		t.Fatalf("CleanStale removed %d, want 1", n)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Fatalf("stale worktree survived: %v", err)
	}

	// A revision that does not exist fails cleanly and leaves nothing.
	if _, err := r.repo().AddWorktree(ctx, "0123456789abcdef0123456789abcdef01234567"); err == nil {
		t.Fatal("worktree of a missing commit")
	}
	root, _ := r.repo().WorktreeRoot(ctx)
	if left, _ := filepath.Glob(filepath.Join(root, "*")); len(left) != 0 {
		t.Fatalf("left behind after failure: %v", left)
	}

	// Remove works after the caller's context has expired.
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	w, err = r.repo().AddWorktree(tctx, first)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
}
