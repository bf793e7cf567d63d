package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// gitRepo makes a real git repository holding the fixture's pkg/server.go
// (30 numbered lines, so the fixture's spans land on real lines), on main.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	var src strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&src, "// line %d\n", i)
	}
	writeRepoFile(t, dir, "pkg/server.go", src.String())
	writeRepoFile(t, dir, "pkg/server_test.go", "package pkg\n")
	runGit(t, dir, "init", "-q", "-b", "main")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "base")
	return dir
}

func writeRepoFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// editLine replaces line n (1-based) of a file in dir.
func editLine(t *testing.T, dir, rel string, n int, text string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[n-1] = text
	writeRepoFile(t, dir, rel, strings.Join(lines, "\n"))
}

func TestChangeToolsOutsideGit(t *testing.T) {
	c := newFixtureCatalog(t, Options{SourceRoot: t.TempDir()})
	for _, name := range []string{"working_changes_impact", "predict_impact", "affected_tests"} {
		r := call(t, c, name, `{}`)
		if !r.IsError || !strings.Contains(r.Text, "git unavailable or not a git repository") || !strings.Contains(r.Text, "Graph audit continues offline.") {
			t.Errorf("%s outside git: %+v", name, r)
		}
	}
	// The rest of the catalog keeps working, and explicit files need no git.
	if r := call(t, c, "affected_tests", `{"files":["pkg/server.go"]}`); r.IsError || !strings.Contains(r.Text, "TestServe()") {
		t.Errorf("affected_tests with files outside git: %+v", r)
	}
	if r := call(t, c, "graph_stats", `{}`); r.IsError {
		t.Errorf("graph_stats: %+v", r)
	}
}

func TestChangeToolsOnGit(t *testing.T) {
	dir := gitRepo(t)
	c := newFixtureCatalog(t, Options{SourceRoot: dir})

	r := call(t, c, "working_changes_impact", `{}`)
	if r.IsError || r.Text != "No changes vs main (detected: local branch)." {
		t.Fatalf("clean tree: %+v", r)
	}
	if r := call(t, c, "working_changes_impact", `{"base":"nope"}`); !r.IsError || !strings.Contains(r.Text, `"nope" does not exist`) {
		t.Fatalf("missing base: %+v", r)
	}

	// A one-line edit inside NewServer (L26-28) touches NewServer only.
	editLine(t, dir, "pkg/server.go", 27, "// edited")
	writeRepoFile(t, dir, "notes.md", "new\n")
	r = call(t, c, "working_changes_impact", `{"verbose":true}`)
	for _, want := range []string{"Working changes vs main (detected: local branch): 2 files, 1 graph nodes, 1 communities touched",
		"modified  pkg/server.go  +1 -1, 1 nodes", "untracked notes.md  [not in graph]", "NewServer()", "Communities touched:\n  [0] pkg: "} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("working_changes_impact lacks %q:\n%s", want, r.Text)
		}
	}
	r = call(t, c, "working_changes_impact", `{"code_only":true}`)
	if !strings.Contains(r.Text, "1 files, 1 code graph nodes") {
		t.Errorf("code_only:\n%s", r.Text)
	}

	r = call(t, c, "affected_tests", `{"base":"main"}`)
	var st struct {
		Tests []testRow `json:"tests"`
		Total int       `json:"total"`
	}
	remarshal(t, r.Structured, &st)
	if st.Total != 1 || st.Tests[0].Label != "TestServe()" || st.Tests[0].Depth != 1 || st.Tests[0].ViaRelation != "calls" {
		t.Fatalf("affected_tests = %+v\n%s", st, r.Text)
	}
	if !strings.Contains(r.Text, "vs main):") || !strings.Contains(r.Text, "Note: 1 changed files are not in the graph") {
		t.Errorf("affected_tests text:\n%s", r.Text)
	}

	r = call(t, c, "predict_impact", `{}`)
	var fc ChangeForecast
	remarshal(t, r.Structured, &fc)
	if len(fc.ChangedNodes) != 1 || fc.ChangedNodes[0].Label != "NewServer()" || fc.BlastRadiusTotal != 2 ||
		len(fc.AtRiskTests) != 1 || len(fc.PublicAPIBreaks) != 1 || fc.Risk.Level != RiskLow || len(fc.Risk.Drivers) != 6 {
		t.Fatalf("forecast = %+v\n%s", fc, r.Text)
	}
	for _, want := range []string{"Risk: low", "Public API at risk (1):", "Blast radius (2):", "go test ./pkg -run '^(TestServe)$'"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("predict_impact lacks %q:\n%s", want, r.Text)
		}
	}

	// Committed on a branch plus uncommitted: both count, and a test
	// edited itself is at hop 0.
	runGit(t, dir, "checkout", "-q", "-b", "feature")
	runGit(t, dir, "commit", "-qam", "edit")
	editLine(t, dir, "pkg/server.go", 16, "// in Serve")
	r = call(t, c, "affected_tests", `{"files":["pkg/server_test.go"]}`)
	if !strings.Contains(r.Text, "[0] changed  TestServe()") {
		t.Errorf("changed test:\n%s", r.Text)
	}
	r = call(t, c, "working_changes_impact", `{"verbose":true}`)
	if !strings.Contains(r.Text, "2 graph nodes") || !strings.Contains(r.Text, ".Serve()") {
		t.Errorf("branch + uncommitted:\n%s", r.Text)
	}
}

