package tools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// dynamicFixture is the fixture with recorded sites: an opaque lookup in
// pkg/lonely.go (whose Lonely has no static dependents), a literal-keyed
// one in other/b.go linked to .Close() by dynamic_ref, and an eval.
func dynamicFixture() *graph.Graph {
	g := fixture()
	set := func(id, key, val string) {
		for i := range g.Nodes {
			if g.Nodes[i].ID == id {
				if g.Nodes[i].Extra == nil {
					g.Nodes[i].Extra = map[string]json.RawMessage{}
				}
				g.Nodes[i].Extra[key] = json.RawMessage(val)
			}
		}
	}
	set("isolated", "dynamic_sites", `[{"kind":"reflection","line":3}]`)
	set("other_b_evil", "dynamic_sites", `[{"kind":"reflection","line":10,"key":"Close"},{"kind":"eval","line":11}]`)
	set("pkg_server_server_close", "dynamically_referenced", "true")
	g.Edges = append(g.Edges, graph.Edge{Source: "other_b_evil", Target: "pkg_server_server_close", Relation: "dynamic_ref",
		Confidence: graph.Inferred, ConfidenceScore: 0.5, Context: "dynamic", SourceFile: "other/b.go", SourceLocation: "L10"})
	return g
}

func TestDynamicHazards(t *testing.T) {
	c := New(Options{SourceRoot: "testdata/src"})
	c.SetGraph(dynamicFixture())
	tests := []struct {
		args  string
		want  []string
		total int
	}{
		{`{}`, []string{"3 dynamic-dispatch site(s):", "other/b.go:10 reflection \"Close\" in", "other/b.go:11 eval (opaque)", "pkg/lonely.go:3 reflection (opaque) in Lonely"}, 3},
		{`{"kind":"eval"}`, []string{"1 dynamic-dispatch site(s):", "other/b.go:11 eval"}, 1},
		{`{"path_glob":"pkg/**"}`, []string{"pkg/lonely.go:3"}, 1},
		{`{"target":".Close()"}`, []string{"other/b.go:10 reflection \"Close\""}, 1},
		{`{"target":"Lonely"}`, []string{"pkg/lonely.go:3 reflection (opaque)"}, 1},
		{`{"max_results":1}`, []string{"3 dynamic-dispatch site(s), showing 1"}, 3},
		{`{"kind":"dynamic_import"}`, []string{"No site matches the filters (3 recorded in the graph)."}, 0},
	}
	for _, tt := range tests {
		r := call(t, c, "dynamic_hazards", tt.args)
		if r.IsError {
			t.Fatalf("%s: %s", tt.args, r.Text)
		}
		rest := r.Text
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Fatalf("%s: lacks %q (in order):\n%s", tt.args, w, r.Text)
			}
			rest = rest[i+len(w):]
		}
		if st := structured(t, r); int(st["total"].(float64)) != tt.total {
			t.Errorf("%s: total %v", tt.args, st["total"])
		}
	}
	st := structured(t, call(t, c, "dynamic_hazards", `{"kind":"reflection","path_glob":"**/b.go"}`))
	site := st["sites"].([]any)[0].(map[string]any)
	if site["file"] != "other/b.go" || site["line"] != 10.0 || site["key"] != "Close" || site["kind"] != "reflection" || strings.Contains(site["host"].(string), "\x1b") {
		t.Fatalf("site %v", site)
	}
	// No sites at all: say so, and say what is scanned.
	if r := call(t, newFixtureCatalog(t, Options{}), "dynamic_hazards", `{}`); !strings.Contains(r.Text, "No dynamic-dispatch sites recorded") || !strings.Contains(r.Text, "Not a proof of absence") {
		t.Fatalf("empty graph: %s", r.Text)
	}
	if r := call(t, c, "dynamic_hazards", `{"target":"NoSuch"}`); !r.IsError {
		t.Fatalf("unknown target: %+v", r)
	}
	if _, err := c.Call(t.Context(), "dynamic_hazards", []byte(`{"kind":"magic"}`)); err == nil {
		t.Fatal("unknown kind accepted")
	}
}

func TestDynamicCaveat(t *testing.T) {
	c := New(Options{SourceRoot: "testdata/src"})
	c.SetGraph(dynamicFixture())
	for _, tool := range []string{"get_node", "affected", "describe_node"} {
		r := call(t, c, tool, `{"label":"Lonely"}`)
		cv, ok := structured(t, r)["dynamic_caveat"].(map[string]any)
		if !ok || cv["opaque_sites_in_scope"] != 1.0 || cv["dynamically_referenced"] != false || !strings.Contains(strings.ToLower(r.Text), "dynamic caveat") {
			t.Errorf("%s Lonely: caveat %v\n%s", tool, cv, r.Text)
		}
		// .Close() is reached only through dynamic_ref: still caveated.
		r = call(t, c, tool, `{"label":".Close()"}`)
		if cv, ok := structured(t, r)["dynamic_caveat"].(map[string]any); !ok || cv["dynamically_referenced"] != true {
			t.Errorf("%s .Close(): caveat %v", tool, cv)
		}
		// NewServer has static callers: no caveat.
		if _, ok := structured(t, call(t, c, tool, `{"label":"NewServer"}`))["dynamic_caveat"]; ok {
			t.Errorf("%s NewServer: caveat with static dependents", tool)
		}
	}
	st := structured(t, call(t, c, "graph_stats", `{}`))
	if st["dynamic_sites"] != 3.0 || st["dynamic_sites_opaque"] != 2.0 || st["dynamic_refs_linked"] != 1.0 {
		t.Fatalf("stats %v", st)
	}
}
