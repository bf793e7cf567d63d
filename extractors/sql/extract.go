package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
	q "github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// Extractor is the SQL extractor. It reads statements with the shared
// sdk/sqltext lexer rather than the tree: the host's tree-sitter SQL
// grammar has no rules for CREATE POLICY, GRANT or ROW LEVEL SECURITY and
// turns them into ERROR nodes, while the statements a lexer reads are the
// same in every dialect. The tree still marks statements it could not parse
// (see diagnose).
type Extractor struct{}

// Bounds that keep a 5 MB dump from becoming a million nodes.
const (
	maxQueries  = 1000 // DML statements recorded per file
	maxRaw      = 2000 // bytes of statement text kept on a node
	maxExprText = 500  // bytes of a policy expression
)

// file is the state of one file's extraction.
type file struct {
	f        *extract.File
	src      string
	dialect  q.Dialect
	queries  int
	dropped  int
	unknown  int
	firstBad int
}

// Extract reports one file's schema objects and statements.
func (Extractor) Extract(f *extract.File) error {
	src := string(f.Source())
	x := &file{f: f, src: src, dialect: detectDialect(src)}
	for _, st := range q.Split(src) {
		x.statement(st)
	}
	if x.dropped > 0 {
		f.Errorf("%d DML statements after the first %d were not recorded", x.dropped, maxQueries)
	}
	if x.unknown > 0 {
		f.Errorf("%d statements could not be read (first at L%d); kept as text", x.unknown, x.firstBad)
	}
	return nil
}

// detectDialect guesses a file's dialect from markers only one dialect uses.
func detectDialect(src string) q.Dialect {
	u := strings.ToUpper(src)
	switch {
	case strings.Contains(u, "AUTO_INCREMENT") || strings.Contains(u, "ENGINE=") || strings.Contains(u, "ENGINE =") || strings.Contains(src, "`"):
		return q.MySQL
	case strings.Contains(u, "NVARCHAR") || strings.Contains(u, "IDENTITY(") || strings.Contains(u, "[DBO]") || strings.Contains(u, "SECURITY POLICY") || strings.Contains(u, "\nGO\n"):
		return q.MSSQL
	case strings.Contains(u, "AUTOINCREMENT") || strings.Contains(u, "PRAGMA ") || strings.Contains(u, "WITHOUT ROWID"):
		return q.SQLite
	}
	return q.Postgres
}

func (x *file) span(st q.Statement) abi.Span {
	endOff := st.Off + len(st.Text)
	endLine := st.Line + strings.Count(st.Text, "\n")
	col := st.Off - strings.LastIndexByte(x.src[:st.Off], '\n')
	endCol := endOff - strings.LastIndexByte(x.src[:endOff], '\n')
	return abi.Span{StartLine: uint32(st.Line), StartCol: uint32(col), EndLine: uint32(endLine), EndCol: uint32(endCol)}
}

func (x *file) symbol(kind, name string, parent int32, span abi.Span, raw string, attrs []abi.Param) int32 {
	return x.f.Symbol(abi.Symbol{Name: name, Kind: abi.SymbolKind(kind), Parent: parent, Span: span,
		Signature: &abi.Signature{Raw: q.Collapse(raw, maxRaw), Params: attrs}})
}

// words returns the upper-case words of toks up to n, for matching heads.
func words(toks []q.Token, n int) []string {
	var out []string
	for _, t := range toks {
		if len(out) == n {
			break
		}
		if t.Kind == q.Word {
			out = append(out, t.Upper())
		} else {
			out = append(out, t.Text)
		}
	}
	return out
}

// skipWords advances past any of the given upper-case words.
func skipWords(toks []q.Token, i int, ws ...string) int {
	for i < len(toks) {
		u := toks[i].Upper()
		found := false
		for _, w := range ws {
			if u == w {
				found = true
				break
			}
		}
		if !found {
			return i
		}
		i++
	}
	return i
}

