package sqltext

import (
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestSplit(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"semicolons", "SELECT 1; SELECT 2;", []string{"SELECT 1", "SELECT 2"}},
		{"quoted semicolon", "SELECT ';' FROM t; SELECT \"a;b\" FROM t", []string{"SELECT ';' FROM t", `SELECT "a;b" FROM t`}},
		{"comments", "-- a; b\nSELECT 1 /* ; */;\n# c;\nSELECT 2", []string{"SELECT 1", "SELECT 2"}},
		{"dollar quote", "CREATE FUNCTION f() AS $body$ BEGIN; END; $body$; SELECT 1", []string{"CREATE FUNCTION f() AS $body$ BEGIN; END; $body$", "SELECT 1"}},
		{"begin end", "CREATE PROCEDURE p AS BEGIN SELECT 1; SELECT 2; END; SELECT 3", []string{"CREATE PROCEDURE p AS BEGIN SELECT 1; SELECT 2; END", "SELECT 3"}},
		{"case end", "SELECT CASE WHEN a THEN 1 END FROM t; SELECT 2", []string{"SELECT CASE WHEN a THEN 1 END FROM t", "SELECT 2"}},
		{"go batches", "SELECT 1\nGO\nSELECT 2\ngo\n", []string{"SELECT 1", "SELECT 2"}},
		{"begin transaction", "BEGIN; SELECT 1; COMMIT;", []string{"BEGIN", "SELECT 1", "COMMIT"}},
		{"doubled quote", "SELECT 'it''s;' ; SELECT 2", []string{"SELECT 'it''s;'", "SELECT 2"}},
		{"unterminated", "SELECT 'oops; SELECT 2", []string{"SELECT 'oops; SELECT 2"}},
		{"empty", " ; ;; ", nil},
		{"psql meta-command", "\\echo Use \"CREATE EXTENSION x\" to load this file. \\quit\nSELECT 1;", []string{"SELECT 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, s := range Split(tt.src) {
				got = append(got, s.Text)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Split(%q) = %q, want %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestSplitLines(t *testing.T) {
	st := Split("SELECT 1;\n\n-- x\nUPDATE t\nSET a = 1;")
	if len(st) != 2 || st[0].Line != 1 || st[1].Line != 4 {
		t.Fatalf("lines = %+v", st)
	}
}

func TestQueryHelpers(t *testing.T) {
	tests := []struct {
		sql      string
		verb     string
		tables   []string
		where    bool
		compared []string
	}{
		{"SELECT a FROM public.orders o JOIN users u ON u.id = o.user_id WHERE o.tenant_id = $1 AND status IN (1,2)", "SELECT", []string{"orders", "users"}, true, []string{"tenant_id", "status"}},
		{"WITH x AS (SELECT id FROM a) SELECT * FROM x, b WHERE b.id = x.id", "SELECT", []string{"a", "b"}, true, []string{"id"}},
		{"UPDATE t SET a = 1", "UPDATE", []string{"t"}, false, nil},
		{"DELETE FROM t WHERE (select 1) = 1", "DELETE", []string{"t"}, true, nil},
		{"INSERT INTO \"Audit\" (a) VALUES (1)", "INSERT", []string{"audit"}, false, nil},
		{"SELECT * FROM generate_series(1, 3) g", "SELECT", nil, false, nil},
		{"SELECT id FROM :SCHEMA.jobs WHERE queue = $1", "SELECT", []string{"jobs"}, true, []string{"queue"}},
		{"SELECT id FROM t WHERE id IN (SELECT tid FROM u WHERE u.x = 1)", "SELECT", []string{"t", "u"}, true, []string{"id", "x"}},
	}
	for _, tt := range tests {
		toks := Lex(tt.sql, 1)
		if v := Verb(toks); v != tt.verb {
			t.Errorf("Verb(%q) = %q, want %q", tt.sql, v, tt.verb)
		}
		if got := Tables(toks); !reflect.DeepEqual(got, tt.tables) {
			t.Errorf("Tables(%q) = %q, want %q", tt.sql, got, tt.tables)
		}
		if got := HasTopLevel(toks, "WHERE"); got != tt.where {
			t.Errorf("HasTopLevel(%q, WHERE) = %v, want %v", tt.sql, got, tt.where)
		}
		if got := ComparedColumns(Clause(toks, "WHERE")); !reflect.DeepEqual(got, tt.compared) {
			t.Errorf("ComparedColumns(%q) = %q, want %q", tt.sql, got, tt.compared)
		}
	}
}

func TestLexBounded(t *testing.T) {
	if n := len(Lex(strings.Repeat("a ", maxTokens*2), 1)); n != maxTokens {
		t.Errorf("Lex kept %d tokens, want the bound %d", n, maxTokens)
	}
}

func TestCollapse(t *testing.T) {
	if got := Collapse("  a \n\t b  ", 10); got != "a b" {
		t.Errorf("Collapse = %q", got)
	}
	if got := Collapse("abcdef", 3); got != "abc…" {
		t.Errorf("Collapse cut = %q", got)
	}
}

// FuzzSplit: splitting never panics, statements lie inside the source in
// order, and each statement's tokens lie inside it.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"SELECT 1;", "CREATE FUNCTION f() AS $$ x; $$;", "'", "$a$", "/*", "[x", "BEGIN CASE END END;", "\"\"\"", "GO\nGO"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		prev := 0
		for _, st := range Split(src) {
			if st.Off < prev || st.Off+len(st.Text) > len(src) || src[st.Off:st.Off+len(st.Text)] != st.Text {
				t.Fatalf("statement %q at %d is not the source at that offset", st.Text, st.Off)
			}
			for _, tk := range st.Tokens {
				if tk.Off < st.Off || tk.Off+len(tk.Text) > st.Off+len(st.Text) {
					t.Fatalf("token %q at %d outside its statement", tk.Text, tk.Off)
				}
			}
			prev = st.Off + len(st.Text)
			toks := st.Tokens
			_ = Tables(toks)
			_ = ComparedColumns(Clause(toks, "WHERE"))
			_ = Verb(toks)
		}
	})
}

