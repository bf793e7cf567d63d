package graph

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func indexFixture() *Index {
	g := &Graph{Directed: true, Nodes: []Node{
		{ID: "a_go", Label: "a.go", SourceFile: "pkg/a.go", Kind: "file"},
		{ID: "a_serve", Label: ".Serve()", SourceFile: "pkg/a.go", Kind: "method"},
		{ID: "b_serve", Label: ".Serve()", SourceFile: "other/b.go", Kind: "method"},
		{ID: "b_handler", Label: "HandlerFunc", SourceFile: "other/b.go", Kind: "type_alias"},
		{ID: "ext", Label: "fmt", SourceFile: ""},
	}, Edges: []Edge{
		{Source: "a_go", Target: "a_serve", Relation: "contains", Confidence: Extracted},
		{Source: "a_serve", Target: "b_serve", Relation: "calls", Confidence: Extracted},
		{Source: "b_handler", Target: "b_serve", Relation: "calls", Confidence: Extracted},
	}}
	return NewIndex(g)
}

func TestResolve(t *testing.T) {
	x := indexFixture()
	tests := []struct {
		ref   string
		want  string // node id, "" = not found, "?" = ambiguous
		how   string
		ncand int
	}{
		{"a_serve", "a_serve", "id", 0},
		{"handlerfunc", "b_handler", "label", 0},
		{"Serve", "?", "name", 2},
		{"serve@pkg/", "a_serve", "qualified", 0},
		{".Serve()@other", "b_serve", "qualified", 0},
		{"pkg/a.go", "a_go", "label", 0}, // "a.go" label differs, path resolves via file rule
		{"Handler", "b_handler", "substring", 0},
		{"nothing", "", "", 0},
		{"", "", "", 0},
	}
	for _, tt := range tests {
		r := x.Resolve(tt.ref)
		got := ""
		switch {
		case r.Found():
			got = x.Node(r.Node).ID
		case len(r.Candidates) > 0:
			got = "?"
		}
		if got != tt.want || len(r.Candidates) != tt.ncand {
			t.Errorf("Resolve(%q) = %q (%d candidates, by %s), want %q (%d)", tt.ref, got, len(r.Candidates), r.How, tt.want, tt.ncand)
		}
	}
	r := x.Resolve("Serve")
	// Equal degree (2 each): ties go by id.
	if x.Node(r.Candidates[0]).ID != "a_serve" {
		t.Errorf("candidates not ordered by degree, then id: %v", r.Candidates)
	}
	if q := x.Qualified(r.Candidates[1]); q != ".Serve()@other/b.go" {
		t.Errorf("Qualified = %q", q)
	}
	if got := x.Resolve(x.Qualified(r.Candidates[0])); !got.Found() || x.Node(got.Node).ID != "a_serve" {
		t.Errorf("qualified reference does not resolve back: %+v", got)
	}
	if len(x.Out(1)) != 1 || len(x.In(2)) != 2 || x.Degree(2) != 2 {
		t.Errorf("adjacency wrong: out(1)=%v in(2)=%v", x.Out(1), x.In(2))
	}
}

func TestEnds(t *testing.T) {
	x := indexFixture()
	for _, e := range x.Out(x.ID("a_serve")) {
		s, d := x.Ends(e)
		if s != x.ID("a_serve") || d != x.ID("b_serve") {
			t.Fatalf("Ends(%d) = %d,%d", e, s, d)
		}
		if x.Other(e, s) != d || x.Other(e, d) != s {
			t.Fatalf("Other mismatch")
		}
	}
	x.G.Edges = append(x.G.Edges, Edge{Source: "a_go", Target: "missing"})
	x = NewIndex(x.G)
	if s, d := x.Ends(int32(len(x.G.Edges) - 1)); s != -1 || d != -1 {
		t.Fatalf("dangling Ends = %d,%d", s, d)
	}
}

func TestWithLabel(t *testing.T) {
	x := indexFixture()
	if got := x.WithLabel(".serve()"); len(got) != 2 {
		t.Fatalf("WithLabel = %v", got)
	}
	if got := x.WithLabel("nope"); len(got) != 0 {
		t.Fatalf("WithLabel(nope) = %v", got)
	}
}

