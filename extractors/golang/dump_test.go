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

// TestCorpus extracts every .go file under $SYNAPTIC_CORPUS (e.g. GOROOT/src)
// and fails on any extraction error; it logs totals to eyeball coverage.
func TestCorpus(t *testing.T) {
	root := os.Getenv("SYNAPTIC_CORPUS")
	if root == "" {
		t.Skip("set SYNAPTIC_CORPUS=dir to extract every .go file under it")
	}
	_, tg, _ := target(t)
	g, _ := syntax.Lookup("go")
	p := syntax.NewParser()
	defer p.Close()
	var files, syms, calls, typed, errs, errFiles int
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".go" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		tree, err := p.Parse(g, src, syntax.ParseOptions{NamedOnly: true})
		if err != nil {
			t.Logf("%s: parse: %v", path, err)
			return nil
		}
		facts, err := tg.Extract(path, 0, tree.Records, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		files++
		syms += len(facts.Symbols)
		calls += len(facts.Calls)
		for _, c := range facts.Calls {
			if c.ReceiverType != "" {
				typed++
			}
		}
		if len(facts.Errors) > 0 {
			errs += len(facts.Errors)
			errFiles++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files: %d symbols, %d calls (%d with a receiver type), %d syntax errors in %d files",
		files, syms, calls, typed, errs, errFiles)
}
