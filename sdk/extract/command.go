package extract

import (
	"path"
	"strings"
)

// interpreters run the script named by their first operand.
var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "py": true, "node": true, "nodejs": true,
	"deno": true, "bun": true, "ts-node": true, "tsx": true, "bash": true, "sh": true, "zsh": true,
	"ruby": true, "perl": true, "php": true, "pwsh": true, "powershell": true, "Rscript": true, "lua": true,
}

// SplitCommand splits a shell command line on blanks, honouring single
// and double quotes; nothing else of the shell (no variables, no escapes).
func SplitCommand(s string) []string {
	var out []string
	var b strings.Builder
	quote, in := byte(0), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// ScriptOf is the repository script a command line runs, or "": argv[0]
// when it is a path ("./scripts/x.sh", "bin/tool"), else the first
// operand of an interpreter ("python tools/x.py", "node scripts/x.js",
// "bash -e ci/run.sh"). A program looked up on PATH ("git status") runs
// no script of the repository.
func ScriptOf(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	if isScriptPath(argv[0]) {
		return argv[0]
	}
	name := path.Base(argv[0])
	if !interpreters[name] && !interpreters[strings.TrimRight(name, ".0123456789")] {
		return ""
	}
	shell := name == "bash" || name == "sh" || name == "zsh"
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-m" || a == "-c" || a == "-e" && !shell: // sh -e is errexit
			return "" // a module or inline code, not a file
		case strings.HasPrefix(a, "-"):
			continue
		case strings.ContainsAny(a, "$`*?"):
			return ""
		}
		return a
	}
	return ""
}

// isScriptPath reports a program spelled as a relative path.
func isScriptPath(s string) bool {
	return (strings.HasPrefix(s, "./") || strings.Contains(s, "/")) && !strings.HasPrefix(s, "/") &&
		!strings.ContainsAny(s, "$`*?")
}
