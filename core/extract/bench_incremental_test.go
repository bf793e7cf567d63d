package extract

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
	"github.com/synaptic-graph/synaptic/core/resolve"
)

// BenchmarkResolveIncremental is the resolve phase of a one-file
// incremental run on the cache of a previous extraction
// (SYNAPTIC_BENCH_OUT, default /tmp/gosrc-out): every file but
// net/http/server.go keeps its facts key, so the memo's calls are replayed
// for them and only the fixed costs (symbol tables, the other passes,
// Canonicalize) and one file's calls remain. Languages' plugin semantics
// are not known here (as in BenchmarkResolveCached), so the figures are
// for comparing builds, not a run's phase time. cpu-ms/op is the
// process's CPU time per op: the machine is shared.
func BenchmarkResolveIncremental(b *testing.B) {
	out, cache := benchCache(b)
	key, err := loadKey()
	if err != nil {
		b.Skip(err)
	}
	dir, err := os.OpenRoot(filepath.Join(out, cacheDirName))
	if err != nil {
		b.Skip(err)
	}
	memo, err := readMemo(dir, key)
	dir.Close()
	if err != nil {
		b.Skipf("no memo: %v", err)
	}
	const changed = "net/http/server.go"
	files := benchFiles(cache, func(p string, c *cachedFile) string {
		if p == changed {
			return "edited"
		}
		return factsKey(c, c.encoded)
	})
	opts := resolve.Options{Build: memo.Build, Prev: memo}
	var cpu time.Duration
	for b.Loop() {
		c0 := cputime.Process()
		_, res, err := resolve.BuildIncremental(b.Context(), files, opts)
		cpu += cputime.Process() - c0
		if err != nil {
			b.Fatal(err)
		}
		if res.Reuse.Full != "" {
			b.Fatalf("resolved in full: %s", res.Reuse.Full)
		}
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
