//go:build unix

package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("SECRET"), 0o644))
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(os.Symlink("a.txt", filepath.Join(dir, "inside-link")))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(dir, "abs-link")))
	must(os.Symlink("../"+filepath.Base(outside)+"/secret", filepath.Join(dir, "rel-out")))
	must(os.Symlink("fifo", filepath.Join(dir, "fifo-link")))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero")))
	// A directory component that leaves the root.
	must(os.Symlink(outside, filepath.Join(dir, "outdir")))

	root, err := os.OpenRoot(dir)
	must(err)
	defer root.Close()
	tests := []struct {
		name    string
		max     int64
		want    string
		regular bool // want ErrNotRegular
		large   bool // want ErrTooLarge
		escape  bool // want a refusal of a path leaving the root
	}{
		{name: "a.txt", max: -1, want: "hello"},
		{name: "a.txt", max: 5, want: "hello"},
		{name: "a.txt", max: 4, large: true},
		{name: "inside-link", max: -1, want: "hello"},
		{name: "sub", max: -1, regular: true},
		{name: "fifo", max: -1, regular: true},
		{name: "fifo-link", max: -1, regular: true},
		{name: "abs-link", max: -1, escape: true},
		{name: "rel-out", max: -1, escape: true},
		{name: "zero", max: -1, escape: true},
		{name: "outdir/secret", max: -1, escape: true},
		{name: "../x", max: -1, escape: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			b, err := ReadFile(root, tc.name, tc.max, nil)
			if d := time.Since(start); d > 2*time.Second {
				t.Fatalf("took %v: an open blocked", d)
			}
			switch {
			case tc.regular:
				if !errors.Is(err, ErrNotRegular) {
					t.Fatalf("err = %v, want not a regular file", err)
				}
			case tc.large:
				if !errors.Is(err, ErrTooLarge) {
					t.Fatalf("err = %v, want too large", err)
				}
			case tc.escape:
				if !EscapesRoot(err) {
					t.Fatalf("err = %v (%q), want an escape refusal", err, b)
				}
			default:
				if err != nil || string(b) != tc.want {
					t.Fatalf("got %q, %v; want %q", b, err, tc.want)
				}
			}
		})
	}
}

func TestReadPathRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero", dir} {
		if _, err := ReadPath(p, 1<<20); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadPath(%s) = %v, want not a regular file", p, err)
		}
	}
}

func TestReadInRefusesEscape(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "m.wasm")); err != nil {
		t.Fatal(err)
	}
	_, err := ReadIn(dir, "m.wasm", 1<<20)
	if !EscapesRoot(err) {
		t.Fatalf("err = %v, want a refusal of the link out of the folder", err)
	}
}
