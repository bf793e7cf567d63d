// Package textsafe makes strings taken from analysed source safe to show to
// a model or a terminal. Every label, relation and path that reaches tool or
// query output goes through Label: it is a security boundary, since the
// analysed code may be hostile.
package textsafe

import (
	"strings"
	"unicode/utf8"
)

// MaxLabel caps one sanitized string, in runes. Labels come from source code
// an attacker may control; a 10 MB identifier must not flood the model.
const MaxLabel = 256

// Label makes a graph-derived string (label, relation, path, prompt
// argument) safe to embed in tool text. It is a security boundary: names
// come from the analysed source, which may be hostile.
//
//   - ANSI/VT escape sequences (CSI, OSC, other ESC forms) are removed, so a
//     label cannot recolour or rewrite a terminal.
//   - Every other control character (C0 incl. tab/newline, DEL, C1) becomes a
//     space, so a label can never start a line of its own and forge an
//     output row ("EDGE a --calls--> b", a fake "Node:" header, ...).
//   - U+2028/U+2029 become a space too (other tools split lines at them).
//   - Bidirectional overrides/isolates, zero-width characters, TAG
//     characters and the other invisibles of isInvisible are dropped
//     (Trojan Source, ASCII smuggling): the text the model reads is the
//     text shown.
//   - Runs of spaces collapse to one, invalid UTF-8 becomes U+FFFD, and the
//     result is capped at MaxLabel runes.
func Label(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), MaxLabel*4))
	n := 0
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == 0x9b: // 8-bit CSI
			i = skipCSIParams(s, i)
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isLineBreak(r):
			r = ' '
		case isInvisible(r):
			continue
		}
		if r == ' ' && b.Len() > 0 && b.String()[b.Len()-1] == ' ' {
			continue // collapse runs, so removed controls leave one gap
		}
		if n == MaxLabel {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.TrimSpace(b.String())
}

// isPlain is the fast path: printable ASCII within the cap needs no work.
func isPlain(s string) bool {
	if len(s) > MaxLabel {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// isInvisible reports characters that render as nothing (or nearly
// nothing) yet change what a model reads: bidi controls (Trojan Source),
// zero-width and joiner characters, invisible operators, interlinear
// annotation marks, variation selectors, Hangul fillers, the soft hyphen,
// and the Unicode TAG block used to smuggle hidden ASCII instructions into
// prompts.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069,            // LRI RLI FSI PDI
		r == 0x200e, r == 0x200f, r == 0x061c, // LRM RLM ALM
		r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, // zero width, BOM
		r >= 0x2061 && r <= 0x2064, // invisible times/separator/plus, function application
		r == 0x00ad, r == 0x180e,   // soft hyphen, Mongolian vowel separator
		r == 0x034f,                                        // combining grapheme joiner
		r >= 0xfff9 && r <= 0xfffb,                         // interlinear annotation anchor/separator/terminator
		r >= 0xfe00 && r <= 0xfe0f,                         // variation selectors
		r >= 0xe0100 && r <= 0xe01ef,                       // variation selectors supplement
		r >= 0xe0000 && r <= 0xe007f,                       // TAG characters (ASCII smuggling)
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0: // Hangul fillers
		return true
	}
	return false
}

// isLineBreak reports the Unicode line and paragraph separators, which
// Python's splitlines and JavaScript treat as line ends: left in a label,
// they would start a forged output row.
func isLineBreak(r rune) bool { return r == 0x2028 || r == 0x2029 }

// skipEscape returns the index after the escape sequence starting at s[i]
// (an ESC byte).
func skipEscape(s string, i int) int {
	i++ // ESC
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[': // CSI: parameters and intermediates, then one final byte
		return skipCSIParams(s, i+1)
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: until BEL or ST
		for j := i + 1; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	// Two-byte forms (ESC c, ESC 7, ESC ( B ...): drop the next byte; a
	// charset designator takes one more.
	if strings.IndexByte("()*+", s[i]) >= 0 && i+1 < len(s) {
		return i + 2
	}
	_, size := utf8.DecodeRuneInString(s[i:])
	return i + size
}

func skipCSIParams(s string, i int) int {
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x40 && c <= 0x7e {
			return i + 1
		}
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return i // malformed: stop without eating text
		}
	}
	return i
}

// Text makes a multi-line document taken from disk (GRAPH_REPORT.md) safe
// to serve: the same rules as Label, except that newlines and tabs stay,
// nothing is collapsed and there is no length cap (callers bound the size
// they read). A CR before a newline is dropped; a lone CR becomes a space,
// so it cannot overwrite a terminal line.
func Text(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] == 0x1b {
			i = skipEscape(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '\n' || r == '\t':
		case r == '\r' && i < len(s) && s[i] == '\n':
			continue
		case r == 0x9b:
			i = skipCSIParams(s, i)
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isLineBreak(r):
			r = ' '
		case isInvisible(r):
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
