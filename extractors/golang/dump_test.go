//go:build !wasip1

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestDump prints the syntax tree of $GODUMP (its facts if GODUMP_FACTS is
// set too); a development aid for reading the grammar's node kinds and
// fields. Skipped unless GODUMP is set.
func TestDump(t *testing.T) {
	path := os.Getenv("GODUMP")
	if path == "" {
		t.Skip("set GODUMP=file.go to print its tree")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := syntax.Lookup("go")
	p := syntax.NewParser()
	defer p.Close()
	tree, err := p.Parse(g, src, syntax.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("GODUMP_FACTS") == "" {
		fmt.Print(syntax.DebugString(g, tree, src))
		return
	}
	_, tg, _ := target(t)
	facts, err := tg.Extract(filepath.Base(path), 0, tree.Records, src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(plugintest.Dump(facts))
}
