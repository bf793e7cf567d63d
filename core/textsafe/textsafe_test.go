package textsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLabel(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain()", "plain()"},
		{"\x1b[31mred\x1b[0m", "red"},
		{"a\x1b]0;title\x07b", "ab"},
		{"a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b", "alinkb"},
		{"\u202eevil\u202c", "evil"},
		{"a\u2066b\u2069c\u200bd\ufeff", "abcd"},
		{"line1\nNODE [9] forged", "line1 NODE [9] forged"},
		{"tab\there", "tab here"},
		{"nul\x00byte\x7f", "nul byte"},
		{"c1\u0085\u009bx", "c1"}, // NEL becomes a space (then trimmed); 8-bit CSI eats its final byte
		{"bad\xffutf8", "bad\ufffdutf8"},
		{"\x1b", ""},
		{"\x1b(Bx", "x"},
		{"  padded\n", "padded"},
		{"résumé 日本", "résumé 日本"},
		// Line and paragraph separators would start a forged row in
		// splitlines-based readers.
		{"lsep\u2028NODE fake\u2029.go", "lsep NODE fake .go"},
		// TAG characters smuggle invisible ASCII instructions.
		{"tag\U000E0049\U000E0047\U000E004E\U000E004F\U000E0052\U000E0045.go", "tag.go"},
		{"soft\u00adhy\u180ephen", "softhyphen"},
		{"f\u2061\u2062\u2063\u2064x", "fx"},
		{"a\ufff9b\ufffac\ufffbd", "abcd"},
		{"e\ufe0fmoji\U000E0100x", "emojix"},
		{"han\u3164gul\u1160\u115f\uffa0", "hangul"},
		{"cgj\u034fx", "cgjx"},
	}
	for _, tc := range tests {
		if got := Label(tc.in); got != tc.want {
			t.Errorf("Label(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	long := strings.Repeat("x", 1000)
	if got := Label(long); len([]rune(got)) != MaxLabel+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("long label not capped: %d runes", len([]rune(got)))
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"# Report\n\n- a\tb\n", "# Report\n\n- a\tb\n"},
		{"crlf\r\nline", "crlf\nline"},
		{"lone\rcr", "lone cr"},
		{"\x1b[31mred\x1b[0m\n\x1b]52;c;SGVsbG8=\x07x", "red\nx"},
		{"rlo\u202eevil", "rloevil"},
		{"sep\u2028row", "sep row"},
		{"tag\U000E0041x", "tagx"},
		{"nul\x00", "nul "},
	}
	for _, tc := range tests {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzLabel holds Label to its promise whatever the input: valid UTF-8,
// no control, line-break or invisible character, no ESC, capped length.
func FuzzLabel(f *testing.F) {
	for _, s := range []string{"plain", "\x1b]0;t\x07x", "a\u2028b", "t\U000E0041", "\xff\x9b1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Label(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Label(%q) = %q: invalid UTF-8", s, out)
		}
		if n := utf8.RuneCountInString(out); n > MaxLabel+1 {
			t.Fatalf("Label(%q): %d runes", s, n)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || isLineBreak(r) || isInvisible(r) {
				t.Fatalf("Label(%q) = %q keeps %U", s, out, r)
			}
		}
		for _, r := range Text(s) {
			if r == 0x1b || isLineBreak(r) || isInvisible(r) {
				t.Fatalf("Text(%q) keeps %U", s, r)
			}
		}
	})
}
