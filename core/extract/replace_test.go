package extract

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteAtomicReplaces covers every case replace handles: a new name,
// an existing file (swapped, the old copy removed), an open reader of the
// old file, and names that are not regular files.
func TestWriteAtomicReplaces(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir string) // what sits at "out" before
		wantErr bool
	}{
		{name: "new file", setup: func(*testing.T, string) {}},
		{name: "existing file", setup: func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "out"), []byte("old contents"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "symlink", setup: func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "target"), []byte("target"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("target", filepath.Join(dir, "out")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "directory", wantErr: true, setup: func(t *testing.T, dir string) {
			if err := os.MkdirAll(filepath.Join(dir, "out", "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			var old *os.File
			if fi, err := os.Lstat(filepath.Join(dir, "out")); err == nil && fi.Mode().IsRegular() {
				if old, err = os.Open(filepath.Join(dir, "out")); err != nil {
					t.Fatal(err)
				}
				defer old.Close()
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			err = writeFileAtomic(context.Background(), root, "out", []byte("new contents"))
			waitRetired()
			if tc.wantErr {
				if err == nil {
					t.Fatal("writing over a directory succeeded")
				}
				if fi, err := os.Stat(filepath.Join(dir, "out", "sub")); err != nil || !fi.IsDir() {
					t.Fatalf("the directory was not left as it was: %v", err)
				}
				assertNoTemps(t, dir)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Lstat(filepath.Join(dir, "out")); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("out is not a regular file after the write: %v", err)
			}
			got, err := os.ReadFile(filepath.Join(dir, "out"))
			if err != nil || string(got) != "new contents" {
				t.Fatalf("out = %q, %v; want the new contents", got, err)
			}
			if old != nil {
				b, err := io.ReadAll(old)
				if err != nil || string(b) != "old contents" {
					t.Fatalf("a reader of the old file read %q, %v", b, err)
				}
			}
			assertNoTemps(t, dir)
		})
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if isTempName(e.Name()) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestLargeWritesKeepOrder mixes writes below and above largeWrite: the
// file gets them in order, whichever way each went.
func TestLargeWritesKeepOrder(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
	}{
		{"small only", []int{1, 10, 100}},
		{"large only", []int{largeWrite, 3 * largeWrite}},
		{"mixed", []int{5, largeWrite, 7, largeWrite - 1, 2 * largeWrite, 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var file bytes.Buffer
			bw := bufio.NewWriterSize(&file, 1<<20)
			w := largeWrites{bw, &file}
			var want []byte
			for k, n := range tc.sizes {
				p := bytes.Repeat([]byte{byte('a' + k)}, n)
				want = append(want, p...)
				if m, err := w.Write(p); m != n || err != nil {
					t.Fatalf("Write(%d bytes) = %d, %v", n, m, err)
				}
			}
			if err := bw.Flush(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(file.Bytes(), want) {
				t.Fatalf("file has %d bytes out of order (want %d)", file.Len(), len(want))
			}
		})
	}
}
