package synql

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

func ptr[T any](v T) *T { return &v }

// small is a graph with a class hierarchy, calls and communities:
//
//	Shape (interface) <- Circle, Square (implements)
//	NewShape() -return_type-> Shape       (factory)
//	Registry (class) .instance -field-> Registry, .Get() -return_type-> Registry (singleton)
//	Bus (class) .listeners -field-> Shape  (observer)
//	main() -> NewShape() -> helper() -> leaf()
func small() *graph.Graph {
	c := func(n int) *int { return ptr(n) }
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	n := func(id, label, kind, file string, span *graph.Span, comm int) graph.Node {
		return graph.Node{ID: id, Label: label, Kind: kind, SourceFile: file, Span: span, Community: c(comm), Visibility: "public", Language: "go"}
	}
	g := &graph.Graph{Nodes: []graph.Node{
		n("shape", "Shape", "interface", "geo/shape.go", sp(1, 5), 0),
		n("circle", "Circle", "class", "geo/circle.go", sp(1, 40), 0),
		n("square", "Square", "class", "geo/square.go", sp(1, 30), 0),
		n("newshape", "NewShape()", "function", "geo/shape.go", sp(7, 12), 0),
		n("registry", "Registry", "class", "app/registry.go", sp(1, 3), 1),
		n("reg_instance", ".instance", "field", "app/registry.go", sp(2, 2), 1),
		n("reg_get", ".Get()", "method", "app/registry.go", sp(5, 9), 1),
		n("bus", "Bus", "class", "app/bus.go", sp(1, 4), 2),
		n("bus_listeners", ".listeners", "field", "app/bus.go", sp(2, 2), 2),
		n("main", "main()", "function", "cmd/main.go", sp(3, 8), 3),
		n("helper", "helper()", "function", "geo/shape.go", sp(14, 20), 0),
		n("leaf", "leaf()", "function", "geo/shape.go", sp(22, 23), 0),
		{ID: "test_main", Label: "TestMain()", Kind: "function", SourceFile: "cmd/main_test.go", IsTest: true, SourceLocation: "L4"},
	}}
	g.Nodes[3].Signature = &graph.Signature{Params: []graph.Param{{Name: "kind", TypeRef: "string"}}, ReturnType: "Shape", Raw: "func NewShape(kind string) Shape"}
	e := func(src, dst, rel, ctx string) {
		g.Edges = append(g.Edges, graph.Edge{Source: src, Target: dst, Relation: rel, Context: ctx, Confidence: graph.Extracted})
	}
	e("circle", "shape", "implements", "")
	e("square", "shape", "implements", "")
	e("newshape", "shape", "references", "return_type")
	e("registry", "reg_instance", "contains", "")
	e("registry", "reg_get", "method", "")
	e("reg_instance", "registry", "references", "field")
	e("reg_get", "registry", "references", "return_type")
	e("bus", "bus_listeners", "contains", "")
	e("bus_listeners", "shape", "references", "field")
	e("main", "newshape", "calls", "")
	e("newshape", "helper", "calls", "")
	e("helper", "leaf", "calls", "")
	e("test_main", "main", "calls", "")
	e("main", "reg_get", "calls", "")
	e("helper", "reg_get", "calls", "")
	e("bus_listeners", "reg_get", "references", "")
	return g
}

func engine() *Engine { return NewEngine(graph.NewIndex(small())) }

// render prints rows as "a,b;c,d" with node labels or values.
func render(e *Engine, r *Result) string {
	var rows []string
	if r.NodeRows {
		for _, row := range r.Nodes {
			var cells []string
			for _, i := range row {
				cells = append(cells, e.x.Node(i).Label)
			}
			rows = append(rows, strings.Join(cells, ","))
		}
	} else {
		for _, row := range r.Groups {
			var cells []string
			for _, v := range row {
				cells = append(cells, v.String())
			}
			rows = append(rows, strings.Join(cells, ","))
		}
	}
	return strings.Join(rows, ";")
}

