package search

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxPattern bounds a pattern's length: RE2 compiles in time linear in
// the pattern, but a megabyte of pattern is never a search someone meant.
const MaxPattern = 4096

// Matcher finds the lines a pattern matches. Matching is line-oriented, as
// in grep: a match never spans a line break, ^ and $ anchor at each line,
// and a line is reported once, at its leftmost match.
//
// Most searches name some literal text, and most files do not contain it,
// so the matcher looks for a literal every match must contain (the whole
// pattern in literal mode) with bytes.Index first, and runs the regex only
// on the lines holding it.
type Matcher struct {
	re        *regexp.Regexp // nil only for a case-sensitive literal
	lit       []byte         // a literal every match contains; nil = none known
	fold      bool           // lit is lower-case ASCII, to be found case-insensitively
	exact     bool           // lit is the whole pattern: a hit needs no regex run
	sensitive bool
}

// ErrEmptyPattern is returned for an empty pattern, which would match
// every line of every file.
var ErrEmptyPattern = errors.New("pattern is empty")

// Compile builds a matcher. caseSensitive nil is smart case: insensitive
// unless the pattern holds an upper-case letter (an escape such as \W or \S
// does not count in a regex).
func Compile(pattern string, literal bool, caseSensitive *bool) (*Matcher, error) {
	if pattern == "" {
		return nil, ErrEmptyPattern
	}
	if len(pattern) > MaxPattern {
		return nil, fmt.Errorf("pattern is %d bytes, over the %d byte limit", len(pattern), MaxPattern)
	}
	if !utf8.ValidString(pattern) {
		return nil, errors.New("pattern is not valid UTF-8")
	}
	sensitive := hasUpper(pattern, !literal)
	if caseSensitive != nil {
		sensitive = *caseSensitive
	}
	m := &Matcher{sensitive: sensitive}
	if literal && strings.ContainsAny(pattern, "\r\n") {
		return nil, errors.New("a literal pattern cannot contain a line break: matching is line by line")
	}
	if literal && sensitive {
		m.lit, m.exact = []byte(pattern), true
		return m, nil
	}
	expr := pattern
	if literal {
		expr = regexp.QuoteMeta(pattern)
	}
	flags := "(?m)"
	if !sensitive {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + expr)
	if err != nil {
		var se *syntax.Error
		if errors.As(err, &se) {
			return nil, fmt.Errorf("pattern is not a valid RE2 regular expression: %s: %q (use literal=true to search for it as plain text)", se.Code, strings.TrimPrefix(se.Expr, flags))
		}
		return nil, fmt.Errorf("pattern is not a valid RE2 regular expression: %v", err)
	}
	m.re = re
	if parsed, err := syntax.Parse(flags+expr, syntax.Perl); err == nil {
		lit, fold := requiredLiteral(parsed.Simplify())
		if lit != "" && (!fold || isASCII(lit)) {
			if fold {
				lit = strings.ToLower(lit)
			}
			m.lit, m.fold = []byte(lit), fold
		}
	}
	return m, nil
}

// CaseSensitive reports whether the matcher distinguishes case.
func (m *Matcher) CaseSensitive() bool { return m.sensitive }

// hasUpper reports whether s holds an upper-case letter; in a regex the
// character after a backslash is an escape, not text.
func hasUpper(s string, regex bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if regex && r == '\\' {
			_, m := utf8.DecodeRuneInString(s[i+n:])
			i += n + m
			continue
		}
		if unicode.IsUpper(r) {
			return true
		}
		i += n
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// requiredLiteral returns the longest literal that every match of re
// contains, and whether it is matched case-insensitively; "" when none is
// known. Only shapes that guarantee the literal are followed: a literal, a
// concatenation, a capture, and one-or-more repetition.
func requiredLiteral(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if strings.ContainsAny(s, "\r\n") {
			return "", false
		}
		return s, re.Flags&syntax.FoldCase != 0
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiteral(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiteral(re.Sub[0])
		}
	case syntax.OpConcat:
		best, bestFold := "", false
		for _, sub := range re.Sub {
			if s, f := requiredLiteral(sub); len(s) > len(best) {
				best, bestFold = s, f
			}
		}
		return best, bestFold
	}
	return "", false
}

