package extract

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/graphbin"
)

// TestHashingWriterDigest: writes below and above hashAside (hashed
// inline or beside the write) give the digest and count of the bytes
// written, in order.
func TestHashingWriterDigest(t *testing.T) {
	tests := []struct {
		name  string
		sizes []int
	}{
		{"empty", nil},
		{"small", []int{1, 100, hashAside - 1}},
		{"large", []int{hashAside, 5 * hashAside}},
		{"mixed", []int{3, hashAside, 17, 2*hashAside + 5, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var file bytes.Buffer
			w := newHashingWriter()
			w.w = &file
			for k, n := range tc.sizes {
				p := bytes.Repeat([]byte{byte(k + 1)}, n)
				if m, err := w.Write(p); m != n || err != nil {
					t.Fatalf("Write(%d bytes) = %d, %v", n, m, err)
				}
			}
			h := w.header()
			if h.JSONSize != int64(file.Len()) {
				t.Errorf("size %d, wrote %d", h.JSONSize, file.Len())
			}
			if want := sha256.Sum256(file.Bytes()); h.JSONSum != want {
				t.Errorf("digest %x, want %x", h.JSONSum, want)
			}
		})
	}
}

// TestStagedSidecar: a sidecar staged beside graph.json and committed with
// its header is byte for byte graphbin.Encode's; a discarded one leaves
// the old graph.bin and no temporary file.
func TestStagedSidecar(t *testing.T) {
	g, err := graph.ReadFile("../tools/testdata/real/graph.json")
	if err != nil {
		t.Fatal(err)
	}
	h := graphbin.Header{JSONSize: 12345}
	h.JSONSum[0], h.JSONSum[31] = 0xab, 0xcd
	tests := []struct {
		name   string
		commit bool
	}{
		{"committed", true},
		{"discarded", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			old := []byte("old sidecar")
			if err := os.WriteFile(filepath.Join(dir, SidecarFile), old, 0o644); err != nil {
				t.Fatal(err)
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			commsSet := make(chan struct{})
			staged := stageSidecar(root, graph.NewIndex(g), commsSet)
			close(commsSet)
			s := <-staged
			want := old
			if tc.commit {
				if err := s.commit(context.Background(), h); err != nil {
					t.Fatal(err)
				}
				want = graphbin.Encode(g, h)
			} else {
				s.discard()
			}
			waitRetired()
			got, err := os.ReadFile(filepath.Join(dir, SidecarFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("graph.bin is %d bytes, want %d (equal: %v)", len(got), len(want), bytes.Equal(got, want))
			}
			assertNoTemps(t, dir)
		})
	}
}