func (x *file) statement(st q.Statement) {
	toks := st.Tokens
	verb := q.Verb(toks)
	ok := true
	switch verb {
	case "CREATE":
		ok = x.create(st)
	case "ALTER":
		ok = x.alter(st)
	case "DROP":
		x.drop(st)
	case "GRANT":
		ok = x.grant(st)
	case "SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE":
		x.query(st, verb)
	case "COMMENT", "SET", "BEGIN", "COMMIT", "ROLLBACK", "START", "END", "REVOKE", "TRUNCATE", "PRAGMA", "USE",
		"DECLARE", "PRINT", "IF", "DO", "ANALYZE", "VACUUM", "COPY", "LOCK", "SAVEPOINT", "RELEASE", "EXEC", "CALL",
		"DELIMITER", "REINDEX", "REFRESH", "NOTIFY", "LISTEN", "RESET", "SHOW", "EXPLAIN", "VALUES", "\\":
	default:
		ok = false
	}
	if !ok {
		x.unknown++
		if x.firstBad == 0 {
			x.firstBad = st.Line
		}
		x.symbol(q.KindStatement, "statement L"+itoa(st.Line), -1, x.span(st), st.Text, nil)
	}
}

// create dispatches CREATE statements; false means unreadable.
func (x *file) create(st q.Statement) bool {
	toks := st.Tokens
	i := skipWords(toks, 1, "OR", "REPLACE", "TEMP", "TEMPORARY", "UNLOGGED", "GLOBAL", "LOCAL", "MATERIALIZED", "RECURSIVE", "UNIQUE", "CONSTRAINT", "DEFINER", "ALGORITHM", "SQL", "SECURITY")
	if i >= len(toks) {
		return false
	}
	// MySQL DEFINER = user and ALGORITHM = x may sit between CREATE and VIEW.
	for i+2 < len(toks) && toks[i].Text == "=" {
		i = skipWords(toks, i+2, "SQL", "SECURITY", "DEFINER", "INVOKER", "ALGORITHM")
	}
	switch toks[i].Upper() {
	case "TABLE":
		return x.createTable(st, i+1)
	case "INDEX":
		return x.createIndex(st, i+1)
	case "VIEW":
		return x.createView(st, i+1)
	case "POLICY":
		return x.createPolicy(st, i+1)
	case "FUNCTION", "PROCEDURE", "PROC":
		return x.createRoutine(st, i)
	case "TRIGGER":
		return x.createTrigger(st, i+1)
	case "SCHEMA", "EXTENSION", "TYPE", "SEQUENCE", "ROLE", "USER", "DATABASE", "DOMAIN", "AGGREGATE", "OPERATOR", "COLLATION", "PUBLICATION", "SUBSCRIPTION", "SERVER", "EVENT", "RULE", "CAST", "LANGUAGE", "TABLESPACE", "LOGIN", "STATISTICS", "VIRTUAL", "TEXT", "FOREIGN":
		if toks[i].Upper() == "VIRTUAL" && i+1 < len(toks) && toks[i+1].Upper() == "TABLE" {
			return x.createTable(st, i+2)
		}
		return true
	}
	if i > 0 && toks[i-1].Upper() == "SECURITY" && toks[i].Upper() == "POLICY" {
		return x.createPolicy(st, i+1)
	}
	return false
}

func (x *file) createTable(st q.Statement, i int) bool {
	toks := st.Tokens
	i = skipWords(toks, i, "IF", "NOT", "EXISTS")
	name, i := q.QualifiedName(toks, i)
	if name == "" {
		return false
	}
	span := x.span(st)
	head := st.Text
	if j := strings.IndexByte(head, '('); j > 0 {
		head = head[:j]
	}
	attrs := []abi.Param{{Name: q.AttrDialect, Type: x.dialect}}
	var pk []string
	t := x.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindTable, Parent: -1, Span: span})
	if i < len(toks) && toks[i].Upper() == "AS" {
		x.f.Symbols()[t].Signature = &abi.Signature{Raw: q.Collapse(head, maxRaw), Params: attrs}
		return true
	}
	if i >= len(toks) || toks[i].Text != "(" {
		x.f.Symbols()[t].Signature = &abi.Signature{Raw: q.Collapse(head, maxRaw), Params: attrs}
		return i >= len(toks) || toks[i].Upper() == "LIKE"
	}
	for _, def := range splitList(toks, i) {
		if p := x.definition(st, t, name, def); p != nil {
			pk = append(pk, p...)
		}
	}
	if len(pk) > 0 {
		attrs = append(attrs, abi.Param{Name: q.AttrPrimaryKey, Type: strings.Join(pk, ",")})
	}
	x.f.Symbols()[t].Signature = &abi.Signature{Raw: q.Collapse(head, maxRaw), Params: attrs}
	return true
}