func TestEval(t *testing.T) {
	tests := []struct{ q, want string }{
		{"MATCH (c:class) RETURN c", "Bus;Registry;Circle;Square"},
		{"match (c:CLASS) where c.loc > 35 return c", "Circle"},
		{"MATCH (c:class) WHERE c.loc > 3 AND c.loc < 40 RETURN c", "Bus;Registry;Square"}, // Registry widens over .Get() to 1..9
		{"MATCH (f:function) WHERE f.name = 'NewShape' RETURN f", "NewShape()"},
		{"MATCH (f) WHERE f.name =~ '^(help|lea)' RETURN f ORDER BY f.line DESC", "leaf();helper()"},
		{"MATCH (f:function) WHERE f.file STARTS WITH 'geo/' AND NOT f.name CONTAINS 'e' RETURN f", ""},
		{"MATCH (f:function) WHERE f.file ENDS WITH 'shape.go' AND f.name <> 'leaf' RETURN f", "NewShape();helper()"},
		{"MATCH (n) WHERE n.kind IN ['field', 'interface'] RETURN n", ".listeners;.instance;Shape"},
		{"MATCH (f:function) WHERE f.is_test RETURN f", "TestMain()"},
		{"MATCH (f:function) WHERE f.params = 1 AND f.return_type = 'Shape' RETURN f", "NewShape()"},
		{"MATCH (f:function) WHERE f.signature CONTAINS 'kind string' RETURN f.name", "NewShape"},
		{"MATCH (f:function) WHERE f.visibility = 'public' OR f.line = 4 RETURN f.file ORDER BY f.file", "cmd/main.go;cmd/main_test.go;geo/shape.go"},
		{"MATCH (a:function)-[:calls]->(b) RETURN a, b", "main(),.Get();main(),NewShape();TestMain(),main();NewShape(),helper();helper(),.Get();helper(),leaf()"},
		{"MATCH (a:function)-[:calls*3]->(b) WHERE a.name = 'main' RETURN b", "leaf()"},
		{"MATCH (a:function)-[:calls*1..3]->(b:function) WHERE a.name = 'main' RETURN b", "NewShape();helper();leaf()"},
		{"MATCH (a)<-[:calls*]-(b) WHERE a.name = 'leaf' RETURN b", "main();TestMain();NewShape();helper()"},
		{"MATCH (a)-[:implements]-(b) WHERE a.name = 'Shape' RETURN b", "Circle;Square"},
		{"MATCH (a)-[:calls|references]->(b:method) RETURN a", ".listeners;main();helper()"},
		{"MATCH (a)-->(b:interface) RETURN count(*)", "4"},
		{"MATCH (n) RETURN n.kind, count(n) AS c ORDER BY c DESC, n.kind", "function,5;class,4;field,2;interface,1;method,1"},
		{"MATCH (n:function) RETURN count(*)", "5"},
		{"MATCH (a:function)-[:calls]->(b) RETURN a.name, count(b) ORDER BY a.name", "NewShape,1;TestMain,1;helper,2;main,2"},
		{"MATCH (c:class) WHERE c.fan_in >= 1 RETURN c.name, c.fan_in", "Registry,2"},
		{"MATCH (c:class) WHERE c.community = 2 RETURN c", "Bus"},
		{"MATCH (n) WHERE n.return_type = 'Shape' OR n.params > 0 RETURN n", "NewShape()"}, // null fields compare false
		{"MATCH (c:class) RETURN c LIMIT 2", "Bus;Registry"},
		{"MATCH (f:function) WHERE f.language = 'go' AND f.degree > 2 RETURN f", "main();NewShape();helper()"},
		{"MATCH (f:function) WHERE (f.line > 10 OR f.line < 4) AND f.file = 'geo/shape.go' RETURN f", "helper();leaf()"},
	}
	e := engine()
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			q, err := Parse(tt.q)
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.Run(context.Background(), q, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := render(e, r); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ q, want string }{
		{"", `column 1: expected MATCH, found end of query`},
		{"MATCH c RETURN c", `column 7: expected a node pattern such as (f:function), found "c"`},
		{"MATCH (c:class RETURN c", `column 16: expected ')' closing the node pattern`},
		{"MATCH (c) WHERE c.loc > RETURN c", `column 25: expected a value`},
		{"MATCH (c) WHERE c.size > 3 RETURN c", `unknown field "size" at column 19; the fields are: name, label`},
		{"MATCH (c) RETURN d", `RETURN uses "d", which MATCH does not bind (bound: c)`},
		{"MATCH (c) WHERE x.name = 'a' RETURN c", `WHERE uses "x"`},
		{"MATCH (a)-[:calls*1..20]->(b) RETURN b", "hop range *1..20 is out of bounds: hops run from 1 to 8"},
		{"MATCH (a)-[:calls*0]->(b) RETURN b", "out of bounds"},
		{"MATCH (a)-[:calls]>(b) RETURN b", `expected '->' or '-' ending the relationship`},
		{"MATCH (a) WHERE a.name =~ '(' RETURN a", "does not compile"},
		{"MATCH (a) WHERE a.name =~ 3 RETURN a", "a quoted regular expression after =~"},
		{"MATCH (a) RETURN a LIMIT 0", "LIMIT 0 is out of range"},
		{"MATCH (a) RETURN a LIMIT 5 extra", "expected end of query"},
		{"MATCH (a) WHERE a.name = 'x RETURN a", "unterminated string"},
		{"MATCH (a) RETURN a ORDER BY b.name", "ORDER BY b.name names no RETURN column"},
		{"MATCH (a), (b) RETURN a", `expected a relationship (-[...]->), WHERE or RETURN, found ","`},
		{"MATCH (a)-[]->(a) RETURN a", "bound twice"},
		{"MATCH (a {x: 1}) RETURN a", `expected ')' closing the node pattern, found "{"`},
		{"MATCH (a) WHERE a.name ~ 'x' RETURN a", `expected a keyword, name, string, number or operator, found '~'`},
		{"MATCH (n) RETURN n.kind, count(*) ORDER BY n.name", "aggregate query orders by its RETURN columns only"},
		{"MATCH (a) WHERE " + strings.Repeat("(", 100) + "a.line = 1" + strings.Repeat(")", 100) + " RETURN a", "less nesting"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.q)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q)\n  = %v\nwant %q", tt.q, err, tt.want)
		}
	}
	var se *SyntaxError
	if _, err := Parse("MATCH (a) RETURN"); !errors.As(err, &se) || se.Pos != len("MATCH (a) RETURN") {
		t.Errorf("syntax error position: %v", err)
	}
}

