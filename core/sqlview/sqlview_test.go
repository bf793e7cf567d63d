package sqlview

import (
	"reflect"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// node makes a SQL node the way the resolver writes the SQL extractor's
// symbols: attributes as signature parameters.
func node(id, kind, label, file, loc string, attrs ...string) graph.Node {
	n := graph.Node{ID: id, Kind: kind, Label: label, SourceFile: file, SourceLocation: loc, Language: Language, Signature: &graph.Signature{}}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Signature.Params = append(n.Signature.Params, graph.Param{Name: attrs[i], TypeRef: attrs[i+1]})
	}
	return n
}

func contains(src, dst string) graph.Edge {
	return graph.Edge{Source: src, Target: dst, Relation: "contains"}
}

// TestSchemaMergesAcrossFiles: a table, its columns and a foreign key
// constraint from one migration; RLS, an added column and an index from
// later ones, all merged by table name; an ALTER of a table the graph
// does not define is ignored; test queries are skipped.
func TestSchemaMergesAcrossFiles(t *testing.T) {
	g := &graph.Graph{
		Nodes: []graph.Node{
			node("t", "table", "orders", "a.sql", "L1", "dialect", "postgres"),
			node("t.id", "column", "id", "a.sql", "L2", "primary_key", ""),
			node("t.uid", "column", "user_id", "a.sql", "L3"),
			node("t.fk", "constraint", "orders_user_fkey", "a.sql", "L4", "on", "orders", "column", "user_id", "references", "users.id"),
			node("alt", "alter_table", "orders", "b.sql", "L1", "enable_rls", "", "force_rls", ""),
			node("alt.note", "column", "note", "b.sql", "L1"),
			node("alt2", "alter_table", "ghost", "b.sql", "L2", "enable_rls", ""),
			node("ix", "index", "orders_uid_idx", "c.sql", "L1", "on", "orders", "column", "user_id"),
			node("pol", "policy", "p", "c.sql", "L2", "on", "orders", "using", "(user_id = 1)", "command", "ALL"),
			node("q1", "query", "select orders L3", "c.sql", "L3", "verb", "SELECT", "table", "orders"),
			node("q2", "query", "select orders L1", "test.sql", "L1", "verb", "SELECT"),
		},
		Edges: []graph.Edge{contains("t", "t.id"), contains("t", "t.uid"), contains("t", "t.fk"), contains("alt", "alt.note")},
	}
	g.Nodes[len(g.Nodes)-1].IsTest = true
	s := Schema(graph.NewIndex(g), Options{})
	if len(s.Tables) != 1 {
		t.Fatalf("tables = %+v", s.Tables)
	}
	tb := s.Tables[0]
	want := abi.SQLTable{Name: "orders", Dialect: "postgres", NodeID: "t", Location: "a.sql:1", PrimaryKey: []string{"id"}, RLSEnabled: true, RLSForced: true,
		Columns: []abi.SQLColumn{
			{Name: "id", PrimaryKey: true, NodeID: "t.id", Location: "a.sql:2"},
			{Name: "user_id", References: "users.id", NodeID: "t.uid", Location: "a.sql:3"},
			{Name: "note", NodeID: "alt.note", Location: "b.sql:1"},
		},
		Indexes: []abi.SQLIndex{{Name: "orders_uid_idx", Columns: []string{"user_id"}, NodeID: "ix", Location: "c.sql:1"}},
	}
	if !reflect.DeepEqual(tb, want) {
		t.Errorf("table =\n%+v\nwant\n%+v", tb, want)
	}
	if len(s.Policies) != 1 || s.Policies[0].Using != "(user_id = 1)" || len(s.Statements) != 1 || s.Statements[0].Tables[0] != "orders" {
		t.Errorf("policies %+v statements %+v", s.Policies, s.Statements)
	}
	if s2 := Schema(graph.NewIndex(g), Options{IncludeTests: true}); len(s2.Statements) != 2 {
		t.Errorf("IncludeTests kept %d statements, want 2", len(s2.Statements))
	}
}

// TestSchemaRecreatedTable: a table created again in a later migration
// keeps only its later columns.
func TestSchemaRecreatedTable(t *testing.T) {
	g := &graph.Graph{
		Nodes: []graph.Node{
			node("m1_jobs", "table", "jobs", "m1.sql", "L1"),
			node("m1_jobs.old", "column", "old", "m1.sql", "L2"),
			node("m2_jobs", "table", "jobs", "m2.sql", "L1", "primary_key", "id"),
			node("m2_jobs.id", "column", "id", "m2.sql", "L2"),
		},
		Edges: []graph.Edge{contains("m1_jobs", "m1_jobs.old"), contains("m2_jobs", "m2_jobs.id")},
	}
	s := Schema(graph.NewIndex(g), Options{})
	if len(s.Tables) != 1 || len(s.Tables[0].Columns) != 1 || s.Tables[0].Columns[0].Name != "id" || s.Tables[0].Location != "m2.sql:1" {
		t.Errorf("tables = %+v", s.Tables)
	}
}

// TestSchemaReplaysRenamesAndDrops: graphile-worker's migrations rename
// jobs to jobs_legacy, create a new jobs, drop the legacy table and
// rename jobs to _private_jobs; a policy and an index made on jobs
// before the last rename belong to _private_jobs, and a policy on the
// dropped table to no table of the schema.
func TestSchemaReplaysRenamesAndDrops(t *testing.T) {
	g := &graph.Graph{
		Nodes: []graph.Node{
			node("t1", "table", "jobs", "001.sql", "L1"),
			node("t1.q", "column", "queue", "001.sql", "L1"),
			node("p0", "policy", "old", "001.sql", "L2", "on", "jobs", "using", "(true)"),
			node("r1", "alter_table", "jobs", "011.sql", "L1", "rename_to", "jobs_legacy"),
			node("t2", "table", "jobs", "011.sql", "L2"),
			node("t2.id", "column", "id", "011.sql", "L2", "primary_key", ""),
			node("rls", "alter_table", "jobs", "011.sql", "L3", "enable_rls", ""),
			node("ix", "index", "jobs_id_idx", "011.sql", "L4", "on", "jobs", "column", "id"),
			node("p1", "policy", "own", "011.sql", "L5", "on", "jobs", "using", "(true)"),
			node("d", "drop_table", "jobs_legacy", "011.sql", "L6"),
			node("r2", "alter_table", "jobs", "016.sql", "L1", "rename_to", "_private_jobs"),
			node("q", "query", "delete _private_jobs L2", "016.sql", "L2", "verb", "DELETE", "table", "_private_jobs"),
		},
		Edges: []graph.Edge{contains("t1", "t1.q"), contains("t2", "t2.id")},
	}
	s := Schema(graph.NewIndex(g), Options{})
	if len(s.Tables) != 1 {
		t.Fatalf("tables = %+v", s.Tables)
	}
	tb := s.Tables[0]
	if tb.Name != "_private_jobs" || tb.NodeID != "t2" || !tb.RLSEnabled || len(tb.Columns) != 1 || tb.Columns[0].Name != "id" ||
		len(tb.Indexes) != 1 || tb.Indexes[0].Name != "jobs_id_idx" {
		t.Errorf("table = %+v", tb)
	}
	pols := map[string]string{}
	for _, p := range s.Policies {
		pols[p.Name] = p.Table
	}
	if pols["own"] != "_private_jobs" || pols["old"] != "jobs" {
		t.Errorf("policies by table = %v", pols)
	}
	if len(s.Statements) != 1 || s.Statements[0].Tables[0] != "_private_jobs" {
		t.Errorf("statements = %+v", s.Statements)
	}
}
