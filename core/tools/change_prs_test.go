package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/ghpr"
)

// fakeGH puts a gh script on PATH answering pr list/view/diff from the
// fixture, or failing as FAKE_GH_MODE says (unauth, ratelimit). It logs
// every call to $FAKE_GH_LOG.
const fakeGH = `#!/bin/sh
echo "$@" >> "$FAKE_GH_LOG"
case "$FAKE_GH_MODE" in
unauth) echo "To get started with GitHub CLI, please run:  gh auth login" >&2; exit 4 ;;
ratelimit) echo "GraphQL: API rate limit exceeded for user ID 1." >&2; exit 1 ;;
esac
case "$1 $2" in
"pr list") cat <<'JSON'
[{"number":7,"title":"Speed up Serve","author":{"login":"ann"},"url":"https://x/pull/7","baseRefName":"main","headRefName":"fast","isDraft":false,"reviewDecision":"APPROVED","statusCheckRollup":[{"status":"COMPLETED","conclusion":"SUCCESS"}],"additions":3,"deletions":1},
 {"number":9,"title":"WIP","author":{"login":"bob"},"url":"https://x/pull/9","baseRefName":"main","headRefName":"wip","isDraft":true,"reviewDecision":"","statusCheckRollup":[{"status":"COMPLETED","conclusion":"FAILURE"}],"additions":1,"deletions":0}]
JSON
;;
"pr view") cat <<'JSON'
{"number":7,"title":"Speed up Serve","author":{"login":"ann"},"url":"https://x/pull/7","baseRefName":"main","headRefName":"fast","isDraft":false,"reviewDecision":"APPROVED","statusCheckRollup":[],"additions":3,"deletions":1,"files":[{"path":"pkg/server.go"}]}
JSON
;;
"pr diff") printf 'diff --git a/pkg/server.go b/pkg/server.go\n--- a/pkg/server.go\n+++ b/pkg/server.go\n@@ -27 +27 @@\n-x\n+y\n' ;;
*) echo "unknown command $*" >&2; exit 1 ;;
esac
`

func withFakeGH(t *testing.T, mode string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(fakeGH), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "calls.log")
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_GH_MODE", mode)
	t.Setenv("FAKE_GH_LOG", log)
	return log
}

func TestPRToolsWithoutGH(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no gh (and no git) on PATH
	c := newFixtureCatalog(t, Options{})
	for _, tc := range []struct{ tool, args string }{{"list_prs", `{}`}, {"get_pr_impact", `{"pr_number":7}`}, {"triage_prs", `{}`}} {
		if r := call(t, c, tc.tool, tc.args); !r.IsError || r.Text != ghpr.Unavailable {
			t.Errorf("%s without gh: %+v", tc.tool, r)
		}
	}
	if r := call(t, c, "get_node", `{"label":"NewServer"}`); r.IsError {
		t.Errorf("graph tools affected: %+v", r)
	}
}

func TestPRToolsFakeGH(t *testing.T) {
	c := newFixtureCatalog(t, Options{SourceRoot: gitRepo(t)})
	withFakeGH(t, "unauth")
	if r := call(t, c, "list_prs", `{}`); r.Text != ghpr.Unavailable {
		t.Errorf("unauthenticated: %+v", r)
	}
	withFakeGH(t, "ratelimit")
	if r := call(t, c, "triage_prs", `{}`); !r.IsError || !strings.Contains(r.Text, "API rate limit exceeded") {
		t.Errorf("rate limited: %+v", r)
	}

	log := withFakeGH(t, "")
	r := call(t, c, "list_prs", `{}`)
	for _, want := range []string{"Open PRs targeting main (detected: local branch): 2",
		"#7 Speed up Serve  [checks passing, review approved]  (ann, fast -> main, +3 -1)", "#9 WIP  [checks failing, draft]"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("list_prs lacks %q:\n%s", want, r.Text)
		}
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "pr list --state open") || !strings.Contains(string(b), "--base main") {
		t.Errorf("gh called as:\n%s", b)
	}
	r = call(t, c, "get_pr_impact", `{"pr_number":7,"repo":"acme/shop"}`)
	for _, want := range []string{"mapped by changed lines (gh pr diff)): 1 files, 1 changed nodes, 2 dependents", "TestServe()", "Communities touched:"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("get_pr_impact lacks %q:\n%s", want, r.Text)
		}
	}
	if r := call(t, c, "get_pr_impact", `{"pr_number":7,"repo":"--evil"}`); !r.IsError || !strings.Contains(r.Text, "not owner/name") {
		t.Errorf("bad repo: %+v", r)
	}
	r = call(t, c, "triage_prs", `{"base":"main"}`)
	start := strings.Index(r.Text, "[")
	var rows []triageRow
	if err := json.Unmarshal([]byte(r.Text[start:]), &rows); err != nil {
		t.Fatalf("triage data: %v\n%s", err, r.Text)
	}
	if len(rows) != 2 || rows[0].Number != 7 || rows[0].Status != "ready to merge" || rows[1].Status != "draft" || rows[0].BlastRadius == 0 {
		t.Fatalf("triage = %+v", rows)
	}
	if !strings.Contains(r.Text, "Instruction: prioritise") {
		t.Errorf("no instruction:\n%s", r.Text)
	}
}
