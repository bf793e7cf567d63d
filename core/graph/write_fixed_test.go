package graph

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The closure-free writers must give the bytes of the general ones.
func TestFixedWritersMatchGeneral(t *testing.T) {
	comm := 7
	labels := []string{"Serve", "ÉTÉ", "a\"b\\c", "tab\there", "x\u2028y", "bad\xffutf8", "", "MixedCASE_123"}
	var nodes []Node
	for i, l := range labels {
		n := Node{ID: fmt.Sprintf("id_%d", i), Label: l, FileType: "code", SourceFile: "a/b.go"}
		if i%2 == 0 {
			n.Kind, n.Language, n.Visibility, n.SourceLocation = "function", "go", "public", "L3"
			n.Span = &Span{StartLine: 1, StartCol: 2, EndLine: 3, EndCol: 4}
			n.Signature = &Signature{Params: []Param{{Name: "x", TypeRef: "int"}, {Name: "y"}}, ReturnType: "error", Raw: "func(x int, y)"}
		}
		if i%3 == 0 {
			n.IsTest, n.Community, n.Repo = true, &comm, "r"
			n.Doc = "Serve answers \"requests\".\n"
		}
		nodes = append(nodes, n)
	}
	for _, n := range nodes {
		if got, want := appendNodeFixed(nil, &n), appendNodeFields(nil, &n); !bytes.Equal(got, want) {
			t.Errorf("node %q:\n got %s\nwant %s", n.Label, got, want)
		}
	}
	edges := []Edge{
		{Source: "a", Target: "b", Relation: "calls", Confidence: Extracted, SourceFile: "f.go", SourceLocation: "L1", Weight: 1},
		{Source: "a", Target: "c", Relation: "calls", Confidence: Inferred, ConfidenceScore: 0.8, SourceFile: "f.go", Context: "ctx", Weight: 2.5,
			Sites: []Site{{SourceFile: "g.go", SourceLocation: "L9"}, {SourceFile: "h.go"}}},
		{Source: "x\"y", Target: strings.Repeat("z", 3), Relation: "imports", Confidence: Ambiguous},
	}
	for _, e := range edges {
		if got, want := appendEdgeFixed(nil, &e), appendEdgeFields(nil, &e); !bytes.Equal(got, want) {
			t.Errorf("edge %v:\n got %s\nwant %s", e.Key(), got, want)
		}
	}
}

// Parallel chunked writing gives the same bytes as one goroutine.
func TestWriteRecordsChunks(t *testing.T) {
	g := &Graph{Directed: true}
	for i := range 10000 {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprintf("n%05d", i), Label: "N", FileType: "code"})
		g.Edges = append(g.Edges, Edge{Source: "n0", Target: fmt.Sprintf("n%05d", i), Relation: "contains", Confidence: Extracted, Weight: 1})
	}
	var par bytes.Buffer
	if err := Write(&par, g); err != nil {
		t.Fatal(err)
	}
	var seq bytes.Buffer
	seq.WriteString("{\n  \"directed\": true,\n  \"graph\": {},\n  \"hyperedges\": [],\n  \"links\": [")
	for i := range g.Edges {
		if i > 0 {
			seq.WriteByte(',')
		}
		seq.WriteString("\n    ")
		seq.Write(appendEdgeFields(nil, &g.Edges[i]))
	}
	seq.WriteString("\n  ],\n  \"multigraph\": false,\n  \"nodes\": [")
	for i := range g.Nodes {
		if i > 0 {
			seq.WriteByte(',')
		}
		seq.WriteString("\n    ")
		seq.Write(appendNodeFields(nil, &g.Nodes[i]))
	}
	seq.WriteString("\n  ]\n}\n")
	if !bytes.Equal(par.Bytes(), seq.Bytes()) {
		t.Errorf("parallel Write differs from the sequential encoding (%d vs %d bytes)", par.Len(), seq.Len())
	}
}
