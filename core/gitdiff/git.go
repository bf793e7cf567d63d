// Package gitdiff runs the real git CLI for the change-aware tools: it
// resolves a diff base, lists what changed against it (committed,
// uncommitted and untracked, renames and binary files included) with the
// changed line ranges of every file, and manages throwaway worktrees.
//
// Every git call runs with a context, a timeout and an output cap, with
// optional locks off so a read never blocks a user's git. Outside a work
// tree the error is ErrNotRepo; without a git binary ErrNoGit; a clean tree
// is an empty, error-free Changes: the three are never conflated.
package gitdiff

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// DefaultTimeout bounds one git call unless the Repo says otherwise.
const DefaultTimeout = 20 * time.Second

// maxOutput caps what one git call may print (a diff of a huge generated
// file must not exhaust memory); past it the call fails with ErrTooLarge.
const maxOutput = 64 << 20

var (
	// ErrNoGit is returned when no git binary is on PATH.
	ErrNoGit = errors.New("git is not installed (not on PATH)")
	// ErrNotRepo is returned for a directory outside any git work tree.
	ErrNotRepo = errors.New("not a git repository")
	// ErrTooLarge is returned when git's output passes maxOutput.
	ErrTooLarge = errors.New("git output too large")
)

// Repo is a git work tree addressed by any directory inside it.
type Repo struct {
	Dir     string
	Timeout time.Duration // per call; 0 means DefaultTimeout
}

// capped is a writer that keeps at most limit bytes and notes overflow.
type capped struct {
	buf      bytes.Buffer
	limit    int
	overflow bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.limit - c.buf.Len(); len(p) > room {
		c.buf.Write(p[:max(room, 0)])
		c.overflow = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

// Git runs git with args in the repo and returns its stdout. A failing
// command's error carries git's first stderr line.
func (r Repo) Git(ctx context.Context, args ...string) ([]byte, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNoGit
	}
	t := r.Timeout
	if t <= 0 {
		t = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", r.Dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat")
	cmd.WaitDelay = time.Second
	out := &capped{limit: maxOutput}
	errOut := &capped{limit: 4 << 10}
	cmd.Stdout, cmd.Stderr = out, errOut
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("git %s: timed out after %s", firstArg(args), t)
	case out.overflow:
		return nil, fmt.Errorf("git %s: %w (over %d MiB)", firstArg(args), ErrTooLarge, maxOutput>>20)
	case err != nil:
		msg := strings.TrimSpace(errOut.buf.String())
		if strings.Contains(msg, "not a git repository") {
			return nil, ErrNotRepo
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", firstArg(args), msg)
	}
	return out.buf.Bytes(), nil
}

func firstArg(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// line runs git and returns its output trimmed.
func (r Repo) line(ctx context.Context, args ...string) (string, error) {
	out, err := r.Git(ctx, args...)
	return strings.TrimSpace(string(out)), err
}

// Check reports ErrNoGit, ErrNotRepo or nil.
func (r Repo) Check(ctx context.Context) error {
	if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
		return ErrNotRepo
	}
	inside, err := r.line(ctx, "rev-parse", "--is-inside-work-tree")
	if err != nil {
		return err
	}
	if inside != "true" {
		return ErrNotRepo
	}
	return nil
}

// Toplevel returns the work tree's root directory.
func (r Repo) Toplevel(ctx context.Context) (string, error) {
	return r.line(ctx, "rev-parse", "--show-toplevel")
}

// Commit resolves rev to a full commit SHA, or explains that it does not
// name a commit here.
func (r Repo) Commit(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("revision %q is not valid", rev)
	}
	sha, err := r.line(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil || sha == "" {
		if errors.Is(err, ErrNotRepo) || errors.Is(err, ErrNoGit) {
			return "", err
		}
		return "", fmt.Errorf("revision %q does not exist in this repository (try a branch, a tag, HEAD~N or a SHA)", rev)
	}
	return sha, nil
}