// sameIndex compares everything an Index answers.
func sameIndex(t *testing.T, a, b *Index) {
	t.Helper()
	for i := range a.Len() {
		if !slices.Equal(a.Out(int32(i)), b.Out(int32(i))) || !slices.Equal(a.In(int32(i)), b.In(int32(i))) {
			t.Fatalf("node %d: out %v/%v in %v/%v", i, a.Out(int32(i)), b.Out(int32(i)), a.In(int32(i)), b.In(int32(i)))
		}
		n := a.Node(int32(i))
		if !slices.Equal(a.WithLabel(n.Label), b.WithLabel(n.Label)) || !slices.Equal(a.FileNodes(n.SourceFile), b.FileNodes(n.SourceFile)) {
			t.Fatalf("node %d: name tables differ", i)
		}
	}
	for e := range a.G.Edges {
		s1, d1 := a.Ends(int32(e))
		s2, d2 := b.Ends(int32(e))
		if s1 != s2 || d1 != d2 {
			t.Fatalf("edge %d: ends %d,%d vs %d,%d", e, s1, d1, s2, d2)
		}
	}
}

func TestIndexFromParse(t *testing.T) {
	var buf bytes.Buffer
	g := sample()
	g.Nodes = append(g.Nodes, Node{ID: "c", Label: "b()", SourceFile: "x.go"}, Node{ID: "d", Label: "", SourceFile: ""})
	g.Edges = append(g.Edges, Edge{Source: "c", Target: "b", Relation: "calls", Confidence: Extracted})
	g.Canonicalize()
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	parsed, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	fromParse := NewIndex(parsed) // takes the endpoints Parse found
	looked := NewIndex(parsed)    // the hand-off is gone: map lookups
	sameIndex(t, fromParse, looked)
	if got := fromParse.WithLabel("B()"); len(got) != 2 {
		t.Errorf("WithLabel(B()) = %v, want both b() nodes", got)
	}
	if got := fromParse.WithLabel(""); len(got) != 1 {
		t.Errorf("WithLabel(\"\") = %v, want the unlabelled node", got)
	}

	// A graph changed between Parse and NewIndex is indexed as it is now.
	parsed, err = Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	e := &parsed.Edges[0]
	e.Source, e.Target = e.Target, e.Source
	changed := NewIndex(parsed)
	if s, d := changed.Ends(0); changed.Node(s).ID != e.Source || changed.Node(d).ID != e.Target {
		t.Fatalf("Ends(0) = %s -> %s, want %s -> %s", changed.Node(s).ID, changed.Node(d).ID, e.Source, e.Target)
	}
	sameIndex(t, changed, NewIndex(parsed))
	parsed.Edges = append(parsed.Edges, Edge{Source: "a", Target: "zz"})
	if s, d := NewIndex(parsed).Ends(int32(len(parsed.Edges) - 1)); s != -1 || d != -1 {
		t.Fatalf("dangling edge added after Parse: Ends = %d,%d", s, d)
	}
}

func TestIndexOutCapacityClipped(t *testing.T) {
	x := indexFixture()
	out := x.Out(0)
	_ = append(out, 99)
	if x.Out(1)[0] == 99 {
		t.Fatal("append to Out(0) overwrote Out(1)")
	}
	for _, s := range [][]int32{x.WithLabel(".serve()"), x.FileNodes("pkg/a.go"), x.In(2)} {
		if cap(s) != len(s) {
			t.Fatalf("slice into a shared table has spare capacity: len %d cap %d", len(s), cap(s))
		}
	}
}

func TestNameTablesUnicode(t *testing.T) {
	x := NewIndex(&Graph{Nodes: []Node{
		{ID: "a", Label: "ÄRGER()", SourceFile: "ü.go"},
		{ID: "b", Label: ".Straße()", SourceFile: "ü.go"},
		{ID: "c", Label: "()", SourceFile: ""},
	}})
	if got := x.WithLabel("ärger()"); len(got) != 1 || got[0] != 0 {
		t.Errorf("WithLabel(ärger()) = %v", got)
	}
	if r := x.Resolve("straße"); !r.Found() || r.Node != 1 || r.How != "name" {
		t.Errorf("Resolve(straße) = %+v", r)
	}
	if got := x.FileNodes("ü.go"); len(got) != 2 {
		t.Errorf("FileNodes = %v", got)
	}
	if got := x.byName(""); len(got) != 1 || got[0] != 2 {
		t.Errorf(`bare name "" = %v, want node c`, got)
	}
}

