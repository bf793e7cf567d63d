//go:build !wasip1

package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestDumpTree prints the syntax tree of $DUMP_FILE with grammar
// $DUMP_GRAMMAR, or with DUMP_FACTS=1 the extracted facts; a development aid
// for reading node kinds and fields and checking output on real files.
func TestDumpTree(t *testing.T) {
	file := os.Getenv("DUMP_FILE")
	if file == "" {
		t.Skip("set DUMP_FILE (and DUMP_GRAMMAR) to print a tree")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := syntax.Lookup(os.Getenv("DUMP_GRAMMAR"))
	p := syntax.NewParser()
	defer p.Close()
	tree, err := p.Parse(g, src, syntax.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("DUMP_FACTS") == "" {
		fmt.Print(syntax.DebugString(g, tree, src))
		return
	}
	ag := abi.Grammar{Language: g.Name, Name: g.Name, Kinds: g.Kinds, Named: g.Named, Fields: g.Fields}
	facts, err := extract.Run(Extractor{}, extract.NewGrammar(&ag), file, tree.Records, src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(plugintest.Dump(facts))
}
