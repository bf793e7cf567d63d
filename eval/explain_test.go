package eval

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/query"
)

// TestExplainClassifiesMisses: an expected symbol in the top 10 is no
// miss; one the ranking reaches only through a neighbour, one matching
// nothing and linked to nothing, and one absent from the graph are each
// named with their cause.
func TestExplainClassifiesMisses(t *testing.T) {
	g := graph.Graph{}
	add := func(id, label, file string) {
		g.Nodes = append(g.Nodes, graph.Node{ID: id, Label: label, SourceFile: file, Kind: "function", FileType: "code"})
	}
	add("parse", "parseConfig()", "p/parse.go")
	add("read", "readBytes()", "q/read.go")
	add("lonely", "writeLog()", "r/write.go")
	// Eleven better matches push readBytes (reached through parseConfig)
	// past the top 10.
	for _, s := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
		add("cfg_"+s, "configParse"+strings.ToUpper(s)+"()", "p/"+s+".go")
		g.Edges = append(g.Edges, graph.Edge{Source: "parse", Target: "cfg_" + s, Relation: "calls", Confidence: graph.Extracted})
	}
	g.Edges = append(g.Edges, graph.Edge{Source: "parse", Target: "read", Relation: "calls", Confidence: graph.Extracted})
	g.Canonicalize()
	e := query.New(graph.NewIndex(&g))
	q := Question{Text: "parse config", Expect: []Expect{ParseExpect("parseConfig"), ParseExpect("readBytes"), ParseExpect("writeLog"), ParseExpect("missing")}}
	var out bytes.Buffer
	got := map[string]MissCause{}
	for _, m := range Explain(context.Background(), &out, Corpus{Name: "t", Engine: e}, q) {
		got[m.Expect.Name] = m.Cause
	}
	want := map[string]MissCause{"readBytes": CauseNeighbour, "writeLog": CauseUnreached, "missing": CauseAbsent}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: cause %q, want %q\n%s", k, got[k], v, out.String())
		}
	}
	if _, ok := got["parseConfig"]; ok {
		t.Errorf("parseConfig is in the top 10, reported as a miss\n%s", out.String())
	}
	if !strings.Contains(out.String(), "MISS readBytes [neighbour-outranked]") || !strings.Contains(out.String(), "links: <-calls- parseConfig()") {
		t.Errorf("explanation lacks the miss line or its link:\n%s", out.String())
	}
}
