package query

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// The latency benchmarks run on a real, large graph: the extraction of
// $(go env GOROOT)/src (about 380k nodes). Point SYNAPTIC_BENCH_GRAPH at its
// graph.json (default /tmp/gosrc-out/graph.json); they skip without it.
//
//	bin/synaptic extract --out /tmp/gosrc-out $(go env GOROOT)/src
//	go test -run '^$' -bench . -benchtime 200x ./core/query
//
// Targets on 2 cores: p50 < 20 ms, p99 < 100 ms per query.

var (
	benchOnce  sync.Once
	benchIndex *graph.Index
	benchErr   error
)

func benchGraph(b *testing.B) *graph.Index {
	path := os.Getenv("SYNAPTIC_BENCH_GRAPH")
	if path == "" {
		path = "/tmp/gosrc-out/graph.json"
	}
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no benchmark graph at %s (set SYNAPTIC_BENCH_GRAPH)", path)
	}
	benchOnce.Do(func() {
		g, err := graph.ReadFile(path)
		if err != nil {
			benchErr = err
			return
		}
		benchIndex = graph.NewIndex(g)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchIndex
}

// benchQuestions mix prose, symbol-shaped questions, broad words that hit
// huge posting lists ("error", "test", "http") and misses.
var benchQuestions = []string{
	"how does the http server handle keep alive connections",
	"ServeMux",
	"json.Unmarshal",
	"where is the json decoder reading tokens",
	"how does the garbage collector mark objects",
	"goroutine scheduler work stealing",
	"error",
	"test helper for parsing",
	"tls handshake client certificate verification",
	"how are maps grown when they are full",
	"crypto/sha256 block function",
	"context cancellation propagation",
	"io.Reader",
	"zzqxnotaword",
	"how does the linker lay out sections in the elf file",
	"reflect value call method",
	"net dial timeout with context",
	"strconv parse float rounding",
	"regexp compile syntax tree to program",
	"os exec command wait",
}

func BenchmarkIndexBuild(b *testing.B) {
	x := benchGraph(b)
	b.ResetTimer()
	for b.Loop() {
		New(x)
	}
	b.ReportMetric(float64(len(x.G.Nodes)), "nodes")
}

func BenchmarkQuery(b *testing.B) {
	x := benchGraph(b)
	e := New(x)
	b.Logf("index build %v over %d nodes, %d edges", e.BuildTime(), len(x.G.Nodes), len(x.G.Edges))
	ctx := context.Background()
	for _, full := range []bool{false, true} {
		b.Run(fmt.Sprintf("full=%v", full), func(b *testing.B) {
			var lat []time.Duration
			best := make([]time.Duration, len(benchQuestions)) // per question, robust to machine load
			i := 0
			for b.Loop() {
				k := i % len(benchQuestions)
				i++
				start := time.Now()
				e.Query(ctx, Request{Question: benchQuestions[k], Full: full})
				d := time.Since(start)
				lat = append(lat, d)
				if best[k] == 0 || d < best[k] {
					best[k] = d
				}
			}
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(pct(1.0), "max-ms")
			b.ReportMetric(float64(slices.Max(best).Microseconds())/1000, "slowest-question-min-ms")
		})
	}
}