// The SQL object kinds are symbol kinds: each must be in the fact
// vocabulary, or the host drops every SQL symbol of that kind.
func TestObjectKindsInVocabulary(t *testing.T) {
	for _, k := range []ObjectKind{KindTable, KindAlterTable, KindDropTable, KindColumn, KindConstraint, KindIndex, KindView,
		KindPolicy, KindGrant, KindFunction, KindProcedure, KindTrigger, KindQuery, KindStatement} {
		if !abi.SymbolKind(k).Valid() {
			t.Errorf("%q is not in abi.SymbolKinds", k)
		}
	}
}

// TestPlaceholderSchema: a template placeholder as the schema stands for
// the default schema, as a psql variable does; alone it names no table.
func TestPlaceholderSchema(t *testing.T) {
	for q, want := range map[string]string{
		"delete from ${escapedWorkerSchema}._private_jobs jobs where x": "_private_jobs",
		"SELECT a FROM {schema}.orders":                                 "orders",
		"SELECT a FROM ${table} WHERE x":                                "",
		"SELECT a FROM {} WHERE x":                                      "",
		"SELECT '{\"a\": 1}'::jsonb FROM t":                             "t",
	} {
		got := strings.Join(Tables(Lex(q, 1)), ",")
		if got != want {
			t.Errorf("Tables(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestWriteTarget(t *testing.T) {
	for q, want := range map[string]string{
		"INSERT INTO public.orders (id) VALUES (1)":                    "orders",
		"INSERT IGNORE INTO t VALUES (1)":                              "t",
		"UPDATE ONLY orders SET a = 1":                                 "orders",
		"DELETE FROM orders WHERE id = 1":                              "orders",
		"WITH x AS (SELECT id FROM a) DELETE FROM b USING x":           "b",
		"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE": "t",
		"SELECT * FROM orders":                                         "",
		"INSERT INTO archive (id) SELECT id FROM orders":               "archive",
	} {
		if got := WriteTarget(Lex(q, 1)); got != want {
			t.Errorf("WriteTarget(%q) = %q, want %q", q, got, want)
		}
	}
}

// TestLexerReuse: a reused Lexer gives the tokens Lex gives, statement
// after statement, upper-case forms and lines included.
func TestLexerReuse(t *testing.T) {
	var l Lexer
	var buf []Token
	for _, src := range []string{"select a.Id from T1 a", "SELECT 'x\ny', b FROM t1\nWHERE id = 1", "update Naïve set x = 1", "select a.id from t1 a"} {
		buf = l.Lex(buf[:0], src, 3)
		want := Lex(src, 3)
		if !reflect.DeepEqual(buf, want) {
			t.Errorf("Lexer.Lex(%q) = %+v, want %+v", src, buf, want)
		}
	}
	if toks := Lex("select x\nfrom t", 1); toks[2].Line != 2 || toks[2].Upper() != "FROM" || toks[1].Upper() != "X" {
		t.Errorf("tokens %+v", toks)
	}
}
