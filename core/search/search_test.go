package search

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// tree is a repository with every kind of file search must skip, each
// holding the needle.
var tree = map[string]string{
	"a.go":                         "package a\n// needle one\n",
	"sub/b.py":                     "x = 1\ny = 'needle'  # needle twice on a line\n",
	"data/graph.json":              `{"needle": true}`, // a lone graph.json is data
	".gitignore":                   "ignored/\n*.log\n",
	"ignored/c.go":                 "needle",
	"debug.log":                    "needle",
	".synapticignore":              "private.txt\n",
	"private.txt":                  "needle",
	".env":                         "SECRET=needle",
	"synaptic-out/graph.json":      "needle",
	"synaptic-out/GRAPH_REPORT.md": "needle",
	"custom/graph.json":            "needle",
	"custom/.manifest.json":        "needle",
	"custom/graph.json.bak1":       "needle",
	"custom/exports/x.md":          "needle",
	"bin.dat":                      "needle\x00\x01\x02",
	"node_modules/m/index.js":      "needle",
}

func run(t *testing.T, root, pattern string, opts Options) *Result {
	t.Helper()
	m, err := Compile(pattern, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts.Root = root
	if opts.MaxResults == 0 {
		opts.MaxResults = 100
	}
	res, err := Search(context.Background(), m, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func render(res *Result) string {
	var b strings.Builder
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "%s:%d:%d %s|", h.File, h.Line, h.Col, h.Match)
	}
	return b.String()
}

func TestSearchSkips(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, tree)
	res := run(t, root, "needle", Options{})
	want := "a.go:2:4 needle|data/graph.json:1:3 needle|sub/b.py:2:6 needle|"
	if got := render(res); got != want {
		t.Fatalf("hits %s\nwant %s", got, want)
	}
	if res.Total != 3 || res.Truncated || res.Binary != 1 || res.OutputFiles != 4 || res.Partial {
		t.Fatalf("result %+v", res)
	}
	// scanned: a.go, data/graph.json, sub/b.py and the two ignore files.
	if res.FilesScanned != 5 {
		t.Fatalf("files scanned %d", res.FilesScanned)
	}
}

func TestSearchKeepAndTruncation(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("d%02d/f.go", i)] = "hit\nhit\n"
		files[fmt.Sprintf("d%02d/f.txt", i)] = "hit\n"
	}
	writeTree(t, root, files)
	g, _ := ParseGlob("**/*.go")
	res := run(t, root, "hit", Options{Keep: g.Match, MaxResults: 5})
	if res.Total != 60 || len(res.Hits) != 5 || !res.Truncated || res.FilesScanned != 30 {
		t.Fatalf("result total=%d hits=%d truncated=%v scanned=%d", res.Total, len(res.Hits), res.Truncated, res.FilesScanned)
	}
	if got := render(res); got != "d00/f.go:1:1 hit|d00/f.go:2:1 hit|d01/f.go:1:1 hit|d01/f.go:2:1 hit|d02/f.go:1:1 hit|" {
		t.Fatalf("hits not in path order: %s", got)
	}
	// Same answer whatever the worker count.
	for _, w := range []int{1, 3, 8} {
		if got := render(run(t, root, "hit", Options{Keep: g.Match, MaxResults: 5, Workers: w})); got != render(res) {
			t.Fatalf("workers=%d: %s", w, got)
		}
	}
}

func TestSearchLimits(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big.txt": strings.Repeat("x", 2048) + "\nneedle\n", "small.txt": "needle"})
	res := run(t, root, "needle", Options{MaxFileSize: 1024})
	if res.TooLarge != 1 || res.Total != 1 {
		t.Fatalf("result %+v", res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, _ := Compile("needle", false, nil)
	res, err := Search(ctx, m, Options{Root: root, MaxResults: 10})
	if err != nil || !res.Partial || res.Total != 0 {
		t.Fatalf("cancelled search: %+v, %v", res, err)
	}
	if _, err := Search(context.Background(), m, Options{Root: filepath.Join(root, "nope")}); err == nil {
		t.Fatal("missing root accepted")
	}
}

func TestSearchUnreadable(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.txt": "needle", "b.txt": "needle"})
	res := run(t, root, "needle", Options{Read: func(rel string) ([]byte, error) {
		if rel == "b.txt" {
			return nil, os.ErrPermission
		}
		return os.ReadFile(filepath.Join(root, rel))
	}})
	if res.Total != 1 || res.Unreadable != 1 {
		t.Fatalf("result %+v", res)
	}
}
