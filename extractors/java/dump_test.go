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

// TestDump prints the syntax tree and the facts of the file named by
// $DUMPFILE: a development aid for reading the grammar's node kinds and
// fields and checking the extractor on a real file. Skipped unless set.
//
//	DUMPFILE=path/to/file go test -run TestDump -v .
func TestDump(t *testing.T) {
	path := os.Getenv("DUMPFILE")
	if path == "" {
		t.Skip("set DUMPFILE to print a file's tree and facts")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	langs, err := plugintest.Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	sg, _ := syntax.Lookup(langs[0].Grammar)
	p := syntax.NewParser()
	defer p.Close()
	tree, err := p.Parse(sg, src, syntax.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(syntax.DebugString(sg, tree, src))
	facts, err := extract.Run(Extractor{}, extract.NewGrammar(&grammars[0]), path, slices.Clone(tree.Records), src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(plugintest.Dump(facts))
}
