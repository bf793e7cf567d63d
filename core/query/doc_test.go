package query

import (
	"slices"
	"testing"
)

// docGraph has a function found only through its doc comment, and one
// whose label matches a question word exactly.
func docGraph() *gb {
	b := &gb{}
	b.node("http_maxbytesreader", "MaxBytesReader()", "net/http/request.go", "function").
		node("http_limitreader", "LimitReader()", "io/io.go", "function").
		node("http_body", "body", "net/http/transfer.go", "struct").
		node("http_size", "size()", "net/http/size.go", "function").
		node("http_other", "Other()", "net/http/other.go", "function")
	b.g.Nodes[0].Doc = "MaxBytesReader is similar to io.LimitReader but is intended for limiting the size of incoming request bodies."
	b.g.Nodes[4].Doc = "Other does something unrelated."
	return b
}

func TestDocChannelFindsByMeaning(t *testing.T) {
	e := docGraph().engine()
	got := ids(query(e, "limiting the size of incoming request bodies"))
	if i := slices.Index(got, "http_maxbytesreader"); i < 0 || i > 2 {
		t.Fatalf("doc-only answer at %d in %v", i, got)
	}
	// Off, the doc cannot find it: the channel is what does.
	off := DefaultTuning
	off.Doc = 0
	got = ids(query(docGraph().engine(WithTuning(off)), "incoming"))
	if slices.Contains(got, "http_maxbytesreader") {
		t.Fatalf("doc channel off still matched the doc: %v", got)
	}
}

// A doc mentioning a word never outranks the node named by the question.
func TestDocNeverBeatsExactLabel(t *testing.T) {
	b := docGraph()
	b.g.Nodes[4].Doc = "size size size of things"
	got := ids(query(b.engine(), "size"))
	if len(got) == 0 || got[0] != "http_size" {
		t.Fatalf("exact label not first: %v", got)
	}
	// Deterministic: the same question gives the same order.
	for range 3 {
		if again := ids(query(b.engine(), "size")); !slices.Equal(again, got) {
			t.Fatalf("order changed: %v then %v", got, again)
		}
	}
}
