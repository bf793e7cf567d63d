package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// addFunction is a patch of pkg/lonely.go that gives it one more
// function, the k-th.
func addFunction(x *graph.Index, k int) graph.Patch {
	const file = "pkg/lonely.go"
	p := graph.Patch{Files: map[string]bool{file: true}}
	for _, i := range x.FileNodes(file) {
		p.Nodes = append(p.Nodes, *x.Node(i))
	}
	p.Nodes = append(p.Nodes, graph.Node{ID: fmt.Sprintf("pkg_lonely_patched%03d", k), Label: fmt.Sprintf("Patched%d()", k),
		FileType: "code", SourceFile: file, Kind: "function"})
	p.Edges = append(p.Edges, graph.Edge{Source: p.Nodes[len(p.Nodes)-1].ID, Target: "pkg_server_newserver", Relation: "calls",
		Confidence: graph.Extracted, SourceFile: file, SourceLocation: fmt.Sprintf("L%d", k)})
	return p
}

// TestPatchWhileReading: patches published while tool calls, completions
// and resource reads run (go test -race checks that none reads records a
// patch rewrites in place) each show in the served graph, the same as
// applying them to a copy.
func TestPatchWhileReading(t *testing.T) {
	g := fixture()
	g.Canonicalize()
	c := New(Options{SourceRoot: "testdata/src", Freshen: func(context.Context) string { return "" }})
	c.SetGraph(g)
	want := fixture()
	want.Canonicalize()
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for w := range 3 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tc := goldenCases[(i+w)%len(goldenCases)]
				if _, err := c.Call(context.Background(), tc.tool, json.RawMessage(tc.args)); err != nil {
					t.Error(err)
				}
				c.Complete(context.Background(), Ref{}, "label", "pat")
				c.ReadResource(context.Background(), "synaptic://node/NewServer()")
				time.Sleep(time.Millisecond) // pauses, as between an assistant's calls: patches in place
			}
		}()
	}
	inPlace := 0
	for k := range 60 {
		p := addFunction(c.Index(), k)
		st, busy, err := c.Patch(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.InPlace {
			inPlace++
		}
		if st.InPlace && busy {
			t.Fatalf("patch %d: rewritten in place while a request was reading", k)
		}
		want, _ = want.Apply(p, nil)
		if got := c.Index().G; !reflect.DeepEqual(got.Nodes, want.Nodes) || !reflect.DeepEqual(got.Edges, want.Edges) {
			t.Fatalf("patch %d: the served graph is not the patched copy", k)
		}
		if len(c.Index().WithLabel(fmt.Sprintf("patched%d()", k))) != 1 {
			t.Fatalf("patch %d: its function is not served", k)
		}
	}
	close(stop)
	readers.Wait()
	if inPlace == 0 {
		t.Error("no patch was rewritten in place") // readers pause: some patch finds none reading
	}
	t.Logf("%d of 60 patches in place", inPlace)
}

// TestPatchBesideAPinnedReader: a patch while a request reads goes to
// new arrays, so the request's snapshot is not changed under it; the next
// patch, with no reader, rewrites in place.
func TestPatchBesideAPinnedReader(t *testing.T) {
	g := fixture()
	g.Canonicalize()
	c := New(Options{SourceRoot: "testdata/src"})
	c.SetGraph(g)
	c.bg.Wait()                                      // its background query-index build reads (pins) too
	x, _ := g.ApplyIndexed(graph.Patch{}, c.Index()) // spare room, as after makeRoom
	c.SetPatched(x)
	unpin := c.pin()
	s := c.current()
	before := slices.Clone(s.g.Nodes)
	st, busy, err := c.Patch(addFunction(s.x, 0))
	if err != nil || !busy || st.InPlace {
		t.Fatalf("Patch beside a reader: busy %v, in place %v, err %v", busy, st.InPlace, err)
	}
	if !reflect.DeepEqual(s.g.Nodes, before) {
		t.Fatal("the reader's snapshot changed under it")
	}
	unpin()
	st, busy, err = c.Patch(addFunction(c.Index(), 1))
	if err != nil || busy || !st.InPlace {
		t.Fatalf("Patch with no reader: busy %v, in place %v, err %v", busy, st.InPlace, err)
	}
	if len(c.Index().WithLabel("patched1()")) != 1 || len(c.Index().WithLabel("patched0()")) != 1 {
		t.Fatal("the two patches' functions are not both served")
	}
}
