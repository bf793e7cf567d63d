package ghpr

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestChecksAndParse(t *testing.T) {
	var r raw
	doc := `{"number":3,"title":"t","author":{"login":"a"},"isDraft":true,"reviewDecision":"CHANGES_REQUESTED",
		"statusCheckRollup":[{"conclusion":"SUCCESS"},{"conclusion":"FAILURE"},{"status":"IN_PROGRESS"},{"state":"PENDING"},{"conclusion":"SKIPPED"}],
		"files":[{"path":"a.go"},{"path":"b/c.py"}]}`
	if err := json.Unmarshal([]byte(doc), &r); err != nil {
		t.Fatal(err)
	}
	p := r.pr()
	if p.Checks != (Checks{Passed: 2, Failed: 1, Pending: 2}) || p.Checks.State() != "failing" || !p.Draft || p.Author != "a" || len(p.Files) != 2 {
		t.Fatalf("pr = %+v", p)
	}
	for _, tc := range []struct {
		c    Checks
		want string
	}{{Checks{}, "none"}, {Checks{Passed: 1}, "passing"}, {Checks{Passed: 1, Pending: 1}, "pending"}, {Checks{Failed: 1, Pending: 1}, "failing"}} {
		if got := tc.c.State(); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.c, got, tc.want)
		}
	}
}

// TestArgumentsAreNotFlags: a repo or base that gh would read as a flag
// is refused before gh runs (here there is no gh at all).
func TestArgumentsAreNotFlags(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	ctx := context.Background()
	if _, err := (Client{Repo: "--exec=x"}).List(ctx, "", 1); err == nil || !strings.Contains(err.Error(), "not owner/name") {
		t.Fatalf("repo: %v", err)
	}
	if _, err := (Client{}).List(ctx, "-x", 1); err == nil || !strings.Contains(err.Error(), "not a branch name") {
		t.Fatalf("base: %v", err)
	}
	if _, err := (Client{Repo: "acme/shop"}).View(ctx, 1); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("no gh: %v", err)
	}
}
