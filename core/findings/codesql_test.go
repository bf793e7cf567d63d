package findings

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

type mapSource map[string]string

func (m mapSource) ReadFile(rel string) ([]byte, error) {
	if s, ok := m[rel]; ok {
		return []byte(s), nil
	}
	return nil, errors.New("no such file")
}

func (m mapSource) Files(int, int) []string { return nil }

func statementsExtra(t *testing.T, sts ...edgeStatement) map[string]json.RawMessage {
	t.Helper()
	b, err := json.Marshal(sts)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]json.RawMessage{"statements": b}
}

// TestCodeStatements: statements come from the code->SQL edges, one per
// call site even when it names two tables, test callers skipped, and the
// lines above the call read from the source for the N+1 rule.
func TestCodeStatements(t *testing.T) {
	src := mapSource{"a.go": "package a\n\nfunc F(db *DB) {\n\tfor range xs {\n\t\tdb.Exec(\"UPDATE t SET a = 1 FROM u\")\n\t}\n}\n"}
	update := edgeStatement{Line: 5, SQL: "UPDATE t SET a = 1 FROM u", Built: abi.BuiltLiteral}
	g := &graph.Graph{
		Nodes: []graph.Node{
			{ID: "a_f", Label: "F()", Kind: "function", Language: "go", SourceFile: "a.go", Span: &graph.Span{StartLine: 3, EndLine: 7}},
			{ID: "a_t", Label: "T()", Kind: "function", Language: "go", SourceFile: "a_test.go", IsTest: true},
			{ID: "t", Label: "t", Kind: "table"}, {ID: "u", Label: "u", Kind: "table"},
		},
		Edges: []graph.Edge{
			{Source: "a_f", Target: "t", Relation: "writes_to", Context: "sql", Extra: statementsExtra(t, update)},
			{Source: "a_f", Target: "u", Relation: "queries", Context: "sql", Extra: statementsExtra(t, update)},
			{Source: "a_t", Target: "t", Relation: "queries", Context: "sql", Extra: statementsExtra(t, edgeStatement{Line: 1, SQL: "SELECT a FROM t", Built: abi.BuiltLiteral})},
			{Source: "a_f", Target: "t", Relation: "calls", Extra: statementsExtra(t, edgeStatement{Line: 2, SQL: "SELECT 1 FROM t"})},
		},
	}
	x := graph.NewIndex(g)
	sts := codeStatements(x, src, false)
	if len(sts) != 1 {
		t.Fatalf("statements = %+v", sts)
	}
	st := sts[0]
	if st.Text != update.SQL || st.Verb != "UPDATE" || st.Caller != "a_f" || st.Location != "a.go:5" || st.Built != abi.BuiltLiteral ||
		len(st.Tables) != 2 || len(st.Context) != 2 || !strings.Contains(st.Context[1], "for range") {
		t.Errorf("statement = %+v", st)
	}
	if sts := codeStatements(x, nil, true); len(sts) != 2 || sts[0].Context != nil {
		t.Errorf("with tests, no source: %+v", sts)
	}
}
