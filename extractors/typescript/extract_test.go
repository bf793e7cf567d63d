//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestGolden runs every testdata/*.txtar fixture through the extractor
// natively and compares the facts with the golden section.
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
