//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs the extractor natively over testdata/*.txtar; run
// `go test ./extractors/rust -update` to rewrite the facts, then review them.
func TestGolden(t *testing.T) {
	langs, err := plugintest.Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	plugintest.Run(t, ".", langs, plugintest.Native(Extractor{}, grammars))
}

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }
