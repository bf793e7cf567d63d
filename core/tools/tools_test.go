package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

func TestCatalogListing(t *testing.T) {
	c := New(Options{})
	want := []string{"query_graph", "get_node", "get_source", "get_neighbors", "get_community", "god_nodes",
		"graph_stats", "list_repos", "repo_stats", "shortest_path", "affected", "find_callers", "find_callees",
		"find_references", "describe_node", "structural_search", "search_text", "dynamic_hazards", "readiness_audit", "audit_sql", "advise_sql",
		"working_changes_impact", "predict_impact", "affected_tests", "predict_edit", "plan_rename", "time_travel_diff", "list_prs", "get_pr_impact", "triage_prs"}
	// openWorldHint is true exactly for the tools that shell out (the spec's list).
	shellsOut := map[string]bool{"working_changes_impact": true, "predict_impact": true, "affected_tests": true,
		"time_travel_diff": true, "list_prs": true, "get_pr_impact": true, "triage_prs": true}
	var got []string
	for _, tl := range c.Tools() {
		got = append(got, tl.Name)
		if want := (Annotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: shellsOut[tl.Name]}); tl.Annotations != want {
			t.Errorf("%s annotations = %+v, want %+v", tl.Name, tl.Annotations, want)
		}
		var schema map[string]any
		if err := json.Unmarshal(tl.InputSchema, &schema); err != nil || schema["type"] != "object" || schema["additionalProperties"] != false {
			t.Errorf("%s input schema %s (%v)", tl.Name, tl.InputSchema, err)
		}
		if tl.OutputSchema != nil && !json.Valid(tl.OutputSchema) {
			t.Errorf("%s output schema invalid", tl.Name)
		}
		if tl.Description == "" || tl.Run == nil {
			t.Errorf("%s lacks description or handler", tl.Name)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("tools = %v\nwant %v", got, want)
	}
	// speculate exists only with AllowExec, annotated as not read-only.
	if _, ok := c.Tool("speculate"); ok {
		t.Fatal("speculate advertised without AllowExec")
	}
	if _, err := c.Call(context.Background(), "speculate", nil); !errors.Is(err, ErrUnknownTool) {
		t.Fatalf("speculate callable without AllowExec: %v", err)
	}
	withExec := New(Options{AllowExec: true})
	if sp, ok := withExec.Tool("speculate"); !ok || sp.Annotations != (Annotations{OpenWorldHint: true}) || len(withExec.Tools()) != len(want)+1 {
		t.Fatalf("speculate with AllowExec: %+v %v", sp.Annotations, ok)
	}
	withOut := map[string]bool{}
	for _, tl := range c.Tools() {
		withOut[tl.Name] = tl.OutputSchema != nil
	}
	for _, n := range []string{"graph_stats", "get_node", "god_nodes", "affected", "query_graph", "describe_node", "get_neighbors", "list_repos",
		"predict_impact", "affected_tests"} {
		if !withOut[n] {
			t.Errorf("%s has no outputSchema", n)
		}
	}
	if withOut["get_source"] || withOut["find_callers"] {
		t.Error("text-only tool declares an outputSchema")
	}
}

func TestNoGraph(t *testing.T) {
	c := New(Options{})
	r := call(t, c, "graph_stats", `{}`)
	if !r.IsError || !strings.Contains(r.Text, "No graph loaded") {
		t.Fatalf("got %+v", r)
	}
	if _, _, err := c.ReadResource(context.Background(), "synaptic://stats"); err == nil {
		t.Fatal("resource read without a graph succeeded")
	}
	if v, n, more := c.Complete(context.Background(), Ref{}, "label", "x"); len(v) != 0 || n != 0 || more {
		t.Fatal("completion without a graph")
	}
}