func remarshal(t *testing.T, v, dst any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		t.Fatal(err)
	}
}

func TestPredictEdit(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	for _, tc := range []struct {
		args  string
		want  []string
		isErr bool
	}{
		{`{"symbol":"NewServer","kind":"delete"}`, []string{"delete NewServer() (pkg/server.go): 2 will break, 0 to review", "Will break (2; 1h: 2):", "calls the deleted symbol directly"}, false},
		{`{"symbol":"NewServer","kind":"visibility"}`, []string{"2 will break, 0 to review", "outside the symbol's file/package"}, false},
		{`{"symbol":".Serve()@pkg/server","kind":"signature","limit":1}`, []string{"will break", "+", "more"}, false},
		{`{"symbol":"NewServer","kind":"rename"}`, []string{"Unknown edit kind 'rename'"}, true},
		{`{"symbol":"Serve","kind":"delete"}`, []string{"ambiguous"}, true},
	} {
		r := call(t, c, "predict_edit", tc.args)
		if r.IsError != tc.isErr {
			t.Errorf("%s: isError %v\n%s", tc.args, r.IsError, r.Text)
		}
		for _, w := range tc.want {
			if !strings.Contains(r.Text, w) {
				t.Errorf("%s lacks %q:\n%s", tc.args, w, r.Text)
			}
		}
	}
}

func TestRiskScore(t *testing.T) {
	for _, tc := range []struct {
		values []int
		level  RiskLevel
	}{
		{[]int{0, 0, 1, 1, 1, 0}, RiskLow},
		{[]int{100, 3, 0, 0, 0, 0}, RiskMedium},
		{[]int{500, 9, 9999, 50, 99, 99}, RiskHigh},
	} {
		if r := scoreRisk(tc.values); r.Level != tc.level {
			t.Errorf("%v: %+v, want %s", tc.values, r, tc.level)
		}
	}
}

