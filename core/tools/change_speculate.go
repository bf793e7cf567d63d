package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/synaptic-graph/synaptic/core/execcap"
	"github.com/synaptic-graph/synaptic/core/gitdiff"
)

// speculate's bounds: default and maximum timeout, kept output per end.
const (
	speculateTimeout    = 300
	speculateMaxTimeout = 3600
	speculateOutputCap  = 256 << 10
)

// execAnnotations: speculate runs commands, so it is not read-only.
var execAnnotations = Annotations{OpenWorldHint: true}

// speculateTool is advertised only with Options.AllowExec.
func (c *Catalog) speculateTool() []Tool {
	if !c.opts.AllowExec {
		return nil
	}
	return []Tool{{
		Name:  "speculate",
		Title: "Speculate (runs tests)",
		Description: "Runs the tests in a throwaway worktree with the working changes applied (timeout, output cap) and reports pass/fail " +
			"per at-risk test beside predict_impact's forecast. Command: test_cmd, else .synaptic/config.toml [speculate], else detected. " +
			"Not read-only (serve --allow-exec).",
		InputSchema: object(
			strArray("files", "Changed repo-relative files; default the diff vs base."),
			str("base", baseHelp),
			str("test_cmd", "Shell command; {files} expands to the at-risk test files."),
			integer("depth", "Hops, 1..16.", 3, -1, -1),
			integer("timeout", "Seconds before the command tree is killed.", speculateTimeout, 1, speculateMaxTimeout),
			integer("max_tests", "Max at-risk tests run and listed.", 20, 1, -1),
		),
		Annotations: execAnnotations,
		Run:         c.run(c.speculate),
	}}
}

type speculateConfig struct {
	Speculate struct {
		TestCmd string `toml:"test_cmd"`
	} `toml:"speculate"`
}

