package synaptic_test

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/synaptic-graph/synaptic"

// forbidden lists import edges the architecture rules out (docs/architecture.md):
// the core knows nothing of MCP or the plugin host, MCP knows nothing of the
// graph, and plugin code (guest side) depends on the SDK only.
var forbidden = []struct{ from, to, why string }{
	{"core/", "mcp", "core must not know the protocol"},
	{"core/", "plugins/", "core reaches plugins through interfaces"},
	{"core/", "cmd/", "core is a library"},
	{"plugins/", "mcp", "plugins must not know the protocol"},
	{"mcp", "core/", "mcp is a protocol server handed a catalog"},
	{"mcp", "plugins/", "mcp is a protocol server handed a catalog"},
	{"sdk/", "core/", "the guest SDK is standard library only"},
	{"sdk/", "plugins/", "the guest SDK is standard library only"},
	{"extractors/", "core/", "plugins are built with the SDK only"},
	{"extractors/", "plugins/host", "plugins are built with the SDK only"},
	{"rules/", "core/", "plugins are built with the SDK only"},
}

func TestImportDAG(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps=false", "-json", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		from := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		for _, imp := range p.Imports {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			to := strings.TrimPrefix(imp, module+"/")
			for _, f := range forbidden {
				if strings.HasPrefix(from, f.from) && strings.HasPrefix(to, f.to) {
					t.Errorf("%s imports %s: %s", from, to, f.why)
				}
			}
		}
	}
}

// TestGuestCodeBuildsForWasm keeps cgo and host-only packages out of plugin code.
func TestGuestCodeBuildsForWasm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds for wasip1")
	}
	cmd := exec.Command("go", "vet", "./sdk/abi", "./sdk/extract", "./extractors/...")
	cmd.Env = append(cmd.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=wasip1 go vet: %v\n%s", err, out)
	}
}