// TestByNameMatchesBareName checks the label-table reading of bare names
// against BareName over awkward labels.
func TestByNameMatchesBareName(t *testing.T) {
	labels := []string{"a", "a()", ".a", ".a()", "a()()", ".a()()", "..a", "..a()", ".", "()", ".()", "", "A()", ".A",
		"a.()", "()a", ".()()", "..()", "x.y()", ".x.y", "a ()", ".a(", "a)"}
	g := &Graph{}
	for i, l := range labels {
		g.Nodes = append(g.Nodes, Node{ID: fmt.Sprint(i), Label: l})
	}
	x := NewIndex(g)
	keys := map[string]bool{}
	for _, l := range labels {
		keys[BareName(l)] = true
		keys[strings.ToLower(l)] = true
	}
	for k := range keys {
		var want []int32
		for i, l := range labels {
			if lo := strings.ToLower(l); BareName(l) == k && lo != BareName(l) {
				want = append(want, int32(i))
			}
		}
		got := x.byName(k)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("byName(%q) = %v, want %v", k, got, want)
		}
	}
}

// TestResolveCallable: callers/callees prefer functions and methods over a
// field or variable that has the exact label.
func TestResolveCallable(t *testing.T) {
	g := &Graph{Directed: true, Nodes: []Node{
		{ID: "py_lang_membertype", Label: "memberType", SourceFile: "py/lang.go", Kind: "field"},
		{ID: "res_membertype", Label: ".memberType()", SourceFile: "res/calls.go", Kind: "method"},
		{ID: "cfg_timeout", Label: "timeout", SourceFile: "cfg/cfg.go", Kind: "field"},
		{ID: "a_timeout", Label: ".timeout()", SourceFile: "a/a.go", Kind: "method"},
		{ID: "b_timeout", Label: ".timeout()", SourceFile: "b/b.go", Kind: "method"},
		{ID: "cfg_port", Label: "port", SourceFile: "cfg/cfg.go", Kind: "field"},
	}}
	x := NewIndex(g)
	for _, tt := range []struct {
		ref, want string // "?" = ambiguous
		ncand     int
	}{
		{"memberType", "res_membertype", 0},         // the one method wins over the field
		{"timeout", "?", 3},                         // two methods: ambiguous, the field listed too
		{"port", "cfg_port", 0},                     // nothing callable: the field
		{"memberType@py/", "py_lang_membertype", 0}, // pinned to a file: as asked
	} {
		r := x.ResolveCallable(tt.ref)
		got := ""
		switch {
		case r.Found():
			got = x.Node(r.Node).ID
		case len(r.Candidates) > 0:
			got = "?"
		}
		if got != tt.want || len(r.Candidates) != tt.ncand {
			t.Errorf("ResolveCallable(%q) = %q (%d candidates, by %s), want %q (%d)", tt.ref, got, len(r.Candidates), r.How, tt.want, tt.ncand)
		}
	}
	if r := x.Resolve("memberType"); !r.Found() || x.Node(r.Node).ID != "py_lang_membertype" {
		t.Errorf("Resolve keeps the exact label: got %+v", r)
	}
}

// TestQualifiedRoundTrip: every node's printed qualifier resolves back to
// that node. SYNAPTIC_ROUNDTRIP_GRAPH=a/graph.json:b/graph.json checks real
// graphs too and logs, per graph, the fraction of nodes printed as a name
// (not their id) that resolves back to them.
func TestQualifiedRoundTrip(t *testing.T) {
	paths := []string{"../tools/testdata/real/graph.json"}
	if p := os.Getenv("SYNAPTIC_ROUNDTRIP_GRAPH"); p != "" {
		paths = append(paths, filepath.SplitList(p)...)
	}
	for _, p := range paths {
		g, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		x := NewIndex(g)
		bad, byID := 0, 0
		for i := range g.Nodes {
			q := x.Qualified(int32(i))
			if q == g.Nodes[i].ID && g.Nodes[i].SourceFile != "" {
				byID++
			}
			if r := x.Resolve(q); r.Node != int32(i) {
				if bad < 5 {
					t.Errorf("%s: node %s printed as %q resolves to %d (%s), candidates %d", p, g.Nodes[i].ID, q, r.Node, r.How, len(r.Candidates))
				}
				bad++
			}
		}
		named := len(g.Nodes) - bad - byID
		t.Logf("%s: %d nodes, %d round-trip failures, %d fall back to the id; %.4f resolve back from their printed name (external nodes: their id)", p, len(g.Nodes), bad, byID, float64(named)/float64(max(len(g.Nodes), 1)))
	}
}

