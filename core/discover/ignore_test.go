package discover

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ignoredBy applies one ignore file at the root to rel, as git does for a
// path whose parent directories are not themselves ignored.
func ignoredBy(content, rel string, isDir bool) bool {
	f := parseIgnoreFile([]byte(content))
	if f == nil {
		return false
	}
	ig, _ := f.decide(rel, baseOf(rel), isDir)
	return ig
}

func TestParsePattern(t *testing.T) {
	tests := []struct {
		line string
		ok   bool
		want pattern
	}{
		{"", false, pattern{}},
		{"# comment", false, pattern{}},
		{"   ", false, pattern{}},
		{`\#notcomment`, true, pattern{glob: `\#notcomment`, basename: true}},
		{`\!bang`, true, pattern{glob: `\!bang`, basename: true}},
		{"!keep.go", true, pattern{glob: "keep.go", negate: true, basename: true, kind: kindLiteral, lit: "keep.go"}},
		{"build/", true, pattern{glob: "build", dirOnly: true, basename: true, kind: kindLiteral, lit: "build"}},
		{"/root.txt", true, pattern{glob: "root.txt", kind: kindLiteral, lit: "root.txt"}},
		{"a/b", true, pattern{glob: "a/b", kind: kindLiteral, lit: "a/b"}},
		{"*.log", true, pattern{glob: "*.log", basename: true, kind: kindSuffix, lit: ".log"}},
		{"*.log  ", true, pattern{glob: "*.log", basename: true, kind: kindSuffix, lit: ".log"}},
		{`trail\ `, true, pattern{glob: `trail\ `, basename: true}},
		{"tab\t", true, pattern{glob: "tab\t", basename: true, kind: kindLiteral, lit: "tab\t"}},
		{"**/foo", true, pattern{glob: "**/foo"}},
		{"/", false, pattern{}},
		{"!", false, pattern{}},
		{"a/**/", true, pattern{glob: "a/**", dirOnly: true}},
	}
	for _, tt := range tests {
		got, ok := parsePattern(tt.line)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("parsePattern(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"a":       "a",
		"a  ":     "a",
		`a\ `:     `a\ `,
		`a\  `:    `a\ `,
		`a \ `:    `a \ `,
		"a b ":    "a b",
		`a\`:      `a\`,
		"  ":      "",
		"a\t ":    "a\t",
		`a\\ `:    `a\\`,
		`a\\\  x`: `a\\\  x`,
	} {
		if got := trimTrailingSpaces(in); got != want {
			t.Errorf("trimTrailingSpaces(%q) = %q, want %q", in, got, want)
		}
	}
}

// matchCases are checked against our matcher here and, when git is
// installed, against git check-ignore in TestMatchAgainstGit.
var matchCases = []struct {
	patterns string
	path     string
	isDir    bool
	want     bool
}{
	// basename patterns match at any depth
	{"*.log", "a.log", false, true},
	{"*.log", "deep/dir/a.log", false, true},
	{"*.log", "a.log.txt", false, false},
	{"foo", "foo", false, true},
	{"foo", "x/foo", false, true},
	{"foo", "x/foo", true, true},
	{"foo", "foobar", false, false},
	// directory-only
	{"build/", "build", true, true},
	{"build/", "file/build", false, false},
	{"build/", "x/build", true, true},
	// anchored: leading slash, middle slash
	{"/root.txt", "root.txt", false, true},
	{"/root.txt", "sub/root.txt", false, false},
	{"doc/frotz", "doc/frotz", false, true},
	{"doc/frotz", "a/doc/frotz", false, false},
	{"doc/*.txt", "doc/a.txt", false, true},
	{"doc/*.txt", "doc/sub/a.txt", false, false},
	// ? and classes
	{"?.go", "a.go", false, true},
	{"?.go", "ab.go", false, false},
	{"[a-c].txt", "b.txt", false, true},
	{"[a-c].txt", "d.txt", false, false},
	{"[!a-c].txt", "d.txt", false, true},
	{"[^a-c].txt", "a.txt", false, false},
	{"[[:digit:]]x", "7x", false, true},
	{"[[:digit:]]x", "ax", false, false},
	{"[]]x", "]x", false, true},
	{"[a-]x", "-x", false, true},
	// ** forms
	{"**/foo", "foo", false, true},
	{"**/foo", "a/b/foo", false, true},
	{"**/foo/bar", "x/foo/bar", false, true},
	{"abc/**", "abc/x", false, true},
	{"abc/**", "abc/x/y", false, true},
	{"abc/**", "abc", true, false},
	{"a/**/b", "a/b", false, true},
	{"a/**/b", "a/x/y/b", false, true},
	{"a/**/b", "ab", false, false},
	{"a**b", "axb", false, true},
	{"a/**b", "a/xb", false, true},
	// negation: last match wins
	{"*.go\n!keep.go", "keep.go", false, false},
	{"*.go\n!keep.go", "drop.go", false, true},
	{"!keep.go\n*.go", "keep.go", false, true},
	// escapes and trailing spaces
	{`\#hash`, "#hash", false, true},
	{`\!bang`, "!bang", false, true},
	{"trail  ", "trail", false, true},
	{`trail\ `, "trail ", false, true},
	{`trail\ `, "trail", false, false},
	{`\*star`, "*star", false, true},
	{`\*star`, "xstar", false, false},
	// comments and blanks
	{"# x.go\n\nx.go", "x.go", false, true},
	{"# x.go", "x.go", false, false},
	// malformed class never matches
	{"[abc", "[abc", false, false},
	{"[[:nope:]]", "a", false, false},
}

func TestMatchTable(t *testing.T) {
	for _, tt := range matchCases {
		if got := ignoredBy(tt.patterns, tt.path, tt.isDir); got != tt.want {
			t.Errorf("patterns %q, path %q (dir %v): ignored = %v, want %v", tt.patterns, tt.path, tt.isDir, got, tt.want)
		}
	}
}

// TestMatchAgainstGit runs the same corpus, and a set of wider pattern and
// path combinations, through git check-ignore and requires the same verdicts.
func TestMatchAgainstGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not installed")
	}
	if testing.Short() {
		t.Skip("runs git many times")
	}
	type probe struct {
		path  string
		isDir bool
	}
	type group struct {
		patterns string
		probes   []probe
		want     []bool // nil: take ours without a hand-written expectation
	}
	byPattern := map[string]*group{}
	var order []string
	for _, c := range matchCases {
		g := byPattern[c.patterns]
		if g == nil {
			g = &group{patterns: c.patterns}
			byPattern[c.patterns] = g
			order = append(order, c.patterns)
		}
		g.probes = append(g.probes, probe{c.path, c.isDir})
	}
	// Wider grid: every pattern against every path.
	grid := []string{"*", "*.c", "a", "a/", "/a", "a/b", "a/*", "a/**", "**/b", "**/b/", "a/**/c", "*/b", "?", "[ab]", "a*c", "b/c", "/b/c", "**", "**/", "a/b/", "*/", "\\a", "c/", "!a"}
	paths := []probe{{"a", true}, {"a/b", true}, {"a/b/c", false}, {"a/c", false}, {"b", true}, {"b/c", false}, {"x.c", false}, {"a/x.c", false}, {"abc", false}, {"ac", false}}
	for _, p := range grid {
		key := p + "\n"
		byPattern[key] = &group{patterns: key, probes: paths}
		order = append(order, key)
	}

	for _, key := range order {
		g := byPattern[key]
		dir := t.TempDir()
		run := func(stdin string, args ...string) string {
			cmd := exec.Command(git, args...)
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(stdin)
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CONFIG_GLOBAL=/dev/null")
			out, err := cmd.Output()
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
				return string(out) // check-ignore: nothing ignored
			}
			if err != nil {
				t.Fatalf("git %v: %v", args, err)
			}
			return string(out)
		}
		run("", "init", "-q")
		if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(g.patterns), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdin bytes.Buffer
		for _, p := range g.probes {
			full := filepath.Join(dir, filepath.FromSlash(p.path))
			if p.isDir {
				os.MkdirAll(full, 0o755)
			} else {
				os.MkdirAll(filepath.Dir(full), 0o755)
				os.WriteFile(full, nil, 0o644)
			}
		}
		for _, p := range g.probes {
			stdin.WriteString(p.path + "\n")
		}
		ignored := map[string]bool{}
		for line := range strings.SplitSeq(run(stdin.String(), "check-ignore", "--no-index", "--stdin"), "\n") {
			if line != "" {
				ignored[line] = true
			}
		}
		for _, p := range g.probes {
			// git check-ignore also reports a path whose parent directory
			// is ignored; the walk never gets there, so compare with the
			// first ignored ancestor-or-self.
			ours := false
			parts := strings.Split(p.path, "/")
			for i := range parts {
				sub := strings.Join(parts[:i+1], "/")
				isDir := p.isDir || i < len(parts)-1
				if ignoredBy(g.patterns, sub, isDir) {
					ours = true
					break
				}
			}
			if ours != ignored[p.path] {
				t.Errorf("patterns %q, path %q (dir %v): ours %v, git %v", g.patterns, p.path, p.isDir, ours, ignored[p.path])
			}
		}
	}
}

