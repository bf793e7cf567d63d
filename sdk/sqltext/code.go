package sqltext

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Code-to-SQL: the SQL string literals that code hands to a database
// call, found in a file's text whatever its language. Extractors report
// them in their facts (sdk/extract does it for every code file), so the
// host can link each call to the tables it names.

// CodeSQL is one SQL literal at a database call.
type CodeSQL struct {
	Text  string // the literal's text; adjacent literal pieces joined ("a " + "b")
	Built string // abi.BuiltLiteral, BuiltConcatenation or BuiltInterpolation
	Line  int    // 1-based line of the called name
}

// dbMethods are the calls that take their SQL as first argument:
// database/sql, sqlx and pgx (Query, QueryRow, Exec, Get, Select, ...),
// DB-API execute, SQLAlchemy text(), node-postgres/mysql2 query(), knex
// raw(), Prisma $queryRaw/$executeRaw, JDBC prepareStatement,
// executeQuery, executeUpdate, JPA createNativeQuery.
var dbMethods = setOf("Query", "QueryRow", "QueryContext", "QueryRowContext", "Exec", "ExecContext", "Queryx", "QueryRowx",
	"NamedExec", "NamedQuery", "Select", "Get", "MustExec", "execute", "executemany", "executescript", "query", "raw", "text",
	"$queryRaw", "$executeRaw", "$queryRawUnsafe", "$executeRawUnsafe", "prepareStatement", "prepareCall", "executeQuery",
	"executeUpdate", "createNativeQuery", "createQuery", "query_as", "query_scalar")

// taggedMethods take their SQL as a tagged template: prisma.$queryRaw`...`.
var taggedMethods = setOf("$queryRaw", "$executeRaw", "raw", "query")

// formatters build the SQL handed to the call: db.Query(fmt.Sprintf("...", t)).
var formatters = setOf("Sprintf", "format", "sprintf")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// sqlVerbs open a statement; a literal starting with anything else is
// not looked at further (the cheap test every quote of a file goes through).
var sqlVerbs = []string{"select", "insert", "update", "delete", "with", "merge", "call", "exec"}

// verbInitial holds the lower-case first letters of sqlVerbs.
var verbInitial = func() (m [256]bool) {
	for _, v := range sqlVerbs {
		m[v[0]] = true
	}
	return m
}()

// sqlShape is the companion-clause test: text counts as SQL only with a
// verb and the clause that goes with it.
var sqlShape = regexp.MustCompile(`(?is)^\s*(?:with\b.+\bselect\b|select\b.+\bfrom\b|insert\s+into\b|update\b.+\bset\b|delete\s+from\b|merge\s+into\b|call\b|exec(?:ute)?\b)`)

// FindCodeSQL returns the SQL literals passed as first argument to a
// database call in src, in source order, at most max of them.
func FindCodeSQL(src []byte, max int) []CodeSQL {
	var out []CodeSQL
	lines := lineCounter{src: src, line: 1}
	quotes := newQuoteFinder(src)
	for i := quotes.next(0); i >= 0 && len(out) < max; i = quotes.next(i + 1) {
		c := src[i]
		open := 1
		if i+2 < len(src) && src[i+1] == c && src[i+2] == c {
			open = 3
		}
		if !startsVerb(src[i+open:]) {
			i += open - 1
			continue
		}
		start, callAt, built, ok := dbCallBefore(src, i)
		if !ok {
			i += open - 1
			continue
		}
		text, b, end, ok := literalChain(src, start)
		if !ok {
			i += open - 1
			continue
		}
		switch {
		case c == '`' && start == i && start > 0 && isIdentByte(src[start-1]):
			// A tagged template (prisma.$queryRaw`... ${id}`) binds
			// each ${} as a parameter: the text is not built from values.
			built = abi.BuiltLiteral
		case built == abi.BuiltLiteral:
			built = b
		}
		if sqlShape.MatchString(text) {
			out = append(out, CodeSQL{Text: text, Built: built, Line: lines.at(callAt)})
		}
		i = end - 1
	}
	return out
}

// quoteFinder finds the next quote of src (", ' or `) with one
// bytes.IndexByte per quote character and stretch, which is assembly on
// every target (wasm included): a plugin scans every code file, and a
// byte-at-a-time loop over all of it cost a sixth of the Go plugin's time
// in the guest.
type quoteFinder struct {
	src []byte
	at  [3]int // next offset of each quote character at or after from; len(src) when none
}

var quoteChars = [3]byte{'"', '\'', '`'}

func newQuoteFinder(src []byte) *quoteFinder {
	q := &quoteFinder{src: src}
	for k := range q.at {
		q.at[k] = -1 // not looked for yet
	}
	return q
}

