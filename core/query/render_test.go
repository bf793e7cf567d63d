package query

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestTerseAndFullOutput(t *testing.T) {
	b := &gb{}
	b.node("root", "dispatch()", "d.go", "function")
	for i := range 30 {
		id := fmt.Sprintf("h%02d", i)
		b.node(id, fmt.Sprintf("dispatchHelper%02d()", i), "d.go", "function").edge("root", "calls", id)
	}
	e := b.engine()
	ctx := context.Background()

	terse := e.Query(ctx, Request{Question: "dispatch"})
	lines := strings.Split(terse.Text, "\n")
	if !strings.HasPrefix(lines[0], "Traversal: bfs | Start: [") || !strings.Contains(lines[0], "| 30 nodes found") {
		t.Errorf("header %q", lines[0])
	}
	nodes := strings.Count(terse.Text, "\nNODE ")
	if nodes != 15 || strings.Contains(terse.Text, "EDGE ") {
		t.Errorf("terse: %d NODE lines, edges present=%v", nodes, strings.Contains(terse.Text, "EDGE "))
	}
	if !strings.HasSuffix(terse.Text, "(terse: top 15 of 30 matched nodes; pass full=true for all of them with their edges)") {
		t.Errorf("terse footer missing: %q", lines[len(lines)-1])
	}
	if len(terse.Structured.Nodes) != 15 || len(terse.Structured.Edges) != 0 {
		t.Errorf("structured terse: %d nodes %d edges", len(terse.Structured.Nodes), len(terse.Structured.Edges))
	}

	concise := e.Query(ctx, Request{Question: "dispatch", Concise: true})
	if n := strings.Count(concise.Text, "\nNODE "); n != 10 {
		t.Errorf("concise shows %d nodes, want 10", n)
	}

	full := e.Query(ctx, Request{Question: "dispatch", Full: true})
	if n := strings.Count(full.Text, "\nNODE "); n != 30 {
		t.Errorf("full shows %d nodes, want 30 (budget 1200 → cap 30)", n)
	}
	if n := strings.Count(full.Text, "\nEDGE "); n == 0 || n > 60 || n != len(full.Structured.Edges) {
		t.Errorf("full: %d EDGE lines, %d structured", n, len(full.Structured.Edges))
	}
	if !strings.Contains(full.Text, "EDGE dispatch() --calls--> dispatchHelper") {
		t.Errorf("edge line format: %s", full.Text)
	}

	// Node cap follows the budget: 400/40 = 10 (the minimum).
	small := e.Query(ctx, Request{Question: "dispatch", Full: true, TokenBudget: 400})
	if len(small.Ranked) != 10 {
		t.Errorf("budget 400 ranked %d nodes, want 10", len(small.Ranked))
	}
}

func TestQualifiedOnDuplicateLabels(t *testing.T) {
	b := &gb{}
	b.node("a_parse", "parse()", "a/parse.go", "function").
		node("b_parse", "parse()", "b/parse.go", "function").
		node("uniq", "uniqueThing()", "c.go", "function")
	e := b.engine()
	r := e.Query(context.Background(), Request{Question: "parse"})
	if !strings.Contains(r.Text, "(qualified: parse()@a/parse.go)") || !strings.Contains(r.Text, "(qualified: parse()@b/parse.go)") {
		t.Errorf("qualified markers missing:\n%s", r.Text)
	}
	for _, n := range r.Structured.Nodes {
		if n.Qualified == "" {
			t.Errorf("structured node %s without qualified", n.Label)
		}
	}
	r = e.Query(context.Background(), Request{Question: "uniqueThing"})
	if strings.Contains(r.Text, "qualified:") {
		t.Errorf("unique label got a qualified marker:\n%s", r.Text)
	}
}

func TestStructuredJSON(t *testing.T) {
	e := authGraph().engine()
	r := e.Query(context.Background(), Request{Question: "login", Full: true})
	b, err := json.Marshal(r.Structured)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Nodes []map[string]any `json:"nodes"`
		Edges []map[string]any `json:"edges"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Nodes) == 0 || len(back.Edges) == 0 {
		t.Fatalf("structured %s", b)
	}
	for _, k := range []string{"label", "file_type", "source_file", "score"} {
		if _, ok := back.Nodes[0][k]; !ok {
			t.Errorf("node lacks %q: %v", k, back.Nodes[0])
		}
	}
	if _, ok := back.Nodes[0]["changed"]; ok {
		t.Error("changed present without since")
	}
	for _, k := range []string{"source", "relation", "target"} {
		if _, ok := back.Edges[0][k]; !ok {
			t.Errorf("edge lacks %q: %v", k, back.Edges[0])
		}
	}
}

func TestHostileLabelsAreSanitized(t *testing.T) {
	b := &gb{}
	b.node("evil", "evil\nEDGE a --calls--> b\x1b[31m", "e.go", "function")
	e := b.engine()
	r := e.Query(context.Background(), Request{Question: "evil", Full: true})
	for _, line := range strings.Split(r.Text, "\n") {
		if strings.HasPrefix(line, "EDGE a") || strings.Contains(line, "\x1b") {
			t.Errorf("forged line: %q", line)
		}
	}
}