func TestUnknownNames(t *testing.T) {
	e := engine()
	for q, want := range map[string]string{
		"MATCH (c:clas) RETURN c":             `unknown node kind "clas"; this graph has: class, field, function, interface, method`,
		"MATCH (a)-[:cals]->(b) RETURN b":     `unknown relation "cals"; this graph has: calls, contains, implements, method, references`,
		"MATCH (a)-[:calls|xx]->(b) RETURN b": `unknown relation "xx"`,
	} {
		parsed, err := Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.Run(context.Background(), parsed, 0); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", q, err, want)
		}
	}
}

func TestPatterns(t *testing.T) {
	e := engine()
	for _, tt := range []struct {
		p    PatternName
		want string
	}{
		{PatternSingleton, "Registry"},
		{PatternFactory, "NewShape()"},
		{PatternObserver, "Bus"},
		{PatternServiceLocator, "Registry"}, // .Get() is called from communities 0, 2 and 3
		{PatternGodClass, ""},
	} {
		ns, err := e.Pattern(tt.p)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, i := range ns {
			got = append(got, e.x.Node(i).Label)
		}
		if strings.Join(got, ",") != tt.want {
			t.Errorf("%s = %v, want %s", tt.p, got, tt.want)
		}
	}
	if _, err := e.Pattern("mvc"); err == nil || !strings.Contains(err.Error(), "singleton, factory, observer, service-locator, god-class") {
		t.Errorf("unknown pattern: %v", err)
	}
	g := small()
	for i := range g.Nodes {
		g.Nodes[i].Community = nil
	}
	if _, err := NewEngine(graph.NewIndex(g)).Pattern(PatternServiceLocator); !errors.Is(err, ErrNoCommunities) {
		t.Errorf("service-locator without communities: %v", err)
	}
}

func TestGodClass(t *testing.T) {
	g := &graph.Graph{Nodes: []graph.Node{{ID: "big", Label: "Big", Kind: "class", SourceFile: "big.go", Span: &graph.Span{StartLine: 1, EndLine: 10}}}}
	for i := range 25 {
		id := fmt.Sprintf("m%d", i)
		g.Nodes = append(g.Nodes, graph.Node{ID: id, Label: "." + id + "()", Kind: "method", SourceFile: "big.go", Span: &graph.Span{StartLine: 20 + i*25, EndLine: 40 + i*25}})
		g.Edges = append(g.Edges, graph.Edge{Source: "big", Target: id, Relation: "method"})
	}
	e := NewEngine(graph.NewIndex(g))
	ns, err := e.Pattern(PatternGodClass)
	if err != nil || len(ns) != 1 || e.x.Node(ns[0]).ID != "big" {
		t.Fatalf("god-class = %v, %v (loc %v)", ns, err, e.Field(0, FLOC))
	}
}

func TestOutline(t *testing.T) {
	e := engine()
	var got []string
	for _, i := range e.Outline("geo/shape.go") {
		got = append(got, e.x.Node(i).Label)
	}
	if strings.Join(got, ",") != "Shape,NewShape(),helper(),leaf()" {
		t.Fatalf("outline %v", got)
	}
}

