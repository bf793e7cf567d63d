package main_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
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
	peak, _ := runPhases(b, args...)
	return peak
}

// runPhases is runMeasured for a run with -v: it also returns the wall
// seconds of each phase the summary lists ("phase resolve 1.8s").
func runPhases(b *testing.B, args ...string) (int64, map[string]float64) {
	b.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "SYNAPTIC_PLUGINS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("synaptic %v: %v\n%s", args, err, out)
	}
	phases := map[string]float64{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "phase" {
			continue
		}
		for i := 2; i < len(f); i++ { // "phase load cache 0.185s 0.31 CPU-s"
			if v, err := strconv.ParseFloat(strings.TrimSuffix(f[i], "s"), 64); err == nil && strings.HasSuffix(f[i], "s") {
				phases[strings.Join(f[1:i], " ")] = v
				break
			}
		}
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if ru == nil {
		return 0, phases
	}
	return ru.Maxrss * 1024, phases
}

// reportPhases reports the phases' median seconds: which part of a run the
// time goes to is what decides where to work next.
func reportPhases(b *testing.B, runs []map[string]float64) {
	for _, name := range []string{"parse+extract", "resolve", "communities", "write"} {
		var v []float64
		for _, p := range runs {
			for k, s := range p {
				if strings.HasPrefix(k, name) {
					v = append(v, s)
				}
			}
		}
		if len(v) > 0 {
			slices.Sort(v)
			b.ReportMetric(v[len(v)/2], name+"-s")
		}
	}
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
	benchFullExtraction(b, gorootSrc(b))
}

// benchFullExtraction runs `extract --full` on src once per iteration
// (extra flags first) and reports throughput, peak RSS and phase medians.
func benchFullExtraction(b *testing.B, src string, extra ...string) {
	b.Helper()
	out := b.TempDir()
	args := append(append([]string{"extract", "--full", "-v"}, extra...), "--out", out, src)
	var peak int64
	var runs []map[string]float64
	start := time.Now()
	for b.Loop() {
		p, phases := runPhases(b, args...)
		peak, runs = max(peak, p), append(runs, phases)
	}
	s := time.Since(start).Seconds() / float64(b.N)
	files, bytes := manifestBytes(b, out)
	b.ReportMetric(float64(bytes)/1e6/s, "MB/s")
	b.ReportMetric(float64(files)/s, "files/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
	reportPhases(b, runs)
}

// BenchmarkExtractGorootNullPlugin is BenchmarkExtractGoroot with the Go
// extractor replaced by one that reports nothing (testdata/nullplugin): the
// host still parses, serializes and hands over every tree, but resolution,
// communities and writing have almost nothing left to do. Next to the
// parse-only baseline it shows how far the required pipeline itself is
// from parsing, whatever the extractor does.
func BenchmarkExtractGorootNullPlugin(b *testing.B) {
	if bin == "" {
		b.Skip("no binary")
	}
	src := gorootSrc(b)
	plugins := b.TempDir()
	dest := filepath.Join(plugins, "go")
	if err := os.MkdirAll(dest, 0o755); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", filepath.Join(dest, "null.wasm"), "./testdata/nullplugin")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build null plugin: %v\n%s", err, out)
	}
	manifest := "name = \"go\"\nversion = \"0.0.0\"\nkind = \"extractor\"\nabi = 1\nmodule = \"null.wasm\"\n\n" +
		"[[languages]]\nname = \"go\"\ngrammar = \"go\"\nextensions = [\".go\"]\nfamily = \"go\"\n\n[options]\nnamed_only = true\n"
	if err := os.WriteFile(filepath.Join(dest, "plugin.toml"), []byte(manifest), 0o644); err != nil {
		b.Fatal(err)
	}
	benchFullExtraction(b, src, "--plugins", plugins)
}

// BenchmarkReextractOneFile: a copy of GOROOT/src is extracted once; each
// iteration edits one file and re-extracts incrementally. The last
// incremental graph.json must equal a full extraction's byte for byte
// (issue 11's contract; that run is not timed).
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
	var runs []map[string]float64
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
		p, phases := runPhases(b, "extract", "-v", repo)
		peak, runs = max(peak, p), append(runs, phases)
	}
	b.StopTimer()
	full := filepath.Join(work, "full-out")
	runMeasured(b, "extract", "--quiet", "--full", "--out", full, repo)
	for _, name := range []string{"graph.json", "graph.bin"} {
		inc, err1 := os.ReadFile(filepath.Join(repo, "synaptic-out", name))
		want, err2 := os.ReadFile(filepath.Join(full, name))
		if err1 != nil || err2 != nil {
			b.Fatalf("read %s: %v %v", name, err1, err2)
		}
		if !bytes.Equal(inc, want) {
			b.Fatalf("incremental %s (%d bytes) differs from a full extraction's (%d bytes)", name, len(inc), len(want))
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
	reportPhases(b, runs)
}
