package extract

import (
	"bytes"
	"crypto/sha256"
	"testing"
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
