package findings

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// Code-to-SQL statements: the SQL string literals code hands to a
// database call, read from the source of each function at audit time, so
// the rules see how the text was built and the lines around the call.

// dbCall matches a database call that takes its SQL as first argument:
// database/sql, sqlx and pgx (Query, QueryRow, Exec, Get, Select, ...),
// DB-API execute, SQLAlchemy text(), node-postgres/mysql2 query(), knex
// raw(), Prisma $queryRaw/$executeRaw (also as a tagged template), JDBC
// prepareStatement/executeQuery/executeUpdate, JPA createNativeQuery.
var dbCall = regexp.MustCompile(`(?:\.|\b)(Query|QueryRow|QueryContext|QueryRowContext|Exec|ExecContext|Queryx|QueryRowx|NamedExec|NamedQuery|Select|Get|MustExec|execute|executemany|executescript|query|raw|text|\$queryRaw|\$executeRaw|\$queryRawUnsafe|\$executeRawUnsafe|prepareStatement|prepareCall|executeQuery|executeUpdate|createNativeQuery|createQuery)\s*(\(|` + "`" + `)`)

// sqlShape is the companion-clause test: text counts as SQL only with a
// verb and the clause that goes with it.
var sqlShape = regexp.MustCompile(`(?is)^\s*(?:\(\s*)?(?:with\b.+\bselect\b|select\b.+\bfrom\b|insert\s+into\b|update\b.+\bset\b|delete\s+from\b|merge\s+into\b|call\b|exec(?:ute)?\b)`)

// Languages whose callables are scanned.
var codeSQLLanguages = map[string]bool{"go": true, "python": true, "typescript": true, "tsx": true, "javascript": true, "java": true}

const contextLines = 15

// codeStatements scans the callables of x for SQL literals at database
// call sites.
func codeStatements(x *graph.Index, src Source, includeTests bool) []abi.SQLStatement {
	var out []abi.SQLStatement
	files := map[string][]string{}
	total := 0
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if !codeSQLLanguages[n.Language] || n.Span == nil || (n.IsTest && !includeTests) {
			continue
		}
		if n.Kind != "function" && n.Kind != "method" && n.Kind != "constructor" {
			continue
		}
		lines, ok := files[n.SourceFile]
		if !ok {
			data, err := src.ReadFile(n.SourceFile)
			if err == nil && len(data) <= maxSnippetFile && total+len(data) <= maxSnippetTotal {
				total += len(data)
				lines = strings.Split(string(data), "\n")
			}
			files[n.SourceFile] = lines
		}
		if lines == nil || n.Span.StartLine < 1 || n.Span.EndLine > len(lines) {
			continue
		}
		out = append(out, scanCallable(n, lines)...)
	}
	return out
}

// scanCallable finds the SQL calls in one callable's lines, skipping
// nested callables' lines only by ownership of the innermost span being
// left to them (a nested function is scanned as its own node).
func scanCallable(n *graph.Node, lines []string) []abi.SQLStatement {
	var out []abi.SQLStatement
	body := strings.Join(lines[n.Span.StartLine-1:n.Span.EndLine], "\n")
	for _, m := range dbCall.FindAllStringSubmatchIndex(body, -1) {
		arg := body[m[4]:]
		if body[m[4]] == '(' {
			arg = body[m[5]:]
		}
		text, built, ok := firstLiteral(arg)
		if !ok || !sqlShape.MatchString(text) {
			continue
		}
		line := n.Span.StartLine + strings.Count(body[:m[0]], "\n")
		toks := sqltext.Lex(text, 1)
		st := abi.SQLStatement{Text: sqltext.Collapse(text, 4000), Verb: sqltext.Verb(toks), Tables: sqltext.Tables(toks), Caller: n.ID,
			Location: n.SourceFile + ":" + strconv.Itoa(line), Built: built}
		from := max(line-1-contextLines, n.Span.StartLine-1)
		st.Context = append([]string(nil), lines[from:line-1]...)
		out = append(out, st)
	}
	return out
}

// firstLiteral reads the string literal that starts the argument list
// (after white space, an f/r/b prefix, or a Sprintf/format call), and
// says how the statement text is built: literal, concatenation (a + next
// to it) or interpolation (f-strings, ${}, Sprintf, .format, %).
func firstLiteral(arg string) (text, built string, ok bool) {
	s := strings.TrimLeft(arg, " \t\n\r")
	built = abi.BuiltLiteral
	for _, p := range []string{"fmt.Sprintf(", "String.format(", "sprintf("} {
		if strings.HasPrefix(s, p) {
			s, built = strings.TrimLeft(s[len(p):], " \t\n"), abi.BuiltInterpolation
		}
	}
	if len(s) > 1 && (s[0] == 'f' || s[0] == 'F') && (s[1] == '"' || s[1] == '\'') {
		s, built = s[1:], abi.BuiltInterpolation
	} else if len(s) > 1 && strings.ContainsRune("rRbBuU", rune(s[0])) && (s[1] == '"' || s[1] == '\'') {
		s = s[1:]
	}
	if s == "" {
		return "", "", false
	}
	var end int
	switch q := s[0]; {
	case strings.HasPrefix(s, `"""`) || strings.HasPrefix(s, `'''`):
		e := strings.Index(s[3:], s[:3])
		if e < 0 {
			return "", "", false
		}
		text, end = s[3:3+e], 3+e+3
	case q == '`':
		e := strings.IndexByte(s[1:], '`')
		if e < 0 {
			return "", "", false
		}
		text, end = s[1:1+e], 1+e+1
		if strings.Contains(text, "${") {
			built = abi.BuiltInterpolation
		}
	case q == '"' || q == '\'':
		e := 1
		for e < len(s) && s[e] != q && s[e] != '\n' {
			if s[e] == '\\' {
				e++
			}
			e++
		}
		if e >= len(s) || s[e] != q {
			return "", "", false
		}
		text, end = s[1:e], e+1
	default:
		return "", "", false
	}
	rest := strings.TrimLeft(s[end:], " \t")
	switch {
	case strings.HasPrefix(rest, "+") || strings.HasPrefix(rest, "||"):
		built = abi.BuiltConcatenation
	case strings.HasPrefix(rest, ".format(") || strings.HasPrefix(rest, "%") && !strings.HasPrefix(rest, "%)"):
		built = abi.BuiltInterpolation
	}
	return text, built, true
}
