package extract

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestDocAbove(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		style     DocStyle
		want      string
	}{
		{"go block", "package p\n\n// Serve answers\n// requests.\n//\n// More detail.\nfunc Serve() {}\n", DocSlashes, "Serve answers requests."},
		{"go directive dropped", "// F is fast.\n//go:noinline\nfunc F() {}\n", DocSlashes, "F is fast."},
		{"go gap is no doc", "// unrelated\n\nfunc F() {}\n", DocSlashes, ""},
		{"go trailing comment is no doc", "x := 1 // x\nfunc F() {}\n", DocSlashes, ""},
		{"go first line of file", "func F() {}\n", DocSlashes, ""},
		{"go indented method", "type T struct {\n\t// Name is the name.\n\tName string\n", DocSlashes, "Name is the name."},
		{"rust attributes skipped", "/// A point.\n///\n/// # Examples\n#[derive(Debug)]\n#[repr(C)]\npub struct P;\n", DocTriple, "A point."},
		{"rust plain comment is no doc", "// just a note\nfn f() {}\n", DocTriple, ""},
		{"rust four slashes", "//// banner\nfn f() {}\n", DocTriple, ""},
		{"javadoc", "  /**\n   * Returns the user's name.\n   * Never null.\n   *\n   * @return the name\n   */\n  public String name() {}\n", DocBlockStar, "Returns the user's name. Never null."},
		{"javadoc tag ends paragraph", "/** Maps a value.\n * @param x the value */\nfunction f(x) {}\n", DocBlockStar, "Maps a value."},
		{"one-line jsdoc before export", "/** Adds one. */\nexport function inc() {}\n", DocBlockStar, "Adds one."},
		{"plain block is no doc", "/*\n * license\n */\nclass A {}\n", DocBlockStar, ""},
		{"line comment is no jsdoc", "// hi\nclass A {}\n", DocBlockStar, ""},
		{"empty jsdoc", "/**/\nclass A {}\n", DocBlockStar, ""},
		{"decorators between", "/** Input value. */\n@Input()\n@Other({a: 1})\nvalue = 1;\n", DocBlockStar, "Input value."},
	} {
		src := []byte(tc.src)
		start := strings.LastIndex(tc.src, "\n") // definition on the last line
		start = strings.LastIndexByte(tc.src[:start], '\n') + 1
		for start < len(src) && IsSpace(src[start]) {
			start++
		}
		if got := DocAbove(src, start, tc.style); got != tc.want {
			t.Errorf("%s: DocAbove = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDocText(t *testing.T) {
	long := strings.Repeat("é", 200)
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"collapse", []string{"  a \t b", "c  "}, "a b c"},
		{"leading blank lines", []string{"", " ", "x"}, "x"},
		{"paragraph", []string{"one", "", "two"}, "one"},
		{"invalid utf-8 dropped", []string{"a\xffb"}, "ab"},
		{"clipped on a rune", []string{long}, strings.Repeat("é", 148) + "..."},
	} {
		got := DocText(tc.lines)
		if got != tc.want {
			t.Errorf("%s: DocText = %q, want %q", tc.name, got, tc.want)
		}
		if len(got) > 300 {
			t.Errorf("%s: %d bytes", tc.name, len(got))
		}
	}
	for lit, want := range map[string]string{
		`"""Return the sum.

    Long text."""`: "Return the sum.",
		`r'''raw \d doc'''`: `raw \d doc`,
		`"one line"`:        "one line",
		`""""""`:            "",
	} {
		if got := DocString(lit); got != want {
			t.Errorf("DocString(%q) = %q, want %q", lit, got, want)
		}
	}
}

// DocAbove reads untrusted source: whatever it is given, it returns a
// bounded, valid UTF-8 doc on one line, and DocString likewise.
func FuzzDocAbove(f *testing.F) {
	f.Add([]byte("// A.\n//go:x\nfunc A() {}\n"), 20, uint8(0))
	f.Add([]byte("/// R.\n#[x]\nfn r() {}\n"), 15, uint8(1))
	f.Add([]byte("/**\n * J. \xff\n * @x\n */\nclass J {}\n"), 25, uint8(2))
	f.Fuzz(func(t *testing.T, src []byte, start int, style uint8) {
		for _, got := range []string{DocAbove(src, start, DocStyle(style%3)), DocString(string(src))} {
			if len(got) > abi.MaxDoc || !utf8.ValidString(got) || strings.ContainsAny(got, "\n\t\r") || got != strings.TrimSpace(got) {
				t.Fatalf("bad doc %q", got)
			}
		}
	})
}