func TestValidateArgs(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	bad := []struct{ tool, args, want string }{
		{"get_node", `{}`, `missing required argument "label"`},
		{"get_node", `{"label":3}`, `"label" must be of type string`},
		{"get_node", `{"label":"x","extra":1}`, `unknown argument "extra"`},
		{"get_neighbors", `{"label":"x","limit":"5"}`, `"limit" must be of type integer`},
		{"get_neighbors", `{"label":"x","limit":0}`, `"limit" must be >= 1`},
		{"get_neighbors", `{"label":"x","limit":2.5}`, `must be of type integer`},
		{"get_neighbors", `{"label":"x","verbose":"yes"}`, `must be of type boolean`},
		{"get_community", `{"community_id":-1}`, `must be >= 0`},
		{"query_graph", `{"question":"q","mode":"sideways"}`, `must be one of`},
		{"affected", `{"label":"x","relations":"calls"}`, `must be of type array`},
		{"affected", `{"label":"x","relations":[1]}`, `"relations[0]" must be of type string`},
		{"graph_stats", `[]`, `arguments must be of type object`},
		{"graph_stats", `{"a":1}`, `unknown argument "a"`},
		{"graph_stats", `{} {}`, `trailing data`},
		{"graph_stats", `{`, `not valid JSON`},
	}
	for _, tc := range bad {
		_, err := c.Call(context.Background(), tc.tool, json.RawMessage(tc.args))
		var ae *ArgsError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: err = %v, want ArgsError containing %q", tc.tool, tc.args, err, tc.want)
		}
	}
	good := []struct{ tool, args string }{
		{"graph_stats", ``}, {"graph_stats", `null`}, {"graph_stats", `{}`},
		{"affected", `{"label":"NewServer","depth":99}`}, // clamped, not rejected
		{"get_source", `{"label":"NewServer","context_lines":0}`},
		{"god_nodes", `{"top_n":100000}`},
	}
	for _, tc := range good {
		if _, err := c.Call(context.Background(), tc.tool, json.RawMessage(tc.args)); err != nil {
			t.Errorf("%s %s: %v", tc.tool, tc.args, err)
		}
	}
	if _, err := c.Call(context.Background(), "speculate", nil); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("unknown tool err = %v", err)
	}
}

func TestSanitizeHostileLabel(t *testing.T) {
	if got := sanitize(hostileLabel); strings.ContainsAny(got, "\x1b\n\x00\x7f\u202e") {
		t.Errorf("hostile label survived: %q", got)
	}
}

// TestHostileOutput checks that no tool lets a control character or escape
// from a label or relation reach its text or structured output.
func TestHostileOutput(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	calls := [][2]string{
		{"get_node", `{"label":"other_b_evil"}`},
		{"get_neighbors", `{"label":"NewServer","show_sites":true}`},
		{"find_callers", `{"label":"NewServer"}`},
		{"find_references", `{"label":"NewServer"}`},
		{"affected", `{"label":"NewServer","relations":["calls\u001b[2J"]}`},
		{"shortest_path", `{"source":"other_b_evil","target":"fmt"}`},
		{"query_graph", `{"question":"evil forged","full":true}`},
		{"describe_node", `{"label":".Serve()@other"}`},
		{"get_community", `{"community_id":1}`},
		{"god_nodes", `{"top_n":20}`},
		{"get_node", `{"label":"\u001b[31mnope\nx"}`},
	}
	for _, cl := range calls {
		r := call(t, c, cl[0], cl[1])
		js, _ := json.Marshal(r.Structured)
		for _, out := range []string{r.Text, string(js)} {
			if strings.ContainsAny(out, "\x1b\x00\x7f\u202e") || strings.Contains(out, `\u001b`) || strings.Contains(out, `\u0000`) {
				t.Errorf("%s %s leaked a control sequence: %q", cl[0], cl[1], out)
			}
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(line, "NODE [9.99] forged") {
					t.Errorf("%s: forged line %q", cl[0], line)
				}
			}
		}
	}
}

