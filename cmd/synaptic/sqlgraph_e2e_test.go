package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// sqlRelations are the relations the SQL side of the graph adds.
var sqlRelations = map[string]bool{"queries": true, "writes_to": true, "calls_proc": true, "has_column": true, "has_index": true,
	"indexes": true, "references": true, "protected_by": true, "grants": true, "reads_from": true, "triggers": true}

// TestCLISQLGraphGolden: `synaptic extract` over a Postgres schema, a
// MySQL schema and SQL in Go, Python, TypeScript and Java code writes the
// schema edges and the code->SQL edges with their statement text; the
// golden lists every SQL edge of graph.json.
func TestCLISQLGraphGolden(t *testing.T) {
	needBin(t)
	golden := filepath.Join("testdata", "sqlgraph", "repo.txtar")
	ar, err := txtar.ParseFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files := map[string]string{}
	var want string
	for _, f := range ar.Files {
		if f.Name == "edges" {
			want = string(f.Data)
			continue
		}
		files[f.Name] = string(f.Data)
	}
	write(t, root, files)
	run(t, root, false, "extract", "--quiet", ".")
	got := sqlEdges(t, filepath.Join(root, "synaptic-out", "graph.json"))
	if os.Getenv("SYNAPTIC_UPDATE_GOLDEN") != "" {
		ar.Files[len(ar.Files)-1].Data = []byte(got)
		if err := os.WriteFile(golden, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got != want {
		t.Errorf("SQL edges differ from %s (SYNAPTIC_UPDATE_GOLDEN=1 rewrites it):\n--- got\n%s--- want\n%s", golden, got, want)
	}
	// audit_sql reads code's statements from those edges: the concatenated
	// DELETE and the f-string SELECT are injection findings.
	out := run(t, root, false, "call", "audit_sql", "limit=50")
	for _, w := range []string{"SEC-INJ-001 @ store/orders.go:14", "SEC-INJ-001 @ app/repo.py:3", "SEC-INJ-001 @ store/orders.go:19", "6 table(s)", "14 statement(s)"} {
		if !strings.Contains(out, w) {
			t.Errorf("audit_sql lacks %q:\n%s", w, out)
		}
	}
	if strings.Contains(out, "web/orders.ts:2") {
		t.Errorf("a parameterized INSERT was flagged:\n%s", out)
	}
}

// sqlEdges prints graph.json's SQL edges one a line, by node label.
func sqlEdges(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Nodes []struct {
			ID, Label, Kind string
			SourceFile      string `json:"source_file"`
			RenamedTo       string `json:"renamed_to"`
		}
		Links []map[string]any
	}
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	name := map[string]string{}
	for _, n := range g.Nodes {
		name[n.ID] = n.Kind + " " + n.Label
		if n.RenamedTo != "" {
			name[n.ID] += " (renamed_to " + n.RenamedTo + ")"
		}
		if n.SourceFile == "" {
			name[n.ID] += " (external)"
		}
	}
	var lines []string
	for _, e := range g.Links {
		rel, _ := e["relation"].(string)
		if !sqlRelations[rel] {
			continue
		}
		src, _ := e["source"].(string)
		dst, _ := e["target"].(string)
		line := fmt.Sprintf("%s -%s-> %s [%v] %v:%v", name[src], rel, name[dst], e["context"], e["source_file"], e["source_location"])
		if sts, ok := e["statements"]; ok {
			b, _ := json.Marshal(sts)
			line += " " + string(b)
		}
		lines = append(lines, line)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n") + "\n"
}
