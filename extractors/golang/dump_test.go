//go:build !wasip1

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestDump prints a file's tree and facts: SYNAPTIC_DUMP=path go test -run TestDump -v .
func TestDump(t *testing.T) { plugintest.DumpFile(t, Extractor{}) }

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