func TestJail(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{filepath.Join(root, "pkg"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "pkg", "in.go"), "inside\n")
	write(filepath.Join(outside, "secret.txt"), "secret\n")
	must := func(err error) {
		if err != nil {
			t.Skip("symlinks unsupported:", err)
		}
	}
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "pkg", "out_link.txt")))
	must(os.Symlink(outside, filepath.Join(root, "outdir")))
	must(os.Symlink(filepath.Join(root, "pkg", "in.go"), filepath.Join(root, "in_link.go")))
	linkRoot := filepath.Join(dir, "rootlink")
	must(os.Symlink(root, linkRoot))

	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "leak", Label: "Leak", SourceFile: "pkg/out_link.txt", SourceLocation: "L1"},
		{ID: "dotdot", Label: "DotDot", SourceFile: "../outside/secret.txt", SourceLocation: "L1"},
		{ID: "ok", Label: "Ok", SourceFile: "pkg/in.go", SourceLocation: "L1"},
	}}
	for _, r := range []string{root, linkRoot} {
		c := New(Options{SourceRoot: r})
		c.SetGraph(g)
		tests := []struct {
			args string
			ok   bool
			want string
		}{
			{`{"file":"pkg/in.go"}`, true, "inside"},
			{`{"file":"in_link.go"}`, true, "inside"}, // symlink staying inside
			{`{"file":"./pkg/../pkg/in.go"}`, false, "refused"},
			{`{"file":"../outside/secret.txt"}`, false, "refused"},
			{`{"file":"pkg/..\\..\\outside/secret.txt"}`, false, "refused"},
			{fmt.Sprintf(`{"file":%q}`, filepath.Join(outside, "secret.txt")), false, "refused"},
			{fmt.Sprintf(`{"file":%q}`, filepath.Join(root, "pkg", "in.go")), true, "inside"}, // absolute inside
			{fmt.Sprintf(`{"file":%q}`, filepath.Join(dir, "nonexistent", "x")), false, "refused"},
			{`{"file":"pkg/out_link.txt"}`, false, "refused"},
			{`{"file":"outdir/secret.txt"}`, false, "refused"},
			{`{"file":"/etc/passwd"}`, false, "refused"},
			{`{"label":"Leak"}`, false, "refused"},
			{`{"label":"DotDot"}`, false, "refused"},
			{`{"label":"Ok"}`, true, "inside"},
			{`{"file":"pkg/missing.go"}`, false, "not found under"},
		}
		for _, tc := range tests {
			res := call(t, c, "get_source", tc.args)
			if res.IsError == tc.ok || !strings.Contains(res.Text, tc.want) || strings.Contains(res.Text, "secret\n") {
				t.Errorf("root %s, get_source %s = %+v", r, tc.args, res)
			}
		}
	}
	c := New(Options{})
	c.SetGraph(g)
	if r := call(t, c, "get_source", `{"label":"Ok"}`); !r.IsError || !strings.Contains(r.Text, "no source root configured") {
		t.Errorf("no root: %+v", r)
	}
	// show_sites must not read through an escaping link either.
	g2 := &graph.Graph{Nodes: []graph.Node{{ID: "a", Label: "A"}, {ID: "b", Label: "B"}}, Edges: []graph.Edge{
		{Source: "a", Target: "b", Relation: "calls", SourceFile: "pkg/out_link.txt", SourceLocation: "L1"},
	}}
	c = New(Options{SourceRoot: root})
	c.SetGraph(g2)
	if r := call(t, c, "find_callers", `{"label":"B","show_sites":true}`); strings.Contains(r.Text, "secret") && !strings.Contains(r.Text, "refused") {
		t.Errorf("show_sites leaked: %s", r.Text)
	}
}

var listLine = regexp.MustCompile(`(?m)^  .*\bc\d\d\(\)`)

