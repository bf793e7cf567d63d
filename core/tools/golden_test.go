package tools

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden files")

// goldenCases are the text + structured outputs pinned under
// testdata/golden/<name>.txt. Regenerate with: go test ./core/tools -update
var goldenCases = []struct {
	name, tool, args string
	concise          bool
}{
	{"graph_stats", "graph_stats", `{}`, false},
	{"get_node", "get_node", `{"label":"NewServer"}`, false},
	{"get_node_ambiguous", "get_node", `{"label":"Serve"}`, false},
	{"get_node_missing", "get_node", `{"label":"nothing_here"}`, false},
	{"get_node_external", "get_node", `{"label":"fmt"}`, false},
	{"get_node_hostile", "get_node", `{"label":"other_b_evil"}`, false},
	{"get_neighbors", "get_neighbors", `{"label":".Serve()@pkg/"}`, false},
	{"get_neighbors_filter_none", "get_neighbors", `{"label":"Server","relation_filter":"inherit"}`, false},
	{"get_neighbors_limit", "get_neighbors", `{"label":"Server@pkg","limit":1}`, false},
	{"get_neighbors_sites", "get_neighbors", `{"label":"NewServer","show_sites":true}`, false},
	{"get_neighbors_isolated", "get_neighbors", `{"label":"Lonely"}`, false},
	{"get_community", "get_community", `{"community_id":0}`, false},
	{"get_community_page", "get_community", `{"community_id":0,"offset":2,"limit":2}`, false},
	{"get_community_missing", "get_community", `{"community_id":9}`, false},
	{"god_nodes", "god_nodes", `{"top_n":3}`, false},
	{"god_nodes_offset", "god_nodes", `{"top_n":2,"offset":2}`, false},
	{"get_source_label", "get_source", `{"label":"NewServer"}`, false},
	{"get_source_class_ctx", "get_source", `{"label":"Server","context_lines":2}`, false},
	{"get_source_file_range", "get_source", `{"file":"pkg/client.go","lines":"3-5"}`, false},
	{"get_source_file_line", "get_source", `{"file":"pkg/server.go","lines":"58","context_lines":10}`, false},
	{"get_source_escape", "get_source", `{"file":"../../catalog.go"}`, false},
	{"get_source_missing", "get_source", `{"file":"pkg/nope.go"}`, false},
	{"shortest_path", "shortest_path", `{"source":"TestServe","target":"fmt"}`, false},
	{"shortest_path_backward", "shortest_path", `{"source":"main","target":"Server"}`, false},
	{"shortest_path_too_far", "shortest_path", `{"source":"TestServe","target":"fmt","max_hops":1}`, false},
	{"shortest_path_disconnected", "shortest_path", `{"source":"Lonely","target":"fmt"}`, false},
	{"shortest_path_same", "shortest_path", `{"source":"NewServer","target":"NewServer()"}`, false},
	{"affected", "affected", `{"label":"NewServer"}`, false},
	{"affected_class", "affected", `{"label":"Server"}`, false},
	{"affected_depth1", "affected", `{"label":"fmt","depth":1}`, false},
	{"affected_relations", "affected", `{"label":"Server","relations":["references"]}`, false},
	{"affected_ambiguous", "affected", `{"label":"Serve"}`, false},
	{"affected_missing", "affected", `{"label":"zzz_nothing"}`, false},
	{"find_callers", "find_callers", `{"label":".Serve()@pkg"}`, false},
	{"find_callers_class", "find_callers", `{"label":"Server"}`, false},
	{"find_callers_sites", "find_callers", `{"label":"NewServer","show_sites":true}`, false},
	{"find_callers_none", "find_callers", `{"label":"main"}`, false},
	{"find_callees", "find_callees", `{"label":"main"}`, false},
	{"find_callees_class", "find_callees", `{"label":"Server"}`, false},
	{"find_references", "find_references", `{"label":"Server"}`, false},
	{"find_references_limit", "find_references", `{"label":"NewServer","limit":1}`, false},
	{"describe_node", "describe_node", `{"label":".Serve()@pkg"}`, false},
	{"describe_node_class", "describe_node", `{"label":"Server"}`, false},
	{"describe_node_test", "describe_node", `{"label":"TestServe"}`, false},
	{"list_repos", "list_repos", `{}`, false},
	{"repo_stats_missing", "repo_stats", `{"repo":"nope"}`, false},
	{"query_graph", "query_graph", `{"question":"how does the server serve requests"}`, false},
	{"query_graph_full", "query_graph", `{"question":"NewServer","full":true}`, false},
	{"query_graph_filter", "query_graph", `{"question":"serve","context_filter":["other/"]}`, false},
	{"query_graph_none", "query_graph", `{"question":"kubernetes"}`, false},
	{"concise_get_community", "get_community", `{"community_id":0}`, true},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			c := newFixtureCatalog(t, Options{Concise: tc.concise})
			got := renderResult(t, call(t, c, tc.tool, tc.args))
			path := filepath.Join("testdata", "golden", tc.name+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s %s mismatch\n--- got ---\n%s\n--- want ---\n%s", tc.tool, tc.args, got, want)
			}
		})
	}
}

// renderResult is the golden form of a result.
func renderResult(t testing.TB, r Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "-- isError: %v --\n%s\n", r.IsError, r.Text)
	if r.Structured != nil {
		js, err := json.MarshalIndent(r.Structured, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "-- structured --\n%s\n", js)
	}
	return b.String()
}