// splitList returns the comma-separated items inside the parentheses that
// open at toks[i].
func splitList(toks []q.Token, i int) [][]q.Token {
	var out [][]q.Token
	depth, start := 0, i+1
	for j := i; j < len(toks); j++ {
		switch toks[j].Text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				if j > start {
					out = append(out, toks[start:j])
				}
				return out
			}
		case ",":
			if depth == 1 {
				out = append(out, toks[start:j])
				start = j + 1
			}
		}
	}
	if len(toks) > start {
		out = append(out, toks[start:])
	}
	return out
}

// names reads the identifiers of a parenthesised list at toks[i].
func names(toks []q.Token, i int) ([]string, int) {
	if i >= len(toks) || toks[i].Text != "(" {
		return nil, i
	}
	var out []string
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].Text {
		case "(":
			depth++
			continue
		case ")":
			depth--
			if depth == 0 {
				return out, j + 1
			}
			continue
		}
		if depth == 1 && toks[j].IsIdent() && (j == i+1 || toks[j-1].Text == ",") {
			out = append(out, toks[j].Name())
		}
	}
	return out, len(toks)
}

// reference reads REFERENCES t (c) at toks[i] (the word after REFERENCES).
func reference(toks []q.Token, i int) string {
	t, j := q.QualifiedName(toks, i)
	if cols, _ := names(toks, j); len(cols) > 0 {
		return t + "." + cols[0]
	}
	return t
}

func (x *file) tokSpan(toks []q.Token) abi.Span {
	first, last := toks[0], toks[len(toks)-1]
	return x.span(q.Statement{Text: x.src[first.Off : last.Off+len(last.Text)], Off: first.Off, Line: first.Line})
}

func (x *file) tokText(toks []q.Token) string {
	first, last := toks[0], toks[len(toks)-1]
	return x.src[first.Off : last.Off+len(last.Text)]
}

// definition reads one column or table constraint of CREATE TABLE (or
// ALTER TABLE ADD) under symbol parent; it returns primary key columns a
// table constraint declares.
func (x *file) definition(st q.Statement, parent int32, table string, def []q.Token) []string {
	if len(def) == 0 {
		return nil
	}
	cname := ""
	k := 0
	if def[0].Upper() == "CONSTRAINT" && len(def) > 2 {
		cname, k = def[1].Name(), 2
	}
	switch def[k].Upper() {
	case "PRIMARY":
		cols, _ := names(def, skipWords(def, k+1, "KEY", "CLUSTERED", "NONCLUSTERED"))
		if cname != "" {
			x.symbol(q.KindConstraint, cname, parent, x.tokSpan(def), x.tokText(def), []abi.Param{{Name: q.AttrOn, Type: table}, {Name: q.AttrPrimaryKey, Type: strings.Join(cols, ",")}})
		}
		return cols
	case "FOREIGN":
		cols, j := names(def, skipWords(def, k+1, "KEY"))
		j = skipWords(def, j, "REFERENCES")
		ref := reference(def, j)
		if cname == "" {
			cname = table + "_" + strings.Join(cols, "_") + "_fkey"
		}
		attrs := []abi.Param{{Name: q.AttrOn, Type: table}}
		for _, c := range cols {
			attrs = append(attrs, abi.Param{Name: q.AttrColumn, Type: c})
		}
		x.symbol(q.KindConstraint, cname, parent, x.tokSpan(def), x.tokText(def), append(attrs, abi.Param{Name: q.AttrReferences, Type: ref}))
		return nil
	case "UNIQUE", "CHECK", "KEY", "INDEX", "EXCLUDE", "FULLTEXT", "SPATIAL", "LIKE", "PERIOD":
		if u := def[k].Upper(); u == "UNIQUE" || u == "KEY" || u == "INDEX" {
			j := skipWords(def, k+1, "KEY", "INDEX", "CLUSTERED", "NONCLUSTERED")
			if j < len(def) && def[j].IsIdent() { // KEY name (cols)
				if cname == "" {
					cname = def[j].Name()
				}
				j++
			}
			cols, _ := names(def, j)
			if len(cols) > 0 {
				attrs := []abi.Param{{Name: q.AttrOn, Type: table}}
				for _, c := range cols {
					attrs = append(attrs, abi.Param{Name: q.AttrColumn, Type: c})
				}
				if u == "UNIQUE" {
					attrs = append(attrs, abi.Param{Name: q.AttrUnique})
				}
				n := cname
				if n == "" {
					n = table + "_" + strings.Join(cols, "_") + "_key"
				}
				x.symbol(q.KindIndex, n, parent, x.tokSpan(def), x.tokText(def), attrs)
			}
		}
		return nil
	}
	x.column(parent, def[k:])
	return nil
}

