package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// synapticGit runs the binary with git's user and system config out of
// the way (a developer's core.hooksPath must not leak into the test).
func synapticGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(serveEnv(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("synaptic %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// waitGraphHas waits until graph.json names want and no run holds the
// output directory's lock (the hook's update ran to its end).
func waitGraphHas(t *testing.T, out, want string) {
	t.Helper()
	waitFor(t, 60*time.Second, "the hook's update to add "+want, func() bool {
		data, err := os.ReadFile(filepath.Join(out, "graph.json"))
		if err != nil || !bytes.Contains(data, []byte(want)) {
			return false
		}
		f, err := os.Open(filepath.Join(out, ".lock"))
		if err != nil {
			return false
		}
		defer f.Close()
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			return false
		}
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return true
	})
}

// TestHookInstallAndUpdate: on a real repository, install writes the
// three hooks (keeping an existing one's content), a second install
// changes nothing, a commit runs update in the background and the graph
// gains the committed function, SYNAPTIC_SKIP_HOOK skips it, update does
// the same catch-up by hand, and uninstall restores the hooks as they were.
func TestHookInstallAndUpdate(t *testing.T) {
	needBin(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	write(t, root, fixtureRepo)
	write(t, root, map[string]string{".gitignore": "synaptic-out/\n.mine\n"})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "init")
	hooks := filepath.Join(root, ".git", "hooks")
	mine := "#!/bin/sh\necho ran >> .mine\nexit 0\n"
	write(t, hooks, map[string]string{"post-commit": mine})
	if err := os.Chmod(filepath.Join(hooks, "post-commit"), 0o755); err != nil {
		t.Fatal(err)
	}

	if out := synapticGit(t, root, "hook", "install"); !strings.Contains(out, "no graph yet") ||
		!strings.Contains(out, "added to "+filepath.Join(hooks, "post-commit")) || !strings.Contains(out, "created "+filepath.Join(hooks, "post-merge")) {
		t.Errorf("first install:\n%s", out)
	}
	synapticGit(t, root, "extract", ".", "--quiet")
	if out := synapticGit(t, root, "hook", "install", root); strings.Count(out, "unchanged") != 3 || strings.Contains(out, "no graph yet") {
		t.Errorf("second install changed something:\n%s", out)
	}
	for _, h := range []string{"post-commit", "post-merge", "post-checkout"} {
		p := filepath.Join(hooks, h)
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm()&0o111 != 0o111 {
			t.Fatalf("%s: %v, mode %v", h, err, st)
		}
		body := string(read(t, p))
		if !strings.Contains(body, "# >>> synaptic >>>") || !strings.Contains(body, bin) {
			t.Errorf("%s lacks the block:\n%s", h, body)
		}
	}
	if body := string(read(t, filepath.Join(hooks, "post-commit"))); !strings.HasSuffix(body, "echo ran >> .mine\nexit 0\n") {
		t.Errorf("existing hook content not kept:\n%s", body)
	}

	// A commit brings the graph up to date, and the user's hook still runs.
	out := filepath.Join(root, "synaptic-out")
	write(t, root, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "discount")
	waitGraphHas(t, out, "Discount")
	if got := string(read(t, filepath.Join(root, ".mine"))); got != "ran\n" {
		t.Errorf("the existing hook did not run once: %q", got)
	}

	// SYNAPTIC_SKIP_HOOK=1 skips it; update does the catch-up, quietly.
	t.Setenv("SYNAPTIC_SKIP_HOOK", "1")
	write(t, root, map[string]string{"price/coupon.go": "package price\n\nfunc Coupon(c int) int { return c - 1 }\n"})
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "coupon")
	time.Sleep(time.Second)
	if bytes.Contains(read(t, filepath.Join(out, "graph.json")), []byte("Coupon")) {
		t.Error("SYNAPTIC_SKIP_HOOK=1 did not skip the hook")
	}
	if got := synapticGit(t, root, "update"); got != "" {
		t.Errorf("update is not quiet: %q", got)
	}
	if !bytes.Contains(read(t, filepath.Join(out, "graph.json")), []byte("Coupon")) {
		t.Error("update did not bring the graph up to date")
	}

	// Uninstall restores the hooks as they were.
	synapticGit(t, root, "hook", "uninstall")
	if body := string(read(t, filepath.Join(hooks, "post-commit"))); body != mine {
		t.Errorf("uninstall did not restore post-commit:\n%s", body)
	}
	for _, h := range []string{"post-merge", "post-checkout"} {
		if _, err := os.Stat(filepath.Join(hooks, h)); err == nil {
			t.Errorf("%s left behind", h)
		}
	}
	if got := synapticGit(t, root, "hook", "uninstall"); strings.Count(got, "nothing to remove") != 3 {
		t.Errorf("second uninstall:\n%s", got)
	}
}

// TestHookInstallHooksPath: core.hooksPath is where the hooks go, and a
// folder inside the repository is updated by its path from the top.
func TestHookInstallHooksPath(t *testing.T) {
	needBin(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	sub := filepath.Join(root, "services", "shop")
	write(t, sub, fixtureRepo)
	write(t, root, map[string]string{".gitignore": "synaptic-out/\n"})
	gitIn(t, root, "init", "-q")
	gitIn(t, root, "config", "core.hooksPath", ".githooks")
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "init")
	synapticGit(t, sub, "extract", ".", "--quiet")
	synapticGit(t, sub, "hook", "install")
	p := filepath.Join(root, ".githooks", "post-commit")
	if body := string(read(t, p)); !strings.Contains(body, "update 'services/shop'") {
		t.Fatalf("post-commit in core.hooksPath:\n%s", body)
	}
	if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "post-commit")); err == nil {
		t.Error("hook written to .git/hooks despite core.hooksPath")
	}
	write(t, sub, map[string]string{"price/discount.go": "package price\n\nfunc Discount(c int) int { return WithTax(c) / 2 }\n"})
	gitIn(t, root, "add", ".")
	gitIn(t, root, "commit", "-q", "-m", "discount")
	waitGraphHas(t, filepath.Join(sub, "synaptic-out"), "Discount")
}

// TestUpdateErrors: update refuses what it cannot do, with the reason.
func TestUpdateErrors(t *testing.T) {
	needBin(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"update", "a", "b"}, "one directory"},
		{[]string{"update", filepath.Join(dir, "missing")}, "not a directory"},
		{[]string{"update", dir}, "no supported source file"},
		{[]string{"hook", "frobnicate"}, "hook install"},
		{[]string{"hook", "install", dir}, "not inside a git work tree"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = append(serveEnv(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("synaptic %v: err %v, output lacks %q:\n%s", tc.args, err, tc.want, out)
		}
	}
}
