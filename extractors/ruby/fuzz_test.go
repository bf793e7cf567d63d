//go:build !wasip1

package main

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// FuzzExtract feeds arbitrary source through the real grammar and the
// extractor (as every file of a repository is untrusted): it must never
// fail or panic, its facts must validate, and the same input must give the
// same facts. Seeds are the golden fixtures.
func FuzzExtract(f *testing.F) {
	langs, err := plugintest.Languages(".")
	if err != nil {
		f.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		f.Fatal(err)
	}
	archives, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, a := range archives {
		if ar, err := txtar.ParseFile(a); err == nil {
			for _, file := range ar.Files {
				f.Add(file.Data)
			}
		}
	}
	parser := syntax.NewParser()
	defer parser.Close()
	names := []string{"fuzz.rb", "fuzz.html.erb"}
	f.Fuzz(func(t *testing.T, src []byte) {
		for i, name := range names {
			li := min(i, len(grammars)-1)
			g, _ := syntax.Lookup(grammars[li].Name)
			tree, err := parser.Parse(g, src, syntax.ParseOptions{NamedOnly: true, Timeout: time.Second})
			if err != nil {
				return // past the time limit: the host skips such a file too
			}
			var dumps [2]string
			for k := range dumps {
				facts, err := extract.Run(Extractor{}, extract.NewGrammar(&grammars[li]), name, slices.Clone(tree.Records), src)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				dumps[k] = plugintest.Dump(facts)
			}
			if dumps[0] != dumps[1] {
				t.Fatalf("%s: facts differ between two runs", name)
			}
		}
	})
}
