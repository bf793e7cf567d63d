package abi

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestProjectSummary(t *testing.T) {
	for in, want := range map[string]string{
		"# root imported as \"a.b\"\nroot\ta.b": `root imported as "a.b"`,
		"#  spaced \n":                          "spaced",
		"# ctrl\x01char\x7f":                    "ctrl char",
		"# bad \xff utf8":                       "bad ? utf8",
		"root\ta.b\n# not first":                "",
		"#no space":                             "",
		"":                                      "",
		"# " + strings.Repeat("x", 600):         strings.Repeat("x", 512),
	} {
		if got := ProjectSummary([]byte(in)); got != want {
			t.Errorf("ProjectSummary(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzProjectSummary: any info gives one printable line of valid UTF-8.
func FuzzProjectSummary(f *testing.F) {
	f.Add([]byte("# root imported as \"a\"\nroot\ta"))
	f.Add([]byte("#\x00\xff\n"))
	f.Fuzz(func(t *testing.T, info []byte) {
		s := ProjectSummary(info)
		if strings.ContainsAny(s, "\n\r\x00") || !utf8.ValidString(s) || len(s) > 512 {
			t.Fatalf("ProjectSummary(%q) = %q", info, s)
		}
	})
}