func TestPlanRename(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	r := call(t, c, "plan_rename", `{"name":"NewServer","to":"MakeServer"}`)
	for _, want := range []string{
		"Rename NewServer -> MakeServer [medium], ",
		"pkg/server.go:26:6  NewServer -> MakeServer  (definition, 1.00)",
		"cmd/main.go:6:",
		"Review (",
		"pkg/server.go:25:4  NewServer -> MakeServer  (in a string or comment",
		"Plan only: nothing was edited.",
	} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("plan lacks %q:\n%s", want, r.Text)
		}
	}
	p, err := c.RenamePlan("NewServer", "MakeServer", "", "")
	if err != nil || len(p.Edits) == 0 || p.TargetID != "pkg_server_newserver" {
		t.Fatalf("RenamePlan = %+v, %v", p, err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"name":"Serve","to":"Run"}`, "ambiguous"},
		{`{"name":"Serve","to":"Run","file":"other/"}`, "Rename Serve -> Run"},
		{`{"name":".Serve()","to":"Run","id":"pkg_server_server_serve"}`, "Rename Serve -> Run"},
		{`{"name":"NewServer","to":"not valid"}`, "not a valid identifier"},
		{`{"name":"NewServer","to":"NewServer"}`, "already has that name"},
		{`{"name":"nothing_here","to":"x"}`, "No node matches"},
	} {
		if r := call(t, c, "plan_rename", tc.args); !strings.Contains(r.Text, tc.want) {
			t.Errorf("%s: want %q:\n%s", tc.args, tc.want, r.Text)
		}
	}
}

// TestWidenedSelection: .Close() has no static test; a test of its type's
// sibling method is selected and says it was found by widening.
func TestWidenedSelection(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	s := c.current()
	cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "pkg/server.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 22, OldLines: 1, NewStart: 22, NewLines: 1}}}})
	if static := s.atRiskTests(cs, s.impactOf(cs, 3)); len(static) != 0 {
		t.Fatalf("static tests = %+v, want none", static)
	}
	got := s.selectTests(cs, 3)
	if len(got) != 1 || got[0].Label != "TestServe()" || got[0].ViaRelation != "fallback: same type as .Close()" {
		t.Fatalf("widened = %+v", got)
	}
	// A seed a test reaches statically is not widened.
	cs = newChangeSet(s.x, nil, []gitdiff.File{{Path: "pkg/server.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 27, OldLines: 1, NewStart: 27, NewLines: 1}}}})
	if got := s.selectTests(cs, 3); len(got) != 1 || got[0].ViaRelation != "calls" {
		t.Fatalf("static = %+v", got)
	}
}

// TestSelectionThroughHelpers: a test reached only through a helper
// chain longer than depth is still selected (the walk continues inside
// test code), and a Go benchmark alone does not count as coverage.
func TestSelectionThroughHelpers(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "f", Label: "F()", Kind: "function", SourceFile: "lib.go", Language: "go", Span: sp(3, 5)},
		{ID: "g", Label: "G()", Kind: "function", SourceFile: "lib.go", Language: "go", Span: sp(7, 9)},
		{ID: "h1", Label: "helper()", Kind: "function", SourceFile: "lib_test.go", Language: "go", IsTest: true},
		{ID: "h2", Label: "check()", Kind: "function", SourceFile: "lib_test.go", Language: "go", IsTest: true},
		{ID: "ta", Label: "TestA()", Kind: "function", SourceFile: "lib_test.go", Language: "go", IsTest: true},
		{ID: "bg", Label: "BenchmarkG()", Kind: "function", SourceFile: "lib_test.go", Language: "go", IsTest: true},
	}, Edges: []graph.Edge{
		{Source: "h1", Target: "f", Relation: "calls"}, {Source: "h2", Target: "h1", Relation: "calls"},
		{Source: "ta", Target: "h2", Relation: "calls"}, {Source: "bg", Target: "g", Relation: "calls"},
	}}
	c := New(Options{})
	c.SetGraph(g)
	s := c.current()
	at := func(line int) []testRow {
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "lib.go", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: line, OldLines: 1, NewStart: line, NewLines: 1}}}})
		return s.selectTests(cs, 1)
	}
	got := at(4)
	if len(got) != 3 || got[2].Label != "TestA()" || got[2].Depth != 3 || got[2].ViaRelation != "calls (through test helpers)" {
		t.Fatalf("through helpers: %+v", got)
	}
	got = at(8)
	var labels []string
	for _, r := range got {
		labels = append(labels, r.Label+" "+r.ViaRelation)
	}
	if fmt.Sprint(labels) != "[BenchmarkG() calls helper() fallback: same file as G() check() fallback: same file as G() TestA() fallback: same file as G()]" {
		t.Fatalf("benchmark only: %v", labels)
	}
}

// TestSelectionThroughDispatch: a method an interface calls (Write with
// io.Writer's shape) is reached by every test that obtains its type from a
// provider; a look-alike (Error() error) is not; a test that obtains a
// type but has no linked call on it is taken to call any of its methods.
func TestSelectionThroughDispatch(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	sig := func(ret string, params int) *graph.Signature {
		return &graph.Signature{Params: make([]graph.Param, params), ReturnType: ret}
	}
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "w", Label: "Writer", Kind: "struct", SourceFile: "lib/w.go", Language: "go", Span: sp(1, 2)},
		{ID: "w.write", Label: ".Write()", Kind: "method", SourceFile: "lib/w.go", Language: "go", Span: sp(3, 5), Signature: sig("(n int, err error)", 1)},
		{ID: "w.flush", Label: ".Flush()", Kind: "method", SourceFile: "lib/w.go", Language: "go", Span: sp(6, 7), Signature: sig("error", 0)},
		{ID: "enc", Label: "encode()", Kind: "function", SourceFile: "lib/w.go", Language: "go", Span: sp(8, 9)},
		{ID: "neww", Label: "NewWriter()", Kind: "function", SourceFile: "lib/w.go", Language: "go", Span: sp(10, 11), Signature: sig("io.WriteCloser", 1)},
		{ID: "v", Label: "Reader", Kind: "struct", SourceFile: "lib/v.go", Language: "go", Span: sp(1, 2)},
		{ID: "v.error", Label: ".Error()", Kind: "method", SourceFile: "lib/v.go", Language: "go", Span: sp(3, 4), Signature: sig("error", 0)},
		{ID: "v.other", Label: ".Other()", Kind: "method", SourceFile: "lib/v.go", Language: "go", Span: sp(5, 6), Signature: sig("", 0)},
		{ID: "newv", Label: "NewReader()", Kind: "function", SourceFile: "lib/v.go", Language: "go", Span: sp(7, 8), Signature: sig("*Reader", 0)},
		{ID: "tb", Label: "TestFlush()", Kind: "function", SourceFile: "lib/w_test.go", Language: "go", IsTest: true},
		{ID: "tc", Label: "TestOther()", Kind: "function", SourceFile: "lib/v_test.go", Language: "go", IsTest: true},
		{ID: "td", Label: "TestRead()", Kind: "function", SourceFile: "lib/v_test.go", Language: "go", IsTest: true,
			Extra: map[string]json.RawMessage{"unlinked_calls": json.RawMessage(`["Other"]`)}},
		{ID: "te", Label: "TestPass()", Kind: "function", SourceFile: "lib/v_test.go", Language: "go", IsTest: true},
	}, Edges: []graph.Edge{
		{Source: "w", Target: "w.write", Relation: "method"}, {Source: "w", Target: "w.flush", Relation: "method"},
		{Source: "w.write", Target: "enc", Relation: "calls"},
		{Source: "tb", Target: "neww", Relation: "calls"}, {Source: "tb", Target: "w.flush", Relation: "calls"},
		{Source: "v", Target: "v.error", Relation: "method"}, {Source: "v", Target: "v.other", Relation: "method"},
		{Source: "tc", Target: "newv", Relation: "calls"}, {Source: "tc", Target: "v.other", Relation: "calls"},
		{Source: "td", Target: "newv", Relation: "calls"},
		{Source: "te", Target: "newv", Relation: "calls"}, // obtains a Reader, calls nothing on it
	}}
	c := New(Options{})
	c.SetGraph(g)
	s := c.current()
	for _, tc := range []struct {
		file string
		line int
		want string
	}{
		// encode() <- Write (io.Writer's shape) <- NewWriter <- TestFlush.
		{"lib/w.go", 8, "[TestFlush() calls (dispatch on Writer)]"},
		// Error() error is not error's Error() string: only the test that
		// holds a Reader without a linked call on it, but with an unlinked
		// call a Reader method answers to (TestPass makes none).
		{"lib/v.go", 3, "[TestRead() holds a Reader, calls on it unlinked]"},
		{"lib/v.go", 5, "[TestOther() calls TestRead() holds a Reader, calls on it unlinked]"},
	} {
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: tc.file, Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: tc.line, OldLines: 1, NewStart: tc.line, NewLines: 1}}}})
		var got []string
		for _, r := range s.selectTests(cs, 3) {
			got = append(got, r.Label+" "+r.ViaRelation)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s:%d: selected %v, want %s", tc.file, tc.line, got, tc.want)
		}
	}
}

func TestNamesWord(t *testing.T) {
	for _, tc := range []struct {
		test, name string
		want       bool
	}{
		{"TestDecode", "decode", true},
		{"TestDecodeCorrupt", "decode", true},
		{"ExampleEncoding_Decode", "decode", true},
		{"test_decode_padding", "decode", true},
		{"TestDecode2", "decode", true},
		{"TestDumper", "dump", false},
		{"TestDumpDumper", "dump", true},
		{"TestEncode", "decode", false},
		{"TestNYCbCrAAlpha", "nycbcra", true},
	} {
		if got := namesWord(tc.test, tc.name); got != tc.want {
			t.Errorf("namesWord(%q, %q) = %v, want %v", tc.test, tc.name, got, tc.want)
		}
	}
}

// TestSelectionByName: a test named after the changed function is
// selected even with no edge to it (a package-level variable's method),
// only in the function's own Go package; a method called through an
// interface that no test reaches widens first to the tests named after
// its type.
func TestSelectionByName(t *testing.T) {
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		{ID: "dec", Label: "decode()", Kind: "function", SourceFile: "b32/b32.go", Language: "go", Span: sp(1, 3)},
		{ID: "c", Label: "Color", Kind: "struct", SourceFile: "b32/color.go", Language: "go", Span: sp(1, 2)},
		{ID: "c.rgba", Label: ".RGBA()", Kind: "method", SourceFile: "b32/color.go", Language: "go", Span: sp(3, 5), Signature: &graph.Signature{}},
		{ID: "t1", Label: "TestDecodePadding()", Kind: "function", SourceFile: "b32/b32_test.go", Language: "go", IsTest: true},
		{ID: "t2", Label: "TestDecode()", Kind: "function", SourceFile: "other/x_test.go", Language: "go", IsTest: true},
		{ID: "t3", Label: "TestColorAlpha()", Kind: "function", SourceFile: "b32/color_test.go", Language: "go", IsTest: true},
		{ID: "t4", Label: "TestOther()", Kind: "function", SourceFile: "b32/color_test.go", Language: "go", IsTest: true},
	}, Edges: []graph.Edge{{Source: "c", Target: "c.rgba", Relation: "method"}}}
	c := New(Options{})
	c.SetGraph(g)
	s := c.current()
	for _, tc := range []struct {
		file, want string
	}{
		{"b32/b32.go", "[TestDecodePadding() named after decode()]"},
		{"b32/color.go", "[TestColorAlpha() fallback: named after the type of .RGBA()]"},
	} {
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: tc.file, Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 3, OldLines: 1, NewStart: 3, NewLines: 1}}}})
		var got []string
		for _, r := range s.selectTests(cs, 3) {
			got = append(got, r.Label+" "+r.ViaRelation)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%s: selected %v, want %s", tc.file, got, tc.want)
		}
	}
}
