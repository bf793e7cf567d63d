package graph

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestMakeID(t *testing.T) {
	tests := []struct {
		parts []string
		want  string
	}{
		{[]string{"src/auth.py"}, "src_auth_py"},
		{[]string{"src.auth", "login"}, "src_auth_login"},
		{[]string{"_private_", "..x.."}, "private_x"},
		{[]string{"", "a", ""}, "a"},
		{[]string{"Straße"}, "strasse"},
		{[]string{"naïve café"}, "naïve_café"},
		{[]string{"a--b", "c__d"}, "a_b_c_d"},
		{[]string{"函数", "名"}, "函数_名"},
		{[]string{"ＡＢＣ"}, "abc"}, // NFKC folds fullwidth letters
		{[]string{"net/http", "Server", "ServeHTTP"}, "net_http_server_servehttp"},
		{[]string{"!!!"}, ""},
	}
	for _, tt := range tests {
		if got := MakeID(tt.parts...); got != tt.want {
			t.Errorf("MakeID(%q) = %q, want %q", tt.parts, got, tt.want)
		}
	}
}

// FuzzMakeID holds the ASCII fast path to the general one.
func FuzzMakeID(f *testing.F) {
	f.Add("net/http", "Server", "ServeHTTP")
	f.Add("_a_", "..", "B--c")
	f.Add("", "x", "Straße")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		parts := []string{a, b, c}
		want := makeID(parts)
		if got := MakeID(parts...); got != want {
			t.Fatalf("MakeID(%q) = %q, general path gives %q", parts, got, want)
		}
	})
}

func sample() *Graph {
	c := 0
	return &Graph{
		Directed: true,
		Nodes: []Node{
			{ID: "b", Label: "b()", FileType: "code", SourceFile: "x.go", SourceLocation: "L3", Kind: "function",
				Span: &Span{3, 1, 5, 2}, Signature: &Signature{Params: []Param{{"n", "int"}}, ReturnType: "error", Raw: "func b(n int) error"}, Community: &c,
				Doc: "b returns an error."},
			{ID: "a", Label: "A \"quoted\"\n\x1b[31m", FileType: "code", SourceFile: "", IsTest: true,
				Extra: map[string]json.RawMessage{"zz": json.RawMessage(`{"y":1,"x":[true]}`), "_node_type": json.RawMessage(`"route"`)}},
		},
		Edges: []Edge{
			{Source: "b", Target: "a", Relation: "calls", Confidence: Inferred, ConfidenceScore: 0.8, SourceFile: "x.go", SourceLocation: "L10", Weight: 1},
			{Source: "b", Target: "a", Relation: "calls", Confidence: Inferred, ConfidenceScore: 0.8, SourceFile: "x.go", SourceLocation: "L4", Weight: 1},
			{Source: "a", Target: "b", Relation: "references", Confidence: Extracted, SourceFile: "x.go", Context: "parameter_type", Weight: 1},
		},
	}
}

func TestWriteReadRoundTrip(t *testing.T) {
	g := sample()
	g.Canonicalize()
	if len(g.Edges) != 2 {
		t.Fatalf("Canonicalize kept %d edges, want 2 (duplicate calls merged)", len(g.Edges))
	}
	if e := g.Edges[1]; e.SourceLocation != "L4" || len(e.Sites) != 1 || e.Sites[0].SourceLocation != "L10" {
		t.Errorf("merged edge = %+v, want primary L4 with site L10", e)
	}
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	g2, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, buf.String())
	}
	var buf2 bytes.Buffer
	if err := Write(&buf2, g2); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Errorf("round trip changed bytes:\n%s\n---\n%s", buf.String(), buf2.String())
	}
	var generic map[string]any
	if err := json.Unmarshal(buf.Bytes(), &generic); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	for _, k := range []string{"directed", "multigraph", "graph", "nodes", "links", "hyperedges"} {
		if _, ok := generic[k]; !ok {
			t.Errorf("missing top-level key %q", k)
		}
	}
	out := buf.String()
	for _, want := range []string{`"zz":{"x":[true],"y":1}`, `"_node_type":"route"`, `"confidence_score":0.8`, `"weight":1.0`, `"norm_label":"b()"`, `\u001b`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := map[string]string{
		"truncated":      `{"directed": true, "nodes": [{"id": "a", "label": "a", "file_type": "code", "source_file": "x"`,
		"not json":       `hello`,
		"no nodes":       `{"links": []}`,
		"dangling":       `{"nodes": [{"id":"a","label":"a","file_type":"code","source_file":""}], "links": [{"source":"a","target":"b","relation":"calls","confidence":"EXTRACTED","source_file":""}]}`,
		"bad confidence": `{"nodes": [{"id":"a","label":"a","file_type":"code","source_file":""}], "links": [{"source":"a","target":"a","relation":"calls","confidence":"SURE","source_file":""}]}`,
		"no source_file": `{"nodes": [{"id":"a","label":"a","file_type":"code"}]}`,
	}
	for name, in := range tests {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: Parse succeeded, want error", name)
		}
	}
	g, err := Parse([]byte(`{"nodes": [{"id":"a","label":"a","file_type":"code","source_file":""}], "edges": [{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","source_file":""}]}`))
	if err != nil || len(g.Edges) != 1 || g.Edges[0].Weight != 1 {
		t.Errorf(`"edges" alias: got %v, %v`, g, err)
	}
}