// LineHit is one matching line of a buffer: its 1-based number, its text
// without the line break, and the leftmost match as byte offsets into it.
type LineHit struct {
	Line       int
	Text       []byte
	MatchStart int
	MatchEnd   int
}

// Scan calls emit for every matching line of b, in order, until emit
// returns false. lower is scratch space the matcher may use for a
// lower-cased copy of b; Scan returns it (possibly grown) for reuse.
func (m *Matcher) Scan(b, lower []byte, emit func(LineHit) bool) []byte {
	hay, lit := b, m.lit
	if lit != nil && m.fold {
		var nonASCII bool
		lower, nonASCII = lowerASCII(lower, b)
		hay = lower
		if nonASCII && foldsOntoASCII(b, lit) {
			// Unicode case folding maps two non-ASCII letters onto ASCII
			// ones (U+212A KELVIN SIGN onto k, U+017F LONG S onto s): when
			// the file holds one the literal could match, the lower-cased
			// copy could miss a line, so search with the regex alone.
			lit = nil
		}
	}
	line, counted := 1, 0 // line is the number of the line starting at counted
	for pos := 0; pos < len(b); {
		var ls int
		if lit != nil {
			i := bytes.Index(hay[pos:], lit)
			if i < 0 {
				return lower
			}
			ls = lineStart(b, pos+i)
		} else {
			loc := m.re.FindIndex(b[pos:])
			if loc == nil {
				return lower
			}
			ls = lineStart(b, pos+loc[0])
		}
		if ls == len(b) {
			return lower // an empty match after the final line break: no line
		}
		le := lineEnd(b, ls)
		text := bytes.TrimSuffix(b[ls:le], []byte("\r"))
		ms, me, ok := m.inLine(text, lit)
		pos = le + 1
		if !ok {
			continue
		}
		line += bytes.Count(b[counted:ls], []byte("\n"))
		counted = ls
		if !emit(LineHit{Line: line, Text: text, MatchStart: ms, MatchEnd: me}) {
			return lower
		}
	}
	return lower
}

// inLine finds the leftmost match within one line.
func (m *Matcher) inLine(text, lit []byte) (start, end int, ok bool) {
	if m.exact {
		i := bytes.Index(text, lit)
		if i < 0 {
			return 0, 0, false
		}
		return i, i + len(lit), true
	}
	loc := m.re.FindIndex(text)
	if loc == nil {
		return 0, 0, false
	}
	return loc[0], loc[1], true
}

func lineStart(b []byte, i int) int { return bytes.LastIndexByte(b[:i], '\n') + 1 }

func lineEnd(b []byte, ls int) int {
	if j := bytes.IndexByte(b[ls:], '\n'); j >= 0 {
		return ls + j
	}
	return len(b)
}

// lowerASCII writes b with ASCII letters lower-cased into dst (grown as
// needed) and reports whether b holds any non-ASCII byte. Offsets are
// unchanged, so a hit in the copy is a hit at the same place in b. Eight
// bytes are done at a time (SWAR): this pass is most of a case-insensitive
// search's cost.
func lowerASCII(dst, b []byte) ([]byte, bool) {
	if cap(dst) < len(b) {
		dst = make([]byte, len(b))
	}
	dst = dst[:len(b)]
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	var seen uint64
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		seen |= x
		h := x &^ high                    // each byte's low 7 bits: no carries between bytes
		geA := h + (0x80-'A')*ones        // high bit set where byte >= 'A'
		gtZ := h + (0x7f-'Z')*ones        // high bit set where byte > 'Z'
		upper := (geA &^ gtZ) &^ x & high // >= 'A', <= 'Z', and ASCII
		binary.LittleEndian.PutUint64(dst[i:], x|upper>>2)
	}
	for ; i < len(b); i++ {
		c := b[i]
		seen |= uint64(c)
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return dst, seen&high != 0
}

// foldsOntoASCII reports whether b holds a non-ASCII letter that Unicode
// case folding maps onto a letter of the lower-case ASCII literal lit.
func foldsOntoASCII(b, lit []byte) bool {
	return bytes.IndexByte(lit, 'k') >= 0 && bytes.Contains(b, []byte("\u212A")) ||
		bytes.IndexByte(lit, 's') >= 0 && bytes.Contains(b, []byte("\u017F"))
}
