package plugintest

import (
	"fmt"
	"os"
	"path"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// DumpEnv is the variable naming a file for DumpFile.
const DumpEnv = "SYNAPTIC_DUMP"

// DumpFile prints the syntax tree and the facts of the file named by
// $SYNAPTIC_DUMP, extracted by ex with the plugin.toml in the current
// directory: a development aid for reading a grammar's node kinds and
// fields. It skips when the variable is unset. Set SYNAPTIC_DUMP_FACTS_ONLY=1
// to print the facts alone.
//
//	SYNAPTIC_DUMP=path/to/file.go go test -run TestDump -v ./extractors/golang
func DumpFile(t *testing.T, ex extract.Extractor) {
	t.Helper()
	file := os.Getenv(DumpEnv)
	if file == "" {
		t.Skip("set " + DumpEnv + " to print a file's tree and facts")
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	langs, err := Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	li := langFor(langs, path.Base(file))
	if li < 0 {
		li = 0
	}
	grammars, err := Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	sg, _ := syntax.Lookup(grammars[li].Name)
	p := syntax.NewParser()
	defer p.Close()
	tree, err := p.Parse(sg, src, syntax.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("SYNAPTIC_DUMP_FACTS_ONLY") == "" {
		fmt.Print(syntax.DebugString(sg, tree, src))
	}
	facts, err := extract.Run(ex, extract.NewGrammar(&grammars[li]), file, slices.Clone(tree.Records), src)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Print(Dump(facts))
}
