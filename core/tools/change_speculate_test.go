package tools

import (
	"strings"
	"testing"
)

func TestSpeculate(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := gitRepo(t)
	c := newFixtureCatalog(t, Options{SourceRoot: dir, AllowExec: true})
	editLine(t, dir, "pkg/server.go", 27, "// edited")
	writeRepoFile(t, dir, "new.txt", "untracked\n")

	// The command sees the uncommitted edit and the untracked file, runs in
	// the worktree (not the repo), and its go test -json events are read.
	cmd := `test "$PWD" != ` + shellQuote(dir) + ` && grep -q edited pkg/server.go && test -f new.txt && echo '{"Action":"fail","Test":"TestServe"}' && exit 1`
	r := call(t, c, "speculate", `{"test_cmd":`+jsonString(cmd)+`}`)
	for _, want := range []string{"in a throwaway worktree with the working changes applied", "Result: FAIL (exit 1)",
		"fail     TestServe()@pkg/server_test.go", "Forecast: 2 files, 1 changed nodes"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("lacks %q:\n%s", want, r.Text)
		}
	}
	if left := worktreesLeft(t); len(left) != 0 {
		t.Fatalf("worktree left: %v", left)
	}
	// A hanging command is killed at the timeout; the worktree goes.
	r = call(t, c, "speculate", `{"test_cmd":"sleep 60","timeout":1}`)
	if !strings.Contains(r.Text, "TIMED OUT after 1s") || len(worktreesLeft(t)) != 0 {
		t.Fatalf("hang:\n%s", r.Text)
	}
	// A flood of output is capped.
	r = call(t, c, "speculate", `{"test_cmd":"yes 0123456789 | head -c 20000000"}`)
	if !strings.Contains(r.Text, "bytes not kept") || len(r.Text) > 64<<10 {
		t.Fatalf("flood: %d bytes of text", len(r.Text))
	}
	// .synaptic/config.toml names the command; a broken one says where.
	writeRepoFile(t, dir, ".synaptic/config.toml", "[speculate]\ntest_cmd = \"echo from-config\"\n")
	if r := call(t, c, "speculate", `{}`); !strings.Contains(r.Text, "(.synaptic/config.toml)") || !strings.Contains(r.Text, "from-config") {
		t.Fatalf("config:\n%s", r.Text)
	}
	writeRepoFile(t, dir, ".synaptic/config.toml", "[speculate\n")
	if r := call(t, c, "speculate", `{}`); !r.IsError || !strings.Contains(r.Text, "config.toml") {
		t.Fatalf("bad config: %+v", r)
	}
}

func jsonString(s string) string {
	b := new(strings.Builder)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func TestDetectCommand(t *testing.T) {
	dir := t.TempDir()
	writeRepoFile(t, dir, "go.mod", "module x\n")
	got, ok := detectCommand(dir, []testRow{{Label: "TestB()", File: "a/b_test.go"}, {Label: "TestA()", File: "a/a_test.go"}}, nil)
	if !ok || got != `go test -json './a' -run '^(TestA|TestB)$'` {
		t.Fatalf("go: %q", got)
	}
	if _, ok := detectCommand(t.TempDir(), nil, nil); ok {
		t.Fatal("detected a command in an empty dir")
	}
}
