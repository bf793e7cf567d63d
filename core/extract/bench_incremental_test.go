package extract

import (
	"runtime"
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
// are not known here (as in BenchmarkResolveCached), so the memo on disk
// (made with them) would mark every file changed: the previous run's
// memo is made here, untimed, from the same files. The figures are for
// comparing builds, not a run's phase time. cpu-ms/op is the process's
// CPU time per op: the machine is shared. The run's memory limit is
// extract's (limitMemory), which decides how often the collector runs.
func BenchmarkResolveIncremental(b *testing.B) {
	_, cache := benchCache(b)
	defer limitMemory()()
	const build = "bench" // both runs are this one's
	const changed = "net/http/server.go"
	files := benchFiles(cache, func(p string, c *cachedFile) string {
		if p == changed {
			return "edited"
		}
		return factsKey(c, c.encoded)
	})
	full := benchFiles(cache, func(p string, c *cachedFile) string { return factsKey(c, c.encoded) })
	_, prev, err := resolve.BuildIncremental(b.Context(), full, resolve.Options{Build: build})
	if err != nil {
		b.Fatal(err)
	}
	opts := resolve.Options{Build: build, Prev: prev.Memo}
	runtime.GC()
	b.ResetTimer()
	var cpu time.Duration
	for b.Loop() {
		c0 := cputime.Process()
		_, res, err := resolve.BuildIncremental(b.Context(), files, opts)
		cpu += cputime.Process() - c0
		if err != nil {
			b.Fatal(err)
		}
		if res.Reuse.Full != "" || res.Reuse.Resolved != 1 {
			b.Fatalf("not a one-file resolution: %s", res.Reuse)
		}
	}
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}
