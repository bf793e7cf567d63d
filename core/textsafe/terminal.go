package textsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Terminal makes a string from the analysed tree (a file name, a skip
// detail, a plugin's note) safe to print on the user's terminal, keeping
// it recognisable: where Label drops what it cannot show, Terminal spells
// it out, so the user sees that a file name holds an escape and can still
// find the file.
//
//   - ESC, every other C0 and C1 control and DEL become \xNN, so no
//     escape sequence reaches the terminal (CSI colours, OSC 0 window
//     titles, OSC 52 clipboard writes);
//   - invalid UTF-8 bytes become \xNN;
//   - format and separator characters (bidi overrides and isolates,
//     zero-width characters, U+2028/U+2029, TAG characters, soft hyphen,
//     invisible operators) and other invisibles (variation selectors,
//     Hangul fillers) become \u{XXXX}, so the text shown is the text there.
func Terminal(s string) string {
	if isPlainLong(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\x%02x`, r)
		case hiddenOnTerminal(r):
			fmt.Fprintf(&b, `\u{%04X}`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlainLong is isPlain without the length cap: printable ASCII.
func isPlainLong(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// hiddenOnTerminal reports characters a terminal shows as nothing or as
// something else: everything not printable (format Cf, separators Zl/Zp,
// unassigned, private use) except the plain space, and the printable
// invisibles unicode.IsPrint lets through.
func hiddenOnTerminal(r rune) bool {
	if r == ' ' {
		return false
	}
	if !unicode.IsPrint(r) {
		return true
	}
	switch {
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef: // variation selectors
		return true
	case r == 0x034f: // combining grapheme joiner
		return true
	case r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0: // Hangul fillers
		return true
	}
	return false
}
