package query

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitRepo makes a repository on branch main with two committed files, then
// a feature branch that commits a change to a.go and leaves an uncommitted
// edit in b.go. c.go is unchanged.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("init", "-q", "-b", "main")
	write("a.go", "package p\nfunc fetchA() {}\n")
	write("b.go", "package p\nfunc fetchB() {}\n")
	write("c.go", "package p\nfunc fetchC() {}\n")
	run("add", ".")
	run("commit", "-q", "-m", "base")
	run("checkout", "-q", "-b", "feature")
	write("a.go", "package p\nfunc fetchA() {\n\tx()\n\ty()\n\tz()\n}\n")
	run("commit", "-q", "-am", "grow a")
	write("b.go", "package p\nfunc fetchB() { x() }\n")
	return dir
}

func fetchGraph() *gb {
	b := &gb{}
	b.node("fetch_a", "fetchA()", "a.go", "function").
		node("fetch_b", "fetchB()", "b.go", "function").
		node("fetch_c", "fetchC()", "c.go", "function").
		node("other", "unrelated()", "a.go", "function")
	return b
}

func changed(r Response) map[string]*bool {
	out := map[string]*bool{}
	for _, n := range r.Ranked {
		out[n.ID] = n.Changed
	}
	return out
}

func TestSinceBoostsChangedFiles(t *testing.T) {
	dir := gitRepo(t)
	e := fetchGraph().engine(WithRoot(dir))
	ctx := context.Background()

	base := e.Query(ctx, Request{Question: "fetch"})
	if base.Ranked[0].ID != "fetch_a" || base.Ranked[0].Changed != nil {
		t.Fatalf("without since: %v", ids(base))
	}
	for _, since := range []string{"main", "auto"} {
		r := e.Query(ctx, Request{Question: "fetch", Since: since})
		c := changed(r)
		if c["fetch_a"] == nil || !*c["fetch_a"] || !*c["fetch_b"] || *c["fetch_c"] {
			t.Errorf("since %s: changed a=%v b=%v c=%v", since, c["fetch_a"], c["fetch_b"], c["fetch_c"])
		}
		got := ids(r)
		if got[len(got)-1] == "fetch_a" || got[0] == "fetch_c" {
			t.Errorf("since %s: changed files not boosted: %q", since, got)
		}
		// a.go churned more (committed growth) than b.go (one-line edit).
		score := map[string]float64{}
		for _, n := range r.Ranked {
			score[n.ID] = n.Score
		}
		if !(score["fetch_a"] > score["fetch_b"] && score["fetch_b"] > score["fetch_c"]) {
			t.Errorf("since %s: churn weighting: %v", since, score)
		}
		if !strings.Contains(r.Text, "\nRecency: since "+since) || !strings.Contains(r.Text, "(changed) fetchB()") {
			t.Errorf("since %s text:\n%s", since, r.Text)
		}
	}

	// recency_mode=seed injects changed nodes even when the question
	// matches none of them.
	r := e.Query(ctx, Request{Question: "unrelated", Since: "main", RecencyMode: "seed"})
	if c := changed(r); c["fetch_b"] == nil {
		t.Errorf("seed mode did not inject changed nodes: %v", ids(r))
	}
}

func TestSinceSilentlyIgnored(t *testing.T) {
	ctx := context.Background()
	// Not a git repo.
	e := fetchGraph().engine(WithRoot(t.TempDir()))
	if r := e.Query(ctx, Request{Question: "fetch", Since: "main"}); r.Ranked[0].Changed != nil || strings.Contains(r.Text, "Recency:") {
		t.Errorf("outside git: %s", r.Text)
	}
	// A ref that does not resolve, and an option-looking one.
	e = fetchGraph().engine(WithRoot(gitRepo(t)))
	for _, since := range []string{"no-such-branch", "--output=/tmp/x"} {
		if r := e.Query(ctx, Request{Question: "fetch", Since: since}); r.Ranked[0].Changed != nil {
			t.Errorf("since %q resolved", since)
		}
	}
	// A date after every commit resolves to HEAD: only the uncommitted
	// edit counts.
	r := e.Query(ctx, Request{Question: "fetch", Since: "2099-01-01 00:00"})
	if c := changed(r); c["fetch_b"] == nil || !*c["fetch_b"] || *c["fetch_a"] {
		t.Errorf("date since: a=%v b=%v", c["fetch_a"], c["fetch_b"])
	}
	// A date before every commit resolves to nothing.
	if r := e.Query(ctx, Request{Question: "fetch", Since: "20 years ago"}); r.Ranked[0].Changed != nil {
		t.Error("date before history resolved")
	}
	// No root configured.
	e = fetchGraph().engine()
	if r := e.Query(ctx, Request{Question: "fetch", Since: "auto"}); r.Ranked[0].Changed != nil {
		t.Error("since without a root")
	}
}
