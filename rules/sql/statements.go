package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/rules"
	q "github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// checkStatement runs the query-text rules on one statement. fromCode
// marks text that code builds at run time (code→SQL sites and advise
// queries), the only place concatenation markers mean injection.
func checkStatement(st *abi.SQLStatement, fromCode bool, toks []q.Token, r *rules.Report) {
	verb := q.Verb(toks)
	node := st.Caller
	if node == "" {
		node = st.NodeID
	}
	evidence := ""
	add := func(f abi.Finding) {
		if evidence == "" {
			evidence = q.Collapse(st.Text, 300)
		}
		f.Evidence = evidence
		r.Add(f)
	}
	if fromCode {
		if m, ident := injectionMarker(st); m != "" {
			fix := "Pass values as bind parameters ($1, ?, :name) instead of building the text."
			if ident {
				fix = "The text is built around an identifier (table/column/ORDER BY): parameters cannot bind those, so check it against an allowlist of known names and quote it as an identifier."
			}
			add(finding("SEC-INJ-001", abi.SeverityCritical, "security", st.Location,
				"SQL built by string concatenation or interpolation",
				fmt.Sprintf("The statement text is assembled from pieces (%s); any piece that comes from a request can rewrite the query.", m), fix, 0.6, node))
		}
	}
	if selectStar(toks) {
		add(finding("PERF-SEL-001", abi.SeverityLow, "performance", st.Location, "SELECT *",
			"SELECT * reads and ships every column (including ones added later and large or sensitive ones) and breaks covering indexes.",
			"List the columns the caller uses.", 0.7, node))
	}
	if what := nonSargable(q.Clause(toks, "WHERE")); what != "" {
		add(finding("PERF-SARG-001", abi.SeverityMedium, "performance", st.Location, "Non-sargable predicate: "+what,
			"A function around a column, or a LIKE pattern starting with %, keeps the planner from using an index on that column.",
			"Compare the bare column (store a normalised copy, or add an expression index such as CREATE INDEX ON t (lower(email))); use a trigram index for infix search.", 0.55, node))
	}
	if (verb == "UPDATE" || verb == "DELETE") && !q.HasTopLevel(toks, "WHERE") && !hasCurrentOf(toks) {
		add(finding("PERF-DML-001", abi.SeverityHigh, "performance", st.Location, verb+" without WHERE",
			fmt.Sprintf("The %s touches every row of the table, locking it and rewriting it whole; usually a forgotten filter.", verb),
			"Add the WHERE clause, or use TRUNCATE if clearing the table is intended.", 0.85, node))
	}
	if randomOrder(q.Clause(toks, "ORDER")) {
		add(finding("PERF-RAND-001", abi.SeverityLow, "performance", st.Location, "ORDER BY random",
			"Ordering by RAND()/RANDOM() sorts the whole result to pick a few rows.",
			"Pick random keys in the application, or use TABLESAMPLE.", 0.8, node))
	}
	if line := loopLine(st.Context); line != "" {
		add(finding("PERF-N1-001", abi.SeverityHigh, "performance", st.Location, "Query inside a loop (N+1)",
			fmt.Sprintf("The query runs at a call site inside a loop (%q): one round trip per item.", q.Collapse(line, 80)),
			"Fetch all rows in one query (WHERE id = ANY($1) / IN (...)) or a join, before the loop.", 0.45, node))
	}
	if why := joinBlowUp(toks); why != "" {
		add(finding("PERF-JOIN-001", abi.SeverityLow, "performance", st.Location, "Join blow-up risk: "+why,
			"Many joins or an OR chain over one column make plans fragile and results multiply.",
			"Check the plan with EXPLAIN; replace OR chains with IN (...) and split very wide joins.", 0.4, node))
	}
	if verb == "INSERT" && insertWithoutColumns(toks) {
		add(finding("DES-INS-001", abi.SeverityLow, "design", st.Location, "INSERT without a column list",
			"INSERT INTO t VALUES (...) depends on the table's column order and breaks when a column is added.",
			"Name the columns: INSERT INTO t (a, b) VALUES (...).", 0.6, node))
	}
}

// lexer lexes statement after statement into one reused buffer: a fresh
// token slice per statement was the pack's largest allocation, and a
// guest pays for garbage with a collector on its one thread. Tokens are
// valid until the next lex.
type lexer struct {
	q.Lexer
	buf []q.Token
}

func (l *lexer) lex(text string) []q.Token {
	l.buf = l.Lex(l.buf[:0], text, 1)
	return l.buf
}

// injectionMarker returns the concatenation or interpolation marker in a
// statement built at run time, and whether it sits where an identifier
// goes.
func injectionMarker(st *abi.SQLStatement) (string, bool) {
	switch st.Built {
	case abi.BuiltConcatenation, abi.BuiltInterpolation:
		return st.Built, identPosition(st.Text)
	}
	for _, m := range []string{"' +", "+ '", "\" +", "+ \"", "${", ".format(", "f\"", "|| '"} {
		if strings.Contains(st.Text, m) {
			return m, identPosition(st.Text)
		}
	}
	return "", false
}