func TestWorkBound(t *testing.T) {
	e := engine()
	e.MaxWork = 50
	q, _ := Parse("MATCH (a)-[*]-(b)-[*]-(c) RETURN a, b, c")
	if _, err := e.Run(context.Background(), q, 0); !errors.Is(err, ErrWork) {
		t.Fatalf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	e.MaxWork = DefaultMaxWork
	big := &graph.Graph{}
	for i := range 70000 {
		big.Nodes = append(big.Nodes, graph.Node{ID: fmt.Sprint(i), Kind: "function"})
	}
	if _, err := NewEngine(graph.NewIndex(big)).Run(ctx, q, 0); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("cancelled run: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"MATCH (c:class) WHERE c.loc > 500 RETURN c",
		"MATCH (a)-[:calls*1..3]->(b:function) WHERE a.name =~ 'x' RETURN a, b ORDER BY b.line DESC LIMIT 5",
		"MATCH (n) RETURN n.kind, count(*) AS c ORDER BY c",
		"MATCH (a)<-[:x|y*2..]-(b) WHERE NOT (a.name IN ['a', 'b'] OR b.line <= -1) RETURN b",
	} {
		f.Add(s)
	}
	e := engine()
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			return
		}
		e.Run(context.Background(), q, 25)
	})
}

// TestNameIndex: a WHERE pinning the first node's name or file takes
// its candidates from an index; the answer must be the scan's (IN is
// not indexed), kind filter included.
func TestNameIndex(t *testing.T) {
	g := bigGraph(3000)
	g.Nodes[42].Kind = "method"
	g.Nodes = append(g.Nodes, graph.Node{ID: "dup", Label: "fn41()", Kind: "function"})
	e := NewEngine(graph.NewIndex(g))
	for _, q := range []string{
		"MATCH (a:function)-[:calls]->(b)-[:calls]->(c) WHERE a.name = %s RETURN c ORDER BY c.name LIMIT 50",
		"MATCH (a)-[:calls*1..2]->(b) WHERE %[1]s = a.name AND b.loc > 3 RETURN a, count(b)",
		"MATCH (a:method) WHERE a.name = %s RETURN a",
		"MATCH (a)-[:calls]->(b) WHERE a.file = %s RETURN b.name, count(a)",
	} {
		found := 0
		names := []string{"'fn41'", "'fn42'", "'nope'"}
		if strings.Contains(q, "a.file") {
			names = []string{"'pkg41/file.go'", "'pkg199/file.go'", "'nope'"}
		}
		for _, name := range names {
			indexed := run(t, e, fmt.Sprintf(q, name))
			scanned := run(t, e, strings.ReplaceAll(fmt.Sprintf(q, name), " = "+name, " IN ["+name+"]"))
			if strings.Contains(q, "%[1]s = a.name") {
				scanned = run(t, e, strings.ReplaceAll(fmt.Sprintf(q, name), name+" = a.name", "a.name IN ["+name+"]"))
			}
			if !reflect.DeepEqual(indexed, scanned) {
				t.Errorf("%s with %s: indexed %+v, scanned %+v", q, name, indexed, scanned)
			}
			found += indexed.Total
		}
		if found == 0 {
			t.Errorf("%s: no rows for any name, the comparison proves nothing", q)
		}
	}
}

func run(t *testing.T, e *Engine, src string) *Result {
	t.Helper()
	q, err := Parse(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	r, err := e.Run(context.Background(), q, 0)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return r
}

// TestCountFastPath: a table field compared with a number reads the
// table directly; the answer must be the general path's (the literal on
// the left takes it), nulls (no span) included.
func TestCountFastPath(t *testing.T) {
	g := bigGraph(2000)
	g.Nodes[7].Span = nil
	e := NewEngine(graph.NewIndex(g))
	for _, c := range [][2]string{
		{"f.loc > 50", "50 < f.loc"}, {"f.loc <= 3", "3 >= f.loc"}, {"f.loc <> 10", "10 <> f.loc"},
		{"f.fan_in = 4", "4 = f.fan_in"}, {"f.fan_out >= 4", "4 <= f.fan_out"}, {"f.loc < 1", "1 > f.loc"},
	} {
		fast := run(t, e, "MATCH (f:function) WHERE "+c[0]+" RETURN f.name ORDER BY f.name")
		slow := run(t, e, "MATCH (f:function) WHERE "+c[1]+" RETURN f.name ORDER BY f.name")
		if !reflect.DeepEqual(fast, slow) {
			t.Errorf("%s: %d rows, %s: %d rows", c[0], fast.Total, c[1], slow.Total)
		}
	}
}