// column reads "name type [constraints]".
func (x *file) column(parent int32, def []q.Token) {
	if !def[0].IsIdent() {
		return
	}
	name := def[0].Name()
	j := 1
	depth := 0
	for ; j < len(def); j++ {
		t := def[j]
		if depth == 0 && t.Kind == q.Word && columnConstraint(t.Upper()) {
			break
		}
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth--
		}
	}
	typ := ""
	if j > 1 {
		typ = strings.ToLower(q.Collapse(x.tokText(def[1:j]), 200))
	}
	var attrs []abi.Param
	for ; j < len(def); j++ {
		switch def[j].Upper() {
		case "PRIMARY":
			attrs = append(attrs, abi.Param{Name: q.AttrPrimaryKey})
		case "NOT":
			if j+1 < len(def) && def[j+1].Upper() == "NULL" {
				attrs = append(attrs, abi.Param{Name: q.AttrNotNull})
			}
		case "UNIQUE":
			attrs = append(attrs, abi.Param{Name: q.AttrUnique})
		case "REFERENCES":
			attrs = append(attrs, abi.Param{Name: q.AttrReferences, Type: reference(def, j+1)})
		}
	}
	x.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindColumn, Parent: parent, Span: x.tokSpan(def),
		Signature: &abi.Signature{Return: typ, Raw: q.Collapse(x.tokText(def), maxRaw), Params: attrs}})
}

func columnConstraint(u string) bool {
	switch u {
	case "PRIMARY", "NOT", "NULL", "UNIQUE", "REFERENCES", "DEFAULT", "CHECK", "CONSTRAINT", "GENERATED", "COLLATE", "AUTO_INCREMENT", "AUTOINCREMENT", "IDENTITY", "COMMENT", "ON", "AS":
		return true
	}
	return false
}

func (x *file) createIndex(st q.Statement, i int) bool {
	toks := st.Tokens
	unique := false
	for _, t := range toks[:i] {
		if t.Upper() == "UNIQUE" {
			unique = true
		}
	}
	i = skipWords(toks, i, "CONCURRENTLY", "IF", "NOT", "EXISTS")
	name := ""
	if i < len(toks) && toks[i].Upper() != "ON" {
		name, i = q.QualifiedName(toks, i)
	}
	if i >= len(toks) || toks[i].Upper() != "ON" {
		return false
	}
	table, j := q.QualifiedName(toks, skipWords(toks, i+1, "ONLY"))
	if table == "" {
		return false
	}
	if j < len(toks) && toks[j].Upper() == "USING" {
		j += 2
	}
	attrs := []abi.Param{{Name: q.AttrOn, Type: table}}
	for _, item := range splitList(toks, j) {
		if len(item) > 0 && item[0].IsIdent() && (len(item) == 1 || item[1].Text != "(") {
			attrs = append(attrs, abi.Param{Name: q.AttrColumn, Type: item[0].Name()})
		} else if len(item) > 0 {
			attrs = append(attrs, abi.Param{Name: q.AttrColumn, Type: "(" + q.Collapse(x.tokText(item), 200) + ")"})
		}
	}
	if unique {
		attrs = append(attrs, abi.Param{Name: q.AttrUnique})
	}
	if name == "" {
		name = table + "_idx"
	}
	x.symbol(q.KindIndex, name, -1, x.span(st), st.Text, attrs)
	return true
}

func (x *file) createView(st q.Statement, i int) bool {
	toks := st.Tokens
	i = skipWords(toks, i, "IF", "NOT", "EXISTS")
	name, i := q.QualifiedName(toks, i)
	if name == "" {
		return false
	}
	var attrs []abi.Param
	body := toks[i:]
	for k := i; k < len(toks); k++ {
		if toks[k].Upper() == "AS" {
			opts := toks[i:k]
			for o := 0; o+2 < len(opts); o++ {
				if opts[o].Name() == "security_invoker" && opts[o+1].Text == "=" {
					if v := strings.ToLower(strings.Trim(opts[o+2].Text, "'")); v == "true" || v == "on" || v == "1" {
						attrs = append(attrs, abi.Param{Name: q.AttrSecurityInvoker})
					}
				}
			}
			body = toks[k+1:]
			break
		}
	}
	for _, t := range q.Tables(body) {
		attrs = append(attrs, abi.Param{Name: q.AttrReads, Type: t})
	}
	x.symbol(q.KindView, name, -1, x.span(st), st.Text, attrs)
	return true
}

