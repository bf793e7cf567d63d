package discover

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDirs(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b", "node_modules/x", ".git/objects", "ignored/deep", "synaptic-out", "c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("ignored/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	got, err := Dirs(root)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, d := range []string{"", "a", "a/b", "c"} {
		want = append(want, filepath.Join(real, d))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Dirs = %q, want %q", got, want)
	}
	if _, err := Dirs(filepath.Join(root, "missing")); err == nil {
		t.Error("missing root: no error")
	}
}

func TestIsNoiseDir(t *testing.T) {
	for name, want := range map[string]bool{"node_modules": true, ".git": true, "synaptic-out": true, "src": false, "env": false} {
		if got := IsNoiseDir(name); got != want {
			t.Errorf("IsNoiseDir(%q) = %v, want %v", name, got, want)
		}
	}
}
