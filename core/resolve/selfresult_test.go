package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestSelfResult: a method whose v2 result type is Self returns the type
// it is called on, so with Sub() as s: s.get() reaches Sub's override
// even though __enter__ is declared on Base, and Base() as b reaches
// Base.get; a method returning a named type keeps that type, and a
// method with no result type ends the chain (no link).
func TestSelfResult(t *testing.T) {
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	recv := func(s string) *abi.TypeRef {
		r, err := abi.ParseTypeRef(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	files := []File{{Path: "m.py", Language: "python", Family: "python", ABI: 2, Facts: &abi.Facts{
		File: abi.FileFacts{Modules: []string{"m"}},
		Symbols: []abi.Symbol{
			{Name: "Base", Kind: "class", Parent: -1, Span: sp(1)},                                                           // 0
			{Name: "__enter__", Kind: "method", Parent: 0, Span: sp(2), Signature: &abi.Signature{ReturnRef: named("Self")}}, // 1
			{Name: "get", Kind: "method", Parent: 0, Span: sp(3)},                                                            // 2
			{Name: "other", Kind: "method", Parent: 0, Span: sp(4), Signature: &abi.Signature{ReturnRef: named("Conn")}},     // 3
			{Name: "plain", Kind: "method", Parent: 0, Span: sp(5)},                                                          // 4
			{Name: "Sub", Kind: "class", Parent: -1, Span: sp(10)},                                                           // 5
			{Name: "get", Kind: "method", Parent: 5, Span: sp(11)},                                                           // 6
			{Name: "Conn", Kind: "class", Parent: -1, Span: sp(20)},                                                          // 7
			{Name: "close", Kind: "method", Parent: 7, Span: sp(21)},                                                         // 8
			{Name: "get", Kind: "method", Parent: 7, Span: sp(22)},                                                           // 9
			{Name: "run", Kind: "function", Parent: -1, Span: sp(30)},                                                        // 10
		},
		Relations: []abi.Relation{{From: 5, Kind: abi.RelInherits, Target: "Base", Line: 10}},
		Calls: []abi.Call{
			{Caller: 10, Name: "get", Receiver: "s", ReceiverRef: recv("Sub()#__enter__()"), Line: 31},
			{Caller: 10, Name: "get", Receiver: "b", ReceiverRef: recv("Base()#__enter__()"), Line: 32},
			{Caller: 10, Name: "close", Receiver: "c", ReceiverRef: recv("Sub()#other()"), Line: 33},
			{Caller: 10, Name: "get", Receiver: "p", ReceiverRef: recv("Base()#plain()"), Line: 34},
		},
	}}}
	g, _ := Build(files)
	edges := edgeSet(g)
	for _, k := range []string{
		"m_run -calls-> m_sub_get",
		"m_run -calls-> m_base_get",
		"m_run -calls-> m_conn_close",
	} {
		if _, ok := edges[k]; !ok {
			t.Errorf("missing edge %s", k)
		}
	}
	n := 0
	for _, e := range g.Edges {
		if e.Relation == "calls" && e.Source == "m_run" {
			n++
		}
	}
	if n != 3 {
		t.Errorf("run makes %d linked calls, want 3 (p.get() on plain()'s unknown result stays unlinked)", n)
	}
}
