package report

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// sample is a small repository: three packages of files with functions
// calling within and across packages, a test file, an import cycle, an
// inferred cross-package call, an ambiguous edge and an isolated function.
func sample() *graph.Graph {
	g := &graph.Graph{Directed: true}
	node := func(id, kind, file string, test bool) {
		label := id
		if kind == "file" {
			label = file[strings.LastIndexByte(file, '/')+1:]
		}
		g.Nodes = append(g.Nodes, graph.Node{ID: id, Label: label, Kind: kind, SourceFile: file, FileType: "code", Language: "go", IsTest: test})
	}
	edge := func(s, rel, t string, c graph.Confidence) {
		g.Edges = append(g.Edges, graph.Edge{Source: s, Target: t, Relation: rel, Confidence: c, Weight: 1})
	}
	for _, p := range []string{"alpha", "beta", "gamma"} {
		node(p+"_pkg", "package", p+"/a.go", false)
		for f := range 3 {
			file := fmt.Sprintf("%s/f%d.go", p, f)
			test := f == 2
			if test {
				file = fmt.Sprintf("%s/f%d_test.go", p, f)
			}
			fid := fmt.Sprintf("%s_f%d_go", p, f)
			node(fid, "file", file, test)
			edge(p+"_pkg", "contains", fid, graph.Extracted)
			for i := range 4 {
				id := fmt.Sprintf("%s_f%d_fn%d", p, f, i)
				node(id, "function", file, test)
				edge(fid, "contains", id, graph.Extracted)
				edge(id, "calls", fmt.Sprintf("%s_f%d_fn%d", p, (f+i)%2, (i+1)%4), graph.Extracted)
				edge(id, "calls", fmt.Sprintf("%s_f%d_fn%d", p, f%2, (i+2)%4), graph.Extracted)
			}
		}
	}
	edge("alpha_f0_go", "imports_from", "beta_pkg", graph.Extracted)
	edge("beta_f1_go", "imports_from", "alpha_pkg", graph.Extracted)
	edge("gamma_f0_fn1", "calls", "alpha_f1_fn2", graph.Inferred)
	edge("beta_f0_fn3", "references", "gamma_f1_fn0", graph.Ambiguous)
	node("lonely", "function", "gamma/f1.go", false)
	edge("gamma_f1_go", "contains", "lonely", graph.Extracted)
	node("fmt", "package", "", false)
	edge("alpha_f0_go", "imports", "fmt", graph.Extracted)
	return g
}

func render(t *testing.T, g *graph.Graph) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, Input{Graph: g, Skipped: []Skip{{Path: "x.pem", Reason: "sensitive"}}}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReportSections(t *testing.T) {
	out := render(t, sample())
	for _, want := range []string{
		"# Graph Report", "## Overview", "## Summary", "## God Nodes", "## Surprising Connections",
		"## Suggested Questions", "## Import Cycles", "## Communities", "## Ambiguous Edges",
		"## Knowledge Gaps", "## Confidence Audit", "## Skipped files",
		"`alpha_pkg@alpha/a.go` → `beta_pkg@beta/a.go` → `alpha_pkg@alpha/a.go`", "`lonely@gamma/f1.go`", "cohesion", "why:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if t.Failed() || testing.Verbose() {
		t.Log("\n" + out)
	}
}

func TestReportDeterministic(t *testing.T) {
	g := sample()
	a, b := render(t, g), render(t, sample())
	if a != b {
		t.Fatal("two renders differ")
	}
	s := sample()
	slices.Reverse(s.Nodes)
	slices.Reverse(s.Edges)
	s.Edges = append(s.Edges[5:], s.Edges[:5]...)
	if c := render(t, s); c != a {
		t.Fatalf("shuffled input changes the report:\n%s\n----\n%s", a, c)
	}
}

// TestReportUsesCommunityField: with the community field set (as extraction
// writes it), the report shows those ids, not a fresh partition's.
func TestReportUsesCommunityField(t *testing.T) {
	g := sample()
	x := graph.NewIndex(g)
	comms := analysis.Communities(x, nil)
	for _, c := range comms {
		for _, i := range c.Members {
			id := c.ID + 40
			g.Nodes[i].Community = &id
		}
	}
	out := render(t, g)
	if !strings.Contains(out, "- **40. ") {
		t.Errorf("community field ignored:\n%s", out)
	}
}

func TestTextFunctions(t *testing.T) {
	x := graph.NewIndex(sample())
	if s := GodNodesText(x, 3, 0); !strings.HasPrefix(s, "1. ") || !strings.Contains(s, "more ranked") {
		t.Errorf("god nodes:\n%s", s)
	}
	if s := GodNodesText(x, 3, 1000); !strings.Contains(s, "past offset 1000") {
		t.Errorf("past the end: %s", s)
	}
	if s := AuditText(x); !strings.Contains(s, "| calls |") || !strings.Contains(s, "INFERRED") {
		t.Errorf("audit:\n%s", s)
	}
	if s := SurprisesText(x, 5); !strings.Contains(s, "gamma_f0_fn1") {
		t.Errorf("surprises:\n%s", s)
	}
	if s := QuestionsText(x); strings.Count(s, "why:") < 3 {
		t.Errorf("questions:\n%s", s)
	}
	if got := code("a`b\x1b[31m\nc"); got != "`a'b [31m c`" {
		t.Errorf("code(): %q", got)
	}
}

// TestRealReport renders the report of a real graph.json and times it:
//
//	SYNAPTIC_REPORT_GRAPH=synaptic-out/graph.json SYNAPTIC_REPORT_OUT=/tmp/r.md go test ./core/report -run TestRealReport -v
func TestRealReport(t *testing.T) {
	p := os.Getenv("SYNAPTIC_REPORT_GRAPH")
	if p == "" {
		t.Skip("set SYNAPTIC_REPORT_GRAPH")
	}
	g, err := graph.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"cold", "again"} {
		start := time.Now()
		var b bytes.Buffer
		if err := Write(&b, Input{Graph: g}); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes in %v", n, b.Len(), time.Since(start).Round(time.Millisecond))
		if out := os.Getenv("SYNAPTIC_REPORT_OUT"); out != "" {
			if err := os.WriteFile(out, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReportSameWhateverWasAskedBefore renders the report of a real
// graph on fresh indexes and on one whose shared analyses (hub test
// reach, cycles, isolated symbols) were already asked in another order:
// the sections are rendered side by side and the analyses memoized, and
// neither may change a byte.
func TestReportSameWhateverWasAskedBefore(t *testing.T) {
	g, err := graph.ReadFile("../tools/testdata/real/graph.json")
	if err != nil {
		t.Fatal(err)
	}
	renderOn := func(x *graph.Index) string {
		var b bytes.Buffer
		if err := Write(&b, Input{Graph: g, Index: x}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	want := renderOn(graph.NewIndex(g))
	warm := graph.NewIndex(g)
	analysis.GodNodes(warm, 4, 7)
	analysis.Isolated(warm)
	analysis.ImportCycles(warm, 3)
	QuestionsText(warm)
	for i := range 5 {
		if got := renderOn(warm); got != want {
			t.Fatalf("render %d on a warm index differs from a fresh one's", i)
		}
		if got := renderOn(graph.NewIndex(g)); got != want {
			t.Fatalf("render %d on a fresh index differs", i)
		}
	}
}
