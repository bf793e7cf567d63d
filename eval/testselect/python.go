package main

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Python mode: CPython's own modules and tests (Debian's
// libpython3.11-testsuite ships Lib/test), laid out as a project would
// be: mod.py at the root, its unittest module in tests/test_mod.py. A
// mutant raises at the first statement of one function; the tests run
// with the repository's copy of the module ahead of the standard one.

//go:embed pyrun.py
var pyRunner []byte

//go:embed pymutants.py
var pyLister []byte

// pyEnv holds where the Python side lives for one run.
type pyEnv struct {
	python string // interpreter matching the test suite
	stdlib string // its Lib directory
	tools  string // directory with pyrun.py and pymutants.py
}

func runPython(bin string, mods []string, env pyEnv, per int, depths []int, keep, verbose bool) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	repo, err := os.MkdirTemp("", "testselect-py")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(repo)
	}
	env.tools = filepath.Join(repo, ".testselect")
	if err := os.MkdirAll(env.tools, 0o755); err != nil {
		return err
	}
	os.WriteFile(filepath.Join(env.tools, "pyrun.py"), pyRunner, 0o644)
	os.WriteFile(filepath.Join(env.tools, "pymutants.py"), pyLister, 0o644)
	os.MkdirAll(filepath.Join(repo, "tests"), 0o755)
	os.WriteFile(filepath.Join(repo, "tests", "__init__.py"), nil, 0o644)
	var copied []string
	for _, m := range mods {
		m = strings.TrimSpace(m)
		src, test := filepath.Join(env.stdlib, m+".py"), filepath.Join(env.stdlib, "test", "test_"+m+".py")
		if err := copyFile(src, filepath.Join(repo, m+".py")); err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", m, err)
			continue
		}
		if err := copyFile(test, filepath.Join(repo, "tests", "test_"+m+".py")); err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v (install libpython3.11-testsuite)\n", m, err)
			continue
		}
		copied = append(copied, m)
	}
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(".testselect/\n__pycache__/\n"), 0o644)
	corpusTag = "cpython"
	lang = pythonLang{env: env}
	return evaluate(repo, bin, "modules of CPython's Lib", copied, per, depths, verbose)
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// pythonLang is the Python side of one evaluation.
type pythonLang struct{ env pyEnv }

func (l pythonLang) mutants(repo, mod string, n int) ([]mutant, error) {
	file := filepath.Join(repo, mod+".py")
	out, err := output(repo, l.env.python, filepath.Join(l.env.tools, "pymutants.py"), file)
	if err != nil {
		return nil, err
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	lineStart := []int{0}
	for i, c := range src {
		if c == '\n' {
			lineStart = append(lineStart, i+1)
		}
	}
	var all []mutant
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var f struct {
			Name      string
			Line, Col int
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil || f.Line < 1 || f.Line > len(lineStart) {
			continue
		}
		text := strings.Repeat(" ", f.Col) + "raise RuntimeError(\"synaptic-mutant\")\n"
		all = append(all, mutant{file: mod + ".py", name: f.Name, at: lineStart[f.Line-1], text: text})
	}
	return spread(all, n), nil
}

func (pythonLang) dir(string) string { return "." }

func (pythonLang) name() string { return "python" }

func (l pythonLang) run(repo, mod string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.env.python, filepath.Join(l.env.tools, "pyrun.py"), "tests.test_"+mod, mod)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("%s: %v: %s", mod, err, strings.TrimSpace(errOut.String()))
	}
	var r struct {
		Passed, Failed []string
		InitCrash      bool `json:"init_crash"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return result{}, fmt.Errorf("%s: runner output: %v", mod, err)
	}
	res := result{Passed: map[string]bool{}, Failed: r.Failed, InitCrash: r.InitCrash}
	for _, t := range r.Passed {
		res.Passed[t] = true
	}
	return res, nil
}

// testName maps a predicted test row of mod to the runner's
// Class.method, or "" when the row is not one of mod's test methods.
func (pythonLang) testName(mod string, t predictedTest) string {
	if filepath.ToSlash(t.File) != "tests/test_"+mod+".py" {
		return ""
	}
	q, _, _ := strings.Cut(t.Qualified, "@")
	q = strings.TrimSuffix(q, "()")
	if !strings.Contains(q, ".") {
		return "" // a module-level function or the file: not a test method
	}
	return q
}
