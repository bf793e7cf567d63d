package syntax

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The GOROOT benchmarks are the parse baseline the pipeline's throughput is
// compared against. One benchmark iteration is one pass over the corpus, so
// run them with -benchtime=1x (or Nx). SYNTAX_BENCH_FILES=n limits the corpus
// to the first n files (sorted by path) for quick runs.
//
//	go test -run '^$' -bench Goroot -benchtime=1x ./core/syntax

var (
	gorootOnce  sync.Once
	gorootFiles [][]byte
	gorootBytes int64
)

func gorootCorpus(b *testing.B) ([][]byte, int64) {
	gorootOnce.Do(func() {
		dir := filepath.Join(runtime.GOROOT(), "src")
		limit := -1
		if s := os.Getenv("SYNTAX_BENCH_FILES"); s != "" {
			if n, err := strconv.Atoi(s); err == nil && n > 0 {
				limit = n
			}
		}
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if limit >= 0 && len(gorootFiles) >= limit {
				return fs.SkipAll
			}
			if err != nil {
				return nil // unreadable entry: skip it
			}
			if d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
				if src, err := os.ReadFile(path); err == nil {
					gorootFiles = append(gorootFiles, src)
					gorootBytes += int64(len(src))
				}
			}
			return nil
		})
	})
	if len(gorootFiles) == 0 {
		b.Skip("no *.go files under GOROOT/src")
	}
	return gorootFiles, gorootBytes
}

// report adds throughput metrics. cpu is the worker thread's CPU time for
// single-threaded benchmarks (0 to omit): "cpu-MB/s" is stable on a loaded
// machine, wall-clock "MB/s" is not.
func report(b *testing.B, files int, bytes int64, nodes int64, cpu time.Duration) {
	s := b.Elapsed().Seconds()
	n := float64(b.N)
	b.ReportMetric(n*float64(bytes)/1e6/s, "MB/s")
	if cpu > 0 {
		b.ReportMetric(n*float64(bytes)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
	b.ReportMetric(n*float64(files)/s, "files/s")
	if nodes > 0 {
		b.ReportMetric(float64(nodes)/s, "nodes/s")
	}
}

// BenchmarkParseGoroot: parse only (tree built and freed), one parser.
func BenchmarkParseGoroot(b *testing.B) {
	files, total := gorootCorpus(b)
	g := mustGrammar(b, "go")
	p := NewParser()
	defer p.Close()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	for b.Loop() {
		for _, src := range files {
			if err := p.ParseOnly(g, src); err != nil {
				b.Fatal(err)
			}
		}
	}
	report(b, len(files), total, 0, threadCPU()-cpu0)
	st := p.Stats()
	b.ReportMetric(st.ParseCPU.Seconds(), "parse-cpu-s")
	b.ReportMetric(st.SerializeCPU.Seconds(), "free-cpu-s")
}

// BenchmarkParseSerializeGoroot: parse + flat serialization, one parser;
// the cursor variants serialize with the TSTreeCursor walk walk.c
// replaced, the baseline its serialize-cpu-s is read against.
func BenchmarkParseSerializeGoroot(b *testing.B) {
	for _, v := range []struct {
		name          string
		named, cursor bool
	}{{"all", false, false}, {"named", true, false}, {"all-cursor", false, true}, {"named-cursor", true, true}} {
		named := v.named
		parse := (*Parser).Parse
		if v.cursor {
			parse = (*Parser).parseCursor
		}
		b.Run(v.name, func(b *testing.B) {
			files, total := gorootCorpus(b)
			g := mustGrammar(b, "go")
			p := NewParser()
			defer p.Close()
			var nodes, recBytes int64
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0 := threadCPU()
			for b.Loop() {
				for _, src := range files {
					tr, err := parse(p, g, src, ParseOptions{NamedOnly: named})
					if err != nil {
						b.Fatal(err)
					}
					nodes += int64(tr.NodeCount)
					recBytes += int64(len(tr.Records))
				}
			}
			report(b, len(files), total, nodes, threadCPU()-cpu0)
			st := p.Stats()
			b.ReportMetric(st.ParseCPU.Seconds(), "parse-cpu-s")
			b.ReportMetric(st.SerializeCPU.Seconds(), "serialize-cpu-s")
			b.ReportMetric(float64(recBytes)/float64(b.N)/float64(total), "recbytes/srcbyte")
		})
	}
}

// BenchmarkParseGorootParallel: parse only with GOMAXPROCS workers, one
// parser each, files handed out round-robin through a channel.
func BenchmarkParseGorootParallel(b *testing.B) {
	files, total := gorootCorpus(b)
	g := mustGrammar(b, "go")
	workers := runtime.GOMAXPROCS(0)
	for b.Loop() {
		ch := make(chan []byte, 64)
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				p := NewParser()
				defer p.Close()
				for src := range ch {
					if err := p.ParseOnly(g, src); err != nil {
						b.Error(err)
					}
				}
			})
		}
		for _, src := range files {
			ch <- src
		}
		close(ch)
		wg.Wait()
	}
	report(b, len(files), total, 0, 0)
	b.ReportMetric(float64(workers), "workers")
}

// BenchmarkParseFile isolates the serialization cost on one mid-size real
// file (net/http/server.go): compare parse-only with parse+serialize; run
// with -count to interleave on a noisy machine.
func BenchmarkParseFile(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		b.Skip(err)
	}
	g := mustGrammar(b, "go")
	p := NewParser()
	defer p.Close()
	b.Run("parse-only", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			if err := p.ParseOnly(g, src); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, named := range []bool{false, true} {
		name := "serialize-all"
		if named {
			name = "serialize-named"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := p.Parse(g, src, ParseOptions{NamedOnly: named}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
