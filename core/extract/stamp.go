package extract

import (
	"cmp"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"

	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// GraphStamp records what the last run wrote and what it was made from.
// graph.json, GRAPH_REPORT.md and graph.bin are a pure function of their inputs (the
// facts of every file, the discovery skips, the Go module layout and the
// synaptic build), so a run whose inputs hash to the same Inputs, and which
// finds them as they were written, would write them byte for byte
// again: it leaves them alone. Editing a comment, touching a file or
// running extract twice then costs no resolution, clustering or writing.
type GraphStamp struct {
	Inputs  string               `json:"inputs"`  // inputsDigest of the run that wrote the outputs
	Quick   string               `json:"quick"`   // quickDigest of the last run that found them current
	Outputs map[string]FileStamp `json:"outputs"` // graph.json, GRAPH_REPORT.md and graph.bin as written
	Summary StampSummary         `json:"summary"`
}

// FileStamp identifies an output file as written: a rewrite, a truncation
// or an edit changes its size or modification time.
type FileStamp struct {
	Size    int64 `json:"size"`
	MTimeNS int64 `json:"mtime_ns"`
}

// StampSummary is the part of a Summary that comes from the graph, kept
// so a run that keeps the graph can still report it.
type StampSummary struct {
	Files       int            `json:"files"`
	PerLanguage map[string]int `json:"per_language"`
	Failed      []Skip         `json:"failed,omitempty"` // files whose extraction failed
	Notes       []string       `json:"notes,omitempty"`  // what the plugins noted
	Nodes       int            `json:"nodes"`
	Edges       int            `json:"edges"`
	ByRelation  map[string]int `json:"by_relation"`
	ByKind      map[string]int `json:"by_kind"`
	Resolution  resolve.Stats  `json:"resolution"`
	GraphBytes  int            `json:"graph_bytes"`
}

// stampedOutputs are the files a GraphStamp vouches for.
var stampedOutputs = []string{GraphFile, ReportFile, SidecarFile}

// stampOutputs stats the outputs just written in dir (the files
// themselves: a link put in their place does not count as them).
func stampOutputs(dir *os.Root) (map[string]FileStamp, error) {
	m := make(map[string]FileStamp, len(stampedOutputs))
	for _, name := range stampedOutputs {
		st, err := dir.Lstat(name)
		if err != nil {
			return nil, err
		}
		m[name] = FileStamp{Size: st.Size(), MTimeNS: st.ModTime().UnixNano()}
	}
	return m, nil
}

// current reports whether digest, computed by this run, equals the one s
// recorded (stamped: s.Inputs or s.Quick) and both outputs are still as
// written. With s.Quick the facts cache need not even be read: every file
// has the size, time and plugin build it had.
func (s *GraphStamp) current(out *os.Root, stamped, digest string) bool {
	if s == nil || stamped == "" || stamped != digest {
		return false
	}
	now, err := stampOutputs(out)
	return err == nil && maps.Equal(now, s.Outputs)
}

// quickDigest hashes what a run knows before reading any file: the build,
// the root's place in its projects, the skipped files and each routed
// file's path, size, modification time, plugin build and the hash of
// its plugin's project input. Equal quick digests mean every
// file would be reused from the cache unchanged, so the inputs digest is
// equal too. "" when build is "".
func quickDigest(build, rootKey string, skipped []Skip, routed []*job) string {
	h := newDigest(build, rootKey, skipped)
	if h == nil {
		return ""
	}
	field(h, "quick")
	for _, j := range routed {
		field(h, j.file.Rel)
		field(h, j.pluginKey)
		field(h, j.projectKey)
		field(h, strconv.FormatInt(j.file.Size, 10))
		field(h, strconv.FormatInt(j.file.ModTime.UnixNano(), 10))
	}
	return finishDigest(h)
}

// inputsDigest hashes everything graph.json and GRAPH_REPORT.md are made
// from: the synaptic build, the root's place in its projects, the skipped files and,
// per file in path order, its language, generated flag, failure and
// encoded facts. Content hashes and plugin versions are left out on
// purpose: a file whose new content (or a plugin whose new build) yields
// the same facts yields the same graph. An empty build disables the
// digest ("" never matches).
func inputsDigest(build, rootKey string, skipped []Skip, cached []cachedFile) string {
	h := newDigest(build, rootKey, skipped)
	if h == nil {
		return ""
	}
	var buf []byte
	for i := range cached {
		c := &cached[i]
		enc := c.encoded
		if enc == nil && c.Facts != nil {
			buf = abi.EncodeFacts(buf[:0], c.Facts)
			enc = buf
		}
		digestFile(h, c, enc)
	}
	return finishDigest(h)
}

// newDigest starts an inputs digest with everything but the files, which
// go in through digestFile in path order (writeFacts does that while it
// encodes them anyway). It is nil when build is "".
func newDigest(build, rootKey string, skipped []Skip) hash.Hash {
	if build == "" {
		return nil
	}
	h := sha256.New()
	field(h, "synaptic-inputs-1")
	field(h, build)
	field(h, rootKey)
	field(h, "skipped")
	skips := slices.Clone(skipped)
	slices.SortFunc(skips, func(a, b Skip) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Reason, b.Reason), cmp.Compare(a.Detail, b.Detail))
	})
	for _, s := range skips {
		field(h, s.Path)
		field(h, s.Reason)
		field(h, s.Detail)
	}
	field(h, "files")
	return h
}

// digestFile adds one file, its facts encoded as enc.
func digestFile(h hash.Hash, c *cachedFile, enc []byte) {
	field(h, c.Path)
	field(h, c.Language)
	field(h, c.Skip)
	if c.Generated {
		field(h, "generated")
	} else {
		field(h, "")
	}
	writeLen(h, len(enc))
	h.Write(enc)
}

func finishDigest(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }

func field(h hash.Hash, s string) {
	writeLen(h, len(s))
	h.Write([]byte(s))
}

func writeLen(h hash.Hash, n int) {
	var b [binary.MaxVarintLen64]byte
	h.Write(b[:binary.PutUvarint(b[:], uint64(n))])
}

// buildID identifies the running synaptic build by the Go build ID in its
// executable, which changes with any change to its code, so a new synaptic
// never keeps a graph an older one resolved. It is "" where the executable
// cannot be read as ELF, which turns the stamp off.
var buildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := elf.Open(exe)
	if err != nil {
		return ""
	}
	defer f.Close()
	sec := f.Section(".note.go.buildid")
	if sec == nil {
		return ""
	}
	data, err := sec.Data()
	if err != nil || len(data) == 0 {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
})