// next returns the offset of the first quote at or after from, or -1.
func (q *quoteFinder) next(from int) int {
	best := len(q.src)
	for k, c := range quoteChars {
		if q.at[k] < from && q.at[k] < len(q.src) {
			q.at[k] = len(q.src)
			if from < len(q.src) {
				if j := bytes.IndexByte(q.src[from:], c); j >= 0 {
					q.at[k] = from + j
				}
			}
		}
		best = min(best, q.at[k])
	}
	if best == len(q.src) {
		return -1
	}
	return best
}

// lineCounter turns offsets into 1-based lines, counting from the last
// offset asked for.
type lineCounter struct {
	src  []byte
	off  int
	line int
}

func (l *lineCounter) at(off int) int {
	for ; l.off < off; l.off++ {
		if l.src[l.off] == '\n' {
			l.line++
		}
	}
	for ; l.off > off; l.off-- {
		if l.src[l.off-1] == '\n' {
			l.line--
		}
	}
	return l.line
}

func startsVerb(s []byte) bool {
	k := 0
	for k < len(s) && k < 64 && (isSpace(s[k]) || s[k] == '\\' && k+1 < len(s) && s[k+1] == '\n') {
		k++ // white space, and a backslash ending a line (a continuation)
	}
	s = s[k:]
	if len(s) < 4 || !verbInitial[s[0]|0x20] {
		return false // most literals end here
	}
	first := s[0] | 0x20
	for _, v := range sqlVerbs {
		if v[0] == first && len(s) > len(v) && asciiFold(s[:len(v)], v) && !isWord(s[len(v)]) {
			return true
		}
	}
	return false
}