func FuzzParse(f *testing.F) {
	var buf bytes.Buffer
	g := sample()
	g.Canonicalize()
	_ = Write(&buf, g)
	f.Add(buf.Bytes())
	f.Add([]byte(`{"nodes":[]}`))
	for _, q := range quirks {
		f.Add([]byte(q))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDifferential(t, data) // same acceptance and Graph as encoding/json
		g, err := Parse(data)
		if err != nil {
			return
		}
		var a, b bytes.Buffer
		if err := Write(&a, g); err != nil {
			t.Fatal(err)
		}
		g2, err := Parse(a.Bytes())
		if err != nil {
			t.Fatalf("re-parse of written graph failed: %v\n%s", err, a.String())
		}
		_ = Write(&b, g2)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("write/parse/write not stable")
		}
	})
}

func TestIsTestPath(t *testing.T) {
	tests := map[string]bool{
		"net/http/server_test.go":     true,
		"pkg/tests/helpers.py":        true,
		"src/__tests__/a.js":          true,
		"lib/testing/x.go":            true,
		"a/test_auth.py":              true,
		"a/conftest.py":               true,
		"web/app.test.ts":             true,
		"web/app.spec.js":             true,
		"src/FooTest.java":            true,
		"src/FooTests.cs":             true,
		"spec/api.md":                 false,
		"src/Test.java":               false,
		"src/tokenizer.py":            false,
		"internal/testdata/x.go":      false,
		"src/contest.py":              false,
		"src/attestation/verify.go":   false,
		"docs/latest/notes_testy.txt": false,
	}
	for p, want := range tests {
		if got := IsTestPath(p); got != want {
			t.Errorf("IsTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestPermute: permute moves xs[order[k]] to position k, for every shape of
// cycle (fixed points, swaps, one long cycle, random).
func TestPermute(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 9))
	for n := 0; n < 40; n++ {
		orders := [][]int32{make([]int32, n), make([]int32, n), make([]int32, n)}
		for i := range n {
			orders[0][i] = int32(i)           // identity
			orders[1][i] = int32((i + 1) % n) // one cycle
		}
		for i, p := range rnd.Perm(n) {
			orders[2][i] = int32(p)
		}
		for _, order := range orders {
			xs := make([]string, n)
			for i := range xs {
				xs[i] = strconv.Itoa(i)
			}
			want := make([]string, n)
			for k, i := range order {
				want[k] = xs[i]
			}
			permute(xs, slices.Clone(order))
			if !slices.Equal(xs, want) {
				t.Fatalf("permute(%v) = %v, want %v", order, xs, want)
			}
		}
	}
}

func BenchmarkMakeID(b *testing.B) {
	for b.Loop() {
		MakeID("net/http/server", "Server", "ServeHTTP")
	}
}

// canonicalEdgeOrder is the edge order Canonicalize documents, written
// out plainly for the tests to check the fast one against: endpoints by
// rank (the nodes' ids first, in id order, then ids that are no node, in
// id order), then compareEdges.
func canonicalEdgeOrder(nodes []Node) func(a, b *Edge) int {
	isNode := map[string]bool{}
	for i := range nodes {
		isNode[nodes[i].ID] = true
	}
	byRank := func(a, b string) int {
		if isNode[a] != isNode[b] {
			if isNode[a] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	}
	return func(a, b *Edge) int {
		return cmp.Or(byRank(a.Source, b.Source), byRank(a.Target, b.Target), compareEdges(a, b))
	}
}

// TestCanonicalizeRandom: whatever the input order, duplicate node ids and
// endpoints that are not nodes, edges come out in the documented order —
// endpoints by rank (nodes in id order, then non-node ids in id order), then
// compareEdges — with every distinct call site kept.
func TestCanonicalizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	name := func(n int) string { return "n" + strconv.Itoa(rng.IntN(n)) }
	for iter := 0; iter < 300; iter++ {
		g := &Graph{}
		for range rng.IntN(30) {
			g.Nodes = append(g.Nodes, Node{ID: name(40)})
		}
		sites := map[string]bool{}
		for range rng.IntN(120) {
			e := Edge{Source: name(50), Target: name(50), Relation: []string{"calls", "imports", "references"}[rng.IntN(3)],
				SourceFile: "f" + strconv.Itoa(rng.IntN(3)), SourceLocation: "L" + strconv.Itoa(rng.IntN(12))}
			g.Edges = append(g.Edges, e)
			sites[e.Source+"|"+e.Target+"|"+e.Relation+"|"+e.SourceFile+"|"+e.SourceLocation] = true
		}
		g.Canonicalize()
		for i := 1; i < len(g.Nodes); i++ {
			if g.Nodes[i-1].ID >= g.Nodes[i].ID {
				t.Fatalf("iter %d: nodes out of order: %q before %q", iter, g.Nodes[i-1].ID, g.Nodes[i].ID)
			}
		}
		order := canonicalEdgeOrder(g.Nodes)
		kept := 0
		for i := range g.Edges {
			if i > 0 {
				a, b := &g.Edges[i-1], &g.Edges[i]
				if order(a, b) >= 0 {
					t.Fatalf("iter %d: edge %d %+v not after %+v", iter, i, *b, *a)
				}
			}
			kept += 1 + len(g.Edges[i].Sites)
		}
		if kept != len(sites) {
			t.Fatalf("iter %d: %d sites kept, want %d", iter, kept, len(sites))
		}
	}
}

func TestIsTestNode(t *testing.T) {
	for _, tc := range []struct {
		n    Node
		want bool
	}{
		{Node{SourceFile: "src/lib.rs", IsTest: true}, true},       // #[test] inline
		{Node{SourceFile: "web/main.test.ts", Kind: "file"}, true}, // Jest file level
		{Node{SourceFile: "pkg/a.go", Kind: "function"}, false},    // production code
		{Node{SourceFile: "", Label: "testing.T"}, false},          // external stub
		{Node{SourceFile: "spec/readme.md", Kind: "file"}, false},  // bare spec/ is not a test tree
		{Node{SourceFile: "tests/test_x.py", Kind: "class"}, true}, // test directory
	} {
		if got := IsTestNode(&tc.n); got != tc.want {
			t.Errorf("IsTestNode(%+v) = %v, want %v", tc.n, got, tc.want)
		}
	}
}

// TestSortTotal: the two-core sort gives slices.SortFunc's order, on
// lengths around the split threshold and with many repeated keys (a total
// order through the position tie-break, as Canonicalize's).
func TestSortTotal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, parallelSortMin - 1, parallelSortMin, parallelSortMin + 1, 3*parallelSortMin + 7} {
		keys := make([]int, n+1)
		for i := range keys {
			keys[i] = rng.IntN(50)
		}
		order := func(a, b int32) int { return cmp.Or(cmp.Compare(keys[a], keys[b]), cmp.Compare(a, b)) }
		got := make([]int32, n)
		for i := range got {
			got[i] = int32(rng.IntN(n + 1)) // duplicates too: equal elements are interchangeable
		}
		want := slices.Clone(got)
		slices.SortFunc(want, order)
		sortTotal(got, order)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: order differs from slices.SortFunc", n)
		}
	}
}

