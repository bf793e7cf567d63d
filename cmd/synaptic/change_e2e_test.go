package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@e", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@e")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestPredictAndAffectedTests runs the CLI mirrors on a real repository:
// extract, edit one function, and ask which tests reach the edit.
func TestPredictAndAffectedTests(t *testing.T) {
	needBin(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	write(t, root, fixtureRepo)
	write(t, root, map[string]string{".gitignore": "ignored/\nsynaptic-out/\n"})

	// Outside git: the spec's message, exit 1; explicit files still work.
	run(t, root, false, "extract", root, "--quiet")
	out := run(t, root, true, "affected-tests")
	if !strings.Contains(out, "git unavailable or not a git repository") || !strings.Contains(out, "Graph audit continues offline.") {
		t.Fatalf("outside git:\n%s", out)
	}
	if out := run(t, root, false, "affected-tests", "price/price.go"); !strings.Contains(out, "TestTotal()") {
		t.Fatalf("explicit files:\n%s", out)
	}

	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "base")
	if out := run(t, root, false, "predict"); strings.TrimSpace(out) != "No changes vs main (detected: local branch)." {
		t.Fatalf("clean tree:\n%s", out)
	}
	// Break round(): TestTotal reaches it through .Total() and WithTax(),
	// 2 hops: round is private, so the hop into it from WithTax (its own
	// package) is free.
	p := filepath.Join(root, "price/price.go")
	src := strings.Replace(string(read(t, p)), "x / 100", "x / 99", 1)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var tests struct {
		Tests []struct {
			Label, File string
			Depth       int
			ViaRelation string `json:"via_relation"`
		}
		Total int
	}
	if err := json.Unmarshal([]byte(run(t, root, false, "affected-tests", "--json")), &tests); err != nil {
		t.Fatal(err)
	}
	if tests.Total != 1 || tests.Tests[0].Label != "TestTotal()" || tests.Tests[0].File != "cart/cart_test.go" || tests.Tests[0].Depth != 2 {
		t.Fatalf("affected-tests = %+v", tests)
	}
	out = run(t, root, false, "predict", "--base", "main")
	for _, want := range []string{"Changed nodes (1):\n  round() [function] price/price.go:L8", "Risk: low",
		"go test ./cart -run '^(TestTotal)$'"} {
		if !strings.Contains(out, want) {
			t.Errorf("predict lacks %q:\n%s", want, out)
		}
	}
	if out := run(t, root, true, "predict", "--base", "no-such-branch"); !strings.Contains(out, `"no-such-branch" does not exist`) {
		t.Errorf("bad base:\n%s", out)
	}
	if out := run(t, root, true, "predict", "--base", "main", "price/price.go"); !strings.Contains(out, "not both") {
		t.Errorf("files and base:\n%s", out)
	}
}

// TestServeAllowExec: speculate is listed (not read-only) only with
// --allow-exec, and a default server refuses to run it.
func TestServeAllowExec(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	run(t, root, false, "extract", root, "--quiet")
	session := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"speculate","arguments":{}}}
`
	serve := func(extra ...string) string {
		cmd := exec.Command(bin, append([]string{"serve", "--graph", filepath.Join(root, "synaptic-out", "graph.json")}, extra...)...)
		cmd.Stdin = strings.NewReader(session)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("serve %v: %v", extra, err)
		}
		return string(out)
	}
	out := serve()
	if strings.Contains(out, `"name":"speculate"`) || !strings.Contains(out, `"id":3,"error"`) {
		t.Fatalf("default server lists or runs speculate:\n%s", out)
	}
	out = serve("--allow-exec")
	if !strings.Contains(out, `"name":"speculate"`) {
		t.Fatalf("--allow-exec does not list speculate:\n%s", out)
	}
	var list struct {
		Result struct {
			Tools []struct {
				Name        string
				Annotations map[string]any
			}
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `"id":2`) {
			if err := json.Unmarshal([]byte(line), &list); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tl := range list.Result.Tools {
		if tl.Name == "speculate" && tl.Annotations["readOnlyHint"] != false {
			t.Fatalf("speculate annotations %v", tl.Annotations)
		}
	}
}

// TestRefactorRenameVerify: plan, apply half, verify fails naming the
// site left; apply the rest, verify passes. The plan itself edits nothing.
func TestRefactorRenameVerify(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, fixtureRepo)
	run(t, root, false, "extract", root, "--quiet")
	plan := filepath.Join(t.TempDir(), "plan.json")
	before := string(read(t, filepath.Join(root, "price/price.go")))
	out := run(t, root, false, "refactor", "rename", "WithTax", "AddTax", "--out", plan)
	if !strings.Contains(out, "cart/cart.go:15:16  WithTax -> AddTax") || !strings.Contains(out, "price/price.go:6:6  WithTax -> AddTax  (definition") {
		t.Fatalf("plan:\n%s", out)
	}
	if string(read(t, filepath.Join(root, "price/price.go"))) != before {
		t.Fatal("refactor rename edited a file")
	}
	edit := func(rel, old, new string) {
		p := filepath.Join(root, rel)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(string(read(t, p)), old, new)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit("price/price.go", "WithTax", "AddTax")
	out = run(t, root, true, "refactor", "verify", "--from", plan)
	if !strings.Contains(out, `cart/cart.go:15:16: still "WithTax"`) {
		t.Fatalf("half applied:\n%s", out)
	}
	edit("cart/cart.go", "price.WithTax", "price.AddTax")
	if out := run(t, root, false, "refactor", "verify", "--from", plan); !strings.Contains(out, "verified") {
		t.Fatalf("applied:\n%s", out)
	}
}

// TestSpeculateRunsGoTest: with --allow-exec, speculate runs the detected
// `go test` of the at-risk tests in a throwaway worktree holding the
// uncommitted edit, and reports the test that the edit breaks.
func TestSpeculateRunsGoTest(t *testing.T) {
	needBin(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go not installed")
	}
	// Keep the build cache where it is: only synaptic's cache moves.
	if gocache, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
		t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	write(t, root, fixtureRepo)
	write(t, root, map[string]string{".gitignore": "ignored/\nsynaptic-out/\n"})
	run(t, root, false, "extract", root, "--quiet")
	gitIn(t, root, "init", "-q", "-b", "main")
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "base")
	p := filepath.Join(root, "price/price.go")
	if err := os.WriteFile(p, []byte(strings.Replace(string(read(t, p)), "x / 100", "x / 10", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	session := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"speculate","arguments":{"timeout":300}}}
`
	cmd := exec.Command(bin, "serve", "--allow-exec", "--graph", filepath.Join(root, "synaptic-out", "graph.json"))
	cmd.Dir = root
	cmd.Stdin = strings.NewReader(session)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	var resp struct {
		Result struct {
			Content []struct{ Text string }
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, `"id":2`) {
			if err := json.Unmarshal([]byte(line), &resp); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(resp.Result.Content) == 0 {
		t.Fatalf("no speculate result:\n%s", out)
	}
	text := resp.Result.Content[0].Text
	for _, want := range []string{"go test -json './cart' -run '^(TestTotal)$' (detected)", "Result: FAIL (exit 1)", "fail     TestTotal()@cart/cart_test.go"} {
		if !strings.Contains(text, want) {
			t.Errorf("speculate lacks %q:\n%s", want, text)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "synaptic", "worktrees", "*", "*")); len(left) != 0 {
		t.Errorf("worktrees left: %v", left)
	}
	if string(read(t, p)) == fixtureRepo["price/price.go"] {
		t.Error("the edit in the repository was lost")
	}
}
