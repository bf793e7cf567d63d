package sqltext

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestFindCodeSQL(t *testing.T) {
	lit, cat, interp := abi.BuiltLiteral, abi.BuiltConcatenation, abi.BuiltInterpolation
	tests := []struct {
		name, src string
		want      []CodeSQL
	}{
		{"go database/sql", "func F(db *sql.DB) {\n\trows, err := db.Query(\"SELECT id FROM users WHERE id = $1\", id)\n}",
			[]CodeSQL{{"SELECT id FROM users WHERE id = $1", lit, 2}}},
		{"go context first", "db.QueryRowContext(ctx, `SELECT name\nFROM users`)\npool.Exec(context.Background(), \"DELETE FROM t WHERE id = $1\", id)",
			[]CodeSQL{{"SELECT name\nFROM users", lit, 1}, {"DELETE FROM t WHERE id = $1", lit, 3}}},
		{"go sqlx Get", `db.Get(&u, "SELECT * FROM users WHERE id = ?", id)`, []CodeSQL{{"SELECT * FROM users WHERE id = ?", lit, 1}}},
		{"go Sprintf", `db.Exec(fmt.Sprintf("DELETE FROM %s WHERE id = 1", table))`, []CodeSQL{{"DELETE FROM %s WHERE id = 1", interp, 1}}},
		{"go literal pieces", "db.Query(\"SELECT a \" +\n\t\"FROM t\")", []CodeSQL{{"SELECT a FROM t", lit, 1}}},
		{"go concatenation", `db.Query("SELECT a FROM t WHERE n = '" + n + "'")`, []CodeSQL{{"SELECT a FROM t WHERE n = '{}'", cat, 1}}},
		{"js table concatenated", "this.query('DELETE FROM ' + this.quotedTable() + ' WHERE expire < to_timestamp($1)', [now()])",
			[]CodeSQL{{"DELETE FROM {} WHERE expire < to_timestamp($1)", cat, 1}}},
		{"python execute", "cur.execute(\"UPDATE t SET a = %s\", (a,))\ncur.execute(f\"SELECT a FROM {t}\")\ncur.execute(\"SELECT a FROM t WHERE id = %s\" % x)",
			[]CodeSQL{{"UPDATE t SET a = %s", lit, 1}, {"SELECT a FROM {t}", interp, 2}, {"SELECT a FROM t WHERE id = %s", interp, 3}}},
		{"python triple and text()", "session.execute(text(\"\"\"\n  SELECT a\n  FROM t\n\"\"\"))\ncur.execute('SELECT b FROM t '\n            'WHERE x = 1')",
			[]CodeSQL{{"\n  SELECT a\n  FROM t\n", lit, 1}, {"SELECT b FROM t WHERE x = 1", lit, 5}}},
		{"python format", `cur.execute("SELECT a FROM {}".format(t))`, []CodeSQL{{"SELECT a FROM {}", interp, 1}}},
		{"ts pg and prisma", "await client.query('INSERT INTO orders (id) VALUES ($1)', [id]);\nawait prisma.$queryRaw`SELECT * FROM users WHERE id = ${id}`;\nknex.raw(`SELECT x FROM ${t}`)",
			[]CodeSQL{{"INSERT INTO orders (id) VALUES ($1)", lit, 1}, {"SELECT * FROM users WHERE id = ${id}", lit, 2}, {"SELECT x FROM ${t}", interp, 3}}},
		{"java jdbc", "PreparedStatement ps = conn.prepareStatement(\"SELECT id FROM accounts WHERE owner = ?\");\nstmt.executeUpdate(\"DELETE FROM accounts WHERE id = \" + id);\nem.createNativeQuery(\"\"\"\n    SELECT a FROM b\n    \"\"\")",
			[]CodeSQL{{"SELECT id FROM accounts WHERE owner = ?", lit, 1}, {"DELETE FROM accounts WHERE id = {}", cat, 2}, {"\n    SELECT a FROM b\n    ", lit, 3}}},
		{"rust sqlx turbofish", `sqlx::query_as::<_, User>("SELECT id FROM users WHERE id = $1")`, []CodeSQL{{"SELECT id FROM users WHERE id = $1", lit, 1}}},
		{"line continuation", "await client.query(`\\\ndelete from ${s}._private_jobs jobs\nwhere attempts = max_attempts;`);", []CodeSQL{{"\ndelete from ${s}._private_jobs jobs\nwhere attempts = max_attempts;", interp, 1}}},
		{"not a database call", `fmt.Println("SELECT a FROM t"); log("delete from x")`, nil},
		{"not SQL", `db.Query("select the best"); db.Exec("update me")`, nil},
		{"Go select statement", "select {\ncase <-ch:\n}\nx := 'a'", nil},
		{"unterminated", `db.Query("SELECT a FROM t`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FindCodeSQL([]byte(tt.src), 100)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FindCodeSQL =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
	if got := FindCodeSQL([]byte(`db.Query("SELECT a FROM t"); db.Query("SELECT b FROM t")`), 1); len(got) != 1 {
		t.Errorf("max 1 gave %d sites", len(got))
	}
}

// FuzzFindCodeSQL: any input, no panic, and every site is SQL-shaped.
func FuzzFindCodeSQL(f *testing.F) {
	f.Add([]byte("db.Query(\"SELECT a \" +\n\"FROM t\" + x)"))
	f.Add([]byte("cur.execute(f'''SELECT a FROM {t}''')"))
	f.Add([]byte("prisma.$queryRaw`SELECT 1 FROM t`"))
	f.Add([]byte(`db.Get(&u, "`))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, s := range FindCodeSQL(src, 50) {
			if !sqlShape.MatchString(s.Text) || s.Line < 1 {
				t.Fatalf("site %+v", s)
			}
		}
		checkQuoteFinder(t, src)
	})
}

// TestQuoteFinder: the quote finder sees every quote a byte-at-a-time
// scan sees, from any increasing sequence of offsets.
func TestQuoteFinder(t *testing.T) {
	for _, src := range []string{"", "x", `"`, "a'b`c\"d", "```", `'''x'''"y"`, "no quotes at all", "`\n'\n\""} {
		checkQuoteFinder(t, []byte(src))
	}
}

func checkQuoteFinder(t *testing.T, src []byte) {
	t.Helper()
	naive := func(from int) int {
		for i := from; i < len(src); i++ {
			if c := src[i]; c == '"' || c == '\'' || c == '`' {
				return i
			}
		}
		return -1
	}
	for step := 1; step <= 3; step++ { // every offset, and the skips FindCodeSQL makes past ''' and literals
		q := newQuoteFinder(src)
		for from := 0; from <= len(src)+1; from += step {
			if got, want := q.next(from), naive(from); got != want {
				t.Fatalf("%q: next(%d) = %d, want %d", src, from, got, want)
			}
		}
	}
}

// BenchmarkFindCodeSQL scans the Go files of GOROOT/src/net (skipped when
// absent): the cost every code file pays during extraction.
func BenchmarkFindCodeSQL(b *testing.B) {
	root := filepath.Join(runtime.GOROOT(), "src", "net")
	var files [][]byte
	size := 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
				size += len(data)
			}
		}
		return nil
	})
	if len(files) == 0 {
		b.Skip("no GOROOT/src/net")
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, f := range files {
			FindCodeSQL(f, 100)
		}
	}
}