// TestSortEdgeKeys: the radix sort with its tie runs gives the order
// slices.SortFunc gives with the combined comparison, below and above the
// length where it takes over, for rank widths from one bit to past two
// digits, with many equal ends (the runs sorted by tie).
func TestSortEdgeKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, parallelSortMin - 1, parallelSortMin, 3*parallelSortMin + 7} {
		for _, bits := range []int{0, 1, 7, radixBits, radixBits + 1, 20, 31} {
			tag := make([]int, n) // the tie order's first key: what the records compare
			keys := make([]edgeKey, n)
			for i := range keys {
				src, dst := rng.Uint64N(1<<bits), rng.Uint64N(1<<bits)
				if bits > 3 && rng.IntN(2) == 0 {
					src, dst = src&7, dst&3 // crowd a few ends: long tie runs
				}
				keys[i] = edgeKey{ends: src<<32 | dst, index: int32(i)}
				tag[i] = rng.IntN(5)
			}
			tie := func(a, b edgeKey) int {
				return cmp.Or(cmp.Compare(tag[a.index], tag[b.index]), cmp.Compare(a.index, b.index))
			}
			want := slices.Clone(keys)
			slices.SortFunc(want, func(a, b edgeKey) int { return cmp.Or(cmp.Compare(a.ends, b.ends), tie(a, b)) })
			sortEdgeKeys(keys, bits, tie)
			if !slices.Equal(keys, want) {
				t.Fatalf("n=%d bits=%d: order differs from slices.SortFunc", n, bits)
			}
		}
	}
}