// identPosition reports a marker right after FROM/JOIN/INTO/UPDATE/TABLE or
// ORDER BY, where a bind parameter cannot go.
func identPosition(text string) bool {
	u := strings.ToUpper(text)
	for _, kw := range []string{"FROM ", "JOIN ", "INTO ", "UPDATE ", "TABLE ", "ORDER BY "} {
		for i := strings.Index(u, kw); i >= 0; {
			rest := strings.TrimLeft(text[i+len(kw):], " ")
			if strings.HasPrefix(rest, "${") || strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "\"") || strings.HasPrefix(rest, "'") || strings.HasPrefix(rest, "%s") || strings.HasPrefix(rest, "+") {
				return true
			}
			j := strings.Index(u[i+1:], kw)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

func selectStar(toks []q.Token) bool {
	depth := 0
	for i, t := range toks {
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth != 0 || t.Text != "*" || i == 0 {
			continue
		}
		prev := toks[i-1]
		if prev.Upper() == "SELECT" || prev.Upper() == "DISTINCT" || prev.Text == "," || (prev.Text == "." && i >= 2 && selectList(toks, i)) {
			return true
		}
	}
	return false
}

// selectList reports t.* in the select list (before FROM).
func selectList(toks []q.Token, i int) bool {
	for j := i; j >= 0; j-- {
		switch toks[j].Upper() {
		case "SELECT":
			return true
		case "FROM", "WHERE":
			return false
		}
	}
	return false
}

var nonSargableFuncs = map[string]bool{"LOWER": true, "UPPER": true, "COALESCE": true, "CAST": true, "DATE": true, "SUBSTR": true, "SUBSTRING": true, "TRIM": true}

func nonSargable(where []q.Token) string {
	for i := 0; i+2 < len(where); i++ {
		t := where[i]
		if nonSargableFuncs[t.Upper()] && where[i+1].Text == "(" && where[i+2].IsIdent() && !isValueWord(where[i+2].Upper()) {
			return strings.ToLower(t.Text) + "(" + where[i+2].Name() + ")"
		}
		if (t.Upper() == "LIKE" || t.Upper() == "ILIKE") && where[i+1].Kind == q.String && strings.HasPrefix(strings.TrimLeft(where[i+1].Text, "EeNn"), "'%") {
			return "LIKE " + where[i+1].Text
		}
	}
	if n := len(where); n >= 2 && (where[n-2].Upper() == "LIKE" || where[n-2].Upper() == "ILIKE") && strings.HasPrefix(where[n-1].Text, "'%") {
		return "LIKE " + where[n-1].Text
	}
	return ""
}

func isValueWord(u string) bool {
	switch u {
	case "CURRENT_DATE", "CURRENT_TIMESTAMP", "NOW", "NULL":
		return true
	}
	return false
}

func hasCurrentOf(toks []q.Token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Upper() == "CURRENT" && toks[i+1].Upper() == "OF" {
			return true
		}
	}
	return false
}

func randomOrder(order []q.Token) bool {
	for i := 0; i+1 < len(order); i++ {
		if u := order[i].Upper(); (u == "RAND" || u == "RANDOM" || u == "NEWID") && order[i+1].Text == "(" {
			return true
		}
	}
	return false
}

func loopLine(context []string) string {
	for i := len(context) - 1; i >= 0; i-- {
		l := strings.TrimSpace(context[i])
		for _, w := range []string{"for ", "for(", "while ", "while(", ".map(", ".each(", ".forEach(", ".each do", "foreach"} {
			if (strings.HasPrefix(l, w) || (strings.HasPrefix(w, ".") && strings.Contains(l, w))) && stillOpen(context[i:]) {
				return l
			}
		}
	}
	return ""
}

// stillOpen reports a loop, opened on lines[0], whose body reaches the
// line after lines: its brackets are not all closed again
// (xs.map(x => ({...})); db.query(...) is after the loop), or, for a loop
// line ending in ':' (Python), every later line is indented deeper; a
// loop without either (a one-statement Java for) holds the next line only.
func stillOpen(lines []string) bool {
	depth := 0
	for _, l := range lines {
		for _, c := range l {
			switch c {
			case '{', '(', '[':
				depth++
			case '}', ')', ']':
				depth--
			}
		}
	}
	head := strings.TrimRight(lines[0], " \t")
	switch {
	case strings.HasSuffix(head, ":"):
		indent := len(head) - len(strings.TrimLeft(head, " \t"))
		for _, l := range lines[1:] {
			if t := strings.TrimLeft(l, " \t"); t != "" && len(l)-len(t) <= indent {
				return false
			}
		}
		return true
	case strings.HasSuffix(head, " do") || strings.Contains(head, " do |"):
		return true // a Ruby block: its end is not looked for
	case depth > 0:
		return true
	}
	return len(lines) == 1 && !strings.HasSuffix(head, ";") && !strings.HasSuffix(head, "}")
}

func joinBlowUp(toks []q.Token) string {
	joins := 0
	for _, t := range toks {
		if t.Upper() == "JOIN" {
			joins++
		}
	}
	if joins >= 4 {
		return fmt.Sprintf("%d joins", joins)
	}
	// col = a OR col = b OR col = c
	ors := map[string]int{}
	where := q.Clause(toks, "WHERE")
	for i := 0; i+1 < len(where); i++ {
		if where[i].IsIdent() && where[i+1].Text == "=" && (i == 1 || (i >= 1 && where[i-1].Upper() == "OR") || (i+3 < len(where) && where[i+3].Upper() == "OR")) {
			ors[where[i].Name()]++
		}
	}
	var cols []string
	for col, n := range ors {
		if n >= 3 {
			cols = append(cols, col)
		}
	}
	if len(cols) == 0 {
		return ""
	}
	sort.Strings(cols) // deterministic when several columns qualify
	return fmt.Sprintf("%s ORed against %d values", cols[0], ors[cols[0]])
}

func insertWithoutColumns(toks []q.Token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Upper() != "INTO" {
			continue
		}
		_, j := q.QualifiedName(toks, i+1)
		return j < len(toks) && (toks[j].Upper() == "VALUES" || toks[j].Upper() == "SELECT")
	}
	return false
}
