package analysis

import (
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// build makes a graph from "id kind file [test]" node specs and
// "src rel dst [CONF]" edge specs; file "-" makes an external stub.
func build(t testing.TB, nodes, edges []string) *graph.Graph {
	t.Helper()
	g := &graph.Graph{Directed: true}
	for _, s := range nodes {
		f := strings.Fields(s)
		n := graph.Node{ID: f[0], Label: f[0], Kind: f[1], SourceFile: f[2], FileType: "code"}
		if n.SourceFile == "-" {
			n.SourceFile = ""
		}
		if n.Kind == "file" {
			n.Label = n.SourceFile[strings.LastIndexByte(n.SourceFile, '/')+1:]
		}
		n.IsTest = len(f) > 3 && f[3] == "test"
		g.Nodes = append(g.Nodes, n)
	}
	for _, s := range edges {
		f := strings.Fields(s)
		e := graph.Edge{Source: f[0], Relation: f[1], Target: f[2], Confidence: graph.Extracted, Weight: 1}
		if len(f) > 3 {
			e.Confidence = graph.Confidence(f[3])
		}
		g.Edges = append(g.Edges, e)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	return g
}

// shuffled returns a copy of g with nodes and edges in a different,
// deterministic order (reversed, then rotated).
func shuffled(g *graph.Graph) *graph.Graph {
	c := *g
	c.Nodes = append([]graph.Node(nil), g.Nodes...)
	c.Edges = append([]graph.Edge(nil), g.Edges...)
	for i, j := 0, len(c.Nodes)-1; i < j; i, j = i+1, j-1 {
		c.Nodes[i], c.Nodes[j] = c.Nodes[j], c.Nodes[i]
	}
	for i, j := 0, len(c.Edges)-1; i < j; i, j = i+1, j-1 {
		c.Edges[i], c.Edges[j] = c.Edges[j], c.Edges[i]
	}
	if n := len(c.Edges); n > 2 {
		k := n / 3
		c.Edges = append(c.Edges[k:], c.Edges[:k]...)
	}
	if n := len(c.Nodes); n > 2 {
		k := n / 3
		c.Nodes = append(c.Nodes[k:], c.Nodes[:k]...)
	}
	return &c
}

// assignment maps node id -> community id.
func assignment(x *graph.Index, comms []Community) map[string]int {
	m := map[string]int{}
	for _, c := range comms {
		for _, i := range c.Members {
			m[x.Node(i).ID] = c.ID
		}
	}
	return m
}
