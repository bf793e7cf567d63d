package findings

import (
	"errors"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestFirstLiteral(t *testing.T) {
	tests := []struct{ arg, text, built string }{
		{`"SELECT 1 FROM t", x)`, "SELECT 1 FROM t", abi.BuiltLiteral},
		{`"SELECT a FROM t WHERE n = '" + n + "'")`, "SELECT a FROM t WHERE n = '", abi.BuiltConcatenation},
		{`f"SELECT a FROM t WHERE n = '{n}'")`, "SELECT a FROM t WHERE n = '{n}'", abi.BuiltInterpolation},
		{"`SELECT a FROM ${t}`)", "SELECT a FROM ${t}", abi.BuiltInterpolation},
		{`fmt.Sprintf("SELECT a FROM %s", t))`, "SELECT a FROM %s", abi.BuiltInterpolation},
		{`"SELECT a FROM t WHERE id = %s" % (x,))`, "SELECT a FROM t WHERE id = %s", abi.BuiltInterpolation},
		{`"SELECT a FROM t WHERE id = %s", (x,))`, "SELECT a FROM t WHERE id = %s", abi.BuiltLiteral},
		{`"""SELECT a
FROM t""")`, "SELECT a\nFROM t", abi.BuiltLiteral},
		{`"SELECT \"a\" FROM t")`, `SELECT \"a\" FROM t`, abi.BuiltLiteral},
	}
	for _, tt := range tests {
		text, built, ok := firstLiteral(tt.arg)
		if !ok || text != tt.text || built != tt.built {
			t.Errorf("firstLiteral(%q) = %q, %q, %v; want %q, %q", tt.arg, text, built, ok, tt.text, tt.built)
		}
	}
	for _, bad := range []string{`q)`, `"unterminated`, ``, "`open"} {
		if _, _, ok := firstLiteral(bad); ok {
			t.Errorf("firstLiteral(%q) accepted", bad)
		}
	}
}

type mapSource map[string]string

func (m mapSource) ReadFile(rel string) ([]byte, error) {
	if s, ok := m[rel]; ok {
		return []byte(s), nil
	}
	return nil, errors.New("no such file")
}

func (m mapSource) Files(int, int) []string { return nil }

func TestCodeStatements(t *testing.T) {
	src := mapSource{"a.go": "package a\n\nfunc F(db *DB) {\n\tfor range xs {\n\t\tdb.Exec(\"UPDATE t SET a = 1\")\n\t}\n\tdb.Query(\"not sql at all\")\n}\n"}
	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "a_f", Label: "F()", Kind: "function", Language: "go", SourceFile: "a.go", Span: &graph.Span{StartLine: 3, EndLine: 8}},
		{ID: "a_t", Label: "T()", Kind: "function", Language: "go", SourceFile: "a.go", IsTest: true, Span: &graph.Span{StartLine: 3, EndLine: 8}},
	}}
	sts := codeStatements(graph.NewIndex(g), src, false)
	if len(sts) != 1 {
		t.Fatalf("statements = %+v", sts)
	}
	st := sts[0]
	if st.Text != "UPDATE t SET a = 1" || st.Verb != "UPDATE" || st.Caller != "a_f" || st.Location != "a.go:5" || st.Built != abi.BuiltLiteral ||
		len(st.Context) != 2 || !strings.Contains(st.Context[1], "for range") {
		t.Errorf("statement = %+v", st)
	}
}
