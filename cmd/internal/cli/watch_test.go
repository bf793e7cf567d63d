package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fsnotify/fsnotify"
)

func mkfile(t testing.TB, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func startTestWatcher(t testing.TB, root string, log io.Writer) *sourceWatcher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sw, err := startSourceWatcher(ctx, root, filepath.Join(root, "synaptic-out"), log)
	if err != nil {
		t.Skipf("no file watcher here: %v", err)
	}
	if dirty, _, _ := sw.takeDirty(); !dirty {
		t.Fatal("a new watcher must start dirty: edits before it are unknown")
	}
	return sw
}

// TestSourceWatcher: each kind of change flips the flag exactly when it
// is under a walked directory, including directories made while watching;
// with the queue probe (a clean query costs one ioctl) and without (the
// barrier round trip).
func TestSourceWatcher(t *testing.T) {
	for _, probe := range []bool{true, false} {
		t.Run(fmt.Sprintf("probe=%v", probe), func(t *testing.T) { testSourceWatcher(t, probe) })
	}
}

func testSourceWatcher(t *testing.T, probe bool) {
	root := t.TempDir()
	mkfile(t, root, "a/a.go", "package a\n")
	mkfile(t, root, ".gitignore", "ignored/\n")
	mkfile(t, root, "ignored/x.go", "package x\n")
	mkfile(t, root, "synaptic-out/graph.json", "{}\n")
	mkfile(t, root, "node_modules/m/m.js", "x\n")
	sw := startTestWatcher(t, root, io.Discard)
	if !probe {
		sw.dropProbe()
	}
	for _, tc := range []struct {
		name  string
		edit  func()
		dirty bool
		named string // a path the events must name (relative), if any
	}{
		{"nothing", func() {}, false, ""},
		{"edit", func() { mkfile(t, root, "a/a.go", "package a\n\nfunc F() {}\n") }, true, "a/a.go"},
		{"ignored dir", func() { mkfile(t, root, "ignored/x.go", "package x\n// y\n") }, false, ""},
		{"output dir", func() { mkfile(t, root, "synaptic-out/graph.json", "{ }\n") }, false, ""},
		{"noise dir", func() { mkfile(t, root, "node_modules/m/m.js", "y\n") }, false, ""},
		{"editor scratch", func() {
			mkfile(t, root, "a/.a.go.swp", "x")
			mkfile(t, root, "a/a.go~", "x")
			mkfile(t, root, "a/4913", "")
			mkfile(t, root, "a/#a.go#", "x")
		}, false, ""},
		{"new dir tree", func() { mkfile(t, root, "b/c/d.go", "package c\n") }, true, ""},
		{"edit in the new tree", func() { mkfile(t, root, "b/c/d.go", "package c\n// 2\n") }, true, "b/c/d.go"},
		{"delete", func() { os.Remove(filepath.Join(root, "a", "a.go")) }, true, "a/a.go"},
		{"rename dir", func() { os.Rename(filepath.Join(root, "b"), filepath.Join(root, "e")) }, true, ""},
		{"edit in the renamed dir", func() { mkfile(t, root, "e/c/d.go", "package c\n// 3\n") }, true, ""},
		{"clean again", func() {}, false, ""},
	} {
		tc.edit()
		got, paths, all := sw.takeDirty()
		if got != tc.dirty {
			t.Errorf("%s: dirty = %v, want %v", tc.name, got, tc.dirty)
		}
		if want := filepath.Join(realPath(root), filepath.FromSlash(tc.named)); tc.named != "" && (all || !slices.Contains(paths, want)) {
			t.Errorf("%s: named %q (all %v), want %s among them", tc.name, paths, all, want)
		}
	}
}

// TestSourceWatcherOverflowAndDeath: a lost-events overflow counts as a
// change; a failing watcher stops, says so once and reports itself dead
// (the freshener then uses the debounced check).
func TestSourceWatcherOverflowAndDeath(t *testing.T) {
	root := t.TempDir()
	mkfile(t, root, "a.go", "package a\n")
	var log strings.Builder
	sw := startTestWatcher(t, root, &log)
	sw.handleError(fsnotify.ErrEventOverflow)
	if dirty, _, all := sw.takeDirty(); !sw.live() || !dirty || !all {
		t.Error("overflow: want live, dirty and a full rescan")
	}
	sw.handleError(os.ErrPermission)
	sw.handleError(os.ErrPermission)
	if dirty, _, _ := sw.takeDirty(); sw.live() || !dirty {
		t.Error("failure: want dead and dirty")
	}
	if n := strings.Count(log.String(), "falling back to the debounced check"); n != 1 {
		t.Errorf("said %d times:\n%s", n, log.String())
	}
}

// BenchmarkWatchCleanQuery is what --watch adds to a query when nothing
// changed: one barrier round trip through the watcher.
func BenchmarkWatchCleanQuery(b *testing.B) {
	root := b.TempDir()
	mkfile(b, root, "a.go", "package a\n")
	sw := startTestWatcher(b, root, io.Discard)
	b.ResetTimer()
	for b.Loop() {
		if dirty, _, _ := sw.takeDirty(); dirty {
			b.Fatal("dirty without an edit")
		}
	}
}

func TestEditorScratch(t *testing.T) {
	for name, want := range map[string]bool{
		".a.go.swp": true, ".a.go.swx": true, "a.go~": true, "4913": true, "#a.go#": true, ".#a.go": true,
		"a.go": false, "swp.go": false, "a.swp": false, "#define.h": false, "4914": false,
	} {
		if got := editorScratch(name); got != want {
			t.Errorf("editorScratch(%q) = %v, want %v", name, got, want)
		}
	}
}
