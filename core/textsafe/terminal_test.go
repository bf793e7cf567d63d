package textsafe

import (
	"testing"
	"unicode/utf8"
)

func TestTerminal(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cart/cart.go", "cart/cart.go"},
		{"naïve/日本.go", "naïve/日本.go"},
		{"k\x1b]52;c;SGVsbG8=\a\x1b]0;PWNED\a.pem", `k\x1b]52;c;SGVsbG8=\x07\x1b]0;PWNED\x07.pem`},
		{"red\x1b[31mX\x1b[0m", `red\x1b[31mX\x1b[0m`},
		{"a\nb\tc\rd", `a\x0ab\x09c\x0dd`},
		{"c1\u009b2J", `c1\x9b2J`},
		{"bad\xff\xfe", `bad\xff\xfe`},
		{"rlo\u202egpj.go", `rlo\u{202E}gpj.go`},
		{"lsep\u2028NODE fake\u2029.go", `lsep\u{2028}NODE fake\u{2029}.go`},
		{"tag\U000E0049\U000E0047.go", `tag\u{E0049}\u{E0047}.go`},
		{"zw\u200bj\u200d\ufeff", `zw\u{200B}j\u{200D}\u{FEFF}`},
		{"soft\u00adhy\u180e\u2061\ufff9", `soft\u{00AD}hy\u{180E}\u{2061}\u{FFF9}`},
		{"vs\ufe0f\U000E0100 h\u3164\u1160", `vs\u{FE0F}\u{E0100} h\u{3164}\u{1160}`},
		{"del\x7f", `del\x7f`},
	}
	for _, tc := range tests {
		if got := Terminal(tc.in); got != tc.want {
			t.Errorf("Terminal(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzTerminal: whatever the input, the output is valid UTF-8 with no
// control, format or separator character left to drive a terminal.
func FuzzTerminal(f *testing.F) {
	f.Add("k\x1b]52;c;SGVsbG8=\a.pem")
	f.Add("rlo\u202e\u2028\U000E0049\xff")
	f.Fuzz(func(t *testing.T, s string) {
		out := Terminal(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || hiddenOnTerminal(r) {
				t.Fatalf("Terminal(%q) = %q keeps %U", s, out, r)
			}
		}
	})
}
