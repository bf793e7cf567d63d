package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// gitHook is the name of a git hook file synaptic adds its block to.
type gitHook string

// The hooks after which the graph may be behind the tree: a commit (the
// files just committed), a merge or pull, a checkout or branch switch.
const (
	hookPostCommit   gitHook = "post-commit"
	hookPostMerge    gitHook = "post-merge"
	hookPostCheckout gitHook = "post-checkout"
)

var managedHooks = []gitHook{hookPostCommit, hookPostMerge, hookPostCheckout}

// The lines that delimit synaptic's block in a hook file: install writes
// only between them and uninstall removes only them.
const (
	hookBegin = "# >>> synaptic >>>"
	hookEnd   = "# <<< synaptic <<<"
)

// hookAction says what install or uninstall did to one hook file.
type hookAction string

const (
	hookCreated   hookAction = "created"
	hookAdded     hookAction = "added to"
	hookUpdated   hookAction = "updated"
	hookUnchanged hookAction = "unchanged"
	hookRemoved   hookAction = "removed from"
	hookDeleted   hookAction = "deleted"
	hookAbsent    hookAction = "nothing to remove in"
)

func runHook(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "hook", "install|uninstall [DIR]", `
Install (or uninstall) git hooks that keep DIR/synaptic-out/ current:
post-commit, post-merge and post-checkout run 'synaptic update DIR' in the
background (its last output in DIR/synaptic-out/.hook.log) whenever a graph
has been extracted there. DIR defaults to the current directory; it may be
a folder inside the repository. The hooks go where git looks for them
(core.hooksPath is respected) and call this binary by its absolute path;
set SYNAPTIC_SKIP_HOOK=1 to skip them for one command.

Existing hook content is kept: synaptic's lines sit in one block between
'`+hookBegin+`' and '`+hookEnd+`', right after the
shebang line (so an 'exit' in your hook cannot skip them). Installing
again changes nothing, or replaces the block (another DIR, a moved
binary): one DIR per repository. Uninstall removes only that block, and a
hook file it leaves with nothing but a shebang.`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || len(pos) > 2 || (pos[0] != "install" && pos[0] != "uninstall") {
		return usageError{"want 'synaptic hook install [DIR]' or 'synaptic hook uninstall [DIR]'"}
	}
	dir := "."
	if len(pos) == 2 {
		dir = pos[1]
	}
	repo, err := locateHooks(ctx, dir)
	if err != nil {
		return err
	}
	block := ""
	if pos[0] == "install" {
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("cannot find this binary's path for the hooks: %w", err)
		}
		if exe, err = filepath.EvalSymlinks(exe); err != nil {
			return fmt.Errorf("cannot resolve this binary's path for the hooks: %w", err)
		}
		block = hookBlock(exe, repo.prefix)
		if err := os.MkdirAll(repo.hooks, 0o755); err != nil {
			return fmt.Errorf("create the hooks directory: %w", err)
		}
	}
	for _, h := range managedHooks {
		p := filepath.Join(repo.hooks, string(h))
		act, err := editHookFile(p, block)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		fmt.Fprintf(stdio.Out, "synaptic: %s %s\n", act, p)
		if block != "" {
			if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o100 == 0 {
				fmt.Fprintf(stdio.Err, "synaptic: note: %s is not executable, so git does not run it; 'chmod +x' it to enable it\n", p)
			}
		}
	}
	if block != "" {
		if _, err := os.Stat(filepath.Join(repo.root, filepath.FromSlash(repo.prefix), "synaptic-out", "graph.json")); err != nil {
			fmt.Fprintf(stdio.Out, "synaptic: no graph yet in %s: run 'synaptic extract %s' once; the hooks keep it current\n", dir, dir)
		}
	}
	return nil
}

// hookRepo is where a repository's hooks live and where DIR sits in it.
type hookRepo struct {
	hooks  string // absolute hooks directory
	root   string // the work tree's top
	prefix string // DIR relative to root, slash-separated, "" for the top
}

// locateHooks asks git, so core.hooksPath and linked worktrees are handled
// as git itself handles them.
func locateHooks(ctx context.Context, dir string) (hookRepo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return hookRepo{}, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return hookRepo{}, fmt.Errorf("%s is not a directory", dir)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "--git-path", "hooks", "--show-toplevel", "--show-prefix")
	cmd.Dir = abs
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return hookRepo{}, errors.New("git is not installed (or not on PATH): git hooks need it")
		}
		return hookRepo{}, fmt.Errorf("%s is not inside a git work tree (git rev-parse: %s)", dir, strings.TrimSpace(stderr.String()))
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 2 {
		return hookRepo{}, fmt.Errorf("%s: unexpected git rev-parse output %q", dir, out)
	}
	r := hookRepo{hooks: lines[0], root: lines[1]}
	if len(lines) > 2 {
		r.prefix = strings.TrimSuffix(lines[2], "/")
	}
	if !filepath.IsAbs(r.hooks) {
		r.hooks = filepath.Join(abs, r.hooks)
	}
	return r, nil
}

