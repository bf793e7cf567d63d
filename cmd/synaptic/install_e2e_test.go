package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// runIn runs the binary with HOME and PATH replaced, as a new user's shell
// would have them.
func runIn(t *testing.T, home, dir string, wantFail bool, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "SYNAPTIC_PLUGINS=",
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if (err != nil) != wantFail {
		t.Fatalf("synaptic %s: err=%v, want failure=%v\n%s", strings.Join(args, " "), err, wantFail, out.String())
	}
	return out.String()
}

// TestInstallDoctorUninstall wires a repository into every client in every
// scope with the real binary, checks it with doctor (which speaks MCP to a
// real serve), and takes it all out again.
func TestInstallDoctorUninstall(t *testing.T) {
	needBin(t)
	home, repo := t.TempDir(), filepath.Join(t.TempDir(), "shop")
	write(t, repo, fixtureRepo)
	// A user file with another server and a comment (VS Code allows them).
	userVSCode := filepath.Join(home, ".config", "Code", "User", "mcp.json")
	write(t, filepath.Dir(userVSCode), map[string]string{"mcp.json": "{\n  // mine\n  \"servers\": {\"other\": {\"command\": \"x\"}}\n}\n"})

	out := runIn(t, home, repo, false, "install", "claude")
	if !strings.Contains(out, "does not exist yet") || !strings.Contains(out, "extract "+repo) {
		t.Errorf("install before extract should warn and say how to build:\n%s", out)
	}
	runIn(t, home, repo, false, "extract", "--quiet")

	matrix := []struct {
		client string
		global bool
		file   string
	}{
		{"claude", false, filepath.Join(repo, ".mcp.json")},
		{"claude", true, filepath.Join(home, ".claude.json")},
		{"codex", false, filepath.Join(repo, ".codex", "config.toml")},
		{"codex", true, filepath.Join(home, ".codex", "config.toml")},
		{"cursor", false, filepath.Join(repo, ".cursor", "mcp.json")},
		{"cursor", true, filepath.Join(home, ".cursor", "mcp.json")},
		{"vscode", false, filepath.Join(repo, ".vscode", "mcp.json")},
		{"vscode", true, userVSCode},
		{"gemini", false, filepath.Join(repo, ".gemini", "settings.json")},
		{"gemini", true, filepath.Join(home, ".gemini", "settings.json")},
		{"windsurf", true, filepath.Join(home, ".codeium", "windsurf", "mcp_config.json")},
	}
	graph := filepath.Join(repo, "synaptic-out", "graph.json")
	for _, m := range matrix {
		args := []string{"install", m.client, repo}
		if m.global {
			args = append(args, "--global")
		}
		runIn(t, home, t.TempDir(), false, args...)
		body := string(read(t, m.file))
		if !strings.Contains(body, bin) || !strings.Contains(body, graph) {
			t.Errorf("%s: %s lacks the absolute binary or graph:\n%s", strings.Join(args, " "), m.file, body)
		}
		if again := runIn(t, home, repo, false, args...); !strings.Contains(again, "nothing changed") {
			t.Errorf("second %s: %s", strings.Join(args, " "), again)
		}
	}
	if body := string(read(t, filepath.Join(home, ".codex", "config.toml"))); !strings.Contains(body, "[mcp_servers.synaptic-shop]") {
		t.Errorf("codex --global entry is not [mcp_servers.synaptic-shop]:\n%s", body)
	}
	if body := string(read(t, filepath.Join(repo, ".codex", "config.toml"))); !strings.Contains(body, "[mcp_servers.synaptic]") {
		t.Errorf("codex project entry is not [mcp_servers.synaptic]:\n%s", body)
	}

	doc := runIn(t, home, repo, false, "doctor")
	for _, want := range []string{"ok    graph", "ok    fresh", "ok    handshake", "ok    PATH", "ok    windsurf  global \"synaptic-shop\""} {
		if !strings.Contains(doc, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, doc)
		}
	}
	if strings.Count(doc, "starts "+bin) != len(matrix) {
		t.Errorf("doctor should find %d entries:\n%s", len(matrix), doc)
	}

	for _, m := range matrix {
		args := []string{"uninstall", m.client, repo}
		if m.global {
			args = append(args, "--global")
		}
		runIn(t, home, repo, false, args...)
	}
	if body := string(read(t, userVSCode)); body != "{\n  // mine\n  \"servers\": {\"other\": {\"command\": \"x\"}}\n}\n" {
		t.Errorf("uninstall did not restore the user's VS Code file:\n%s", body)
	}
	if doc := runIn(t, home, repo, false, "doctor"); !strings.Contains(doc, "no assistant config registers this repository") {
		t.Errorf("doctor after uninstall:\n%s", doc)
	}

	// Broken config: refused with line and column, file untouched.
	write(t, repo, map[string]string{".cursor/mcp.json": "{\n  \"mcpServers\": {,\n"})
	out = runIn(t, home, repo, true, "install", "cursor")
	if !strings.Contains(out, ".cursor/mcp.json:2:") {
		t.Errorf("malformed config: %s", out)
	}
	if doc := runIn(t, home, repo, true, "doctor"); !strings.Contains(doc, "FAIL  cursor") {
		t.Errorf("doctor should fail on a malformed config:\n%s", doc)
	}
	runIn(t, home, repo, true, "install", "emacs")
}