// TestCanonicalizeLarge: a graph past the radix sort's and the two-core
// lookups' thresholds, with dangling endpoints in both halves and most
// node ids repeated, comes out as Canonicalize's order defines it (TestCanonicalizeRandom's checks
// cover small graphs, which take the comparison sort).
func TestCanonicalizeLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	name := func() string { return "n" + strconv.Itoa(rng.IntN(3000)) }
	g := &Graph{}
	for i := range 2 * parallelSortMin {
		g.Nodes = append(g.Nodes, Node{ID: name(), Label: strconv.Itoa(i)}) // most ids twice or more
	}
	first := map[string]string{} // id -> label of its first node, the one kept
	for _, n := range g.Nodes {
		if _, ok := first[n.ID]; !ok {
			first[n.ID] = n.Label
		}
	}
	for range 4 * parallelSortMin {
		end := func() string { return "n" + strconv.Itoa(rng.IntN(3300)) } // n3000.. are no node
		g.Edges = append(g.Edges, Edge{Source: end(), Target: end(), Relation: []string{"calls", "references"}[rng.IntN(2)],
			SourceFile: "f" + strconv.Itoa(rng.IntN(3)), SourceLocation: "L" + strconv.Itoa(rng.IntN(40))})
	}
	want := slices.Clone(g.Edges)
	order := canonicalEdgeOrder(g.Nodes)
	slices.SortStableFunc(want, func(a, b Edge) int { return order(&a, &b) })
	g.Canonicalize()
	w := 0
	for i := range want {
		if w > 0 && want[w-1].Key() == want[i].Key() {
			continue
		}
		want[w] = want[i]
		w++
	}
	if len(g.Edges) != w {
		t.Fatalf("%d edges kept, want %d", len(g.Edges), w)
	}
	if len(g.Nodes) != len(first) {
		t.Fatalf("%d nodes kept, want %d", len(g.Nodes), len(first))
	}
	for i := range g.Nodes {
		if n := &g.Nodes[i]; i > 0 && g.Nodes[i-1].ID >= n.ID || n.Label != first[n.ID] {
			t.Fatalf("node %d = %+v, want ids ascending, each its first node (label %s)", i, *n, first[n.ID])
		}
	}
	for i := range g.Edges {
		a, b := &g.Edges[i], &want[i]
		if a.Key() != b.Key() || a.SourceFile != b.SourceFile || a.SourceLocation != b.SourceLocation {
			t.Fatalf("edge %d = %+v, want %+v", i, *a, *b)
		}
	}
}