// asciiFold reports b equal to the lower-case ASCII word v, ignoring case.
func asciiFold(b []byte, v string) bool {
	for i := range len(v) {
		if b[i]|0x20 != v[i] {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdentByte(c byte) bool { return isWord(c) && c < 0x80 }

// dbCallBefore checks that the literal whose quote is at q is the first
// argument of a database call, and returns where the literal starts (its
// f/r/b prefix included), where the called name starts, and whether a
// formatter or prefix makes it an interpolation.
func dbCallBefore(src []byte, q int) (start, callAt int, built string, ok bool) {
	start, built = q, abi.BuiltLiteral
	k := q
	for k > 0 && q-k < 2 && strings.IndexByte("fFrRbBuU", src[k-1]) >= 0 {
		k--
	}
	if k < q && (k == 0 || !isIdentByte(src[k-1])) {
		start = k
		if bytes.ContainsAny(src[k:q], "fF") {
			built = abi.BuiltInterpolation
		}
	}
	if src[q] == '`' && start == q && q > 0 && isIdentByte(src[q-1]) {
		name, at := identBefore(src, q)
		return start, at, built, taggedMethods[name]
	}
	p := skipSpaceBack(src, start)
	if p >= 0 && src[p] == ',' {
		p = skipArgBack(src, p) // QueryContext(ctx, "..."), Get(&u, "...")
	}
	if p < 0 || src[p] != '(' {
		return 0, 0, "", false
	}
	name, at := identBefore(src, skipTurbofish(src, p))
	if formatters[name] {
		built = abi.BuiltInterpolation
		if p = skipSpaceBack(src, chainStart(src, at)); p < 0 || src[p] != '(' {
			return 0, 0, "", false
		}
		name, at = identBefore(src, p)
	}
	return start, at, built, dbMethods[name]
}

// skipSpaceBack returns the index of the last non-space byte before end,
// or -1.
func skipSpaceBack(src []byte, end int) int {
	p := end - 1
	for p >= 0 && isSpace(src[p]) {
		p--
	}
	return p
}

// skipTurbofish returns where a Rust call's name ends before the paren at
// p, past a turbofish (sqlx::query_as::<_, User>(...)); p itself when
// there is none.
func skipTurbofish(src []byte, p int) int {
	k := skipSpaceBack(src, p)
	if k < 0 || src[k] != '>' {
		return p
	}
	depth := 0
	for j := k; j >= 0 && k-j < 128; j-- {
		switch src[j] {
		case '>':
			depth++
		case '<':
			if depth--; depth == 0 {
				if j >= 2 && src[j-1] == ':' && src[j-2] == ':' {
					return j - 2
				}
				return p
			}
		}
	}
	return p
}

// skipArgBack walks back from the comma at p over one simple argument
// (ctx, &dest, r.Context(), context.Background()) and returns the index
// of the byte before it, or -1.
func skipArgBack(src []byte, p int) int {
	p = skipSpaceBack(src, p)
	if p > 0 && src[p] == ')' && src[p-1] == '(' {
		p -= 2
	}
	s := p
	for s >= 0 && p-s < 128 && (isIdentByte(src[s]) || src[s] == '.' || src[s] == '&' || src[s] == '*') {
		s--
	}
	if s == p {
		return -1
	}
	return skipSpaceBack(src, s+1)
}

// identBefore returns the identifier ending just before end (white space
// allowed in between) and where it starts.
func identBefore(src []byte, end int) (string, int) {
	p := skipSpaceBack(src, end) + 1
	s := p
	for s > 0 && p-s < 64 && isIdentByte(src[s-1]) {
		s--
	}
	return string(src[s:p]), s
}

// chainStart walks back over a dotted name (fmt.Sprintf, String.format)
// from the start of its last segment.
func chainStart(src []byte, at int) int {
	for at > 0 && src[at-1] == '.' {
		_, s := identBefore(src, at-1)
		if s == at-1 {
			break
		}
		at = s
	}
	return at
}

// literalChain reads the literal at start and the literals joined to it
// by + or by adjacency ("a" "b" in Python), and says how the statement
// is built: literal, concatenation (a non-literal operand of +) or
// interpolation (f-strings, ${}, % and .format after the literal).
func literalChain(src []byte, start int) (text, built string, end int, ok bool) {
	var b strings.Builder
	built = abi.BuiltLiteral
	pos := start
	for pieces := 0; pieces < 64; pieces++ {
		t, interp, e, ok := literal(src, pos)
		if !ok {
			if pieces == 0 {
				return "", "", 0, false
			}
			// "..." + name (+ "..."): the value stands as {} in the text,
			// which the lexer reads as a placeholder, so "DELETE FROM " +
			// t + " WHERE id = $1" keeps its WHERE.
			built = abi.BuiltConcatenation
			b.WriteString("{}")
			after, more := skipOperand(src, pos)
			if !more {
				break
			}
			pos = after
			continue
		}
		if interp {
			built = abi.BuiltInterpolation
		}
		b.WriteString(strings.ReplaceAll(t, "\\\n", "\n")) // a line continuation
		end = e
		next := end
		for next < len(src) && isSpace(src[next]) {
			next++
		}
		rest := src[next:]
		switch {
		case len(rest) > 0 && rest[0] == '+':
			pos = next + 1
			for pos < len(src) && isSpace(src[pos]) {
				pos++
			}
			continue
		case len(rest) > 1 && rest[0] == '|' && rest[1] == '|':
			built = abi.BuiltConcatenation
		case bytes.HasPrefix(rest, []byte(".format(")),
			len(rest) > 1 && rest[0] == '%' && rest[1] != ')':
			built = abi.BuiltInterpolation
		case len(rest) > 0 && (rest[0] == '"' || rest[0] == '\'') && next > end:
			pos = next // adjacent literals on the next line: Python joins them
			continue
		}
		break
	}
	return b.String(), built, end, true
}

// skipOperand walks over one non-literal operand of a concatenation
// (this.quotedTable(), name, ids.join(",")) and, when a + follows it,
// returns where the next operand starts.
func skipOperand(src []byte, pos int) (int, bool) {
	depth := 0
	for k := pos; k < len(src) && k-pos < 256; k++ {
		switch c := src[k]; c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth < 0 {
				return 0, false
			}
		case '"', '\'', '`', ',', ';', '\n':
			if depth == 0 {
				return 0, false
			}
		case '+':
			if depth == 0 {
				k++
				for k < len(src) && isSpace(src[k]) {
					k++
				}
				return k, true
			}
		}
	}
	return 0, false
}

// literal reads one string literal at pos (an f/r/b/u prefix allowed):
// its text, whether it interpolates, and the offset after it.
func literal(src []byte, pos int) (text string, interp bool, end int, ok bool) {
	s := pos
	for s < len(src) && s-pos < 2 && strings.IndexByte("fFrRbBuU", src[s]) >= 0 {
		interp = interp || src[s]|0x20 == 'f'
		s++
	}
	if s >= len(src) {
		return "", false, 0, false
	}
	q := src[s]
	switch {
	case q != '"' && q != '\'' && q != '`':
		return "", false, 0, false
	case s+2 < len(src) && src[s+1] == q && src[s+2] == q:
		e := bytes.Index(src[s+3:min(len(src), s+3+1<<20)], src[s:s+3])
		if e < 0 {
			return "", false, 0, false
		}
		return string(src[s+3 : s+3+e]), interp, s + 3 + e + 3, true
	case q == '`':
		e := bytes.IndexByte(src[s+1:min(len(src), s+1+1<<20)], '`')
		if e < 0 {
			return "", false, 0, false
		}
		text = string(src[s+1 : s+1+e])
		return text, interp || strings.Contains(text, "${"), s + 1 + e + 1, true
	}
	e := s + 1
	for e < len(src) && src[e] != q && src[e] != '\n' {
		if src[e] == '\\' {
			e++
		}
		e++
	}
	if e >= len(src) || src[e] != q {
		return "", false, 0, false
	}
	return string(src[s+1 : e]), interp, e + 1, true
}
