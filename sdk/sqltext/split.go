package sqltext

import "strings"

// Statement is one statement of a SQL text.
type Statement struct {
	Text   string  // the statement as written, without its terminator
	Off    int     // byte offset of Text in the source
	Line   int     // 1-based line of its first token
	Tokens []Token // offsets relative to the source, not to Text
}

// Split cuts src into statements at top-level semicolons and at SQL
// Server's GO batch lines. Semicolons inside BEGIN … END blocks (MySQL and
// SQL Server routine bodies) do not end a statement. Empty statements are
// dropped.
func Split(src string) []Statement {
	toks := Lex(src, 1)
	var out []Statement
	start, depth := 0, 0
	flush := func(end int) {
		if end > start {
			out = append(out, statement(src, toks[start:end]))
		}
		start = end + 1
	}
	for i, t := range toks {
		switch u := t.Upper(); {
		case t.Kind == Punct && t.Text == ";" && depth == 0:
			flush(i)
		case u == "GO" && atLineStart(src, t.Off) && depth == 0:
			flush(i)
		case u == "BEGIN" && !beginsTransaction(toks, i):
			depth++
		case u == "CASE":
			depth++
		case u == "END" && depth > 0:
			depth--
		}
	}
	flush(len(toks))
	return out
}

func beginsTransaction(toks []Token, i int) bool {
	if i+1 >= len(toks) {
		return true
	}
	switch toks[i+1].Upper() {
	case "TRANSACTION", "TRAN", "WORK", "DEFERRED", "IMMEDIATE", "EXCLUSIVE":
		return true
	}
	return toks[i+1].Text == ";"
}

func atLineStart(src string, off int) bool {
	for j := off - 1; j >= 0; j-- {
		switch src[j] {
		case '\n':
			return true
		case ' ', '\t', '\r':
			continue
		}
		return false
	}
	return true
}

func statement(src string, toks []Token) Statement {
	first, last := toks[0], toks[len(toks)-1]
	return Statement{Text: src[first.Off : last.Off+len(last.Text)], Off: first.Off, Line: first.Line, Tokens: toks}
}

// Collapse returns s with every run of white space replaced by one space,
// cut to at most max bytes (on a rune boundary, "…" appended when cut).
func Collapse(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\n' || r == '\t' || r == '\r' {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		if b.Len() >= max {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}
