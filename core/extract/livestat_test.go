//go:build unix

package extract

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestLiveStatFindsWhatAWalkFinds: after each kind of edit, the stat
// path (Changes with a current walk) and ChangesAt with the paths a
// watcher would name report the same files as a fresh walk, and the
// stat path is taken only when no directory or ignore file changed.
func TestLiveStatFindsWhatAWalkFinds(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a/one.txt": "One\n", "a/two.txt": "Two\n", "b/three.txt": "Three\n",
		".gitignore": "ignored/\n", "ignored/x.txt": "X\n",
	})
	opts := testOptions(t, root)
	ctx := context.Background()
	if _, err := Run(ctx, opts); err != nil {
		t.Fatal(err)
	}
	live, err := OpenLive(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	if live.walk == nil {
		t.Fatal("OpenLive right after a Run must know its walk is current")
	}
	abs := func(rel string) string { p, _ := filepath.EvalSymlinks(root); return filepath.Join(p, rel) }
	tick := time.Now()
	touch := func(rel, body string) {
		tick = tick.Add(2 * time.Second) // distinct mtimes whatever the file system's granularity
		writeTree(t, root, map[string]string{rel: body})
		if err := os.Chtimes(filepath.Join(root, rel), tick, tick); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		edit     func()
		paths    []string // what a watcher names
		changed  []string
		removed  []string
		statPath bool // answered without a walk
		atFirst  bool // ChangesAt before Changes (statPath is then ChangesAt's)
	}{
		{"nothing", func() {}, nil, nil, nil, true, false},
		{"edit in place", func() { touch("a/one.txt", "One\nMore\n") }, []string{"a/one.txt"}, []string{"a/one.txt"}, nil, true, false},
		{"edit in place, named", func() { touch("a/one.txt", "One\nLess\n") }, []string{"a/one.txt"}, []string{"a/one.txt"}, nil, true, true},
		{"edit an ignored file", func() { touch("ignored/x.txt", "Y\n") }, []string{"ignored/x.txt"}, nil, nil, true, false},
		{"new ignored file, named", func() { touch("ignored/new.txt", "New\n") }, []string{"ignored/new.txt"}, nil, nil, true, true},
		{"editor temp file gone again", func() {}, []string{"a/.one.txt.tmp"}, nil, nil, true, true},
		{"new file", func() { touch("b/four.txt", "Four\n") }, []string{"b/four.txt"}, []string{"b/four.txt"}, nil, false, false},
		{"new file, named", func() { touch("b/five.txt", "Five\n") }, []string{"b/five.txt"}, []string{"b/five.txt"}, nil, true, true},
		{"new file no plugin takes, named", func() { touch("b/six.md", "Six\n") }, []string{"b/six.md"}, nil, nil, true, true},
		{"new file in a new directory, named", func() { touch("n/seven.txt", "Seven\n") }, []string{"n", "n/seven.txt"}, []string{"n/seven.txt"}, nil, false, true},
		{"delete", func() { os.Remove(filepath.Join(root, "a", "two.txt")) }, []string{"a/two.txt"}, nil, []string{"a/two.txt"}, false, false},
		{"delete, named", func() { os.Remove(filepath.Join(root, "b", "five.txt")) }, []string{"b/five.txt"}, nil, []string{"b/five.txt"}, true, true},
		{"ignore file edited", func() { touch(".gitignore", "ignored/\nb/\n") }, []string{".gitignore"}, nil, []string{"b/four.txt", "b/three.txt"}, false, false},
		{"ignore file edited, named", func() { touch(".gitignore", "ignored/\n") }, []string{".gitignore"}, []string{"b/four.txt", "b/three.txt"}, nil, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.edit()
			var paths []string
			for _, p := range tc.paths {
				paths = append(paths, abs(p))
			}
			var got, viaPaths Changes
			calls := []func() error{
				func() (err error) { got, err = live.Changes(ctx); return err },
				func() (err error) { viaPaths, err = live.ChangesAt(ctx, paths, false); return err },
			}
			if tc.atFirst {
				slices.Reverse(calls)
			}
			for _, call := range calls {
				if err := call(); err != nil {
					t.Fatal(err)
				}
			}
			first := got
			if tc.atFirst {
				first = viaPaths
			}
			if first.Walked == tc.statPath {
				t.Errorf("walked = %v, want %v", first.Walked, !tc.statPath)
			}
			want, err := live.walkChanges(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				what string
				ch   Changes
			}{{"Changes", got}, {"ChangesAt", viaPaths}, {"a walk", want}} {
				if !slices.Equal(c.ch.Changed, tc.changed) || !slices.Equal(c.ch.Removed, tc.removed) || c.ch.Project {
					t.Errorf("%s: changed %q removed %q project %v, want %q %q false", c.what, c.ch.Changed, c.ch.Removed, c.ch.Project, tc.changed, tc.removed)
				}
			}
			if _, err := live.Patch(ctx, want); err != nil {
				t.Fatal(err)
			}
		})
	}
}
