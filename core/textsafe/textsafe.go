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
//   - Bidirectional overrides/isolates and zero-width characters are
//     dropped (Trojan Source): the text the model reads is the text shown.
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
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
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

// isInvisible reports bidi controls and zero-width characters.
func isInvisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, // LRE RLE PDF LRO RLO
		r >= 0x2066 && r <= 0x2069,            // LRI RLI FSI PDI
		r == 0x200e, r == 0x200f, r == 0x061c, // LRM RLM ALM
		r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff: // zero width, BOM
		return true
	}
	return false
}

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
