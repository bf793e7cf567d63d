package extract

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/core/safefile"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/zeebo/blake3"
)

// MemoFile holds the resolution memo (resolve.Memo) beside the facts
// cache: what the previous run's call resolution consulted and produced,
// so an incremental run re-resolves only the calls an edit can change.
const MemoFile = cacheDirName + "/" + memoName

const memoName = "resolve.bin"

// maxMemoBytes caps the memo read: GOROOT's is ~20 MB.
const maxMemoBytes = 1 << 30

// readMemo reads the memo in the cache directory dir. A memo the key did
// not seal is errUntrusted; a missing one is fs.ErrNotExist.
func readMemo(dir *os.Root, key sealKey) (*resolve.Memo, error) {
	data, err := safefile.ReadFile(dir, memoName, maxMemoBytes, nil)
	if err != nil {
		return nil, err
	}
	if len(data) < keySize {
		return nil, errors.New("truncated")
	}
	body, mac := data[:len(data)-keySize], data[len(data)-keySize:]
	if !key.verify(domainMemo, body, mac) {
		return nil, errUntrusted
	}
	return resolve.DecodeMemo(body)
}

// writeMemo writes m into the cache directory dir, sealed with key.
func writeMemo(ctx context.Context, dir *os.Root, key sealKey, m *resolve.Memo) error {
	body := m.Encode(nil)
	return writeAtomic(ctx, dir, memoName, func(w io.Writer) error {
		if _, err := w.Write(body); err != nil {
			return err
		}
		_, err := w.Write(key.sum(domainMemo, body))
		return err
	})
}

// memoWorthRewriting reports whether this run's memo should replace the
// one it reused. Any earlier memo of this build stays a sound base (it
// describes a whole resolution, and each file's facts are compared by key
// against it), so after a small edit the old one is kept: re-resolving a
// few more files next time costs less than encoding and writing ~10 MB
// every time. A run that re-resolved more than 1/128 of the files (or
// resolved in full) writes its own.
func memoWorthRewriting(u resolve.Reuse) bool {
	return u.Full != "" || u.Resolved > u.Files/128
}

// loadMemo starts reading the previous run's memo; the channel yields it,
// or nil and why a full resolution is needed.
func loadMemo(out *outDir, key sealKey, incremental, full bool) <-chan memoLoad {
	ch := make(chan memoLoad, 1)
	switch {
	case full:
		ch <- memoLoad{why: "--full"}
		return ch
	case !incremental || key == nil:
		ch <- memoLoad{why: "no earlier run's cache to start from"}
		return ch
	}
	go func() {
		dir, err := out.cacheDir(false)
		var m *resolve.Memo
		if err == nil {
			m, err = readMemo(dir, key)
			dir.Close()
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			ch <- memoLoad{why: "no memo of an earlier run (" + MemoFile + ")"}
		case err != nil:
			ch <- memoLoad{why: fmt.Sprintf("%s cannot be used (%v)", MemoFile, err)}
		default:
			ch <- memoLoad{memo: m}
		}
	}()
	return ch
}

type memoLoad struct {
	memo *resolve.Memo
	why  string
}

// factsKey identifies what resolution reads of one file (resolve.File.Key):
// its language, generated mark and facts as the cache encodes them.
func factsKey(c *cachedFile, enc []byte) string {
	h := blake3.New()
	var e abi.Encoder
	e.String(c.Language)
	e.Bool(c.Generated)
	e.Uvarint(uint64(len(enc)))
	h.Write(e.Buf)
	h.Write(enc)
	var sum [16]byte
	h.Digest().Read(sum[:])
	return string(sum[:])
}
