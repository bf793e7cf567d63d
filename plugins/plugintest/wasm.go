package plugintest

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

type wasmTarget struct {
	ctx context.Context
	p   *host.Plugin
}

func (w wasmTarget) Extract(path string, lang int, records, source []byte) (*abi.Facts, error) {
	return w.p.Extract(w.ctx, 0, path, uint32(lang), records, source)
}

// BuildWasm compiles the plugin in dir (GOOS=wasip1, -buildmode=c-shared)
// into a temporary folder next to a copy of its plugin.toml, loads it in a
// real wazero host, and returns it as a Target: the shipped artefact, run
// through the real sandbox.
func BuildWasm(t testing.TB, dir string, grammars []abi.Grammar) Target {
	t.Helper()
	m, err := manifest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	build := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", filepath.Join(out, m.Module), ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", dir, err, b)
	}
	data, err := os.ReadFile(filepath.Join(dir, manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, manifest.FileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err = manifest.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(ctx) })
	p, err := h.Load(ctx, m, grammars)
	if err != nil {
		t.Fatal(err)
	}
	return wasmTarget{ctx, p}
}

// RunWasm runs the fixtures in dir against the built plugin. It is skipped
// with -short, since it compiles the plugin.
func RunWasm(t *testing.T, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: not building the wasm plugin")
	}
	langs, err := Languages(dir)
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	Run(t, dir, langs, BuildWasm(t, dir, grammars))
}
