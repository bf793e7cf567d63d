// Package sqltext splits SQL text into statements and tokens. It is the one
// SQL lexer shared by the SQL extractor and the SQL rule pack, so both read a
// statement the same way: quotes, dollar quotes, comments and bracketed
// identifiers never hide a statement end or a keyword. It uses the standard
// library only and builds for GOOS=wasip1.
package sqltext

import "strings"

// Kind classifies a token.
type Kind uint8

// Token kinds.
const (
	Word   Kind = iota + 1 // keyword or bare identifier
	Quoted                 // "ident", `ident`, [ident]
	String                 // 'text', E'text', $$body$$
	Number
	Param // $1, ?, :name, @name
	Punct // ( ) , ; . = < > + - * / || :: and the like
)

// Token is one lexical token of a statement.
type Token struct {
	Kind Kind
	Text string // as written (quotes included for Quoted and String)
	Off  int    // byte offset in the text handed to Lex
	Line int    // 1-based line
	up   string // Text upper-cased, for words
}

// Upper returns an upper-cased word, "" for other kinds: keywords compare
// with it. Lex computes it once per token (rules compare keywords often).
func (t Token) Upper() string { return t.up }

// Name returns an identifier's name: unquoted and, for bare words, lower
// case, as SQL folds them (Postgres folds to lower case; we compare names
// case-insensitively everywhere).
func (t Token) Name() string {
	switch t.Kind {
	case Word:
		return strings.ToLower(t.Text)
	case Quoted:
		if len(t.Text) >= 2 {
			return strings.ToLower(t.Text[1 : len(t.Text)-1])
		}
	}
	return ""
}

// IsIdent reports a token that can name an object.
func (t Token) IsIdent() bool { return t.Kind == Word || t.Kind == Quoted }

// maxTokens bounds Lex on hostile input: a statement is never that long
// in practice, and the callers only need its head.
const maxTokens = 1 << 16

// Lex tokenizes src, dropping comments and white space. line is the line
// number of src's first byte. It never fails: an unterminated quote runs
// to the end of src.
func Lex(src string, line int) []Token {
	// One allocation for a typical statement (a token every 2 to 6 bytes:
	// a.id is three) instead of a doubling slice.
	return LexInto(make([]Token, 0, min(len(src)/2+4, maxTokens)), src, line)
}

// Lexer lexes statement after statement: it appends to the caller's
// buffer and remembers the upper-case form of the words it has seen, so
// a pack that lexes thousands of statements naming the same columns
// allocates neither again. The zero Lexer is ready; it is not safe for
// concurrent use.
type Lexer struct {
	upper map[string]string
}

// maxUpperCache bounds a Lexer's memory of words on hostile input.
const maxUpperCache = 1 << 13

// LexInto is Lex appending to dst with a one-off Lexer.
func LexInto(dst []Token, src string, line int) []Token {
	var l Lexer
	return l.Lex(dst, src, line)
}

