//go:build !wasip1

package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
)

// TestDumpTree prints the syntax tree of $DUMP_FILE with grammar $DUMP_GRAMMAR;
// a development aid for reading node kinds and fields.
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
	fmt.Print(syntax.DebugString(g, tree, src))
}
