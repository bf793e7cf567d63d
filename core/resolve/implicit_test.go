package resolve

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestImplicitUnresolvedCountedApart: an implicit site (a + b reported as
// a.__add__) that links nothing is one of Stats.Unresolved and of
// Stats.Implicit; a written call that links nothing is only the first, and
// an implicit site that links is neither.
func TestImplicitUnresolvedCountedApart(t *testing.T) {
	sp := func(l uint32) abi.Span { return abi.Span{StartLine: l, EndLine: l + 1} }
	files := []File{{Path: "m.py", Language: "python", Family: "python", Facts: &abi.Facts{
		Symbols: []abi.Symbol{
			{Name: "Money", Kind: "class", Parent: -1, Span: sp(1)},
			{Name: "__add__", Kind: "method", Parent: 0, Receiver: "Money", Span: sp(2)},
			{Name: "use", Kind: "function", Parent: -1, Span: sp(5)},
		},
		Calls: []abi.Call{
			{Caller: 2, Name: "__add__", Receiver: "m", ReceiverType: "Money", Line: 6, Implicit: true},
			{Caller: 2, Name: "__add__", Receiver: "n", Line: 7, Implicit: true},
			{Caller: 2, Name: "missing", Line: 8},
		},
	}}}
	_, st := Build(files)
	if st.Calls != 3 || st.Extracted != 1 || st.Unresolved != 2 || st.Implicit != 1 {
		t.Errorf("stats = %+v, want 3 calls: 1 linked, 2 unresolved, 1 of them implicit", st)
	}
}