// Lex is the package's Lex appending to dst.
func (l *Lexer) Lex(dst []Token, src string, line int) []Token {
	out := dst
	i := 0
	for i < len(src) && len(out)-len(dst) < maxTokens {
		c := src[i]
		start, startLine := i, line
		switch {
		case c == '\n':
			line++
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '#' && i+1 < len(src) && src[i+1] == ' ':
			// MySQL comment
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '\\' && atLineStart(src, i):
			// psql meta-command (\echo, \set, \connect): ends at the line's end
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			end := len(src)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			line += strings.Count(src[i:end], "\n")
			i = end
			continue
		case c == '\'' || ((c == 'E' || c == 'e' || c == 'N' || c == 'n') && i+1 < len(src) && src[i+1] == '\''):
			if c != '\'' {
				i++
			}
			i = endQuote(src, i, '\'')
			out = append(out, Token{Kind: String, Text: src[start:i], Off: start, Line: startLine})
		case c == '"' || c == '`':
			i = endQuote(src, i, c)
			out = append(out, Token{Kind: Quoted, Text: src[start:i], Off: start, Line: startLine})
		case c == '[':
			j := strings.IndexByte(src[i:], ']')
			if j < 0 || strings.ContainsAny(src[i:i+j], "\n,()") {
				i++
				out = append(out, Token{Kind: Punct, Text: "[", Off: start, Line: startLine})
				continue
			}
			i += j + 1
			out = append(out, Token{Kind: Quoted, Text: src[start:i], Off: start, Line: startLine})
		case (c == '$' && i+1 < len(src) && src[i+1] == '{') || c == '{':
			// A template placeholder of the code that builds the text:
			// ${schema} (JavaScript), {schema} or {} (Python format).
			if end := placeholderEnd(src, i); end > 0 {
				i = end
				out = append(out, Token{Kind: Param, Text: src[start:i], Off: start, Line: startLine})
				break
			}
			i++
			out = append(out, Token{Kind: Punct, Text: src[start:i], Off: start, Line: startLine})
		case c == '$':
			if tag, ok := dollarTag(src[i:]); ok {
				j := strings.Index(src[i+len(tag):], tag)
				end := len(src)
				if j >= 0 {
					end = i + len(tag) + j + len(tag)
				}
				i = end
				out = append(out, Token{Kind: String, Text: src[start:i], Off: start, Line: startLine})
				break
			}
			i++
			for i < len(src) && isDigit(src[i]) {
				i++
			}
			out = append(out, Token{Kind: Param, Text: src[start:i], Off: start, Line: startLine})
		case c == '?':
			i++
			out = append(out, Token{Kind: Param, Text: "?", Off: start, Line: startLine})
		case (c == ':' || c == '@') && i+1 < len(src) && isWordStart(src[i+1]) && !(c == ':' && i > 0 && src[i-1] == ':'):
			i++
			for i < len(src) && isWord(src[i]) {
				i++
			}
			out = append(out, Token{Kind: Param, Text: src[start:i], Off: start, Line: startLine})
		case isDigit(c):
			for i < len(src) && (isDigit(src[i]) || src[i] == '.' || src[i] == 'e' || src[i] == 'E') {
				i++
			}
			out = append(out, Token{Kind: Number, Text: src[start:i], Off: start, Line: startLine})
		case isWordStart(c):
			for i < len(src) && isWord(src[i]) {
				i++
			}
			w := src[start:i]
			out = append(out, Token{Kind: Word, Text: w, Off: start, Line: startLine, up: l.upperOf(w)})
		default:
			i++
			if i < len(src) && isPunct2(c, src[i]) {
				i++
			}
			out = append(out, Token{Kind: Punct, Text: src[start:i], Off: start, Line: startLine})
		}
		if k := out[len(out)-1].Kind; k == String || k == Quoted {
			line += strings.Count(src[start:i], "\n") // only quotes span lines
		}
	}
	return out
}

// placeholderEnd returns the offset after a ${...} or {...} placeholder
// at src[i] holding at most 64 bytes of one expression (no white space,
// quotes or nested braces), or 0.
func placeholderEnd(src string, i int) int {
	j := i + 1
	if src[i] == '$' {
		j++
	}
	for k := j; k < len(src) && k-j <= 64; k++ {
		switch c := src[k]; {
		case c == '}':
			return k + 1
		case c == '{' || c == '\'' || c == '"' || c == ';' || isSpaceByte(c):
			return 0
		}
	}
	return 0
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// endQuote returns the offset after the quote opened at src[i] (q doubled
// is an escaped quote; a backslash escapes too, as MySQL and E” do).
func endQuote(src string, i int, q byte) int {
	i++
	for i < len(src) {
		switch src[i] {
		case '\\':
			if q == '\'' {
				i += 2
				continue
			}
		case q:
			if i+1 < len(src) && src[i+1] == q {
				i += 2
				continue
			}
			return i + 1
		}
		i++
	}
	return len(src)
}

// dollarTag reports a Postgres dollar-quote opener ($$ or $tag$) at s.
func dollarTag(s string) (string, bool) {
	for j := 1; j < len(s) && j < 64; j++ {
		switch {
		case s[j] == '$':
			return s[:j+1], true
		case !isWord(s[j]) || (j == 1 && isDigit(s[j])):
			return "", false
		}
	}
	return "", false
}

func isDigit(c byte) bool     { return c >= '0' && c <= '9' }
func isWordStart(c byte) bool { return c == '_' || c >= 0x80 || (c|0x20 >= 'a' && c|0x20 <= 'z') }
func isWord(c byte) bool      { return isWordStart(c) || isDigit(c) || c == '$' }

func isPunct2(a, b byte) bool {
	switch string([]byte{a, b}) {
	case "||", "::", "<=", ">=", "<>", "!=", "->", "=>", ":=":
		return true
	}
	return false
}

// upperOf is upper, remembering what it built.
func (l *Lexer) upperOf(w string) string {
	if !needsUpper(w) {
		return w
	}
	var buf [64]byte
	if len(w) > len(buf) || !isASCII(w) {
		return strings.ToUpper(w)
	}
	b := buf[:len(w)]
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		b[i] = c
	}
	if u, ok := l.upper[string(b)]; ok {
		return u
	}
	u := string(b)
	if l.upper == nil {
		l.upper = make(map[string]string)
	}
	if len(l.upper) < maxUpperCache {
		l.upper[u] = u
	}
	return u
}

func needsUpper(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= 'a' && c <= 'z' || c >= 0x80 {
			return true
		}
	}
	return false
}

func isASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] >= 0x80 {
			return false
		}
	}
	return true
}
