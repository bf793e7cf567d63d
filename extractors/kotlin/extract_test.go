//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs the extractor natively over testdata/*.txtar; run
// `go test ./extractors/kotlin -update` to rewrite the facts, then review them.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLongChains: receiver types follow at most maxTypeDepth links,
// however long the chain.
func TestLongChains(t *testing.T) {
	src := "class C(val repo: Repo) {\n  fun run() {\n    repo" + plugintest.Chain(".m%d()", 3000) +
		"\n    repo.getClient().send()\n  }\n}\n"
	plugintest.CheckBoundedChain(t, Extractor{}, "C.kt", src, "send", "Repo#getClient()")
}
