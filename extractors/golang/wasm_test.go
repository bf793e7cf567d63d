//go:build !wasip1

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// wasmTarget runs the golden fixtures through the built plugin in the real
// sandbox.
type wasmTarget struct {
	ctx context.Context
	p   *host.Plugin
}

func (w wasmTarget) Extract(path string, lang int, records, source []byte) (*abi.Facts, error) {
	return w.p.Extract(w.ctx, 0, path, uint32(lang), records, source)
}

// TestGoldenWasm builds go.wasm and checks it gives the golden facts. It
// compiles the plugin, so it runs only with SYNAPTIC_WASM=1 (as `make
// test-wasm` or CI would set it), keeping plain `go test` fast.
func TestGoldenWasm(t *testing.T) {
	if os.Getenv("SYNAPTIC_WASM") == "" {
		t.Skip("set SYNAPTIC_WASM=1 to build the plugin and run the fixtures through the wasm sandbox")
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-buildmode=c-shared", "-o", filepath.Join(dir, "go.wasm"), ".")
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	toml, err := os.ReadFile("plugin.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plugin.toml"), toml, 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	langs, _, grammars := target(t)
	p, err := h.Load(ctx, m, grammars)
	if err != nil {
		t.Fatal(err)
	}
	plugintest.Run(t, ".", langs, wasmTarget{ctx, p})
}
