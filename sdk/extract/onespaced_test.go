package extract

import (
	"strings"
	"testing"
)

// oneSpacedRef is the three-pass definition oneSpaced replaces.
func oneSpacedRef(s string) string {
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
}

func TestOneSpaced(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"Reads the file.", "Reads the file."},
		{"  lead and trail  ", "lead and trail"},
		{"a\t\tb\n\nc\r\vd\fe", "a b c d e"},
		{"a\xffb", "ab"},                          // invalid bytes dropped, no boundary
		{"a \xff b", "a b"},                       // dropped between spaces
		{"\xff\xfe", ""},                          // nothing valid
		{"caf\u00e9\u00a0ol\u0085e", "café ol e"}, // NBSP and NEL are spaces
		{"x\u2003\u3000y", "x y"},                 // em space, ideographic space
		{"\ufffd kept", "\ufffd kept"},            // a valid U+FFFD is text
		{"\xe2\x80", ""},                          // a truncated rune
		{"ends with space ", "ends with space"},
	}
	for _, tt := range tests {
		if got := oneSpaced(tt.in); got != tt.want || got != oneSpacedRef(tt.in) {
			t.Errorf("oneSpaced(%q) = %q, want %q (reference %q)", tt.in, got, tt.want, oneSpacedRef(tt.in))
		}
	}
}

// FuzzOneSpaced: oneSpaced agrees with the three-pass definition on any input.
func FuzzOneSpaced(f *testing.F) {
	for _, s := range []string{"", " a  b ", "a\xffb", "\u00a0x\u0085", "\t\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := oneSpaced(s), oneSpacedRef(s); got != want {
			t.Fatalf("oneSpaced(%q) = %q, want %q", s, got, want)
		}
	})
}

func BenchmarkOneSpaced(b *testing.B) {
	doc := "Extract walks f's tree once, in preorder, and reports its facts.  It is\tstateless."
	for b.Loop() {
		_ = oneSpaced(doc)
	}
}
