package resolve

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// splitFixture is a tree of Go and Python files whose calls take every
// path the split call pass must keep: same-package, imported and typed
// member calls, unique-name guesses, ambiguous names and member calls on
// receivers of unknown type (the unlinked_calls notes).
func splitFixture() []File {
	files := fixture()
	for p := range 4 {
		pkg := fmt.Sprintf("p%d", p)
		for i := range 6 {
			var calls []abi.Call
			for j := range 5 {
				calls = append(calls,
					abi.Call{Caller: 0, Name: fmt.Sprintf("F%d", (i+j)%6), Line: uint32(10 + j)},
					abi.Call{Caller: 1, Name: "M", Receiver: "t", ReceiverType: fmt.Sprintf("T%d", (i+j)%6), Line: uint32(20 + j)},
					abi.Call{Caller: 1, Name: "M", Receiver: "x", Line: uint32(30 + j)},
					abi.Call{Caller: 0, Name: fmt.Sprintf("F%d", j), Receiver: fmt.Sprintf("p%d", (p+1)%4), Line: uint32(40 + j)},
				)
			}
			files = append(files, File{Path: fmt.Sprintf("%s/f%d.go", pkg, i), Language: "go", Family: "go", Facts: &abi.Facts{
				Package: pkg,
				Imports: []abi.Import{{Path: fmt.Sprintf("example.com/m/p%d", (p+1)%4), Line: 2}},
				Symbols: []abi.Symbol{
					{Name: fmt.Sprintf("F%d", i), Kind: "function", Parent: -1, Span: sp(3)},
					{Name: "M", Kind: "method", Parent: -1, Receiver: fmt.Sprintf("T%d", i), Span: sp(5)},
					{Name: fmt.Sprintf("T%d", i), Kind: "struct", Parent: -1, Span: sp(8)},
				},
				Calls: calls,
			}})
		}
	}
	return goFacts("example.com/m", files)
}

func TestSplitCallsMatchOneWorker(t *testing.T) {
	build := func(min int) ([]byte, Stats) {
		t.Helper()
		saved := parallelCallsMin
		parallelCallsMin = min
		defer func() { parallelCallsMin = saved }()
		g, st := Build(splitFixture())
		var b bytes.Buffer
		if err := graph.Write(&b, g); err != nil {
			t.Fatal(err)
		}
		return b.Bytes(), st
	}
	one, st1 := build(1 << 30)
	two, st2 := build(1)
	if st1 != st2 {
		t.Errorf("stats: one worker %+v, two %+v", st1, st2)
	}
	if !bytes.Equal(one, two) {
		t.Errorf("two workers changed the graph (%d vs %d bytes)", len(two), len(one))
	}
	if st1.Extracted == 0 || st1.Inferred == 0 || st1.Ambiguous == 0 || !bytes.Contains(one, []byte("unlinked_calls")) {
		t.Errorf("fixture misses a path: stats %+v, unlinked notes %v", st1, bytes.Contains(one, []byte("unlinked_calls")))
	}
}