// createPolicy reads CREATE POLICY (Postgres) and CREATE SECURITY POLICY
// (SQL Server).
func (x *file) createPolicy(st q.Statement, i int) bool {
	toks := st.Tokens
	secPolicy := toks[i-2].Upper() == "SECURITY"
	name, i := q.QualifiedName(toks, i)
	if name == "" {
		return false
	}
	var attrs []abi.Param
	if secPolicy {
		attrs = append(attrs, abi.Param{Name: q.AttrSecurityPolicy})
		for k := i; k+1 < len(toks); k++ {
			if toks[k].Upper() == "ON" && toks[k+1].IsIdent() {
				t, _ := q.QualifiedName(toks, k+1)
				attrs = append(attrs, abi.Param{Name: q.AttrOn, Type: t})
			}
		}
		x.symbol(q.KindPolicy, name, -1, x.span(st), st.Text, attrs)
		return true
	}
	if i >= len(toks) || toks[i].Upper() != "ON" {
		return false
	}
	table, i := q.QualifiedName(toks, i+1)
	attrs = append(attrs, abi.Param{Name: q.AttrOn, Type: table})
	cmd := "ALL"
	for i < len(toks) {
		switch toks[i].Upper() {
		case "AS":
			i += 2
		case "FOR":
			if i+1 < len(toks) {
				cmd = toks[i+1].Upper()
			}
			i += 2
		case "TO":
			i++
			for i < len(toks) && toks[i].IsIdent() && toks[i].Upper() != "USING" && toks[i].Upper() != "WITH" {
				attrs = append(attrs, abi.Param{Name: q.AttrRole, Type: toks[i].Name()})
				i++
				if i < len(toks) && toks[i].Text == "," {
					i++
				}
			}
		case "USING":
			e, j := parenExpr(toks, i+1)
			attrs = append(attrs, abi.Param{Name: q.AttrUsing, Type: q.Collapse(x.tokText(e), maxExprText)})
			i = j
		case "WITH":
			if i+1 < len(toks) && toks[i+1].Upper() == "CHECK" {
				e, j := parenExpr(toks, i+2)
				attrs = append(attrs, abi.Param{Name: q.AttrWithCheck, Type: q.Collapse(x.tokText(e), maxExprText)})
				i = j
				continue
			}
			i++
		default:
			i++
		}
	}
	attrs = append(attrs, abi.Param{Name: q.AttrCommand, Type: cmd})
	x.symbol(q.KindPolicy, name, -1, x.span(st), st.Text, attrs)
	return true
}

// parenExpr returns the tokens of the parenthesised expression at toks[i]
// (parentheses included) and the index after it.
func parenExpr(toks []q.Token, i int) ([]q.Token, int) {
	if i >= len(toks) {
		return toks[len(toks)-1:], i
	}
	if toks[i].Text != "(" {
		return toks[i : i+1], i + 1
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].Text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 {
				return toks[i : j+1], j + 1
			}
		}
	}
	return toks[i:], len(toks)
}

