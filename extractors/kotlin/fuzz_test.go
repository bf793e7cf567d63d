//go:build !wasip1

package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/extract"
	"golang.org/x/tools/txtar"
)

// FuzzExtract: any bytes given as a source file extract without a panic
// or an error into facts that pass validation, and the same bytes always
// give the same facts. The fixtures' files are the seeds.
func FuzzExtract(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			for _, file := range txtar.Parse(b).Files {
				f.Add(file.Data)
			}
		}
	}
	langs, err := plugintest.Languages(".")
	if err != nil {
		f.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		f.Fatal(err)
	}
	sg, ok := syntax.Lookup(grammars[0].Name)
	if !ok {
		f.Fatalf("no grammar %s", grammars[0].Name)
	}
	g := extract.NewGrammar(&grammars[0])
	f.Fuzz(func(t *testing.T, src []byte) {
		p := syntax.NewParser()
		defer p.Close()
		tree, err := p.Parse(sg, src, syntax.ParseOptions{})
		if err != nil {
			t.Skip("the parser refused the input:", err)
		}
		dump := func() string {
			facts, err := extract.Run(Extractor{}, g, "fuzz.kt", slices.Clone(tree.Records), src)
			if err != nil {
				t.Fatal(err)
			}
			return plugintest.Dump(facts)
		}
		if a, b := dump(), dump(); a != b {
			t.Fatalf("facts differ between two runs:\n%s\n---\n%s", a, b)
		}
	})
}