// configuredCommand reads [speculate] test_cmd from .synaptic/config.toml.
func configuredCommand(root string) (string, error) {
	p := filepath.Join(root, ".synaptic", "config.toml")
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var cfg speculateConfig
	if _, err := toml.Decode(string(b), &cfg); err != nil {
		return "", fmt.Errorf("%s: %v (fix the file, or pass test_cmd)", p, err)
	}
	return strings.TrimSpace(cfg.Speculate.TestCmd), nil
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// detectCommand picks the test command for the worktree at dir.
func detectCommand(dir string, tests []testRow, changed []changeFile) (string, bool) {
	exists := func(f string) bool { _, err := os.Stat(filepath.Join(dir, f)); return err == nil }
	switch {
	case exists("go.mod"):
		pkgs := map[string]bool{}
		var names []string
		for _, t := range tests {
			if strings.HasSuffix(t.File, "_test.go") && !strings.HasPrefix(t.Label, ".") {
				pkgs["./"+path.Dir(t.File)] = true
				names = append(names, strings.TrimSuffix(t.Label, "()"))
			}
		}
		if len(names) == 0 {
			for _, f := range changed {
				if strings.HasSuffix(f.Path, ".go") && f.Status != gitdiff.Deleted {
					pkgs["./"+path.Dir(f.Path)] = true
				}
			}
		}
		if len(pkgs) == 0 {
			return "go test -json ./...", true
		}
		cmd := "go test -json " + strings.Join(slices.Sorted(func(yield func(string) bool) {
			for p := range pkgs {
				if !yield(shellQuote(p)) {
					return
				}
			}
		}), " ")
		if len(names) > 0 {
			slices.Sort(names)
			cmd += " -run " + shellQuote("^("+strings.Join(slices.Compact(names), "|")+")$")
		}
		return cmd, true
	case exists("pyproject.toml"), exists("setup.py"), exists("pytest.ini"), exists("setup.cfg"):
		var ids []string
		for _, t := range tests {
			if strings.HasSuffix(t.File, ".py") {
				ids = append(ids, shellQuote(t.File+"::"+strings.TrimSuffix(strings.TrimPrefix(t.Label, "."), "()")))
			}
		}
		return strings.TrimSpace("python3 -m pytest -q " + strings.Join(slices.Compact(ids), " ")), true
	case exists("package.json"):
		return "npm test --silent", true
	case exists("Cargo.toml"):
		return "cargo test", true
	}
	return "", false
}

func (c *Catalog) speculate(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		Files    []string `json:"files"`
		Base     string   `json:"base"`
		TestCmd  string   `json:"test_cmd"`
		Depth    *int     `json:"depth"`
		Timeout  *int     `json:"timeout"`
		MaxTests *int     `json:"max_tests"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	timeout, maxTests := speculateTimeout, 20
	if a.Timeout != nil {
		timeout = min(max(*a.Timeout, 1), speculateMaxTimeout)
	}
	if a.MaxTests != nil {
		maxTests = max(*a.MaxTests, 1)
	}
	depth := changeArgs{Depth: a.Depth}.depth()
	cs, fail := c.collect(ctx, s, a.Files, a.Base)
	if fail != nil {
		return *fail
	}
	hits := s.impactOf(cs, depth)
	fc := s.forecast(cs, hits, depth, 0)
	tests := fc.AtRiskTests[:min(len(fc.AtRiskTests), maxTests)]

	r := c.repo()
	head, err := r.Commit(ctx, "HEAD")
	if err != nil {
		return c.gitFailure(err)
	}
	wt, err := r.AddWorktree(ctx, head)
	if err != nil {
		return c.gitFailure(err)
	}
	defer wt.Remove()
	if err := r.ApplyWorkingChanges(ctx, wt); err != nil {
		return errorf("speculate: %s", sanitize(err.Error()))
	}
	top, err := r.Toplevel(ctx)
	if err != nil {
		return c.gitFailure(err)
	}
	abs, _ := filepath.Abs(r.Dir)
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = "."
	}
	dir := filepath.Join(wt.Dir, rel)

	command, source := strings.TrimSpace(a.TestCmd), "test_cmd"
	if command == "" {
		configured, err := configuredCommand(c.opts.SourceRoot)
		if err != nil {
			return errorf("speculate: %s", sanitize(err.Error()))
		}
		command, source = configured, ".synaptic/config.toml"
	}
	if command == "" {
		var ok bool
		if command, ok = detectCommand(dir, tests, cs.files); !ok {
			return errorf("speculate: no test command detected (no go.mod, pyproject.toml/setup.py, package.json or Cargo.toml): pass test_cmd, or set [speculate] test_cmd in .synaptic/config.toml")
		}
		source = "detected"
	}
	if strings.Contains(command, "{files}") {
		var files []string
		for _, t := range tests {
			files = append(files, shellQuote(t.File))
		}
		command = strings.ReplaceAll(command, "{files}", strings.Join(slices.Compact(files), " "))
	}
	res, err := execcap.Run(ctx, dir, command, []string{"SYNAPTIC_SPECULATE=1"}, time.Duration(timeout)*time.Second, speculateOutputCap)
	if err != nil {
		return errorf("speculate: %s", sanitize(err.Error()))
	}
	return Result{Text: speculateText(fc, tests, command, source, res, timeout), IsError: false}
}

// goTestOutcomes reads `go test -json` events: top-level test -> action.
func goTestOutcomes(out []byte) map[string]string {
	outcomes := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var ev struct{ Action, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue
		}
		switch ev.Action {
		case "pass", "fail", "skip":
			outcomes[ev.Test] = ev.Action
		}
	}
	return outcomes
}

func speculateText(fc ChangeForecast, tests []testRow, command, source string, res execcap.Result, timeout int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Speculate: ran %s (%s) in a throwaway worktree with the working changes applied\n", sanitize(command), source)
	switch {
	case res.TimedOut:
		fmt.Fprintf(&b, "Result: TIMED OUT after %ds (the command and its children were killed)\n", timeout)
	case res.ExitCode == 0:
		fmt.Fprintf(&b, "Result: PASS (exit 0) in %.1fs\n", res.Elapsed.Seconds())
	default:
		fmt.Fprintf(&b, "Result: FAIL (exit %d) in %.1fs\n", res.ExitCode, res.Elapsed.Seconds())
	}
	fmt.Fprintf(&b, "Forecast: %s\n", fc.Summary)
	outcomes := goTestOutcomes(res.Output)
	fmt.Fprintf(&b, "At-risk tests (%d of %d):\n", len(tests), len(fc.AtRiskTests))
	for _, t := range tests {
		state := "not reported"
		if o, ok := outcomes[strings.TrimSuffix(strings.TrimPrefix(t.Label, "."), "()")]; ok {
			state = o
		} else if res.Dropped > 0 {
			state = "not reported (output truncated)"
		} else if len(outcomes) == 0 {
			state = "see the command's exit status (no per-test report)"
		}
		fmt.Fprintf(&b, "  %-8s %s\n", state, t.Qualified)
	}
	tail := res.Output
	if i := len(tail) - 4096; i > 0 {
		tail = tail[i:]
	}
	if res.Dropped > 0 {
		fmt.Fprintf(&b, "Output (%d bytes not kept):\n", res.Dropped)
	} else {
		b.WriteString("Output (tail):\n")
	}
	b.WriteString(sanitizeBlock(string(tail)))
	return strings.TrimRight(b.String(), "\n")
}

// sanitizeBlock sanitizes each line of command output.
func sanitizeBlock(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + sanitize(l) + "\n")
	}
	return b.String()
}