func TestConciseDefaults(t *testing.T) {
	// A hub with 60 callers exercises the list caps.
	g := &graph.Graph{Nodes: []graph.Node{{ID: "hub", Label: "Hub()", SourceFile: "h.go", Kind: "function"}}}
	for i := range 60 {
		id := fmt.Sprintf("c%02d", i)
		g.Nodes = append(g.Nodes, graph.Node{ID: id, Label: id + "()", SourceFile: "c.go", Kind: "function", Community: ptr(0)})
		g.Edges = append(g.Edges, graph.Edge{Source: id, Target: "hub", Relation: "calls", Confidence: graph.Extracted})
	}
	shown := func(c *Catalog, tool, args string) int {
		r := call(t, c, tool, args)
		return len(listLine.FindAllString(r.Text, -1))
	}
	normal, concise := New(Options{}), New(Options{Concise: true})
	normal.SetGraph(g)
	concise.SetGraph(g)
	cases := []struct {
		tool, args   string
		normal, conc int
	}{
		{"get_neighbors", `{"label":"Hub"}`, 50, 20},
		{"find_callers", `{"label":"Hub"}`, 50, 20},
		{"affected", `{"label":"Hub"}`, 50, 20},
		{"get_neighbors", `{"label":"Hub","limit":30}`, 30, 30}, // explicit wins
		{"get_neighbors", `{"label":"Hub","verbose":true}`, 60, 60},
		{"get_community", `{"community_id":0}`, 60, 40},
	}
	for _, tc := range cases {
		if n := shown(normal, tc.tool, tc.args); n != tc.normal {
			t.Errorf("normal %s %s listed %d, want %d", tc.tool, tc.args, n, tc.normal)
		}
		if n := shown(concise, tc.tool, tc.args); n != tc.conc {
			t.Errorf("concise %s %s listed %d, want %d", tc.tool, tc.args, n, tc.conc)
		}
	}
	gods := func(c *Catalog, args string) int {
		return len(structured(t, call(t, c, "god_nodes", args))["god_nodes"].([]any))
	}
	if gods(normal, `{}`) != 10 || gods(concise, `{}`) != 6 || gods(concise, `{"top_n":8}`) != 8 {
		t.Error("god_nodes top_n defaults")
	}
	if gods(normal, `{"top_n":500}`) != 61 {
		t.Error("god_nodes page")
	}
	// Schema defaults advertise the effective values.
	for _, tc := range []struct {
		c          *Catalog
		tool, prop string
		want       float64
	}{
		{normal, "query_graph", "token_budget", 1200}, {concise, "query_graph", "token_budget", 800},
		{normal, "get_source", "context_lines", 40}, {concise, "get_source", "context_lines", 25},
		{concise, "get_community", "limit", 40}, {concise, "god_nodes", "top_n", 6}, {concise, "find_callers", "limit", 20},
	} {
		tl, _ := tc.c.Tool(tc.tool)
		var s struct {
			Properties map[string]map[string]any `json:"properties"`
		}
		if err := json.Unmarshal(tl.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		if got := s.Properties[tc.prop]["default"]; got != tc.want {
			t.Errorf("%s.%s default = %v, want %v", tc.tool, tc.prop, got, tc.want)
		}
	}
	// get_source: 25 lines in concise mode.
	dir := t.TempDir()
	var src strings.Builder
	for i := range 100 {
		fmt.Fprintf(&src, "line %d\n", i+1)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		concise bool
		args    string
		want    string
	}{
		{false, `{"file":"f.txt"}`, "f.txt:L1-L40 (of 100 lines)"},
		{true, `{"file":"f.txt"}`, "f.txt:L1-L25 (of 100 lines)"},
		{true, `{"file":"f.txt","context_lines":3}`, "f.txt:L1-L3 (of 100 lines)"},
		{false, `{"file":"f.txt","context_lines":9999}`, "f.txt:L1-L100 (the file ends at L100)"},
		{false, `{"file":"f.txt","lines":"90"}`, "f.txt:L90-L100 (the file ends at L100)"},
		{false, `{"file":"f.txt","lines":"10-12"}`, "f.txt:L10-L12 (of 100 lines)"},
		{false, `{"file":"f.txt","lines":"61-100"}`, "f.txt:L61-L100"},
	} {
		c := New(Options{SourceRoot: dir, Concise: tc.concise})
		c.SetGraph(g)
		if r := call(t, c, "get_source", tc.args); !strings.HasPrefix(r.Text, tc.want+"\n") {
			t.Errorf("concise=%v %s: %q", tc.concise, tc.args, r.Text[:min(len(r.Text), 40)])
		}
	}
	c := New(Options{SourceRoot: dir})
	c.SetGraph(g)
	for _, bad := range []string{`"x"`, `"5-2"`, `"0"`, `"1-a"`} {
		if r := call(t, c, "get_source", `{"file":"f.txt","lines":`+bad+`}`); !r.IsError {
			t.Errorf("lines %s accepted", bad)
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := newFixtureCatalog(t, Options{}), newFixtureCatalog(t, Options{})
	for _, tc := range goldenCases {
		ra, rb := renderResult(t, call(t, a, tc.tool, tc.args)), renderResult(t, call(t, b, tc.tool, tc.args))
		if ra != rb {
			t.Errorf("%s differs between two catalogs", tc.name)
		}
		if rc := renderResult(t, call(t, a, tc.tool, tc.args)); rc != ra {
			t.Errorf("%s differs between two calls", tc.name)
		}
	}
}

// TestHotSwap runs tools while the graph is swapped (run with -race).
func TestHotSwap(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	stop := make(chan struct{})
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			g := fixture()
			if i%2 == 1 {
				g.Nodes = g.Nodes[:3]
				g.Edges = nil
			}
			c.SetGraph(g)
		}
	}()
	var readers sync.WaitGroup
	for w := range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := range 50 {
				tc := goldenCases[(i+w)%len(goldenCases)]
				if _, err := c.Call(context.Background(), tc.tool, json.RawMessage(tc.args)); err != nil {
					t.Error(err)
				}
				c.Complete(context.Background(), Ref{}, "label", "ser")
				c.ReadResource(context.Background(), "synaptic://stats")
			}
		}()
	}
	readers.Wait()
	close(stop)
	<-writerDone
}
