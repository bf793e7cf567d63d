package extract

import (
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/resolve"
)

// BenchmarkResolveCached resolves the facts cache of a previous extraction
// (SYNAPTIC_BENCH_OUT, default /tmp/gosrc-out): the fixed cost of every
// incremental run.
func BenchmarkResolveCached(b *testing.B) {
	_, cache := benchCache(b)
	files := benchFiles(cache, func(string, *cachedFile) string { return "" })
	b.ResetTimer()
	for b.Loop() {
		g, _ := resolve.Build(files)
		_ = g
	}
}

func BenchmarkReadFacts(b *testing.B) {
	out := benchOut()
	for b.Loop() {
		if _, err := readBenchFacts(out); err != nil {
			b.Skip(err)
		}
	}
}

// benchOut is the output directory of the extraction the benchmarks read
// (SYNAPTIC_BENCH_OUT, default /tmp/gosrc-out).
func benchOut() string {
	if out := os.Getenv("SYNAPTIC_BENCH_OUT"); out != "" {
		return out
	}
	return "/tmp/gosrc-out"
}

// benchCache reads benchOut's facts cache, or skips the benchmark.
func benchCache(b *testing.B) (string, map[string]cachedFile) {
	out := benchOut()
	cache, err := readBenchFacts(out)
	if err != nil {
		b.Skipf("no facts cache: %v", err)
	}
	return out, cache
}

// benchFiles are the cache's files with facts, in path order, as a run
// hands them to resolve; key gives each its facts key. The families are
// those of the built-in plugins' manifests (the benchmark has no plugins
// to ask).
func benchFiles(cache map[string]cachedFile, key func(path string, c *cachedFile) string) []resolve.File {
	family := map[string]string{"go": "go", "python": "python", "javascript": "ecmascript", "typescript": "ecmascript", "tsx": "ecmascript", "java": "java", "rust": "rust"}
	var files []resolve.File
	for _, p := range slices.Sorted(maps.Keys(cache)) {
		c := cache[p]
		if c.Facts != nil {
			files = append(files, resolve.File{Path: p, Language: c.Language, Family: family[c.Language], Facts: c.Facts, Generated: c.Generated, Key: key(p, &c)})
		}
	}
	return files
}

// readBenchFacts reads the facts cache of the extraction in out, sealed
// with this user's key.
func readBenchFacts(out string) (map[string]cachedFile, error) {
	key, err := loadKey()
	if err != nil {
		return nil, err
	}
	dir, err := os.OpenRoot(filepath.Join(out, cacheDirName))
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	return readFacts(dir, key)
}

// BenchmarkSeal is the cost the cache seal adds to a run: one keyed BLAKE3
// pass over the facts cache when it is read and one when it is written.
func BenchmarkSeal(b *testing.B) {
	data := make([]byte, 64<<20)
	key := sealKey(make([]byte, keySize))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		key.sum(domainFacts, data)
	}
}

// BenchmarkPatchOneFile is serve's answer path after a one-file edit on
// the graph of a previous extraction (SYNAPTIC_BENCH_OUT, default
// /tmp/gosrc-out): resolve the file with its directory, then apply the
// patch to the whole graph. (The file is not re-extracted: its cached
// facts stand in for the edit.)
func BenchmarkPatchOneFile(b *testing.B) {
	out := os.Getenv("SYNAPTIC_BENCH_OUT")
	if out == "" {
		out = "/tmp/gosrc-out"
	}
	g, err := graph.ReadFile(filepath.Join(out, GraphFile))
	if err != nil {
		b.Skipf("no graph: %v", err)
	}
	cache, err := readBenchFacts(out)
	if err != nil {
		b.Skipf("no facts cache: %v", err)
	}
	const changed = "time/format.go"
	var files []resolve.File
	for p, c := range cache {
		if path.Dir(p) == path.Dir(changed) && c.Facts != nil {
			files = append(files, resolve.File{Path: p, Language: c.Language, Family: "go", Facts: c.Facts, Generated: c.Generated})
		}
	}
	x := graph.NewIndex(g)
	var resolveT, applyT time.Duration
	for b.Loop() {
		t0 := time.Now()
		part, _ := resolve.Build(files)
		t1 := time.Now()
		g.Apply(graph.Patch{Files: map[string]bool{changed: true}, Nodes: part.Nodes, Edges: part.Edges}, x)
		resolveT, applyT = resolveT+t1.Sub(t0), applyT+time.Since(t1)
	}
	b.ReportMetric(float64(resolveT.Milliseconds())/float64(b.N), "resolve-ms")
	b.ReportMetric(float64(applyT.Milliseconds())/float64(b.N), "apply-ms")
}
