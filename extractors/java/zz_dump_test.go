//go:build !wasip1

package main

import (
	"fmt"
	"os"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

func TestZZDump(t *testing.T) {
	path := os.Getenv("DUMPFILE")
	if path == "" {
		t.Skip()
	}
	langs, _ := plugintest.Languages(".")
	grammars, _ := plugintest.Grammars(langs)
	sg, _ := syntax.Lookup(langs[0].Grammar)
	p := syntax.NewParser()
	src, _ := os.ReadFile(path)
	tree, _ := p.Parse(sg, src, syntax.ParseOptions{})
	facts, err := extract.Run(Extractor{}, extract.NewGrammar(&grammars[0]), path, slices.Clone(tree.Records), src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(plugintest.Dump(facts))
}
