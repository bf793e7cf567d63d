package textsafe

import (
	"strings"
	"testing"
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
