package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// The extraction benchmarks run the real binary over $(go env GOROOT)/src,
// one full extraction per iteration (use -benchtime=1x -count=N). .ci/bench.sh
// runs them next to core/syntax's parse-only baseline and reports the ratio.

func gorootSrc(b *testing.B) string {
	dir := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no GOROOT/src")
	}
	return dir
}

// runMeasured runs the binary and returns its peak RSS in bytes.
func runMeasured(b *testing.B, args ...string) int64 {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "SYNAPTIC_PLUGINS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("synaptic %v: %v\n%s", args, err, out)
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return 0
	}
	return ru.Maxrss * 1024
}

// manifestBytes sums the sizes of the files a run extracted.
func manifestBytes(b *testing.B, out string) (files int, bytes int64) {
	var m struct {
		Files map[string]struct{ Size int64 } `json:"files"`
	}
	data, err := os.ReadFile(filepath.Join(out, ".manifest.json"))
	if err != nil || json.Unmarshal(data, &m) != nil {
		b.Fatalf("read manifest: %v", err)
	}
	for _, f := range m.Files {
		bytes += f.Size
	}
	return len(m.Files), bytes
}

func BenchmarkExtractGoroot(b *testing.B) {
	if bin == "" {
		b.Skip("no binary")
	}
	src := gorootSrc(b)
	out := b.TempDir()
	var peak int64
	start := time.Now()
	for b.Loop() {
		peak = max(peak, runMeasured(b, "extract", "--full", "--quiet", "--out", out, src))
	}
	s := time.Since(start).Seconds() / float64(b.N)
	files, bytes := manifestBytes(b, out)
	b.ReportMetric(float64(bytes)/1e6/s, "MB/s")
	b.ReportMetric(float64(files)/s, "files/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
}

// BenchmarkReextractOneFile: a copy of GOROOT/src is extracted once; each
// iteration edits one file and re-extracts incrementally.
func BenchmarkReextractOneFile(b *testing.B) {
	if bin == "" {
		b.Skip("no binary")
	}
	src := gorootSrc(b)
	work := b.TempDir()
	if out, err := exec.Command("cp", "-r", src, work).CombinedOutput(); err != nil {
		b.Fatalf("copy GOROOT/src: %v\n%s", err, out)
	}
	repo := filepath.Join(work, "src")
	runMeasured(b, "extract", "--quiet", repo)
	target := filepath.Join(repo, "net", "http", "server.go")
	var peak int64
	i := 0
	for b.Loop() {
		b.StopTimer()
		f, err := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		fmt.Fprintf(f, "\nfunc benchEdit%d() {}\n", i)
		f.Close()
		i++
		b.StartTimer()
		peak = max(peak, runMeasured(b, "extract", "--quiet", repo))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
}
