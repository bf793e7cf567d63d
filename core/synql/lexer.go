package synql

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is a token's lexical class.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tString
	tNumber
	tPunct // ( ) [ ] : , . * - -> <- = <> != < <= > >= =~ .. |
)

// token is one lexeme with its byte offset in the query.
type token struct {
	kind tokKind
	text string
	pos  int
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of query"
	case tString:
		return fmt.Sprintf("string %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// SyntaxError is a malformed query: where it went wrong and what the
// parser expected there.
type SyntaxError struct {
	Pos      int    // byte offset
	Col      int    // 1-based column (runes)
	Found    string // what was there
	Expected string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("SYNQL syntax error at column %d: expected %s, found %s", e.Col, e.Expected, e.Found)
}

// MaxQuery bounds a query's length.
const MaxQuery = 8 << 10

// puncts are the multi-byte operators, longest first.
var puncts = []string{"->", "<-", "<>", "!=", "<=", ">=", "=~", "..", "(", ")", "[", "]", ":", ",", ".", "*", "-", "=", "<", ">", "|", "{", "}"}

// lex splits a query into tokens.
func lex(q string) ([]token, error) {
	if len(q) > MaxQuery {
		return nil, fmt.Errorf("SYNQL query is %d bytes, over the %d byte limit", len(q), MaxQuery)
	}
	var toks []token
	col := func(pos int) int { return utf8.RuneCountInString(q[:pos]) + 1 }
	for i := 0; i < len(q); {
		r, n := utf8.DecodeRuneInString(q[i:])
		switch {
		case unicode.IsSpace(r):
			i += n
		case r == '\'' || r == '"':
			s, end, ok := lexString(q, i)
			if !ok {
				return nil, &SyntaxError{Pos: i, Col: col(i), Found: "an unterminated string", Expected: "a closing " + string(r)}
			}
			toks = append(toks, token{tString, s, i})
			i = end
		case r >= '0' && r <= '9':
			j := i
			for j < len(q) && (q[j] >= '0' && q[j] <= '9' || q[j] == '.' && j+1 < len(q) && q[j+1] >= '0' && q[j+1] <= '9') {
				j++
			}
			toks = append(toks, token{tNumber, q[i:j], i})
			i = j
		case r == '_' || unicode.IsLetter(r):
			j := i
			for j < len(q) {
				r2, n2 := utf8.DecodeRuneInString(q[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += n2
			}
			toks = append(toks, token{tIdent, q[i:j], i})
			i = j
		case r == '`':
			j := strings.IndexByte(q[i+1:], '`')
			if j < 0 {
				return nil, &SyntaxError{Pos: i, Col: col(i), Found: "an unterminated `name`", Expected: "a closing `"}
			}
			toks = append(toks, token{tIdent, q[i+1 : i+1+j], i})
			i += j + 2
		default:
			p := ""
			for _, c := range puncts {
				if strings.HasPrefix(q[i:], c) {
					p = c
					break
				}
			}
			if p == "" {
				return nil, &SyntaxError{Pos: i, Col: col(i), Found: fmt.Sprintf("%q", r), Expected: "a keyword, name, string, number or operator"}
			}
			toks = append(toks, token{tPunct, p, i})
			i += len(p)
		}
	}
	return append(toks, token{tEOF, "", len(q)}), nil
}

// lexString reads a quoted string with backslash escapes (\' \" \\ \n \t).
func lexString(q string, i int) (string, int, bool) {
	quote := q[i]
	var b strings.Builder
	for j := i + 1; j < len(q); j++ {
		c := q[j]
		switch {
		case c == quote:
			return b.String(), j + 1, true
		case c == '\\' && j+1 < len(q):
			j++
			switch q[j] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(q[j])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}
