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

// stagedSidecar is graph.bin written but for its header: the body is
// encoded and written beside graph.json's writer, and the header, which
// holds graph.json's digest, goes in last, so the end of a run writes 64
// bytes instead of the 46 MB of GOROOT/src's sidecar.
type stagedSidecar struct {
	f    *atomicFile // nil once aborted
	body *graphbin.Body
	err  error
}

// stageSidecar encodes the sidecar body of x's graph and writes it into a
// temporary graph.bin after room for the header; the index gives the
// edges' endpoint nodes without a second id map. Everything but the
// communities is encoded while they are computed, on the core that
// graph.json's links leave idle; commsSet is closed once they are set.
func stageSidecar(dir *os.Root, x *graph.Index, commsSet <-chan struct{}) <-chan *stagedSidecar {
	ch := make(chan *stagedSidecar, 1)
	go func() {
		d := graphbin.EncodeDeferred(x)
		<-commsSet
		s := &stagedSidecar{body: d.Finish()}
		if s.f, s.err = createAtomic(dir, SidecarFile); s.err != nil {
			ch <- s
			return
		}
		if _, s.err = s.f.file.Seek(int64(graphbin.HeaderSize), io.SeekStart); s.err == nil {
			s.err = s.body.WriteBody(s.f.file) // two large writes: no buffer
		}
		s.body.Release() // the header needs only the body's size and CRC
		if s.err != nil {
			s.discard()
		}
		ch <- s
	}()
	return ch
}

// commit writes the header for the graph.json h describes and puts
// graph.bin in place.
func (s *stagedSidecar) commit(ctx context.Context, h graphbin.Header) error {
	if s.err != nil {
		return s.err
	}
	if err := s.body.HeaderAt(s.f.file, h); err != nil {
		s.discard()
		return err
	}
	_, err := s.f.commit(ctx)
	s.f = nil
	return err
}

// discard removes the temporary graph.bin: the old one stays.
func (s *stagedSidecar) discard() {
	if s.f != nil {
		s.f.abort()
		s.f = nil
	}
}
