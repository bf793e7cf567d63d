package extract

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/synaptic-graph/synaptic/core/safefile"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ManifestFile and FactsFile live in the output directory.
const (
	ManifestFile = ".manifest.json"
	FactsFile    = cacheDirName + "/" + factsName
	cacheDirName = "cache"
	factsName    = "facts.bin"
)

// maxManifestBytes caps the manifest read: ~200 bytes a file, so far
// above any repository, and far below memory.
const maxManifestBytes = 512 << 20

// Manifest records what the graph was built from, so the next run can tell
// which files changed and which plugins were upgraded.
type Manifest struct {
	Seal    string                   `json:"seal,omitempty"` // see writeManifest; never set in memory
	Version int                      `json:"version"`
	Files   map[string]ManifestEntry `json:"files"`
	Plugins map[string]PluginInfo    `json:"plugins"`
	Graph   *GraphStamp              `json:"graph,omitempty"` // see GraphStamp
	// Root is the absolute source root the run extracted. serve keeps a
	// graph current only from that root: guessing it from where the
	// output sits re-extracted the wrong tree when --out put it elsewhere.
	Root string `json:"root,omitempty"`
	// Projects are the summary lines of each plugin's project entry point
	// (see Summary.Projects), shown again by a run that reuses every file.
	Projects map[string][]string `json:"projects,omitempty"`
	// ProjectInputs are the hashes of each plugin's project input, and
	// ProjectParts the parts its entry point answered for it (plugins
	// that cut their info into parts only): a later run whose input
	// differs keeps the facts of the files whose parts did not change.
	ProjectInputs map[string]string            `json:"project_inputs,omitempty"`
	ProjectParts  map[string][]abi.ProjectPart `json:"project_parts,omitempty"`
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

// sealPrefix opens a sealed manifest: the seal is its first member, so it
// can be cut out and checked over the exact bytes that follow.
const sealPrefix = "{\n  \"seal\": \""

// readManifest reads and checks the manifest in dir. A manifest the key
// did not seal is errUntrusted.
func readManifest(dir *os.Root, key sealKey) (*Manifest, error) {
	data, err := safefile.ReadFile(dir, ManifestFile, maxManifestBytes, nil)
	if err != nil {
		return nil, err
	}
	body, ok := unsealManifest(data, key)
	if !ok {
		return nil, fmt.Errorf("%s: %w; ignoring it and the facts cache: doing a full extraction", ManifestFile, errUntrusted)
	}
	var m Manifest
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("%s is corrupted (%v); doing a full extraction", ManifestFile, err)
	}
	if m.Version != manifestVersion || m.Files == nil {
		return nil, fmt.Errorf("%s has an unknown format (version %d); doing a full extraction", ManifestFile, m.Version)
	}
	m.Seal = "" // a "seal" member inside the sealed body means nothing (found by FuzzReadManifest)
	return &m, nil
}

// ReadManifest reads the manifest a run left in outDir (the directory
// holding graph.json), checking its seal.
func ReadManifest(outDir string) (*Manifest, error) {
	dir, err := os.OpenRoot(outDir)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	key, err := loadKey()
	if err != nil {
		return nil, err
	}
	return readManifest(dir, key)
}

// unsealManifest returns the manifest's JSON without its seal when key
// sealed it.
func unsealManifest(data []byte, key sealKey) ([]byte, bool) {
	const hexLen = 2 * keySize
	rest, ok := bytes.CutPrefix(data, []byte(sealPrefix))
	if !ok || len(rest) < hexLen+3 || string(rest[hexLen:hexLen+3]) != "\",\n" {
		return nil, false
	}
	mac, err := hex.DecodeString(string(rest[:hexLen]))
	if err != nil {
		return nil, false
	}
	body := append([]byte("{\n"), rest[hexLen+3:]...)
	return body, key.verify(domainManifest, body, mac)
}

// writeManifest writes m into dir, sealed with key: the seal member goes
// first and covers every byte after it.
func writeManifest(ctx context.Context, dir *os.Root, key sealKey, m *Manifest) error {
	c := *m
	c.Seal = ""
	data, err := json.MarshalIndent(&c, "", "  ") // map keys are sorted: stable bytes
	if err != nil {
		return err
	}
	data = append(data, '\n')
	mac := hex.EncodeToString(key.sum(domainManifest, data))
	sealed := slices.Concat([]byte(sealPrefix), []byte(mac), []byte("\",\n"), data[len("{\n"):])
	return writeFileAtomic(ctx, dir, ManifestFile, sealed)
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

// factsMagic opens the facts cache; a keyed seal of everything before it
// closes it (see sealKey).
var factsMagic = []byte("SYNFACTS3\n")

// writeFacts writes the facts cache into the cache directory dir, sealed
// with key, feeding each file to digest too when it is not nil (see
// newDigest), and setting keys[i] to file i's factsKey when keys is not
// nil.
func writeFacts(ctx context.Context, dir *os.Root, key sealKey, files []cachedFile, digest hash.Hash, keys []string) error {
	return writeAtomic(ctx, dir, factsName, func(out io.Writer) error {
		seal := key.hasher(domainFacts)
		w := io.MultiWriter(out, seal)
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
			if keys != nil && c.Facts != nil {
				keys[i] = factsKey(c, enc)
			}
			e.Uvarint(uint64(len(enc)))
			e.Buf = append(e.Buf, enc...)
			if len(e.Buf) > 256<<10 {
				if _, err := w.Write(e.Buf); err != nil {
					return err
				}
				e.Buf = e.Buf[:0]
				if err := ctx.Err(); err != nil {
					return err
				}
			}
		}
		if _, err := w.Write(e.Buf); err != nil {
			return err
		}
		_, err := out.Write(seal.Sum(nil))
		return err
	})
}

// readFacts reads the facts cache in the cache directory dir. A cache the
// key did not seal (forged, or corrupted in any byte) is errUntrusted.
func readFacts(dir *os.Root, key sealKey) (map[string]cachedFile, error) {
	data, err := safefile.ReadFile(dir, factsName, -1, nil) // one allocation of the file's size
	if err != nil {
		return nil, err
	}
	if len(data) < len(factsMagic)+keySize || string(data[:len(factsMagic)]) != string(factsMagic) {
		return nil, errors.New("facts cache has an unknown format")
	}
	body, mac := data[:len(data)-keySize], data[len(data)-keySize:]
	if !key.verify(domainFacts, body, mac) {
		return nil, errUntrusted
	}
	d := abi.NewDecoder(body[len(factsMagic):])
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
