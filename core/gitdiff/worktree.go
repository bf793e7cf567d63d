package gitdiff

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Worktree is a throwaway checkout of one commit, made with `git worktree
// add --detach` under the user cache dir. Remove it when done; one left
// behind by a killed process is found and removed by the next CleanStale.
type Worktree struct {
	Dir    string
	Commit string
	repo   Repo
	marker string // <Dir>.pid: the owner's pid, so a stale tree is recognisable
}

// WorktreeRoot is where this repository's throwaway worktrees live:
// <user cache>/synaptic/worktrees/<hash of the repo's toplevel>.
func (r Repo) WorktreeRoot(ctx context.Context) (string, error) {
	top, err := r.Toplevel(ctx)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache dir for worktrees: %w (set $XDG_CACHE_HOME or $HOME)", err)
	}
	sum := sha256.Sum256([]byte(top))
	return filepath.Join(cache, "synaptic", "worktrees", hex.EncodeToString(sum[:8])), nil
}

// AddWorktree checks out commit into a fresh throwaway worktree, first
// removing worktrees that killed runs left behind.
func (r Repo) AddWorktree(ctx context.Context, commit string) (*Worktree, error) {
	root, err := r.WorktreeRoot(ctx)
	if err != nil {
		return nil, err
	}
	r.CleanStale(ctx)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(root, commit[:min(12, len(commit))]+"-")
	if err != nil {
		return nil, err
	}
	w := &Worktree{Dir: dir, Commit: commit, repo: r, marker: dir + ".pid"}
	if err := os.WriteFile(w.marker, []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		os.Remove(dir)
		return nil, err
	}
	if err := os.Remove(dir); err != nil { // git wants to create it
		w.Remove()
		return nil, err
	}
	if _, err := r.Git(ctx, "worktree", "add", "--detach", "--force", dir, commit); err != nil {
		w.Remove()
		return nil, fmt.Errorf("checking out %s in a worktree: %w", commit[:min(12, len(commit))], err)
	}
	return w, nil
}

// Remove deletes the worktree and its git bookkeeping. It runs on its own
// short deadline, so it works after the caller's context expired.
func (w *Worktree) Remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, gitErr := w.repo.Git(ctx, "worktree", "remove", "--force", w.Dir)
	rmErr := os.RemoveAll(w.Dir)
	os.Remove(w.marker)
	w.repo.Git(ctx, "worktree", "prune")
	if rmErr != nil {
		return rmErr
	}
	if _, err := os.Stat(w.Dir); err == nil {
		return fmt.Errorf("worktree %s not removed: %v", w.Dir, gitErr)
	}
	return nil
}

// CleanStale removes worktrees whose owner process is gone (a run that was
// killed) and prunes git's records of them. It returns how many it removed.
func (r Repo) CleanStale(ctx context.Context) int {
	root, err := r.WorktreeRoot(ctx)
	if err != nil {
		return 0
	}
	markers, _ := filepath.Glob(filepath.Join(root, "*.pid"))
	removed := 0
	for _, m := range markers {
		b, err := os.ReadFile(m)
		pid, perr := strconv.Atoi(strings.TrimSpace(string(b)))
		if err == nil && perr == nil && alive(pid) {
			continue
		}
		dir := strings.TrimSuffix(m, ".pid")
		r.Git(ctx, "worktree", "remove", "--force", dir)
		os.RemoveAll(dir)
		os.Remove(m)
		removed++
	}
	// Directories without a marker (killed between mkdir and marker) are
	// not trusted to be ours to delete beyond git's own records.
	r.Git(ctx, "worktree", "prune")
	return removed
}

// alive reports whether a process with pid exists.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
