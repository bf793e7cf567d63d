package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/bigfile"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/graphbin"
)

// loadGraphFile reads graph.json once into an owned buffer, verifies the
// digest when pinned, and returns its graph: decoded from the graph.bin
// sidecar beside it when that mirrors these very bytes, else parsed.
func loadGraphFile(path, expectSHA string) (*graph.Graph, [32]byte, error) {
	g, sum, _, err := loadGraphNoted(path, expectSHA)
	return g, sum, err
}

// loadGraphNoted is loadGraphFile that also says, for serve's log, why a
// sidecar beside graph.json was not used ("" when it was, or when there
// is none).
func loadGraphNoted(path, expectSHA string) (*graph.Graph, [32]byte, string, error) {
	buf, err := bigfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, [32]byte{}, "", fmt.Errorf("%s not found: run 'synaptic extract' in the repository first, or pass --graph PATH", path)
	}
	if err != nil {
		return nil, [32]byte{}, "", err
	}
	// The graph keeps nothing of data (graph.Parse and graphbin.Decode
	// copy what they keep), and every reader below is done when this
	// returns.
	defer buf.Release()
	data := buf.Bytes()
	// Hash while decoding: the digest verifies a pinned graph, matches the
	// sidecar to these bytes and lets the reload watcher skip rewrites of
	// identical bytes, and hashing 250 MB costs as much as decoding the
	// sidecar.
	sumc := make(chan [32]byte, 1)
	go func() { sumc <- sha256.Sum256(data) }()
	digest := sync.OnceValue(func() [32]byte { return <-sumc })
	g, note := sidecarGraph(path, int64(len(data)), digest)
	var perr error
	if g == nil {
		g, perr = parseGraph(data)
	}
	sum := digest()
	if expectSHA != "" {
		want := strings.ToLower(strings.TrimSpace(expectSHA))
		if len(want) != 64 {
			return nil, sum, "", fmt.Errorf("--expected-graph-sha256 must be 64 hex characters, got %d", len(want))
		}
		if got := hex.EncodeToString(sum[:]); got != want {
			return nil, sum, "", fmt.Errorf("%s has sha256 %s, expected %s: refusing to start", path, got, want)
		}
	}
	if perr != nil {
		return nil, sum, note, fmt.Errorf("%s: %w (re-run 'synaptic extract')", path, perr)
	}
	return g, sum, note, nil
}

// sidecarGraph decodes the graph.bin beside jsonPath when it mirrors the
// graph.json of this size and digest; otherwise it returns nil and why
// (nothing when there is no sidecar). A sidecar that is stale or corrupt
// is never served.
func sidecarGraph(jsonPath string, size int64, digest func() [32]byte) (*graph.Graph, string) {
	p := filepath.Join(filepath.Dir(jsonPath), graphbin.FileName)
	buf, err := bigfile.Read(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ""
	}
	if err != nil {
		return nil, fmt.Sprintf("%s not used (%v); parsed graph.json", p, err)
	}
	defer buf.Release()
	h, _, err := graphbin.ReadHeader(buf.Bytes())
	if err == nil {
		err = h.Matches(size, h.JSONSum) // the size first: a mismatch needs no decode
	}
	var g *graph.Graph
	if err == nil {
		g, _, err = decodeSidecar(buf.Bytes())
	}
	if err == nil {
		err = h.Matches(size, digest())
	}
	if err != nil {
		return nil, fmt.Sprintf("%s not used (%v); parsed graph.json instead; 'synaptic extract' rewrites it", p, err)
	}
	return g, ""
}

// decodeSidecar is graphbin.Decode with the collector paused, for the
// reason parseGraph gives.
func decodeSidecar(data []byte) (*graph.Graph, graphbin.Header, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return graphbin.Decode(data)
}
