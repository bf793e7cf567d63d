package clientconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var when = time.Date(2026, 12, 1, 13, 0, 0, 0, time.UTC)

// existing is a config with other servers, comments where the format
// allows them, and odd-but-valid formatting that must survive every edit.
var existing = map[Format]string{
	JSON: `{
    "theme": "dark",
    "KEY": {
        "other": {"command": "other-mcp", "args": ["--x"]}
    },
    "zzz": [1, 2, 3]
}
`,
	JSONC: `// user settings
{
  "theme": "dark", // keep me
  "KEY": {
    // a server I use
    "other": {"command": "other-mcp", "args": ["--x"]}, // trailing
  },
}
`,
	TOML: `# my codex config
model = "o3"

[KEY.other]
command = "other-mcp"
args = ["--x"]   # keep

# profiles follow
[profiles.fast]
model = "o4-mini"
`,
}

func setup(t *testing.T) (repo string, env Env) {
	t.Helper()
	root := t.TempDir()
	repo = filepath.Join(root, "my repo")
	env = Env{Home: filepath.Join(root, "home"), ConfigDir: filepath.Join(root, "home", ".config")}
	for _, d := range []string{repo, env.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return repo, env
}

func server(repo string) Server {
	return Server{Command: "/opt/synaptic/bin/synaptic", Args: []string{"serve", "--graph", filepath.Join(repo, "synaptic-out", "graph.json")}}
}

func install(t *testing.T, c Client, s Scope, repo string, env Env, srv Server) *Change {
	t.Helper()
	ch, err := PlanInstall(c, s, repo, env, srv)
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Apply(when); err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestMatrix runs every client in every scope it supports through a fresh
// install, an idempotent rerun, an update to another graph, an install
// into a file with other entries, and an uninstall that restores the rest.
func TestMatrix(t *testing.T) {
	for _, c := range Clients {
		for _, s := range []Scope{Project, Global} {
			if !c.Supports(s) {
				continue
			}
			t.Run(string(c.Name)+"/"+string(s), func(t *testing.T) {
				repo, env := setup(t)
				srv := server(repo)
				ch := install(t, c, s, repo, env, srv)
				if ch.Action != Created {
					t.Fatalf("fresh install: %s, want created", ch.Action)
				}
				file := ch.File
				fresh, _ := os.ReadFile(file)
				if !strings.Contains(string(fresh), srv.Command) || !strings.Contains(string(fresh), ch.Name) {
					t.Fatalf("entry missing:\n%s", fresh)
				}
				_, got, err := Find(c, s, repo, env)
				if err != nil || got == nil || got.Command != srv.Command || strings.Join(got.Args, " ") != strings.Join(srv.Args, " ") {
					t.Fatalf("Find = %+v, %v", got, err)
				}
				if again := install(t, c, s, repo, env, srv); again.Action != Unchanged || again.Backup != "" {
					t.Fatalf("second install: %s (backup %q), want unchanged and no backup", again.Action, again.Backup)
				}
				other := srv
				other.Args = []string{"serve", "--graph", "/elsewhere/graph.json"}
				up := install(t, c, s, repo, env, other)
				if up.Action != Updated || up.Previous == nil || up.Previous.Args[2] != srv.Args[2] || up.Backup == "" {
					t.Fatalf("update: %+v", up)
				}
				if b, _ := os.ReadFile(up.Backup); string(b) != string(fresh) {
					t.Fatalf("backup %s does not hold the previous file", up.Backup)
				}

				// A file with other entries: they keep their bytes.
				orig := strings.ReplaceAll(existing[c.Format], "KEY", c.Key)
				if err := os.WriteFile(file, []byte(orig), 0o640); err != nil {
					t.Fatal(err)
				}
				os.Chmod(file, 0o640)
				add := install(t, c, s, repo, env, srv)
				if add.Action != Added {
					t.Fatalf("install into existing: %s", add.Action)
				}
				edited, _ := os.ReadFile(file)
				for _, line := range strings.Split(orig, "\n") {
					if !strings.Contains(string(edited), line) {
						t.Errorf("line %q of the user's file was changed:\n%s", line, edited)
					}
				}
				if st, _ := os.Stat(file); st.Mode().Perm() != 0o640 {
					t.Errorf("mode %v, want the file's 0640 kept", st.Mode().Perm())
				}
				rm, err := PlanUninstall(c, s, repo, env)
				if err != nil {
					t.Fatal(err)
				}
				if err := rm.Apply(when); err != nil {
					t.Fatal(err)
				}
				if rm.Action != Removed {
					t.Fatalf("uninstall: %s", rm.Action)
				}
				if back, _ := os.ReadFile(file); string(back) != orig {
					t.Errorf("uninstall did not restore the file:\n--- got\n%s\n--- want\n%s", back, orig)
				}
				if rm2, _ := PlanUninstall(c, s, repo, env); rm2.Action != Absent {
					t.Errorf("second uninstall: %s, want absent", rm2.Action)
				}
			})
		}
	}
}

func TestServerName(t *testing.T) {
	for _, tc := range []struct {
		scope Scope
		repo  string
		want  string
	}{
		{Project, "/src/shop", "synaptic"},
		{Global, "/src/shop", "synaptic-shop"},
		{Global, "/src/my repo.v2", "synaptic-my-repo-v2"},
		{Global, "/", "synaptic-repo"},
	} {
		if got := ServerName(tc.scope, tc.repo); got != tc.want {
			t.Errorf("ServerName(%s, %q) = %q, want %q", tc.scope, tc.repo, got, tc.want)
		}
	}
}

// TestMalformed: a broken config is refused with its line and column and
// left as it was.
func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		client ClientName
		file   string
		body   string
		want   string
	}{
		{ClaudeCode, ".mcp.json", "{\n  \"mcpServers\": {\n    \"a\": 1,,\n  }\n}\n", ".mcp.json:3:"},
		{VSCode, ".vscode/mcp.json", "{\n  \"servers\": [\n", "mcp.json:3:"},
		{Codex, ".codex/config.toml", "model = \"o3\"\n[mcp_servers.x\ncommand = 1\n", "config.toml:3:15: expected"},
		{Cursor, ".cursor/mcp.json", "[1, 2]\n", "not a JSON object"},
		{ClaudeCode, ".mcp.json", "{\"mcpServers\": {\"synaptic\": {}, \"synaptic\": {}}}", "defined twice"},
		{ClaudeCode, ".mcp.json", "{\"mcpServers\": []}", `"mcpServers" is not an object`},
		{Codex, ".codex/config.toml", "[mcp_servers]\nsynaptic = { command = \"x\" }\n", "defined inline"},
	} {
		t.Run(string(tc.client)+"/"+tc.want, func(t *testing.T) {
			repo, env := setup(t)
			p := filepath.Join(repo, tc.file)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte(tc.body), 0o644)
			c, _ := Lookup(string(tc.client))
			_, err := PlanInstall(c, Project, repo, env, server(repo))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			if b, _ := os.ReadFile(p); string(b) != tc.body {
				t.Fatal("malformed file was changed")
			}
		})
	}
}

