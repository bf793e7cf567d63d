package search

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// lines runs a matcher over text and renders "line:col:match" per hit.
func lines(t *testing.T, m *Matcher, text string) string {
	t.Helper()
	var out []string
	m.Scan([]byte(text), nil, func(h LineHit) bool {
		out = append(out, fmt.Sprintf("%d:%d:%s", h.Line, h.MatchStart+1, h.Text[h.MatchStart:h.MatchEnd]))
		return true
	})
	return strings.Join(out, " ")
}

func TestMatcher(t *testing.T) {
	const text = "// TODO: fix\nx := todos()\n\tFIXME later\nfunc parseError() error\r\nvar e = ErrBad\nlast line TODO"
	tests := []struct {
		name    string
		pattern string
		literal bool
		cs      *bool
		want    string
	}{
		{"smart case lower is insensitive", "todo", false, nil, "1:4:TODO 2:6:todo 6:11:TODO"},
		{"smart case upper is sensitive", "TODO", false, nil, "1:4:TODO 6:11:TODO"},
		{"forced insensitive", "TODO", false, ptr(false), "1:4:TODO 2:6:todo 6:11:TODO"},
		{"forced sensitive", "todo", false, ptr(true), "2:6:todo"},
		{"escape is not upper", `\Wtodo\W`, false, nil, "1:3: TODO:"},
		{"regex", `parse\w+\(`, false, nil, "4:6:parseError("},
		{"regex without literal", `^[a-z]+ `, false, nil, "2:1:x  4:1:func  5:1:var  6:1:last "},
		{"anchors per line", `error$`, false, nil, "4:19:error"},
		{"crlf stripped", `\)\s+error$`, false, nil, "4:17:) error"},
		{"literal dot", "e.", true, nil, ""},
		{"literal metachar", "todos()", true, nil, "2:6:todos()"},
		{"literal insensitive", "fixme", true, nil, "3:2:FIXME"},
		{"literal sensitive", "FIXME", true, nil, "3:2:FIXME"},
		{"one hit per line", "o", true, ptr(true), "2:7:o 4:14:o"},
		{"alternation", "ErrBad|FIXME", false, nil, "3:2:FIXME 5:9:ErrBad"},
		{"no match across lines", `fix\s+x`, false, nil, ""},
		{"empty match every line", `x*`, false, nil, "1:1: 2:1:x 3:1: 4:1: 5:1: 6:1:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Compile(tt.pattern, tt.literal, tt.cs)
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(t, m, text); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestMatcherUnicodeFold(t *testing.T) {
	// U+212A KELVIN SIGN folds onto k: the ASCII fast path must not miss it.
	m, err := Compile("kelvin", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(t, m, "a\n\u212Aelvin\n"); got != "2:1:\u212Aelvin" {
		t.Fatalf("got %q", got)
	}
}

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		pattern string
		literal bool
		want    string
	}{
		{"", false, "empty"},
		{"a(b", false, "not a valid RE2 regular expression: missing closing ): \"a(b\" (use literal=true"},
		{`(?<name`, false, "not a valid RE2"},
		{"a\nb", true, "cannot contain a line break"},
		{strings.Repeat("a", MaxPattern+1), false, "over the 4096 byte limit"},
		{"\xff", false, "not valid UTF-8"},
		{"a{2000}", false, "not a valid RE2"},
	}
	for _, tt := range tests {
		_, err := Compile(tt.pattern, tt.literal, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compile(%.20q) = %v, want %q", tt.pattern, err, tt.want)
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := []struct{ pattern, lit string }{
		{`func\s+\w+Error`, "Error"},
		{`(?i)hello`, "hello"},
		{`a|b`, ""},
		{`(abc)+x`, "abc"},
		{`x?abcd`, "abcd"},
		{`[a-z]+`, ""},
	}
	for _, tt := range tests {
		m, err := Compile(tt.pattern, false, ptr(true))
		if err != nil {
			t.Fatal(err)
		}
		if string(m.lit) != tt.lit {
			t.Errorf("%s: literal %q, want %q", tt.pattern, m.lit, tt.lit)
		}
	}
}

func TestLowerASCII(t *testing.T) {
	var all []byte
	for c := range 256 {
		all = append(all, byte(c))
	}
	for _, in := range [][]byte{all, []byte("Hello, WORLD! @[`{ AZaz 0123456789"), []byte("ÀB")} {
		for off := range min(len(in), 9) {
			got, hi := lowerASCII(nil, in[off:])
			want := make([]byte, 0, len(in))
			wantHi := false
			for _, c := range in[off:] {
				wantHi = wantHi || c >= 0x80
				if 'A' <= c && c <= 'Z' {
					c += 32
				}
				want = append(want, c)
			}
			if string(got) != string(want) || hi != wantHi {
				t.Fatalf("lowerASCII(%q) = %q %v, want %q %v", in[off:], got, hi, want, wantHi)
			}
		}
	}
}

// FuzzScan holds Scan (literal prefilter, lower-cased copy) to the plain
// form: the regex run on every line by itself.
func FuzzScan(f *testing.F) {
	f.Add("todo", false, "// TODO x\nnone\ntodos\n")
	f.Add(`k\w+`, false, "\u212Aelvin\nkey\n")
	f.Add("a.b", true, "a.b\naxb\r\n")
	f.Add(`^\s*$`, false, "\n \n\tx\n")
	f.Fuzz(func(t *testing.T, pattern string, literal bool, text string) {
		m, err := Compile(pattern, literal, nil)
		if err != nil {
			return
		}
		ref := m.re
		if ref == nil {
			ref = regexp.MustCompile(regexp.QuoteMeta(pattern))
		}
		var want []string
		for i, l := range strings.Split(text, "\n") {
			if i == len(strings.Split(text, "\n"))-1 && l == "" {
				break
			}
			l = strings.TrimSuffix(l, "\r")
			if loc := ref.FindStringIndex(l); loc != nil {
				want = append(want, fmt.Sprintf("%d:%d:%s", i+1, loc[0]+1, l[loc[0]:loc[1]]))
			}
		}
		if got, w := lines(t, m, text), strings.Join(want, " "); got != w {
			t.Fatalf("Scan(%q, %q)\n got %q\nwant %q", pattern, text, got, w)
		}
	})
}
