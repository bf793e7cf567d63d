//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs every testdata/*.txtar through the extractor natively and
// compares the facts with the archive's golden "facts" section.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestNamedOnly: the manifest sets named_only, so facts must not depend on
// keyword or punctuation nodes.
func TestNamedOnly(t *testing.T) { plugintest.CheckNamedOnly(t, Extractor{}) }

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestDump prints a file's tree and facts (SYNAPTIC_DUMP=file.php).
func TestDump(t *testing.T) { plugintest.DumpFile(t, Extractor{}) }

// TestLongChains: a receiver chain thousands of links long is clipped, so
// facts stay linear in its length.
func TestLongChains(t *testing.T) {
	src := "<?php\nclass C {\n  function m() {\n    $this" + plugintest.Chain("->a%d()", 3000) + "->run();\n    $this->stop();\n  }\n}\n"
	plugintest.CheckBoundedChain(t, Extractor{}, "chain.php", src, "stop", "C")
}