func TestUnsupportedScopeAndUnknownClient(t *testing.T) {
	repo, env := setup(t)
	w, _ := Lookup("windsurf")
	if _, err := PlanInstall(w, Project, repo, env, server(repo)); err == nil || !strings.Contains(err.Error(), "use --global") {
		t.Errorf("windsurf project: %v", err)
	}
	if _, err := Lookup("emacs"); err == nil || !strings.Contains(err.Error(), "claude, codex") {
		t.Errorf("unknown client: %v", err)
	}
	if c, err := Lookup("Claude-Code"); err != nil || c.Name != ClaudeCode {
		t.Errorf("alias: %v %v", c.Name, err)
	}
}

// TestNotWritable: a config path that cannot be written is an error that
// names it, and nothing is left behind.
func TestNotWritable(t *testing.T) {
	repo, env := setup(t)
	// .cursor is a file, so .cursor/mcp.json cannot be created (works as root too).
	os.WriteFile(filepath.Join(repo, ".cursor"), []byte("x"), 0o644)
	c, _ := Lookup("cursor")
	ch, err := PlanInstall(c, Project, repo, env, server(repo))
	if err == nil {
		err = ch.Apply(when)
	}
	if err == nil || !strings.Contains(err.Error(), ".cursor") {
		t.Fatalf("err = %v", err)
	}
	if os.Geteuid() == 0 {
		return // root writes through permission bits
	}
	ro := filepath.Join(repo, ".vscode")
	os.MkdirAll(ro, 0o555)
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	v, _ := Lookup("vscode")
	ch, err = PlanInstall(v, Project, repo, env, server(repo))
	if err == nil {
		err = ch.Apply(when)
	}
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Fatalf("read-only dir: %v", err)
	}
}

