package tools

import (
	"strings"
	"testing"
)

func TestStructuralSearch(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	tests := []struct {
		name, args string
		want       []string
	}{
		{"query", `{"query":"MATCH (m:method) WHERE m.file = 'pkg/server.go' RETURN m"}`,
			[]string{"Query: 2 row(s) [m]:", ".Serve() [method/public] pkg/server.go:L15", ".Close() [method] pkg/server.go:L21"}},
		{"path", `{"query":"MATCH (a)-[:calls]->(b) WHERE b.name = 'NewServer' RETURN a, b"}`,
			[]string{"[a | b]", "main() [function] cmd/main.go:L5  |  NewServer() [function] pkg/server.go:L26"}},
		{"groups", `{"query":"MATCH (n) WHERE n.file STARTS WITH 'pkg/' RETURN n.kind, count(*) AS c ORDER BY c DESC, n.kind"}`,
			[]string{"[n.kind | c]", "function | 4", "file | 2", "method | 2", "struct | 1"}},
		{"file outline", `{"file":"pkg/server.go"}`,
			[]string{"Outline of files matching \"pkg/server.go\": 4 row(s)", "Server [struct/public] pkg/server.go:L10", ".Serve()", ".Close()", "NewServer()"}},
		{"pattern wins", `{"pattern":"god-class","query":"MATCH (n) RETURN n","file":"pkg"}`, []string{"Pattern god-class: 0 row(s) -- nothing matched."}},
		{"query wins over file", `{"query":"MATCH (n:struct) RETURN n","file":"pkg"}`, []string{"Query: 2 row(s)"}},
		{"limit", `{"query":"MATCH (n) RETURN n","limit":2}`, []string{"showing 2 (raise limit"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, c, "structural_search", tt.args)
			if r.IsError {
				t.Fatalf("error: %s", r.Text)
			}
			rest := r.Text
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("lacks %q (in order):\n%s", w, r.Text)
				}
				rest = rest[i+len(w):]
			}
		})
	}
}

func TestStructuralSearchStructured(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	st := structured(t, call(t, c, "structural_search", `{"query":"MATCH (f) WHERE f.return_type = 'error' RETURN f"}`))
	row := st["results"].([]any)[0].([]any)[0].(map[string]any)
	sig := row["signature"].(map[string]any)
	if row["label"] != ".Serve()" || row["line"] != 15.0 || row["loc"] != 4.0 || row["visibility"] != "public" ||
		sig["return_type"] != "error" || sig["raw"] != "func (s *Server) Serve() error" || st["total"] != 1.0 {
		t.Fatalf("structured %v", st)
	}
	st = structured(t, call(t, c, "structural_search", `{"query":"MATCH (n) RETURN count(*)"}`))
	if g := st["groups"].([]any); len(g) != 1 || g[0].([]any)[0].(float64) < 10 {
		t.Fatalf("groups %v", st)
	}
}

func TestStructuralSearchErrors(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	for args, want := range map[string]string{
		`{}`:                                  "needs a query",
		`{"query":"MATCH (c:class RETURN c"}`: "syntax error at column 16: expected ')' closing the node pattern",
		`{"query":"MATCH (c) WHERE c.size > 1 RETURN c"}`: "unknown field \"size\"",
		`{"query":"MATCH (a)-[*1..99]->(b) RETURN b"}`:    "hops run from 1 to 8",
		`{"query":"MATCH (c:klass) RETURN c"}`:            `unknown node kind "klass"; this graph has:`,
		`{"pattern":"mvc"}`:                               "the patterns are: singleton, factory, observer, service-locator, god-class",
	} {
		r := call(t, c, "structural_search", args)
		if !r.IsError || !strings.Contains(r.Text, want) {
			t.Errorf("%s: %+v, want error %q", args, r, want)
		}
	}
}