// hookBlock is synaptic's block for a graph at prefix (relative to the
// work tree's top, where git runs hooks): it runs update in the background
// when a graph exists there, detached from git's output, with git's
// per-command variables cleared so update sees the repository as a user
// would.
func hookBlock(exe, prefix string) string {
	dir := prefix
	if dir == "" {
		dir = "."
	}
	out := dir + "/synaptic-out"
	return hookBegin + "\n" +
		"# Added by 'synaptic hook install'; 'synaptic hook uninstall' removes it.\n" +
		"if [ \"${SYNAPTIC_SKIP_HOOK:-0}\" != 1 ] && [ -f " + shQuote(out+"/graph.json") + " ]; then\n" +
		"\t(unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_PREFIX; " + shQuote(exe) + " update " + shQuote(dir) +
		" </dev/null >" + shQuote(out+"/.hook.log") + " 2>&1 &)\n" +
		"fi\n" +
		hookEnd + "\n"
}

// shQuote quotes s for sh: single quotes, with ' written as '\”.
func shQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// editHookFile puts block into the hook file at p (block empty: takes it
// out) and writes the file only when that changes it.
func editHookFile(p, block string) (hookAction, error) {
	st, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if block == "" {
			return hookAbsent, nil
		}
		return hookCreated, writeHook(p, []byte("#!/bin/sh\n"+block), 0o755)
	case err != nil:
		return "", err
	case st.Mode()&fs.ModeSymlink != 0:
		return "", errors.New("is a symlink (managed by another tool?): add the lines of 'synaptic hook install' to its target by hand")
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	old, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	body, had, err := withoutBlock(string(old))
	if err != nil {
		return "", err
	}
	if block == "" {
		if !had {
			return hookAbsent, nil
		}
		if onlyShebang(body) {
			return hookDeleted, os.Remove(p)
		}
		return hookRemoved, writeHook(p, []byte(body), st.Mode().Perm())
	}
	if err := checkShell(body); err != nil {
		return "", err
	}
	updated := insertBlock(body, block)
	switch {
	case updated == string(old):
		return hookUnchanged, nil
	case had:
		return hookUpdated, writeHook(p, []byte(updated), st.Mode().Perm())
	default:
		return hookAdded, writeHook(p, []byte(updated), st.Mode().Perm())
	}
}

// withoutBlock returns text with synaptic's block taken out, and whether
// there was one. A begin marker without its end is an error: guessing
// where it ends could delete the user's lines.
func withoutBlock(text string) (string, bool, error) {
	start := lineIndex(text, hookBegin, 0)
	if start < 0 {
		return text, false, nil
	}
	end := lineIndex(text, hookEnd, start)
	if end < 0 {
		return "", false, fmt.Errorf("has %q without %q: fix the block by hand", hookBegin, hookEnd)
	}
	end += len(hookEnd)
	if end < len(text) && text[end] == '\n' {
		end++
	}
	return text[:start] + text[end:], true, nil
}

// lineIndex is the offset of the first whole line equal to line at or
// after from, or -1.
func lineIndex(text, line string, from int) int {
	for i := from; i < len(text); {
		j := strings.IndexByte(text[i:], '\n')
		next := len(text)
		if j >= 0 {
			next = i + j
		}
		if strings.TrimRight(text[i:next], " \t\r") == line {
			return i
		}
		i = next + 1
	}
	return -1
}

// insertBlock puts block right after the shebang line (before anything
// that could exit), or first when there is none.
func insertBlock(body, block string) string {
	if !strings.HasPrefix(body, "#!") {
		return block + body
	}
	nl := strings.IndexByte(body, '\n')
	if nl < 0 {
		return body + "\n" + block
	}
	return body[:nl+1] + block + body[nl+1:]
}

// checkShell refuses a hook written in a language other than sh: shell
// lines in it would break it.
func checkShell(body string) error {
	if !strings.HasPrefix(body, "#!") {
		return nil // git runs it with sh
	}
	first, _, _ := strings.Cut(body, "\n")
	for _, sh := range []string{"sh", "bash", "dash", "zsh", "ksh", "ash"} {
		for _, f := range strings.Fields(first[2:]) {
			if filepath.Base(f) == sh {
				return nil
			}
		}
	}
	return fmt.Errorf("is not a shell script (%s): call 'synaptic update' from it by hand", strings.TrimSpace(first))
}

func onlyShebang(body string) bool {
	rest := body
	if strings.HasPrefix(body, "#!") {
		if _, after, ok := strings.Cut(body, "\n"); ok {
			rest = after
		} else {
			rest = ""
		}
	}
	return strings.TrimSpace(rest) == ""
}

// writeHook replaces p atomically with data and mode.
func writeHook(p string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".synaptic-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}
