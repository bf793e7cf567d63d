package abi

import (
	"strings"
	"testing"
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