func (x *file) createRoutine(st q.Statement, i int) bool {
	toks := st.Tokens
	kind := q.KindFunction
	if toks[i].Upper() != "FUNCTION" {
		kind = q.KindProcedure
	}
	name, j := q.QualifiedName(toks, skipWords(toks, i+1, "IF", "NOT", "EXISTS"))
	if name == "" {
		return false
	}
	sig := &abi.Signature{}
	args := splitList(toks, j)
	if j < len(toks) && toks[j].Text != "(" { // SQL Server: @a INT, @b INT AS
		end := j
		for end < len(toks) && toks[end].Upper() != "AS" && !routineClause(toks[end].Upper()) {
			end++
		}
		args = splitTop(toks[j:end])
	}
	for _, arg := range args {
		var p abi.Param
		k := skipWords(arg, 0, "IN", "OUT", "INOUT", "VARIADIC")
		if k < len(arg) {
			if p.Name = arg[k].Name(); p.Name == "" {
				p.Name = arg[k].Text // @param
			}
			if k+1 < len(arg) {
				p.Type = strings.ToLower(q.Collapse(x.tokText(arg[k+1:]), 100))
			}
			sig.Params = append(sig.Params, p)
		}
	}
	for k := j; k+1 < len(toks); k++ {
		if toks[k].Upper() == "RETURNS" {
			end := k + 2
			for end < len(toks) && toks[end].Kind != q.String && !routineClause(toks[end].Upper()) {
				end++
			}
			sig.Return = strings.ToLower(q.Collapse(x.tokText(toks[k+1:end]), 200))
			break
		}
	}
	head := st.Text
	for k := j; k < len(toks); k++ {
		if toks[k].Upper() == "AS" || toks[k].Upper() == "BEGIN" || toks[k].Kind == q.String || toks[k].Upper() == "LANGUAGE" {
			head = x.src[st.Off:toks[k].Off]
			break
		}
	}
	sig.Raw = q.Collapse(head, maxRaw)
	x.f.Symbol(abi.Symbol{Name: name, Kind: abi.SymbolKind(kind), Parent: -1, Span: x.span(st), Signature: sig})
	return true
}

func routineClause(u string) bool {
	switch u {
	case "AS", "LANGUAGE", "IMMUTABLE", "STABLE", "VOLATILE", "SECURITY", "BEGIN", "RETURN", "DETERMINISTIC", "READS", "MODIFIES", "NO", "CONTAINS", "STRICT", "PARALLEL", "COST", "SET", "WITH", "CALLED", "LEAKPROOF":
		return true
	}
	return false
}

func (x *file) createTrigger(st q.Statement, i int) bool {
	toks := st.Tokens
	name, i := q.QualifiedName(toks, skipWords(toks, i, "IF", "NOT", "EXISTS"))
	if name == "" {
		return false
	}
	var attrs []abi.Param
	for k := i; k+1 < len(toks); k++ {
		switch toks[k].Upper() {
		case "ON":
			if len(attrs) == 0 {
				t, _ := q.QualifiedName(toks, k+1)
				attrs = append(attrs, abi.Param{Name: q.AttrOn, Type: t})
			}
		case "EXECUTE":
			f, _ := q.QualifiedName(toks, skipWords(toks, k+1, "FUNCTION", "PROCEDURE"))
			attrs = append(attrs, abi.Param{Name: q.AttrExecutes, Type: f})
		}
	}
	x.symbol(q.KindTrigger, name, -1, x.span(st), st.Text, attrs)
	return true
}

// alter reads ALTER TABLE: row-level security switches, added columns and
// constraints, and a rename of the table. Other ALTERs carry nothing the audit reads.
func (x *file) alter(st q.Statement) bool {
	toks := st.Tokens
	if len(toks) < 3 || toks[1].Upper() != "TABLE" {
		return true
	}
	table, i := q.QualifiedName(toks, skipWords(toks, 2, "ONLY", "IF", "EXISTS"))
	if table == "" {
		return false
	}
	var attrs []abi.Param
	t := x.f.Symbol(abi.Symbol{Name: table, Kind: abi.KindAlterTable, Parent: -1, Span: x.span(st)})
	for _, action := range splitTop(toks[i:]) {
		w := words(action, 4)
		switch {
		case len(w) >= 4 && w[1] == "ROW" && w[2] == "LEVEL" && w[3] == "SECURITY":
			switch w[0] {
			case "ENABLE":
				attrs = append(attrs, abi.Param{Name: q.AttrEnableRLS})
			case "FORCE":
				attrs = append(attrs, abi.Param{Name: q.AttrForceRLS})
			case "DISABLE":
				attrs = append(attrs, abi.Param{Name: q.AttrDisableRLS})
			}
		case len(w) >= 2 && w[0] == "RENAME" && w[1] == "TO" && len(action) > 2:
			// ALTER TABLE a RENAME TO b (RENAME COLUMN is not a rename of the table)
			if to, _ := q.QualifiedName(action, 2); to != "" {
				attrs = append(attrs, abi.Param{Name: q.AttrRenameTo, Type: to})
			}
		case len(w) >= 2 && w[0] == "ADD":
			k := skipWords(action, 1, "COLUMN", "IF", "NOT", "EXISTS")
			x.definition(st, t, table, action[k:])
			if len(w) >= 3 && (w[1] == "PRIMARY" || (w[1] == "CONSTRAINT" && len(action) > 3 && action[3].Upper() == "PRIMARY")) {
				k := 1
				if w[1] == "CONSTRAINT" {
					k = 3
				}
				cols, _ := names(action, skipWords(action, k+1, "KEY", "CLUSTERED", "NONCLUSTERED"))
				attrs = append(attrs, abi.Param{Name: q.AttrPrimaryKey, Type: strings.Join(cols, ",")})
			}
		}
	}
	x.f.Symbols()[t].Signature = &abi.Signature{Raw: q.Collapse(st.Text, maxRaw), Params: attrs}
	return true
}

