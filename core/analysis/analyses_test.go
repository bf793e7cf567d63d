package analysis

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

func hubGraph(t testing.TB) *graph.Graph {
	nodes := []string{
		"pkg package a/a.go", "a_go file a/a.go", "stub class -",
		"serve function a/a.go", "parse function a/a.go", "new function a/a.go",
		"c1 function a/a.go", "c2 function a/a.go", "c3 function a/a.go", "c4 function a/a.go",
		"helper function a/a_test.go test", "testserve function a/a_test.go test", "a_test_go file a/a_test.go test",
	}
	edges := []string{
		"pkg contains a_go", "a_go contains serve", "a_go contains parse", "a_go contains new",
		"a_go contains c1", "a_go contains c2", "a_go contains c3", "a_go contains c4",
		"c1 calls serve", "c2 calls serve", "c3 calls serve", "c4 calls serve", "c1 calls parse", "c2 calls parse", "c3 calls parse",
		"c1 calls new", "c2 calls new", "c3 calls new", "c4 calls new", "serve calls new", "parse calls new",
		"c1 references stub", "c2 references stub", "c3 references stub", "c4 references stub", "serve references stub", "parse references stub",
		"helper calls c4", "testserve calls helper", "a_test_go contains helper", "a_test_go contains testserve",
	}
	return build(t, nodes, edges)
}

func TestGodNodes(t *testing.T) {
	x := graph.NewIndex(hubGraph(t))
	gods, total := GodNodes(x, 3, 0)
	var got []string
	for _, g := range gods {
		got = append(got, fmt.Sprintf("%d:%s:%d:%d", g.Rank, x.Node(g.Node).ID, g.Degree, g.Tests))
	}
	// file, package, stub, "new" and test nodes are filtered out.
	want := []string{"1:serve:7:2", "2:parse:6:0", "3:c1:5:0"}
	if !reflect.DeepEqual(got, want) || total != 6 {
		t.Fatalf("got %v total %d, want %v total 6", got, total, want)
	}
	page, total2 := GodNodes(x, 2, 2)
	if len(page) != 2 || page[0].Rank != 3 || page[0].Node != gods[2].Node || total2 != total {
		t.Errorf("offset page: %+v", page)
	}
	if last, _ := GodNodes(x, 1, 5); len(last) != 1 || x.Node(last[0].Node).ID != "c4" || last[0].Tests != 2 || last[0].Rank != 6 {
		t.Errorf("c4 (called by a test helper): %+v", last)
	}
	if p, _ := GodNodes(x, 10, 99); p != nil {
		t.Errorf("past the end: %v", p)
	}
	if p, _ := GodNodes(x, 1000, 0); len(p) != total {
		t.Errorf("cap: %d", len(p))
	}
}

func TestGodNodesCap(t *testing.T) {
	x := graph.NewIndex(synthetic(60, 8))
	p, total := GodNodes(x, 1000, 0)
	if len(p) != MaxGodNodes || total <= MaxGodNodes || p[199].Rank != 200 {
		t.Errorf("got %d (total %d)", len(p), total)
	}
}

func TestImportCycles(t *testing.T) {
	nodes := []string{"a file a.py", "b file b.py", "c file c.py", "d file d.py", "e file e.py", "f file f.py", "g file g.py",
		"p1 package p1/x.go", "p2 package p2/x.go", "x1 file p1/x.go", "x2 file p2/x.go", "s package -"}
	edges := []string{"a imports_from b", "b imports_from a", "c imports_from d", "d imports_from e", "e imports_from c",
		"f imports_from g", "e imports_from f",
		"p1 contains x1", "p2 contains x2", "x1 imports_from p2", "x2 imports_from p1", "x1 imports_from s", "s imports_from p1",
		"a calls c", "c calls a"}
	x := graph.NewIndex(build(t, nodes, edges))
	ids := func(cs [][]int32, x *graph.Index) (out []string) {
		for _, c := range cs {
			s := ""
			for _, i := range c {
				s += x.Node(i).ID + " "
			}
			out = append(out, s)
		}
		return out
	}
	if got, want := ids(ImportCycles(x, 5), x), []string{"a b ", "p1 p2 ", "c d e "}; !reflect.DeepEqual(got, want) {
		t.Errorf("cycles %q, want %q", got, want)
	}
	if got, want := ids(ImportCycles(x, 2), x), []string{"a b ", "p1 p2 "}; !reflect.DeepEqual(got, want) {
		t.Errorf("maxLen 2: %q, want %q", got, want)
	}
	if got := ImportCycles(x, 1); got != nil {
		t.Errorf("maxLen 1: %v", got)
	}
	y := graph.NewIndex(shuffled(x.G))
	if got := ids(ImportCycles(y, 5), y); !reflect.DeepEqual(got, ids(ImportCycles(x, 5), x)) {
		t.Errorf("order-dependent: %q", got)
	}
}