// TestCopiedBinaryIsSelfContained: the binary alone, copied where no
// plugins are beside it, extracts every built-in language from the
// plugins embedded in it.
func TestCopiedBinaryIsSelfContained(t *testing.T) {
	needBin(t)
	lone := filepath.Join(t.TempDir(), "synaptic")
	if err := os.WriteFile(lone, read(t, bin), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	write(t, repo, map[string]string{
		"go.mod":         "module example.com/poly\n\ngo 1.22\n",
		"main.go":        "package main\n\nfunc main() { helper() }\n\nfunc helper() {}\n",
		"app.py":         "def greet():\n    return shout()\n\ndef shout():\n    return 1\n",
		"web/index.ts":   "export function render(): number { return draw(); }\nfunction draw(): number { return 1; }\n",
		"src/Main.java":  "class Main { void run() { stop(); } void stop() {} }\n",
		"src/lib.rs":     "fn start() { finish(); }\nfn finish() {}\n",
		"README.unknown": "not code\n",
	})
	cache := t.TempDir()
	cmd := exec.Command(lone, "extract", repo)
	cmd.Env = append(os.Environ(), "SYNAPTIC_PLUGINS=", "XDG_CACHE_HOME="+cache, "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("copied binary: %v\n%s", err, out)
	}
	for _, lang := range []string{"go 1", "python 1", "typescript 1", "java 1", "rust 1"} {
		if !strings.Contains(string(out), lang) {
			t.Errorf("summary lacks %q:\n%s", lang, out)
		}
	}
	if strings.Contains(string(out), "skipping plugin") {
		t.Errorf("a copied binary should not complain about the missing plugins folder:\n%s", out)
	}
	g := parseGraph(t, filepath.Join(repo, "synaptic-out", "graph.json"))
	label := map[string]string{}
	for _, n := range g.Nodes {
		label[n.ID] = n.Label
	}
	calls := map[string]bool{}
	for _, l := range g.Links {
		if l.Relation == "calls" {
			calls[label[l.Source]+" -> "+label[l.Target]] = true
		}
	}
	for _, want := range []string{"greet() -> shout()", "start() -> finish()", "helper", "render() -> draw()", "stop"} {
		found := false
		for c := range calls {
			found = found || strings.Contains(c, want)
		}
		if !found {
			t.Errorf("no call edge like %q in %v", want, calls)
		}
	}
	list := exec.Command(lone, "plugins", repo)
	list.Env = cmd.Env
	if lo, err := list.CombinedOutput(); err != nil || !strings.Contains(string(lo), "embedded") {
		t.Errorf("plugins listing: %v\n%s", err, lo)
	}
}

// TestNewcomerErrors: the first mistakes a new user makes get an error
// that says what to do.
func TestNewcomerErrors(t *testing.T) {
	needBin(t)
	empty := t.TempDir()
	write(t, empty, map[string]string{"notes.txt": "hello\n", "data.csv": "a,b\n"})
	if out := run(t, empty, true, "extract", "."); !strings.Contains(out, "no supported source file") || !strings.Contains(out, ".go") {
		t.Errorf("extract of a folder without code:\n%s", out)
	}
	repo, graph := serveFixture(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--http", "8765", "--graph", graph}, "--http 127.0.0.1:8765"},
		{[]string{"serve", "--graph", t.TempDir()}, "without graph.json or synaptic-out/graph.json"},
		{[]string{"call", "get_node", "--help"}, "label=string (required)"},
	} {
		cmd := exec.Command(bin, tc.args...)
		cmd.Env = serveEnv()
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("synaptic %s:\n%s\nwant %q", strings.Join(tc.args, " "), out, tc.want)
		}
	}
	// serve --graph REPO finds REPO/synaptic-out/graph.json.
	cmd := exec.Command(bin, "serve", "--graph", repo)
	cmd.Env = serveEnv()
	cs := connectSDK(t, &sdk.CommandTransport{Command: cmd, TerminateDuration: 20 * time.Second}, "")
	defer cs.Close()
	if txt := resultText(callTool(t, cs, "graph_stats", map[string]any{})); !strings.Contains(txt, "nodes") {
		t.Errorf("serve --graph REPO: %s", txt)
	}
}
