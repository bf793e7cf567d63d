package sqltext

import "strings"

// Verb returns the statement's main verb in upper case (SELECT, INSERT,
// UPDATE, DELETE, MERGE, CALL, EXEC, CREATE, ALTER, GRANT, ...), looking past
// a leading WITH clause's common table expressions.
func Verb(toks []Token) string {
	if len(toks) == 0 {
		return ""
	}
	v := toks[0].Upper()
	if v == "(" || toks[0].Text == "(" {
		for _, t := range toks {
			if u := t.Upper(); u != "" {
				return u
			}
		}
	}
	if v != "WITH" {
		if v == "EXECUTE" {
			return "EXEC"
		}
		return v
	}
	depth := 0
	for _, t := range toks[1:] {
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth == 0 {
			switch u := t.Upper(); u {
			case "SELECT", "INSERT", "UPDATE", "DELETE", "MERGE":
				return u
			}
		}
	}
	return "WITH"
}

// Writes reports a verb that changes rows.
func Writes(verb string) bool {
	switch verb {
	case "INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE", "UPSERT", "TRUNCATE":
		return true
	}
	return false
}

// QualifiedName reads a possibly schema-qualified name at toks[i] and
// returns it ("public.orders" is "orders": the default schema is dropped so
// a table matches however it is written) with the index after it.
func QualifiedName(toks []Token, i int) (string, int) {
	// A psql variable or template as the schema (:SCHEMA.jobs, @schema.t)
	// stands for the default schema.
	if i+2 < len(toks) && toks[i].Kind == Param && toks[i+1].Text == "." && toks[i+2].IsIdent() {
		i += 2
	}
	var parts []string
	for i < len(toks) && toks[i].IsIdent() {
		parts = append(parts, toks[i].Name())
		i++
		if i+1 < len(toks) && toks[i].Text == "." && toks[i+1].IsIdent() {
			i++
			continue
		}
		break
	}
	if len(parts) > 1 && (parts[0] == "public" || parts[0] == "dbo" || parts[0] == "main") {
		parts = parts[1:]
	}
	return strings.Join(parts, "."), i
}

// tableKeywords are the words followed by a table name.
var tableKeywords = map[string]bool{"FROM": true, "JOIN": true, "INTO": true, "UPDATE": true, "TABLE": true, "USING": true}

// notTables are words that follow FROM/JOIN but are not a table.
var notTables = map[string]bool{"SELECT": true, "LATERAL": true, "ONLY": true, "UNNEST": true, "GENERATE_SERIES": true, "DUAL": true, "IF": true, "EXISTS": true, "NOT": true}

