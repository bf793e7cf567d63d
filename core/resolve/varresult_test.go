package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestPackageVarOfCallResult: a package variable initialised by a call
// (var StdEncoding = NewEncoding(…)) has the type the function declares
// for its first result, so StdEncoding.AppendEncode() links, in its own
// package and through an import; a variable initialised by a call of
// something that is no function stays untyped.
func TestPackageVarOfCallResult(t *testing.T) {
	result := func(name string) *abi.Signature {
		return &abi.Signature{Return: name + "()", ReturnRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: name}}}}
	}
	files := goFacts("example.com/m", []File{
		{Path: "b32/b32.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "b32",
			Symbols: []abi.Symbol{
				{Name: "Encoding", Kind: "struct", Parent: -1, Span: sp(1)},
				{Name: "AppendEncode", Kind: "method", Receiver: "Encoding", Parent: -1, Span: sp(2)},
				{Name: "NewEncoding", Kind: "function", Parent: -1, Span: sp(3), Signature: &abi.Signature{Return: "*Encoding"}},
				{Name: "StdEncoding", Kind: "variable", Parent: -1, Span: sp(4)},
				{Name: "Odd", Kind: "variable", Parent: -1, Span: sp(5)},
			},
		}},
		{Path: "b32/b32_test.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "b32",
			Symbols: []abi.Symbol{{Name: "TestEncode", Kind: "function", Parent: -1, Span: sp(1)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "AppendEncode", Receiver: "StdEncoding", ReceiverType: "StdEncoding", Line: 2},
				{Caller: 0, Name: "AppendEncode", Receiver: "Odd", ReceiverType: "Odd", Line: 3},
			},
		}},
		{Path: "use/use.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "use",
			Imports: []abi.Import{{Path: "example.com/m/b32", Line: 1}},
			Symbols: []abi.Symbol{{Name: "use", Kind: "function", Parent: -1, Span: sp(2)}},
			Calls:   []abi.Call{{Caller: 0, Name: "AppendEncode", Receiver: "b32.StdEncoding", ReceiverType: "b32.StdEncoding", Line: 3}},
		}},
	})
	files[0].Facts.Symbols[3].Signature = result("NewEncoding")
	files[0].Facts.Symbols[4].Signature = result("Encoding") // a type, not a function: no result to take
	g, _ := Build(files)
	edges := edgeSet(g)
	for _, k := range []string{"b32_b32_test_testencode -calls-> b32_b32_encoding_appendencode", "use_use_use -calls-> b32_b32_encoding_appendencode"} {
		if e, ok := edges[k]; !ok || e.Confidence != graph.Extracted {
			t.Errorf("missing EXTRACTED edge %s (%+v)", k, e)
		}
	}
	n := 0
	for _, e := range g.Edges {
		if e.Relation == "calls" && e.Target == "b32_b32_encoding_appendencode" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d calls link AppendEncode, want 2 (Odd's call stays unlinked)", n)
	}
}