// drop records DROP TABLE a, b: the tables stop existing at this point of
// the migrations. Other DROPs carry nothing the audit reads.
func (x *file) drop(st q.Statement) {
	toks := st.Tokens
	if len(toks) < 3 || toks[1].Upper() != "TABLE" {
		return
	}
	i := skipWords(toks, 2, "IF", "EXISTS")
	for i < len(toks) {
		name, k := q.QualifiedName(toks, i)
		if name == "" {
			return
		}
		x.symbol(q.KindDropTable, name, -1, x.span(st), st.Text, nil)
		if k >= len(toks) || toks[k].Text != "," {
			return
		}
		i = k + 1
	}
}

// splitTop splits tokens at top-level commas.
func splitTop(toks []q.Token) [][]q.Token {
	var out [][]q.Token
	depth, start := 0, 0
	for j, t := range toks {
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth--
		case ",":
			if depth == 0 {
				out = append(out, toks[start:j])
				start = j + 1
			}
		}
	}
	if start < len(toks) {
		out = append(out, toks[start:])
	}
	return out
}

func (x *file) grant(st q.Statement) bool {
	toks := st.Tokens
	var attrs []abi.Param
	i := 1
	for ; i < len(toks) && toks[i].Upper() != "ON"; i++ {
		if toks[i].Kind == q.Word && (i == 1 || toks[i-1].Text == ",") {
			attrs = append(attrs, abi.Param{Name: q.AttrPrivilege, Type: toks[i].Upper()})
		}
	}
	if i >= len(toks) {
		return true // a role grant: GRANT admin TO alice
	}
	switch toks[min(i+1, len(toks)-1)].Upper() {
	case "SCHEMA", "DATABASE", "FUNCTION", "FUNCTIONS", "PROCEDURE", "ROUTINE", "SEQUENCE", "SEQUENCES", "TYPE", "DOMAIN", "LANGUAGE", "TABLESPACE", "FOREIGN", "LARGE", "PARAMETER":
		return true // not a grant on tables: nothing the audit reads
	}
	i = skipWords(toks, i+1, "TABLE")
	if i < len(toks) && toks[i].Upper() == "ALL" { // ON ALL TABLES IN SCHEMA s
		i = skipWords(toks, i, "ALL", "TABLES", "IN", "SCHEMA")
		attrs = append(attrs, abi.Param{Name: q.AttrOn, Type: "*"})
	}
	for i < len(toks) && toks[i].Upper() != "TO" {
		if toks[i].IsIdent() && !strings.EqualFold(toks[i].Text, "schema") {
			var t string
			t, i = q.QualifiedName(toks, i)
			attrs = append(attrs, abi.Param{Name: q.AttrOn, Type: t})
			continue
		}
		i++
	}
	for i++; i < len(toks); i++ {
		if toks[i].IsIdent() && (toks[i-1].Upper() == "TO" || toks[i-1].Text == ",") {
			attrs = append(attrs, abi.Param{Name: q.AttrRole, Type: toks[i].Name()})
		}
	}
	x.symbol(q.KindGrant, "grant L"+itoa(st.Line), -1, x.span(st), st.Text, attrs)
	return true
}

func (x *file) query(st q.Statement, verb string) {
	if x.queries >= maxQueries {
		x.dropped++
		return
	}
	x.queries++
	attrs := []abi.Param{{Name: q.AttrVerb, Type: verb}}
	name := strings.ToLower(verb)
	for i, t := range q.Tables(st.Tokens) {
		if i == 0 {
			name += " " + t
		}
		attrs = append(attrs, abi.Param{Name: q.AttrTable, Type: t})
	}
	x.symbol(q.KindQuery, name+" L"+itoa(st.Line), -1, x.span(st), st.Text, attrs)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
