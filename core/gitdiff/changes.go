package gitdiff

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Changes is what differs between a base and the working tree.
type Changes struct {
	Base  Base
	Files []File // diff order (by path), untracked files last
}

// diffArgs are the flags every diff this package parses uses: zero
// context, rename detection, repo-relative paths below Dir, fixed
// prefixes whatever the user's config says, no external drivers.
var diffArgs = []string{"-c", "core.quotePath=false", "diff", "--unified=0", "--no-color", "--no-ext-diff",
	"--no-textconv", "-M", "--relative", "--src-prefix=a/", "--dst-prefix=b/"}

// WorkingChanges diffs the working tree (committed on this branch,
// uncommitted, and untracked files not ignored) against base's merge base,
// the set a pull request from here would carry.
func (r Repo) WorkingChanges(ctx context.Context, base Base) (Changes, error) {
	out, err := r.Git(ctx, append(diffArgs, base.Merge, "--")...)
	if err != nil {
		return Changes{}, err
	}
	files, err := Parse(out)
	if err != nil {
		return Changes{}, err
	}
	untracked, err := r.untracked(ctx)
	if err != nil {
		return Changes{}, err
	}
	return Changes{Base: base, Files: append(files, untracked...)}, nil
}

// Between diffs two commits (for time travel and pull requests).
func (r Repo) Between(ctx context.Context, from, to string) ([]File, error) {
	out, err := r.Git(ctx, append(diffArgs, from, to, "--")...)
	if err != nil {
		return nil, err
	}
	return Parse(out)
}

// untracked lists untracked, non-ignored files as whole-file additions.
func (r Repo) untracked(ctx context.Context) ([]File, error) {
	out, err := r.Git(ctx, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	var files []File
	for _, p := range strings.Split(string(out), "\x00") {
		if p == "" {
			continue
		}
		f := File{Path: filepath.ToSlash(p), Status: Untracked}
		lines, binary := sniff(filepath.Join(r.Dir, p))
		f.Binary = binary
		if !binary && lines > 0 {
			f.Added = lines
			f.Hunks = []Hunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: lines}}
		}
		files = append(files, f)
	}
	return files, nil
}

// sniffLimit bounds how much of an untracked file is read.
const sniffLimit = 8 << 20

// sniff counts a regular file's lines (up to sniffLimit) and reports a NUL
// byte in its first 8 KiB as binary. FIFOs, devices and unreadable files
// count as binary with no lines: nothing here may block on them.
func sniff(path string) (lines int, binary bool) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0, true
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, true
	}
	defer f.Close()
	buf, _ := io.ReadAll(io.LimitReader(f, sniffLimit))
	if bytes.IndexByte(buf[:min(len(buf), 8<<10)], 0) >= 0 {
		return 0, true
	}
	lines = bytes.Count(buf, []byte{'\n'})
	if len(buf) > 0 && buf[len(buf)-1] != '\n' {
		lines++
	}
	return lines, false
}