func TestConfidenceAudit(t *testing.T) {
	x := graph.NewIndex(build(t, []string{"a function f.go", "b function f.go"},
		[]string{"a calls b", "b calls a INFERRED", "a references b AMBIGUOUS"}))
	a := ConfidenceAudit(x)
	if a.Total[graph.Extracted] != 1 || a.Total[graph.Inferred] != 1 || a.Total[graph.Ambiguous] != 1 ||
		a.ByRelation["calls"][graph.Inferred] != 1 || a.ByRelation["references"][graph.Ambiguous] != 1 {
		t.Errorf("audit %+v", a)
	}
}

func TestSurprises(t *testing.T) {
	g := cliques(t)
	g.Edges = append(g.Edges,
		graph.Edge{Source: "a1", Target: "b3", Relation: "calls", Confidence: graph.Inferred, Weight: 1},
		graph.Edge{Source: "a2", Target: "b2", Relation: "calls", Confidence: graph.Extracted, Weight: 1})
	x := graph.NewIndex(g)
	s := Surprises(x, 5)
	if len(s) != 3 {
		t.Fatalf("got %d surprises: %+v", len(s), s)
	}
	top := x.Edge(s[0].Edge)
	if top.Source != "a1" || top.Target != "b3" || s[0].Score != 5 || s[0].Why == "" {
		t.Errorf("top surprise %s -> %s score %v why %q", top.Source, top.Target, s[0].Score, s[0].Why)
	}
	t.Logf("why: %s", s[0].Why)
	if Surprises(x, 0) != nil {
		t.Error("limit 0")
	}
}

func TestQuestions(t *testing.T) {
	g := hubGraph(t)
	g.Edges = append(g.Edges, graph.Edge{Source: "serve", Target: "parse", Relation: "calls", Confidence: graph.Ambiguous, Weight: 1})
	g.Nodes = append(g.Nodes, graph.Node{ID: "lonely", Label: "Lonely()", Kind: "function", SourceFile: "a/a.go"})
	x := graph.NewIndex(g)
	qs := Questions(x)
	if len(qs) < 3 || len(qs) > MaxQuestions {
		t.Fatalf("%d questions: %+v", len(qs), qs)
	}
	for _, q := range qs {
		t.Logf("%s — %s", q.Text, q.Why)
		if q.Text == "" || q.Why == "" {
			t.Errorf("empty question %+v", q)
		}
	}
	if !reflect.DeepEqual(qs, Questions(graph.NewIndex(shuffled(g)))) {
		t.Error("questions depend on input order")
	}
	if q := Questions(graph.NewIndex(&graph.Graph{})); len(q) != 1 {
		t.Errorf("empty graph: %v", q)
	}
}

// TestConcurrentReaders: the serve catalog calls analyses from many
// requests at once on one Index; the shared caches must agree and not race.
func TestConcurrentReaders(t *testing.T) {
	x := graph.NewIndex(synthetic(20, 6))
	want := Surprises(graph.NewIndex(x.G), 5)
	done := make(chan []Surprise)
	for range 8 {
		go func() {
			GodNodes(x, 5, 0)
			Questions(x)
			done <- Surprises(x, 5)
		}()
	}
	for range 8 {
		if got := <-done; !reflect.DeepEqual(got, want) {
			t.Errorf("concurrent surprises differ: %v vs %v", got, want)
		}
	}
}

// TestGodNodesFileLevelTests: a function called only from a test file's
// top-level code (Jest's describe/it callbacks land on the file node) is
// tested, not reported with 0 tests.
func TestGodNodesFileLevelTests(t *testing.T) {
	g := build(t, []string{
		"main_ts file src/main.ts", "add function src/main.ts", "sub function src/main.ts", "use function src/main.ts",
		"main_test_ts file src/main.test.ts test",
	}, []string{
		"main_ts contains add", "main_ts contains sub", "main_ts contains use",
		"use calls add", "use calls sub", "main_test_ts calls add", "main_test_ts imports_from main_ts",
	})
	x := graph.NewIndex(g)
	gods, _ := GodNodes(x, 10, 0)
	tests := map[string]int{}
	for _, gd := range gods {
		tests[x.Node(gd.Node).ID] = gd.Tests
	}
	if tests["add"] != 1 || tests["sub"] != 0 {
		t.Fatalf("tests = %v, want add 1 (called from main.test.ts), sub 0", tests)
	}
}
