package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Docs travel from facts onto their nodes, the file's own doc onto the
// file node; a symbol without one gets none.
func TestDocsOnNodes(t *testing.T) {
	files := []File{{Path: "net/body.go", Language: "go", Family: "go", Facts: &abi.Facts{
		Package: "body",
		Doc:     "Package body limits request bodies.",
		Symbols: []abi.Symbol{
			{Name: "MaxBytesReader", Kind: "function", Parent: -1, Span: sp(3), Doc: "MaxBytesReader limits the size of incoming request bodies."},
			{Name: "plain", Kind: "function", Parent: -1, Span: sp(9)},
		},
	}}}
	g, _ := Build(files)
	docs := map[string]string{}
	for _, n := range g.Nodes {
		docs[n.Label] = n.Doc
	}
	for label, want := range map[string]string{
		"body.go":          "Package body limits request bodies.",
		"MaxBytesReader()": "MaxBytesReader limits the size of incoming request bodies.",
		"plain()":          "",
	} {
		if got, ok := docs[label]; !ok || got != want {
			t.Errorf("%s: doc %q (present %v), want %q", label, got, ok, want)
		}
	}
}
