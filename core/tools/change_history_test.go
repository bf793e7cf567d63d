package tools

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// lineExtractor stands in for the plugin pipeline (core cannot import
// it): one node per "func NAME" line of every .go file of the worktree,
// public when NAME is capitalised, and an imports edge per `import "x"`.
func lineExtractor(calls *atomic.Int32, fail error, block bool) func(ctx context.Context, dir, out string) error {
	return func(ctx context.Context, dir, out string) error {
		calls.Add(1)
		if block {
			<-ctx.Done()
			return ctx.Err()
		}
		if fail != nil {
			return fail
		}
		g := &graph.Graph{Directed: true}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			rel := filepath.Base(f)
			g.Nodes = append(g.Nodes, graph.Node{ID: rel, Label: rel, Kind: "file", SourceFile: rel, FileType: "code"})
			fh, err := os.Open(f)
			if err != nil {
				return err
			}
			sc := bufio.NewScanner(fh)
			for sc.Scan() {
				line := sc.Text()
				if name, ok := strings.CutPrefix(line, "func "); ok {
					name = strings.TrimSuffix(name, "() {}")
					vis := "private"
					if name[0] >= 'A' && name[0] <= 'Z' {
						vis = "public"
					}
					g.Nodes = append(g.Nodes, graph.Node{ID: rel + "_" + name, Label: name + "()", Kind: "function", SourceFile: rel, FileType: "code", Visibility: vis})
				}
				if mod, ok := strings.CutPrefix(line, "import "); ok {
					mod = strings.Trim(mod, `"`)
					g.Nodes = append(g.Nodes, graph.Node{ID: "mod_" + mod, Label: mod})
					g.Edges = append(g.Edges, graph.Edge{Source: rel, Target: "mod_" + mod, Relation: "imports", Confidence: graph.Extracted})
				}
			}
			fh.Close()
		}
		g.Canonicalize()
		if err := os.MkdirAll(out, 0o755); err != nil {
			return err
		}
		fh, err := os.Create(filepath.Join(out, "graph.json"))
		if err != nil {
			return err
		}
		defer fh.Close()
		return graph.Write(fh, g)
	}
}

func worktreesLeft(t *testing.T) []string {
	t.Helper()
	cache, _ := os.UserCacheDir()
	left, _ := filepath.Glob(filepath.Join(cache, "synaptic", "worktrees", "*", "*"))
	return left
}

func TestTimeTravelDiff(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := gitRepo(t)
	writeRepoFile(t, dir, "a.go", "package a\nimport \"fmt\"\nfunc Old() {}\nfunc keep() {}\n")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-qm", "v1")
	writeRepoFile(t, dir, "a.go", "package a\nimport \"os\"\nfunc keep() {}\nfunc New() {}\n")
	runGit(t, dir, "commit", "-qam", "v2")

	var calls atomic.Int32
	c := New(Options{SourceRoot: dir, ExtractRevision: lineExtractor(&calls, nil, false), ExtractKey: "test"})
	c.SetGraph(fixture())
	r := call(t, c, "time_travel_diff", `{"rev1":"HEAD~1","rev2":"HEAD"}`)
	for _, want := range []string{"extracted in a throwaway worktree", "2 new nodes, 2 removed nodes",
		"Added module dependencies (1):\n  . -> os", "Removed module dependencies (1):\n  . -> fmt",
		"Removed APIs (1):\n  Old() [function] a.go", "a.go  4 lines, 2 nodes"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("lacks %q:\n%s", want, r.Text)
		}
	}
	if calls.Load() != 2 || len(worktreesLeft(t)) != 0 {
		t.Fatalf("extractions %d, worktrees left %v", calls.Load(), worktreesLeft(t))
	}
	// Second call: both graphs come from the per-commit cache.
	r = call(t, c, "time_travel_diff", `{"rev1":"HEAD~1","rev2":"HEAD"}`)
	if calls.Load() != 2 || !strings.Contains(r.Text, "(cached / cached") {
		t.Fatalf("second call re-extracted (%d):\n%s", calls.Load(), r.Text)
	}
	if r := call(t, c, "time_travel_diff", `{"rev1":"no-such-rev"}`); !r.IsError || !strings.Contains(r.Text, `"no-such-rev" does not exist`) {
		t.Fatalf("bad rev: %+v", r)
	}

	// A revision that does not extract: a clear error, no worktree left.
	bad := New(Options{SourceRoot: dir, ExtractRevision: lineExtractor(&calls, errors.New("syntax error in a.go"), false), ExtractKey: "bad"})
	bad.SetGraph(fixture())
	if r := call(t, bad, "time_travel_diff", `{"rev1":"HEAD~1"}`); !r.IsError || !strings.Contains(r.Text, "syntax error in a.go") {
		t.Fatalf("failing extraction: %+v", r)
	}
	if left := worktreesLeft(t); len(left) != 0 {
		t.Fatalf("worktree left after failure: %v", left)
	}

	// A revision whose extraction hangs: stopped by the deadline, cleaned up.
	hang := New(Options{SourceRoot: dir, ExtractRevision: lineExtractor(&calls, nil, true), ExtractKey: "hang"})
	hang.SetGraph(fixture())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	res, err := hang.Call(ctx, "time_travel_diff", []byte(`{"rev1":"HEAD~1"}`))
	if err != nil || !res.IsError || !strings.Contains(res.Text, "timed out") {
		t.Fatalf("hanging extraction: %+v %v", res, err)
	}
	if left := worktreesLeft(t); len(left) != 0 {
		t.Fatalf("worktree left after timeout: %v", left)
	}
}