// namesFixture has the shapes the name cascade must tell apart: methods of
// two types in one file, case twins, a package function, build-variant
// twins and a Python module function.
func namesFixture() *Index {
	n := func(id, label, file, kind string, line int) Node {
		return Node{ID: id, Label: label, SourceFile: file, Kind: kind, Span: &Span{StartLine: line, EndLine: line + 5}}
	}
	g := &Graph{Directed: true, Nodes: []Node{
		{ID: "http", Label: "http", Kind: "package"},
		n("client_go", "client.go", "net/http/client.go", "file", 1),
		n("client", "Client", "net/http/client.go", "struct", 10),
		n("client_do", ".Do()", "net/http/client.go", "method", 20),
		n("client_do_lower", ".do()", "net/http/client.go", "method", 40),
		n("get", "Get()", "net/http/client.go", "function", 60),
		n("zs", "ZodString", "v3/types.ts", "class", 100),
		n("zs_parse", "._parse()", "v3/types.ts", "method", 110),
		n("zn", "ZodNumber", "v3/types.ts", "class", 200),
		n("zn_parse", "._parse()", "v3/types.ts", "method", 210),
		n("dumps", "dumps()", "json/__init__.py", "function", 5),
		n("sock_linux", "sysSocket()", "net/sock_linux.go", "function", 7),
		n("sock_windows", "sysSocket()", "net/sock_windows.go", "function", 7),
		n("dup1", "twin()", "x/gen.go", "function", 3),
		n("dup2", "twin()", "x/gen.go", "function", 9),
	}, Edges: []Edge{
		{Source: "http", Target: "client_go", Relation: "contains"},
		{Source: "client", Target: "client_do", Relation: "method"},
		{Source: "client", Target: "client_do_lower", Relation: "method"},
		{Source: "zs", Target: "zs_parse", Relation: "method"},
		{Source: "zn", Target: "zn_parse", Relation: "method"},
	}}
	return NewIndex(g)
}

func TestResolveNameCascade(t *testing.T) {
	x := namesFixture()
	tests := []struct {
		ref, want, how string // want: node id, "?" ambiguous, "" none
	}{
		{".do()", "client_do_lower", ByLabel}, // exact case before case-insensitive
		{".Do()", "client_do", ByLabel},
		{".do()@net/http/client.go", "client_do_lower", ByQualified},
		{"Client.Do", "client_do", ByOwner},
		{"(*Client).Do", "client_do", ByOwner},
		{"Client.do()", "client_do_lower", ByOwner},
		{"http.Client.Do", "client_do", ByOwner},
		{"http.Get", "get", ByOwner},
		{"client.Get", "get", ByOwner}, // file stem
		{"ZodString._parse", "zs_parse", ByOwner},
		{"ZodNumber#_parse", "zn_parse", ByOwner},
		{"ZodNumber::_parse", "zn_parse", ByOwner},
		{"json.dumps", "dumps", ByOwner},
		{"._parse()@v3/types.ts", "?", ByQualified},
		{"._parse()@v3/types.ts:210", "zn_parse", ByQualified},
		{"._parse()@types.ts:212", "zn_parse", ByQualified}, // a line inside the span
		{"twin()@x/gen.go:9", "dup2", ByQualified},
		{"sysSocket", "?", ByName},
		{"sysSocket()@sock_linux.go", "sock_linux", ByQualified},
		{"CLIENT.DO", "?", ByOwner}, // case-insensitive: both Do and do
		{"Nope.Do", "", ""},
	}
	for _, tt := range tests {
		r := x.Resolve(tt.ref)
		got := ""
		switch {
		case r.Found():
			got = x.Node(r.Node).ID
		case len(r.Candidates) > 0:
			got = "?"
		}
		if got != tt.want || (tt.want != "" && r.How != tt.how) {
			t.Errorf("Resolve(%q) = %q by %q, want %q by %q", tt.ref, got, r.How, tt.want, tt.how)
		}
	}
	for i := range x.Len() {
		if r := x.Resolve(x.Qualified(int32(i))); r.Node != int32(i) {
			t.Errorf("node %s printed as %q does not resolve back", x.Node(int32(i)).ID, x.Qualified(int32(i)))
		}
	}
	for id, want := range map[string]string{
		"zs_parse": "ZodString._parse()@v3/types.ts",
		"dup2":     "twin()@x/gen.go:9",
		"get":      "Get()@net/http/client.go",
		"http":     "http",
	} {
		if got := x.Qualified(x.ID(id)); got != want {
			t.Errorf("Qualified(%s) = %q, want %q", id, got, want)
		}
	}
}

