package resolve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestDynamicSites(t *testing.T) {
	files := []File{
		{Path: "app/runner.py", Language: "python", Family: "python", Facts: &abi.Facts{
			Symbols: []abi.Symbol{
				{Name: "Runner", Kind: "class", Parent: -1, Span: sp(1)},
				{Name: "run", Kind: "method", Parent: 0, Span: sp(2)},
				{Name: "start", Kind: "method", Parent: 0, Span: sp(6)},
			},
			Dynamic: []abi.DynamicSite{
				{From: 1, Kind: abi.DynamicReflection, Key: "start", Line: 3},            // member of the enclosing class
				{From: 1, Kind: abi.DynamicReflection, Line: 4},                          // opaque
				{From: 1, Kind: abi.DynamicImport, Key: "app.handlers", Line: 5},         // a module file
				{From: -1, Kind: abi.DynamicReflection, Key: "dup", Line: 9},             // two candidates: no link
				{From: -1, Kind: abi.DynamicReflection, Key: "unique_handler", Line: 10}, // unique in the family
				{From: -1, Kind: abi.DynamicEval, Line: 11},
			},
		}},
		{Path: "app/handlers.py", Language: "python", Family: "python", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "unique_handler", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "dup", Kind: "function", Parent: -1, Span: sp(3)}},
		}},
		{Path: "lib/x.py", Language: "python", Family: "python", Facts: &abi.Facts{
			Symbols: []abi.Symbol{{Name: "dup", Kind: "function", Parent: -1, Span: sp(1)}},
		}},
		{Path: "srv/x.go", Language: "go", Family: "go", Facts: &abi.Facts{
			Package: "srv",
			Symbols: []abi.Symbol{{Name: "start", Kind: "function", Parent: -1, Span: sp(1)}}, // another family: not a candidate
		}},
	}
	g, _ := Build(files)
	var links []string
	for _, e := range g.Edges {
		if e.Relation == "dynamic_ref" {
			if e.Confidence != graph.Inferred || e.Score() != DynamicRefScore || e.Context != "dynamic" {
				t.Errorf("edge %+v", e)
			}
			links = append(links, e.Source+" -> "+e.Target+" "+e.SourceLocation)
		}
	}
	want := "app_runner_py -> app_handlers_unique_handler L10|app_runner_runner_run -> app_handlers_py L5|app_runner_runner_run -> app_runner_runner_start L3"
	if got := strings.Join(links, "|"); got != want {
		t.Fatalf("dynamic_ref edges:\n got %s\nwant %s", got, want)
	}
	nodes := map[string]*graph.Node{}
	for i := range g.Nodes {
		nodes[g.Nodes[i].ID] = &g.Nodes[i]
	}
	run := nodes["app_runner_runner_run"]
	if got := string(run.Extra["dynamic_sites"]); got != `[{"kind":"reflection","line":3,"key":"start"},{"kind":"reflection","line":4},{"kind":"dynamic_import","line":5,"key":"app.handlers"}]` {
		t.Errorf("run sites %s", got)
	}
	var fileSites []dynamicSite
	json.Unmarshal(nodes["app_runner_py"].Extra["dynamic_sites"], &fileSites)
	if len(fileSites) != 3 {
		t.Errorf("file-level sites %s", nodes["app_runner_py"].Extra["dynamic_sites"])
	}
	if string(nodes["app_runner_runner_start"].Extra["dynamically_referenced"]) != "true" || nodes["srv_x_start"].Extra != nil {
		t.Errorf("dynamically_referenced marks wrong")
	}
}
