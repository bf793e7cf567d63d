//go:build !wasip1

package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestGolden runs the extractor natively over testdata/*.txtar; run
// `go test ./extractors/sql -update` to rewrite the facts, then review them.
func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLargeDump: a 5 MB data dump keeps its table, records the first
// maxQueries statements and says how many it left out.
func TestLargeDump(t *testing.T) {
	var b strings.Builder
	b.WriteString("CREATE TABLE big (id int PRIMARY KEY, v text);\n")
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "INSERT INTO big (id, v) VALUES (%d, 'row %d; with a semicolon');\n", i, i)
	}
	f := plugintest.ExtractSource(t, Extractor{}, "dump.sql", []byte(b.String()))
	kinds := map[abi.SymbolKind]int{}
	for _, s := range f.Symbols {
		kinds[s.Kind]++
	}
	if kinds["table"] != 1 || kinds["query"] != maxQueries || len(f.Errors) != 1 || !strings.Contains(f.Errors[0], "were not recorded") {
		t.Errorf("kinds %v, errors %q", kinds, f.Errors)
	}
}
