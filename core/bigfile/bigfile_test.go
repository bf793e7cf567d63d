package bigfile

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 4095, minMapped - 1, minMapped, minMapped + 1, minMapped + 4096, 3*minMapped + 17} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(rnd.Uint32())
		}
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Read(p)
		if err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("size %d: got %d bytes that differ from the file", size, len(b.Bytes()))
		}
		if size >= minMapped && cap(b.Bytes()) != len(b.Bytes()) {
			t.Errorf("size %d: cap %d beyond the file invites appends into the mapping", size, cap(b.Bytes()))
		}
		b.Release()
		b.Release() // twice is harmless
		if b.Bytes() != nil {
			t.Errorf("size %d: Bytes after Release", size)
		}
	}
}

func TestReadMissing(t *testing.T) {
	_, err := Read(filepath.Join(t.TempDir(), "nope"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
}

// BenchmarkRead compares a plain os.ReadFile with Read on a file given by
// $SYNAPTIC_BENCH_FILE (e.g. a GOROOT graph.json); the difference is the
// page-fault cost of fresh memory.
func BenchmarkRead(b *testing.B) {
	p := os.Getenv("SYNAPTIC_BENCH_FILE")
	if p == "" {
		b.Skip("set SYNAPTIC_BENCH_FILE to a large file")
	}
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("os.ReadFile", func(b *testing.B) {
		b.SetBytes(st.Size())
		for b.Loop() {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			_ = data
		}
	})
	b.Run("bigfile.Read", func(b *testing.B) {
		b.SetBytes(st.Size())
		for b.Loop() {
			buf, err := Read(p)
			if err != nil {
				b.Fatal(err)
			}
			buf.Release()
		}
	})
}
