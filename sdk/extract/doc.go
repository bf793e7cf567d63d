package extract

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// SetDoc records the file's own doc: a Go package comment, a Python
// module docstring. Give it DocText's output.
func (f *File) SetDoc(doc string) { f.facts.Doc = doc }

// DocStyle is how a language writes the comment it treats as a
// definition's documentation.
type DocStyle int

// The doc comment styles.
const (
	DocSlashes   DocStyle = iota // Go: a block of // lines, directives (//go:build) dropped
	DocTriple                    // Rust: a block of /// lines, #[attributes] between skipped
	DocBlockStar                 // Javadoc, JSDoc: one /** … */ block
)

// DocAbove returns the doc comment that ends on the line just above the
// line where a definition starts (at byte start of src), as DocText. It
// reads the source backwards from that line, so it costs the comment's
// length whatever the tree looks like; "" when there is none.
func DocAbove(src []byte, start int, style DocStyle) string {
	if start < 0 || start > len(src) {
		return ""
	}
	end := bytes.LastIndexByte(src[:start], '\n') + 1 // start of the definition's line
	var lines []string                                // bottom-up
	for end > 0 {
		ls := bytes.LastIndexByte(src[:end-1], '\n') + 1
		raw := bytes.TrimSpace(src[ls : end-1])
		switch style {
		case DocSlashes, DocTriple:
			// Most definitions have no comment above: decide on the bytes
			// before making the line a string.
			if len(raw) < 2 || raw[0] != '/' && raw[0] != '#' {
				return docOf(lines)
			}
			line := string(raw)
			prefix := "//"
			if style == DocTriple {
				prefix = "///"
				if strings.HasPrefix(line, "#[") && strings.HasSuffix(line, "]") && len(lines) == 0 {
					end = ls
					continue
				}
			}
			if !strings.HasPrefix(line, prefix) || style == DocTriple && strings.HasPrefix(line, "////") {
				return docOf(lines)
			}
			if style != DocSlashes || !isDirective(line) {
				lines = append(lines, line[len(prefix):])
			}
		case DocBlockStar:
			line := string(raw)
			if len(lines) == 0 && strings.HasPrefix(line, "@") {
				end = ls // a decorator or annotation line between the doc and its definition
				continue
			}
			if len(lines) == 0 && !strings.HasSuffix(line, "*/") {
				return ""
			}
			lines = append(lines, line)
			if strings.HasPrefix(line, "/**") && line != "/**/" {
				return DocText(starLines(reverse(lines)))
			}
			if strings.Contains(line, "/*") {
				return "" // a plain /* comment, or no opening in sight
			}
		}
		end = ls
	}
	if style == DocBlockStar {
		return ""
	}
	return docOf(lines)
}

// docOf is the doc of comment lines gathered bottom-up ("" for none).
func docOf(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return DocText(reverse(lines))
}

// isDirective reports a Go directive comment ("//go:build", "//line",
// "//export"): machine-readable, never part of the doc.
func isDirective(line string) bool {
	rest := line[2:]
	if strings.HasPrefix(rest, "line ") || strings.HasPrefix(rest, "export ") || strings.HasPrefix(rest, "extern ") {
		return true
	}
	colon := strings.IndexByte(rest, ':')
	if colon <= 0 {
		return false
	}
	for _, c := range []byte(rest[:colon]) {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return colon+1 < len(rest) && rest[colon+1] != ' '
}

// starLines strips the /** */ markers and each line's leading '*'.
func starLines(lines []string) []string {
	out := make([]string, 0, len(lines))
	for k, l := range lines {
		if k == 0 {
			l = strings.TrimPrefix(l, "/**")
		}
		if k == len(lines)-1 {
			l = strings.TrimSuffix(l, "*/")
		}
		l = strings.TrimSpace(l)
		if k > 0 {
			l = strings.TrimPrefix(l, "*")
		}
		out = append(out, l)
	}
	return out
}

func reverse(s []string) []string {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}

// DocText turns a doc's lines (comment markers already stripped) into the
// doc string facts carry: the first paragraph (up to a blank line, or a
// Javadoc/JSDoc "@tag" line), whitespace collapsed, clipped to
// abi.MaxDoc bytes on a rune boundary and marked "..." when cut. Invalid
// UTF-8 is dropped rather than carried into the graph.
func DocText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			if b.Len() > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(l, "@") && len(l) > 1 && 'a' <= l[1] && l[1] <= 'z' {
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(l)
		if b.Len() > 4*abi.MaxDoc {
			break
		}
	}
	s := oneSpaced(b.String())
	if len(s) <= abi.MaxDoc {
		return s
	}
	cut := abi.MaxDoc - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " ") + "..."
}

// oneSpaced is strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
// in one pass and one allocation (none when s is already so): invalid
// UTF-8 dropped, runs of Unicode white space made one space, none at the
// ends. Every doc comment goes through it, and in the guest the three
// passes and their garbage were a visible part of extraction.
func oneSpaced(s string) string {
	if isOneSpacedASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false // a space is pending before the next word
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if asciiSpace[c] {
				space = b.Len() > 0
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteByte(c)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			i++ // invalid: dropped, and no word boundary
			continue
		}
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			i += n
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteString(s[i : i+n])
		i += n
	}
	return b.String()
}

// asciiSpace is unicode.IsSpace for ASCII bytes.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// isOneSpacedASCII reports whether s is ASCII, neither starts nor ends
// with white space, and has only single spaces inside: oneSpaced's
// answer is then s itself.
func isOneSpacedASCII(s string) bool {
	prevSpace := true // at the start, a space would be leading
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return false
		}
		if asciiSpace[c] {
			if c != ' ' || prevSpace {
				return false
			}
			prevSpace = true
			continue
		}
		prevSpace = false
	}
	return !prevSpace || len(s) == 0
}

// DocString is DocText for a string literal used as a docstring (Python):
// prefixes (r, u, b, f) and quotes stripped, then the first paragraph.
func DocString(lit string) string {
	lit = strings.TrimLeft(lit, "rRuUbBfF")
	for _, q := range []string{`"""`, `'''`, `"`, `'`} {
		if len(lit) >= 2*len(q) && strings.HasPrefix(lit, q) && strings.HasSuffix(lit, q) {
			lit = lit[len(q) : len(lit)-len(q)]
			break
		}
	}
	return DocText(strings.Split(lit, "\n"))
}

// FillDocs gives every symbol that has no Doc yet the doc comment above
// the line its span starts on (DocAbove). Extractors whose languages put
// docs above definitions call it once, after reporting their symbols.
func (f *File) FillDocs(style DocStyle) {
	src := f.Tree.src
	var lineStart []int32 // 0-based line → byte offset, built on first need
	for i := range f.facts.Symbols {
		s := &f.facts.Symbols[i]
		if s.Doc != "" || s.Span.StartLine == 0 {
			continue
		}
		if p := s.Parent; p >= 0 && f.facts.Symbols[p].Span.StartLine == s.Span.StartLine {
			continue // a member on its owner's line ("enum E { A }"): the comment is the owner's
		}
		if lineStart == nil {
			lineStart = f.Tree.lineStarts()
		}
		if l := int(s.Span.StartLine) - 1; l < len(lineStart) {
			s.Doc = DocAbove(src, int(lineStart[l]), style)
		}
	}
}
