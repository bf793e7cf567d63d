package gitdiff

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxCopy bounds one untracked file copied into a worktree.
const maxCopy = 64 << 20

// ApplyWorkingChanges brings the source repo's uncommitted changes
// (staged, unstaged, binary included) and untracked, non-ignored files
// into w, whose checkout must be the source's HEAD.
func (r Repo) ApplyWorkingChanges(ctx context.Context, w *Worktree) error {
	patch, err := r.Git(ctx, "diff", "--binary", "--no-color", "--no-ext-diff", "HEAD", "--")
	if err != nil {
		return err
	}
	if len(patch) > 0 {
		f, err := os.CreateTemp(filepath.Dir(w.Dir), "patch-*.diff")
		if err != nil {
			return err
		}
		defer os.Remove(f.Name())
		if _, err := f.Write(patch); err != nil {
			f.Close()
			return err
		}
		f.Close()
		if _, err := (Repo{Dir: w.Dir, Timeout: r.Timeout}).Git(ctx, "apply", "--binary", "--whitespace=nowarn", f.Name()); err != nil {
			return fmt.Errorf("applying the working changes in the worktree: %w", err)
		}
	}
	top, err := r.Toplevel(ctx)
	if err != nil {
		return err
	}
	out, err := (Repo{Dir: top, Timeout: r.Timeout}).Git(ctx, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return err
	}
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		if err := copyRegular(filepath.Join(top, p), filepath.Join(w.Dir, p)); err != nil {
			return fmt.Errorf("copying untracked %s into the worktree: %w", p, err)
		}
	}
	return nil
}

// copyRegular copies a regular file (symlinks, FIFOs and devices are
// skipped: nothing may block or leave the tree).
func copyRegular(src, dst string) error {
	fi, err := os.Lstat(src)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	if fi.Size() > maxCopy {
		return fmt.Errorf("larger than %d MiB", maxCopy>>20)
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
