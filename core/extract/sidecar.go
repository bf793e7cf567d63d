package extract

import (
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"os"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/graphbin"
)

// SidecarFile is graph.json's binary sidecar (core/graphbin): serve starts
// from it when it mirrors the graph.json beside it.
const SidecarFile = graphbin.FileName

// hashingWriter passes writes on and hashes and counts them: graph.json's
// digest goes into its sidecar. A large write is hashed on another
// goroutine while it is written: hashing and writing graph.json one after
// the other made its writer goroutine the longest chain of a run (0.25 s
// of SHA-256 and 0.8 s of kernel time on GOROOT/src).
type hashingWriter struct {
	w    io.Writer
	h    hash.Hash
	n    int
	info os.FileInfo // the file written, before its rename
}

// hashAside is the size from which a write is hashed beside its write.
const hashAside = 64 << 10

func newHashingWriter() *hashingWriter { return &hashingWriter{h: sha256.New()} }

func (c *hashingWriter) Write(b []byte) (int, error) {
	if len(b) < hashAside {
		n, err := c.w.Write(b)
		c.h.Write(b[:n])
		c.n += n
		return n, err
	}
	hashed := make(chan struct{})
	go func() {
		c.h.Write(b)
		close(hashed)
	}()
	n, err := c.w.Write(b)
	<-hashed
	c.n += n
	if n < len(b) && err == nil {
		err = io.ErrShortWrite // the digest has all of b: say the write failed
	}
	return n, err
}

// header is the sidecar header for the graph.json written through c.
func (c *hashingWriter) header() graphbin.Header {
	h := graphbin.Header{JSONSize: int64(c.n)}
	copy(h.JSONSum[:], c.h.Sum(nil))
	return h
}

// encodeSidecar encodes the sidecar body of x's graph beside the
// graph.json writer, on the core the communities no longer need; the
// index gives the edges' endpoint nodes without a second id map.
func encodeSidecar(x *graph.Index) <-chan *graphbin.Body {
	ch := make(chan *graphbin.Body, 1)
	go func() { ch <- graphbin.EncodeBodyIndexed(x) }()
	return ch
}

// writeSidecar writes graph.bin for the graph.json just written.
func writeSidecar(ctx context.Context, dir *os.Root, body *graphbin.Body, h graphbin.Header) error {
	return writeAtomic(ctx, dir, SidecarFile, func(w io.Writer) error { return body.WriteTo(w, h) })
}