func TestNearest(t *testing.T) {
	x := namesFixture()
	for ref, want := range map[string]string{"Clent.Do": "client_do", "dumsp": "dumps", "sysSockte": "sock_linux"} {
		got := x.Nearest(ref, 3)
		if len(got) == 0 || x.Node(got[0]).ID != want {
			var ids []string
			for _, i := range got {
				ids = append(ids, x.Node(i).ID)
			}
			t.Errorf("Nearest(%q) = %v, want %s first", ref, ids, want)
		}
	}
	if got := x.Nearest("completelyunrelated", 3); len(got) != 0 {
		t.Errorf("Nearest offered %d unrelated names", len(got))
	}
}

// TestIndexFromCanonicalize: the ranks Canonicalize sorted by become the
// index's id map and endpoints, and that index equals one built by
// lookups, dangling and merged edges included.
func TestIndexFromCanonicalize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	name := func(n int) string { return "n" + strconv.Itoa(rng.IntN(n)) }
	for iter := range 200 {
		g := &Graph{}
		for range rng.IntN(30) {
			g.Nodes = append(g.Nodes, Node{ID: name(40), Label: name(5)})
		}
		for range rng.IntN(120) {
			g.Edges = append(g.Edges, Edge{Source: name(50), Target: name(50), Relation: "calls", SourceLocation: "L" + strconv.Itoa(rng.IntN(3))})
		}
		g.Canonicalize()
		p := lastParsed.Load()
		if p == nil || p.g.Value() != g {
			t.Fatalf("iter %d: Canonicalize handed nothing over", iter)
		}
		fromSort := NewIndex(g)
		if lastParsed.Load() != nil || p.byID == nil || p.src == nil {
			t.Fatalf("iter %d: NewIndex did not take the hand-off (byID %v, ends %v)", iter, p.byID != nil, p.src != nil)
		}
		looked := NewIndex(g)
		sameIndex(t, fromSort, looked)
		for i := range g.Nodes {
			if got := fromSort.ID(g.Nodes[i].ID); got != int32(i) {
				t.Fatalf("iter %d: ID(%s) = %d, want %d", iter, g.Nodes[i].ID, got, i)
			}
		}
		for i := range g.Edges {
			for _, id := range [2]string{g.Edges[i].Source, g.Edges[i].Target} {
				if fromSort.ID(id) != looked.ID(id) {
					t.Fatalf("iter %d: ID(%s) = %d, lookups say %d", iter, id, fromSort.ID(id), looked.ID(id))
				}
			}
		}
	}
}

// TestIndexAfterCanonicalizeChanged: a graph whose node ids change
// between Canonicalize and NewIndex (two swapped, one renamed) is indexed
// as it is then, not by the ids handed over.
func TestIndexAfterCanonicalizeChanged(t *testing.T) {
	for _, change := range []func(g *Graph){
		func(g *Graph) { g.Nodes[0].ID, g.Nodes[1].ID = g.Nodes[1].ID, g.Nodes[0].ID },
		func(g *Graph) { g.Nodes[1].ID = "renamed" },
		func(g *Graph) { g.Edges[0].Source = g.Nodes[2].ID },
	} {
		g := &Graph{Nodes: []Node{{ID: "c"}, {ID: "a"}, {ID: "b"}}, Edges: []Edge{
			{Source: "a", Target: "b", Relation: "calls"}, {Source: "b", Target: "c", Relation: "calls"}, {Source: "c", Target: "x", Relation: "calls"},
		}}
		g.Canonicalize()
		change(g)
		got := NewIndex(g)
		sameIndex(t, got, NewIndex(g))
		for i := range g.Nodes {
			if id := g.Nodes[i].ID; got.ID(id) != int32(i) {
				t.Fatalf("ID(%s) = %d, want %d", id, got.ID(id), i)
			}
		}
		at := map[string]int32{}
		for i := range g.Nodes {
			at[g.Nodes[i].ID] = int32(i)
		}
		for i := range g.Edges {
			e := &g.Edges[i]
			ws, ok1 := at[e.Source]
			wd, ok2 := at[e.Target]
			if !ok1 || !ok2 {
				ws, wd = -1, -1
			}
			if s, d := got.Ends(int32(i)); s != ws || d != wd {
				t.Fatalf("Ends(%d) = %d,%d, want %d,%d (%s -> %s)", i, s, d, ws, wd, e.Source, e.Target)
			}
		}
	}
}