// Tables returns the distinct table names a statement reads or writes, in
// order of appearance, without CTE names.
func Tables(toks []Token) []string {
	ctes := cteNames(toks)
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if name != "" && !seen[name] && !ctes[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for i := 0; i < len(toks); i++ {
		u := toks[i].Upper()
		if !tableKeywords[u] {
			continue
		}
		if u == "USING" && !(i > 0 && (strings.EqualFold(toks[i-1].Text, "merge") || inDelete(toks, i))) {
			continue
		}
		j := i + 1
		for j < len(toks) && (toks[j].Upper() == "ONLY" || toks[j].Upper() == "IF" || toks[j].Upper() == "NOT" || toks[j].Upper() == "EXISTS") {
			j++
		}
		for {
			if j >= len(toks) || !startsName(toks, j) || notTables[toks[j].Upper()] {
				break
			}
			name, k := QualifiedName(toks, j)
			if k < len(toks) && toks[k].Text == "(" && u != "INTO" && u != "TABLE" {
				break // a function call in FROM
			}
			add(name)
			if u != "FROM" {
				break
			}
			// FROM a x, b y: skip an alias, continue after a comma
			for k < len(toks) && toks[k].Text != "," && toks[k].IsIdent() && !clauseWord(toks[k].Upper()) {
				k++
			}
			if k >= len(toks) || toks[k].Text != "," {
				break
			}
			j = k + 1
		}
	}
	return out
}

func inDelete(toks []Token, i int) bool {
	return len(toks) > 0 && toks[0].Upper() == "DELETE"
}

func clauseWord(u string) bool {
	switch u {
	case "WHERE", "JOIN", "LEFT", "RIGHT", "INNER", "OUTER", "FULL", "CROSS", "ON", "GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "SET", "RETURNING", "WINDOW", "OFFSET", "FETCH", "FOR", "NATURAL", "EXCEPT", "INTERSECT", "VALUES", "USING", "AS":
		return u != "AS"
	}
	return false
}

func cteNames(toks []Token) map[string]bool {
	out := map[string]bool{}
	if len(toks) == 0 || toks[0].Upper() != "WITH" {
		return out
	}
	depth := 0
	for i := 1; i < len(toks); i++ {
		switch toks[i].Text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth == 0 && toks[i].IsIdent() && i+1 < len(toks) && (toks[i+1].Upper() == "AS" || toks[i+1].Text == "(") && toks[i].Upper() != "RECURSIVE" {
			out[toks[i].Name()] = true
		}
	}
	return out
}

// Clause returns the tokens of the top-level clause that starts with kw
// (WHERE, ORDER, ...), up to the next top-level clause keyword; nil when
// there is none.
func Clause(toks []Token, kw string) []Token {
	depth := 0
	for i, t := range toks {
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth != 0 || t.Upper() != kw {
			continue
		}
		j := i + 1
		d := 0
		for ; j < len(toks); j++ {
			switch toks[j].Text {
			case "(":
				d++
			case ")":
				d--
			}
			if d < 0 {
				break
			}
			if d == 0 && j > i+1 && endsClause(toks[j].Upper(), kw) {
				break
			}
		}
		return toks[i:j]
	}
	return nil
}

func endsClause(u, kw string) bool {
	switch u {
	case "GROUP", "ORDER", "LIMIT", "HAVING", "UNION", "RETURNING", "WINDOW", "OFFSET", "FETCH", "EXCEPT", "INTERSECT":
		return u != kw
	case "WHERE":
		return kw != "WHERE"
	case "FOR":
		return kw == "WHERE" || kw == "ORDER"
	}
	return false
}

// HasTopLevel reports whether the keyword occurs outside parentheses.
func HasTopLevel(toks []Token, kw string) bool { return Clause(toks, kw) != nil }

// ComparedColumns returns the column names a predicate compares (x = …,
// t.x IN (…), x LIKE …, x IS NULL), unqualified, distinct, in order.
func ComparedColumns(pred []Token) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i+1 < len(pred); i++ {
		if !pred[i].IsIdent() || isKeyword(pred[i].Upper()) {
			continue
		}
		if i > 0 && pred[i-1].Text == "." && i >= 2 && pred[i-2].IsIdent() {
			// the column of t.x; t itself is skipped below
		} else if pred[i+1].Text == "." {
			continue
		}
		if i > 0 && pred[i-1].Text == "(" && i >= 2 && pred[i-2].IsIdent() {
			// f(x = ...) is rare; a call's argument is still a column
		}
		if comparison(pred[i+1]) {
			if n := pred[i].Name(); !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

func comparison(t Token) bool {
	switch t.Text {
	case "=", "<", ">", "<=", ">=", "<>", "!=":
		return true
	}
	switch t.Upper() {
	case "IN", "LIKE", "ILIKE", "IS", "BETWEEN":
		return true
	}
	return false
}

var keywords = map[string]bool{"AND": true, "OR": true, "NOT": true, "NULL": true, "TRUE": true, "FALSE": true, "WHERE": true, "SELECT": true, "FROM": true, "ON": true, "CASE": true, "WHEN": true, "THEN": true, "ELSE": true, "END": true, "EXISTS": true, "ANY": true, "ALL": true, "CURRENT_USER": true, "SESSION_USER": true, "USING": true, "CHECK": true, "WITH": true}

func isKeyword(u string) bool { return keywords[u] }

// startsName reports a name at toks[i]: an identifier, or a psql variable
// standing for its schema (:SCHEMA.t).
func startsName(toks []Token, i int) bool {
	return toks[i].IsIdent() || (toks[i].Kind == Param && i+2 < len(toks) && toks[i+1].Text == "." && toks[i+2].IsIdent())
}

// WriteTarget returns the table a writing statement changes (INSERT/
// REPLACE/MERGE INTO t, UPDATE t, DELETE FROM t), looking past a leading
// WITH clause; "" when the statement does not write or names no table.
func WriteTarget(toks []Token) string {
	depth := 0
	for i, t := range toks {
		switch t.Text {
		case "(":
			depth++
		case ")":
			depth--
		}
		if depth != 0 {
			continue
		}
		var kw string
		switch t.Upper() {
		case "INSERT", "REPLACE", "MERGE", "UPSERT":
			kw = "INTO"
		case "DELETE":
			kw = "FROM"
		case "UPDATE":
			kw = "UPDATE"
		default:
			continue
		}
		j := i
		if kw != "UPDATE" {
			for j = i + 1; j < len(toks) && j < i+4 && toks[j].Upper() != kw; j++ {
			}
			if j >= len(toks) || toks[j].Upper() != kw {
				return ""
			}
		}
		j++
		for j < len(toks) && (toks[j].Upper() == "ONLY" || toks[j].Upper() == "IGNORE") {
			j++
		}
		if j < len(toks) && startsName(toks, j) && !notTables[toks[j].Upper()] {
			name, _ := QualifiedName(toks, j)
			return name
		}
		return ""
	}
	return ""
}
