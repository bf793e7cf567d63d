package bigfile

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/safefile"
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

// TestLeaseHoldsOffTruncation: while a leased Buffer is alive, another
// process truncating the file waits for Release (a shell's `: > file`), or
// is refused if it opens without blocking (coreutils truncate uses
// O_NONBLOCK), so the mapping never loses pages (which would be SIGBUS)
// and the bytes stay what was read.
func TestLeaseHoldsOffTruncation(t *testing.T) {
	p := filepath.Join(t.TempDir(), "graph.json")
	want := bytes.Repeat([]byte("0123456789abcdef"), minMapped/16+1)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	if !b.leased {
		b.Release()
		t.Skip("the kernel refused a read lease here (filesystem, leases-enable or ownership); Read used a copy")
	}
	if _, err := exec.LookPath("truncate"); err == nil {
		if out, err := exec.Command("truncate", "-s", "0", p).CombinedOutput(); err == nil {
			t.Errorf("truncate -s 0 succeeded under the lease: %s", out)
		}
	}
	cmd := exec.Command("sh", "-c", `: > "$1"`, "sh", p)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Fatalf("the shell truncated the file while the lease was held (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatal("mapped bytes changed under the lease")
	}
	b.Release()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("truncating after Release: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the truncating open still waits 10 s after Release")
	}
	if st, err := os.Stat(p); err != nil || st.Size() != 0 {
		t.Fatalf("file not truncated after Release: %v %v", st, err)
	}
}

// TestReadWithoutLease: a writer holding the file open makes the kernel
// refuse the lease; Read falls back to a copy, which is still exact.
func TestReadWithoutLease(t *testing.T) {
	p := filepath.Join(t.TempDir(), "graph.json")
	want := bytes.Repeat([]byte("fedcba9876543210"), minMapped/16+3)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	b, err := Read(p)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if b.leased {
		t.Fatal("got a lease although a writer has the file open")
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Fatalf("fallback read %d bytes that differ from the file", len(b.Bytes()))
	}
}

// TestReadRefusesFIFO: a FIFO where graph.json should be is refused at
// once; it used to block the reader (and with it hot reload) forever.
func TestReadRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "graph.json")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := Read(p); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Fatalf("Read(FIFO) = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Read blocked on a FIFO")
	}
}
