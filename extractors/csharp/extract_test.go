//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs the extractor natively over testdata/*.txtar; run
// `go test ./extractors/csharp -update` to rewrite the facts, then review them.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLongChains: receiver types follow at most maxTypeDepth links,
// however long the chain.
func TestLongChains(t *testing.T) {
	src := "class C {\n  Repo repo;\n  void Run() {\n    repo" + plugintest.Chain(".M%d()", 3000) +
		";\n    repo.GetClient().Send();\n  }\n}\n"
	plugintest.CheckBoundedChain(t, Extractor{}, "C.cs", src, "Send", "Repo#GetClient()")
}

func TestInterfaceName(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"IDisposable", true}, {"IOrderService", true}, {"Item", false}, {"IO", false},
		{"IPAddress", false}, {"I", false}, {"Base", false},
	} {
		if got := interfaceName(tc.name); got != tc.want {
			t.Errorf("interfaceName(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestXMLText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"<summary>Saves the order.</summary>", "Saves the order."},
		{"<summary>Uses <see cref=\"T:App.Repo\"/> to save.</summary> <param name=\"x\">X.</param>", "Uses Repo to save."},
		{"No tags", "No tags"},
		{"<summary>unclosed", "unclosed"},
		{"a <b", "a "},
	} {
		if got := xmlText(tc.in); got != tc.want {
			t.Errorf("xmlText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
