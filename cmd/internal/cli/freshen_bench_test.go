package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/mcp"
)

// BenchmarkFreshenCheck measures auto-freshen in process, so its CPU
// profile shows the catch-up alone: each iteration appends a function
// to time/format.go of an extracted Go tree and times the check the
// next request runs (walk, re-extract, patch, index), then a clean
// check. The tree is $SYNAPTIC_FRESHEN_TREE when set (extracted
// already), else a copy of $(go env GOROOT)/src extracted first.
//
//	go test -run '^$' -bench BenchmarkFreshenCheck -benchtime 5x -cpuprofile cpu.out ./cmd/internal/cli
func BenchmarkFreshenCheck(b *testing.B) {
	repo := freshenBenchTree(b)
	for _, watch := range []bool{false, true} {
		name := "auto"
		if watch {
			name = "watch"
		}
		b.Run(name, func(b *testing.B) { benchFreshen(b, repo, watch) })
	}
}

func benchFreshen(b *testing.B, repo string, watch bool) {
	ctx := context.Background()
	graphPath := filepath.Join(repo, "synaptic-out", "graph.json")
	g, err := graph.ReadFile(graphPath)
	if err != nil {
		b.Fatal(err)
	}
	var fr *freshener
	var mu sync.Mutex // fr is set after SetGraph, as in serve
	cat := tools.New(tools.Options{SourceRoot: repo, GraphPath: graphPath, Freshen: func(ctx context.Context) string {
		mu.Lock()
		f := fr
		mu.Unlock()
		if f == nil {
			return ""
		}
		return f.check(ctx)
	}})
	cat.SetGraph(g)
	srv := mcp.NewServer(mcp.Implementation{Name: "bench"}, &mcp.ServerOptions{Catalog: mcpCatalog(cat, tools.FullCatalog)})
	var log io.Writer = io.Discard
	if testing.Verbose() {
		log = os.Stderr
	}
	notifier := newResourceNotifier(cat)
	notifier.srv = srv
	w := &graphWatcher{path: graphPath, cat: cat, notify: notifier, log: log}
	f, why := newFreshener(serveFlags{graph: graphPath, sourceRoot: repo}, true, cat, srv, w, log)
	if f == nil {
		b.Fatal(why)
	}
	mu.Lock()
	fr = f
	mu.Unlock()
	defer fr.close(ctx)
	if watch {
		fr.startWatching(ctx)
		if !fr.src.live() {
			b.Skip("no file watcher")
		}
	}
	fr.check(ctx) // loads the plugins and the extraction's inputs
	target := filepath.Join(repo, "time", "format.go")
	var edit, clean []time.Duration
	i := 0
	for b.Loop() {
		b.StopTimer()
		time.Sleep(fr.debounce + 50*time.Millisecond)
		fn := fmt.Sprintf("FreshenCheck%s%d%d", b.Name()[len(b.Name())-1:], time.Now().UnixNano()%1e6, i)
		i++
		appendSource(b, target, "\nfunc "+fn+"() int { return 1 }\n")
		b.StartTimer()
		t0 := time.Now()
		fr.check(ctx)
		edit = append(edit, time.Since(t0))
		b.StopTimer()
		if len(cat.Index().WithLabel(fn+"()")) == 0 {
			b.Fatalf("%s() is not in the graph after the check", fn)
		}
		time.Sleep(fr.debounce + 50*time.Millisecond)
		t0 = time.Now()
		fr.check(ctx)
		clean = append(clean, time.Since(t0))
		b.StartTimer()
	}
	b.ReportMetric(medianMS(edit), "edit-p50-ms")
	b.ReportMetric(medianMS(clean), "clean-p50-ms")
}

func medianMS(v []time.Duration) float64 {
	slices.Sort(v)
	return float64(v[len(v)/2].Microseconds()) / 1000
}

func appendSource(b *testing.B, path, text string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		b.Fatal(err)
	}
}

// freshenBenchTree returns an extracted Go tree to edit.
func freshenBenchTree(b *testing.B) string {
	if t := os.Getenv("SYNAPTIC_FRESHEN_TREE"); t != "" {
		return t
	}
	src := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(src); err != nil {
		b.Skip("no GOROOT/src")
	}
	work := b.TempDir()
	if out, err := exec.Command("cp", "-r", src, work).CombinedOutput(); err != nil {
		b.Fatalf("copy GOROOT/src: %v\n%s", err, out)
	}
	repo := filepath.Join(work, "src")
	ctx := context.Background()
	loaded, err := loadPlugins(ctx, repo, os.Getenv("SYNAPTIC_PLUGINS"), false, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	defer loaded.close(ctx)
	if _, err := extract.Run(ctx, extract.Options{Root: repo, Languages: loaded.languages, Route: loaded.route, Full: true}); err != nil {
		b.Fatal(err)
	}
	return repo
}
