package main_test

import (
	"strings"
	"testing"
)

// TestGoPackageMaxHasCallers: code written before Go 1.21 declares its own
// max in one file of a package and calls it from the others. Those calls
// are the package's function, not the builtin, so find_callers must list
// them (regexp2's max had none); a package without its own min leaves
// min(...) to the builtin and links nothing.
func TestGoPackageMaxHasCallers(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.20\n",
		"util/max.go":   "package util\n\nfunc max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n",
		"util/width.go": "package util\n\nfunc Width(xs []int) int {\n\tw := 0\n\tfor _, x := range xs {\n\t\tw = max(w, x)\n\t}\n\treturn min(w, len(xs))\n}\n",
		"other/o.go":    "package other\n\nfunc Pick(a, b int) int { return max(a, b) }\n",
	})
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "find_callers", "label=max()@util/max.go")
	if !strings.Contains(out, "Width()") || !strings.Contains(out, "util/width.go:L6") {
		t.Errorf("find_callers max lacks Width's call at util/width.go:L6:\n%s", out)
	}
	if strings.Contains(out, "Pick()") {
		t.Errorf("another package's max(...) is the builtin, not util's max:\n%s", out)
	}
}
