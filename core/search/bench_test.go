package search

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkSearchGOROOT searches $(go env GOROOT)/src for a literal and a
// regex, each against ripgrep over the same tree in the same run (rg is
// skipped when not installed): go test -bench SearchGOROOT ./core/search
func BenchmarkSearchGOROOT(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src")
	rg, rgErr := exec.LookPath("rg")
	for _, c := range []struct{ name, pattern string }{
		{"literal", "ErrUnexpectedEOF"},
		{"regex", `func \(\w+ \*\w+\) Close\(\)`},
		{"insensitive", "deadline exceeded"},
	} {
		m, err := Compile(c.pattern, false, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/synaptic", func(b *testing.B) {
			var res *Result
			for b.Loop() {
				if res, err = Search(context.Background(), m, Options{Root: root, MaxResults: 100}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Total), "hits")
			b.ReportMetric(float64(res.FilesScanned), "files")
		})
		b.Run(c.name+"/rg", func(b *testing.B) {
			if rgErr != nil {
				b.Skip("ripgrep not installed")
			}
			for b.Loop() {
				// Exit status 1 means no match; only a failure to run counts.
				if err := exec.Command(rg, "-S", "-c", "-j", "2", c.pattern, root).Run(); err != nil {
					if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
