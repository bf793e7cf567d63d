package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestExtractVerboseWorkers: extract -v splits the worker time per
// language (files, bytes, parse, serialize, plugin wall and CPU) and says
// how many guest instances each loaded plugin ran its calls on.
func TestExtractVerboseWorkers(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	for name, body := range map[string]string{
		"a.go":    "package p\n\n// A is a.\nfunc A() { B() }\n",
		"b.go":    "package p\n\nfunc B() {}\n",
		"tool.py": "def f():\n    return 1\n",
	} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := run(t, repo, false, "extract", "--quiet", "-v", "--workers", "1", ".")
	for _, want := range []string{
		`(?m)^  workers: parse [0-9.]+ CPU-s, serialize [0-9.]+ CPU-s, plugins [0-9.]+ s, [0-9.]+ CPU-s \(summed over workers\)$`,
		`(?m)^    go +2 files +0\.00 MB: parse [0-9.]+ CPU-s, serialize [0-9.]+ CPU-s, plugin [0-9.]+ s, [0-9.]+ CPU-s$`,
		`(?m)^    python +1 files `,
		// A call per file, plus the project entry point's (go.mod,
		// pyproject.toml: both plugins declare [project]).
		`(?m)^  plugin go: 3 guest calls on 1 instances \(0 recycled for memory, 0 failed\)$`,
		`(?m)^  plugin python: 2 guest calls on 1 instances `,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("extract -v output lacks %s:\n%s", want, out)
		}
	}
}

// TestExtractVerboseProjectInstance: with a go.mod the project entry point
// answers info, and the instance that ran it takes the answer through
// synaptic_set_project instead of being replaced: one worker, one instance,
// four guest calls (entry point, set_project, two files).
func TestExtractVerboseProjectInstance(t *testing.T) {
	needBin(t)
	repo := t.TempDir()
	for name, body := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go":   "package p\n\n// A is a.\nfunc A() { B() }\n",
		"b.go":   "package p\n\nfunc B() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := run(t, repo, false, "extract", "--quiet", "-v", "--workers", "1", ".")
	want := `(?m)^  plugin go: 4 guest calls on 1 instances \(0 recycled for memory, 0 failed\)$`
	if !regexp.MustCompile(want).MatchString(out) {
		t.Errorf("extract -v output lacks %s:\n%s", want, out)
	}
}