// TestWildmatchFastPaths checks that the literal and suffix shortcuts agree
// with the general matcher.
func TestWildmatchFastPaths(t *testing.T) {
	for _, c := range []struct{ glob, text string }{
		{"foo", "foo"}, {"foo", "fo"}, {"*.go", "a.go"}, {"*.go", ".go"}, {"*.go", "a.gox"},
		{"*", ""}, {"*", "x"}, {"a/b", "a/b"},
	} {
		p, ok := parsePattern(c.glob)
		if !ok {
			t.Fatalf("parsePattern(%q) failed", c.glob)
		}
		if got, want := p.match(c.text, baseOf(c.text), false), wildmatch(p.glob, matchTarget(p, c.text)); got != want {
			t.Errorf("%q vs %q: fast %v, wildmatch %v", c.glob, c.text, got, want)
		}
	}
}

// baseOf is the last element of rel, as the walk computes it.
func baseOf(rel string) string { return rel[strings.LastIndexByte(rel, '/')+1:] }

func matchTarget(p pattern, rel string) string {
	if p.basename {
		return baseOf(rel)
	}
	return rel
}

func FuzzParsePattern(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.patterns, c.path, c.isDir)
	}
	f.Add("[[:alpha:]-z]", "q", false)
	f.Add(`[\]]`, "]", false)
	f.Add("***/**a", "b/a", true)
	f.Fuzz(func(t *testing.T, content, rel string, isDir bool) {
		file := parseIgnoreFile([]byte(content))
		if file == nil {
			return
		}
		for _, p := range file.patterns {
			if p.glob == "" {
				t.Fatalf("empty glob from %q", content)
			}
			// The shortcuts must agree with the general matcher.
			target := matchTarget(p, rel)
			if p.dirOnly && !isDir {
				continue
			}
			if got, want := p.match(rel, baseOf(rel), isDir), wildmatch(p.glob, target); got != want {
				t.Fatalf("pattern %+v on %q: match %v, wildmatch %v", p, rel, got, want)
			}
		}
		file.decide(rel, baseOf(rel), isDir)
	})
}

func FuzzMatch(f *testing.F) {
	f.Add("a/**/b", "a/x/b")
	f.Add("*[", "x")
	f.Add(`\`, `\`)
	f.Add("[!", "a")
	f.Add("[a-", "a")
	f.Add("[[:", "a")
	f.Fuzz(func(t *testing.T, glob, text string) {
		wildmatch(glob, text) // must not panic or hang
	})
}