// TestSymlinkedConfig: a dotfile symlinked from elsewhere is edited where
// it lives and stays a symlink.
func TestSymlinkedConfig(t *testing.T) {
	repo, env := setup(t)
	real := filepath.Join(t.TempDir(), "dotfiles-claude.json")
	os.WriteFile(real, []byte("{\"numStartups\": 3}\n"), 0o600)
	os.Symlink(real, filepath.Join(env.Home, ".claude.json"))
	c, _ := Lookup("claude")
	install(t, c, Global, repo, env, server(repo))
	if fi, _ := os.Lstat(filepath.Join(env.Home, ".claude.json")); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("symlink replaced by a file")
	}
	b, _ := os.ReadFile(real)
	if !strings.Contains(string(b), `"synaptic-my-repo"`) || !strings.Contains(string(b), `"numStartups": 3`) {
		t.Fatalf("target not edited:\n%s", b)
	}
}

// TestTwoReposOneGlobalFile: each repository gets its own entry.
func TestTwoReposOneGlobalFile(t *testing.T) {
	_, env := setup(t)
	c, _ := Lookup("codex")
	a, b := filepath.Join(t.TempDir(), "alpha"), filepath.Join(t.TempDir(), "beta")
	install(t, c, Global, a, env, server(a))
	install(t, c, Global, b, env, server(b))
	data, _ := os.ReadFile(filepath.Join(env.Home, ".codex", "config.toml"))
	for _, want := range []string{"[mcp_servers.synaptic-alpha]", "[mcp_servers.synaptic-beta]", "alpha/synaptic-out/graph.json"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("missing %q in\n%s", want, data)
		}
	}
}

func TestJSONEdits(t *testing.T) {
	entry := map[string]string{"command": "s"}
	for _, tc := range []struct{ name, in, want string }{
		{"empty file", "", "{\n  \"mcpServers\": {\n    \"synaptic\": {\n      \"command\": \"s\"\n    }\n  }\n}\n"},
		{"empty object", "{}", "{\n  \"mcpServers\": {\n    \"synaptic\": {\n      \"command\": \"s\"\n    }\n  }\n}"},
		{"one line", `{"a": 1}`, `{"a": 1, "mcpServers": {
  "synaptic": {
    "command": "s"
  }
}}`},
		{"tabs", "{\n\t\"mcpServers\": {\n\t\t\"x\": {}\n\t}\n}\n", "{\n\t\"mcpServers\": {\n\t\t\"x\": {},\n\t\t\"synaptic\": {\n\t\t\t\"command\": \"s\"\n\t\t}\n\t}\n}\n"},
		{"replace", "{\"mcpServers\": {\"synaptic\": {\"command\": \"old\"}, \"x\": {}}}", "{\"mcpServers\": {\"synaptic\": {\n  \"command\": \"s\"\n}, \"x\": {}}}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := setJSON("f.json", []byte(tc.in), "mcpServers", "synaptic", entry)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestJSONRemoveMiddle(t *testing.T) {
	in := "{\n  \"mcpServers\": {\n    \"a\": {},\n    \"synaptic\": {\"command\": \"s\"},\n    // b's comment\n    \"b\": {}\n  }\n}\n"
	want := "{\n  \"mcpServers\": {\n    \"a\": {},\n    // b's comment\n    \"b\": {}\n  }\n}\n"
	got, removed, err := removeJSON("f.json", []byte(in), "mcpServers", "synaptic")
	if err != nil || !removed || string(got) != want {
		t.Fatalf("removed=%v err=%v\n%s", removed, err, got)
	}
}

func FuzzEdit(f *testing.F) {
	for _, s := range existing {
		f.Add(s)
	}
	f.Add(`{"mcpServers": {"synaptic": 1}}`)
	f.Fuzz(func(t *testing.T, s string) {
		entry := map[string]any{"command": "x", "args": []string{"serve"}}
		// Errors are fine; an edit that succeeds has been verified to change
		// only our entry, and removing it must verify too.
		if out, err := setJSON("f", []byte(s), "mcpServers", "synaptic", entry); err == nil {
			if _, _, err := removeJSON("f", out, "mcpServers", "synaptic"); err != nil {
				t.Fatalf("remove after set: %v\n%s", err, out)
			}
		}
		if out, err := setTOML("f", []byte(s), "mcp_servers", "synaptic", entry); err == nil {
			if _, _, err := removeTOML("f", out, "mcp_servers", "synaptic"); err != nil {
				t.Fatalf("remove after set: %v\n%s", err, out)
			}
		}
	})
}
