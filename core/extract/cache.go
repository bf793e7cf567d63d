package extract

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ManifestFile and FactsFile live in the output directory.
const (
	ManifestFile = ".manifest.json"
	FactsFile    = "cache/facts.bin"
)

// Manifest records what the graph was built from, so the next run can tell
// which files changed and which plugins were upgraded.
type Manifest struct {
	Version int                      `json:"version"`
	Files   map[string]ManifestEntry `json:"files"`
	Plugins map[string]PluginInfo    `json:"plugins"`
	Graph   *GraphStamp              `json:"graph,omitempty"` // see GraphStamp
}

// ManifestEntry is one input file.
type ManifestEntry struct {
	Size   int64   `json:"size"`
	MTime  float64 `json:"mtime"` // seconds since the epoch
	Hash   string  `json:"hash"`  // blake3 of the content, hex
	Plugin string  `json:"plugin"`
}

// PluginInfo identifies a plugin build.
type PluginInfo struct {
	Name    string `json:"-"`
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
}

const manifestVersion = 1

func readManifest(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s is corrupted (%v); doing a full extraction", path, err)
	}
	if m.Version != manifestVersion || m.Files == nil {
		return nil, fmt.Errorf("%s has an unknown format (version %d); doing a full extraction", path, m.Version)
	}
	return &m, nil
}

func writeManifest(path string, m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ") // map keys are sorted: stable bytes
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(data, '\n'))
}

// cachedFile is one file's extraction result, kept between runs so
// unchanged files are never parsed again.
type cachedFile struct {
	Path     string
	Hash     string
	Plugin   string // plugin name@sha256
	Language string
	Skip     string // non-empty: extraction failed with this reason
	// Generated marks a generated file ("Code generated ... DO NOT EDIT."):
	// its constants, variables and fields were dropped from Facts.
	Generated bool
	Facts     *abi.Facts
	// encoded is Facts as the cache file holds them, when they were read
	// from it unchanged: writing the cache again copies these bytes
	// instead of encoding thousands of files anew.
	encoded []byte
}

var factsMagic = []byte("SYNFACTS2\n")

// writeFacts writes the facts cache, feeding each file to digest too
// when it is not nil (see newDigest).
func writeFacts(path string, files []cachedFile, digest hash.Hash) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeAtomic(path, func(w io.Writer) error {
		var e abi.Encoder
		e.Buf = append(e.Buf, factsMagic...)
		e.Uvarint(uint64(len(files)))
		var buf []byte
		for i := range files {
			c := &files[i]
			e.String(c.Path)
			e.String(c.Hash)
			e.String(c.Plugin)
			e.String(c.Language)
			e.String(c.Skip)
			e.Bool(c.Generated)
			enc := c.encoded
			if enc == nil && c.Facts != nil {
				buf = abi.EncodeFacts(buf[:0], c.Facts)
				enc = buf
			}
			if digest != nil {
				digestFile(digest, c, enc)
			}
			e.Uvarint(uint64(len(enc)))
			e.Buf = append(e.Buf, enc...)
			if len(e.Buf) > 256<<10 {
				if _, err := w.Write(e.Buf); err != nil {
					return err
				}
				e.Buf = e.Buf[:0]
			}
		}
		_, err := w.Write(e.Buf)
		return err
	})
}

func readFacts(path string) (map[string]cachedFile, error) {
	data, err := os.ReadFile(path) // one allocation of the file's size
	if err != nil {
		return nil, err
	}
	if len(data) < len(factsMagic) || string(data[:len(factsMagic)]) != string(factsMagic) {
		return nil, errors.New("facts cache has an unknown format")
	}
	d := abi.NewDecoder(data[len(factsMagic):])
	n := d.Len(6)
	entries := make([]cachedFile, 0, n)
	for i := 0; i < n && d.Err() == nil; i++ {
		c := cachedFile{Path: d.String(), Hash: d.String(), Plugin: d.String(), Language: d.String(), Skip: d.String(), Generated: d.Bool()}
		if c.encoded = d.Bytes(); len(c.encoded) == 0 {
			c.encoded = nil
		}
		entries = append(entries, c)
	}
	if d.Err() != nil {
		return nil, d.Err()
	}
	// The payloads decode independently: spread them over the CPUs.
	errs := make([]error, len(entries))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(entries)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(entries); i = int(next.Add(1) - 1) {
				if c := &entries[i]; c.encoded != nil {
					c.Facts, errs[i] = abi.DecodeFactsShared(c.encoded) // data is never modified
				}
			}
		})
	}
	wg.Wait()
	out := make(map[string]cachedFile, len(entries))
	for i, c := range entries {
		if errs[i] != nil {
			return nil, fmt.Errorf("facts cache entry %s: %w", c.Path, errs[i])
		}
		out[c.Path] = c
	}
	return out, nil
}

// writeFileAtomic writes data to path atomically (see writeAtomic).
func writeFileAtomic(path string, data []byte) error {
	return writeAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomic streams fill into a temporary file in the same directory and
// renames it over path, so readers (a serving `synaptic serve`) never see a
// half-written file and big outputs never sit whole in memory.
func writeAtomic(path string, fill func(io.Writer) error) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	fail := func(err error) error {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := fill(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
