package extract

import (
	"strings"
	"testing"
)

func TestScriptOf(t *testing.T) {
	for cmd, want := range map[string]string{
		"python tools/gen.py --out x":   "tools/gen.py",
		"/usr/bin/python3 tools/gen.py": "tools/gen.py",
		"python3.11 -u tools/gen.py":    "tools/gen.py",
		"node scripts/build.js":         "scripts/build.js",
		"bash -e 'ci/run tests.sh'":     "ci/run tests.sh",
		"./scripts/deploy.sh prod":      "./scripts/deploy.sh",
		"bin/tool":                      "bin/tool",
		"python -m pytest tests":        "",
		"git status":                    "",
		"/usr/bin/env":                  "",
		"sh -c 'make all'":              "",
		"node $SCRIPT":                  "",
		"":                              "",
	} {
		if got := ScriptOf(SplitCommand(cmd)); got != want {
			t.Errorf("ScriptOf(%q) = %q, want %q", cmd, got, want)
		}
	}
	if got := strings.Join(SplitCommand(`a "b c"  'd'`), "|"); got != "a|b c|d" {
		t.Errorf("SplitCommand = %q", got)
	}
}

// FuzzScriptOf: a command line from source never panics the splitter,
// and the script found is one of its words, never absolute.
func FuzzScriptOf(f *testing.F) {
	for _, s := range []string{"python tools/x.py", "bash -e 'a b.sh'", `node "x`, "./s.sh", "sh -c x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		argv := SplitCommand(cmd)
		s := ScriptOf(argv)
		if s == "" {
			return
		}
		if strings.HasPrefix(s, "/") {
			t.Fatalf("ScriptOf(%q) = absolute %q", cmd, s)
		}
		for _, a := range argv {
			if a == s {
				return
			}
		}
		t.Fatalf("ScriptOf(%q) = %q, not one of %q", cmd, s, argv)
	})
}
