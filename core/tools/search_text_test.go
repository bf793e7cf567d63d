package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

func TestSearchTextFixture(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	tests := []struct {
		name, args string
		want       []string // substrings of the text, in order
		total      int
	}{
		{"attributed to the innermost span", `{"pattern":"fmt.Println"}`,
			[]string{"1 hit(s)", "pkg/server.go:16:2 fmt.Println(s.name) [.Serve() method]"}, 1},
		{"outside every span", `{"pattern":"^import"}`,
			[]string{"pkg/server.go:3:1 import \"fmt\""}, -1},
		{"smart case lower", `{"pattern":"newserver","path_glob":"pkg/server.go"}`,
			[]string{"pkg/server.go:25:4 // NewServer builds", "pkg/server.go:26:6 func NewServer() *Server { [NewServer() function]"}, 2},
		{"smart case upper", `{"pattern":"NewServer()","literal":true}`,
			[]string{"cmd/main.go", "pkg/server.go:26:6"}, -1},
		{"forced sensitive", `{"pattern":"newserver","case_sensitive":true}`, []string{"No matches"}, 0},
		{"literal is not a regex", `{"pattern":"s.name","literal":true,"path_glob":"**/server.go"}`,
			[]string{"pkg/server.go:16:14", "pkg/server.go:22:2"}, 2},
		{"glob without slash", `{"pattern":"package","path_glob":"b.go"}`, []string{"other/b.go:1:1 package other"}, 1},
		{"truncation", `{"pattern":"func","max_results":1}`, []string{"(showing the first 1"}, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, c, "search_text", tt.args)
			if r.IsError {
				t.Fatalf("error: %s", r.Text)
			}
			rest := r.Text
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("%s: lacks %q (in order):\n%s", tt.args, w, r.Text)
				}
				rest = rest[i+len(w):]
			}
			st := structured(t, r)
			if tt.total >= 0 && int(st["total"].(float64)) != tt.total {
				t.Fatalf("total %v, want %d:\n%s", st["total"], tt.total, r.Text)
			}
		})
	}
}

func TestSearchTextStructured(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	st := structured(t, call(t, c, "search_text", `{"pattern":"^func","max_results":1}`))
	if st["truncated"] != true || st["total"].(float64) < 5 || len(st["hits"].([]any)) != 1 || st["files_scanned"].(float64) < 4 {
		t.Fatalf("structured %v", st)
	}
	st = structured(t, call(t, c, "search_text", `{"pattern":"fmt\\.\\w+\\("}`))
	h := st["hits"].([]any)[0].(map[string]any)
	node := h["node"].(map[string]any)
	if h["file"] != "pkg/server.go" || h["match"] != "fmt.Println(" || h["repo"] != "" || h["line_text"] != "fmt.Println(s.name)" ||
		node["kind"] != "method" || node["id"] != "pkg_server_server_serve" || node["community"] != 0.0 {
		t.Fatalf("hit %v", h)
	}
	// A hit outside every span carries node: null, not a missing key.
	st = structured(t, call(t, c, "search_text", `{"pattern":"^package pkg","path_glob":"pkg/server.go"}`))
	h = st["hits"].([]any)[0].(map[string]any)
	if v, ok := h["node"]; !ok || v != nil {
		t.Fatalf("node = %v (present %v)", v, ok)
	}
}

func TestSearchTextErrors(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	for args, want := range map[string]string{
		`{"pattern":"a(b"}`:                               "not a valid RE2 regular expression",
		`{"pattern":""}`:                                  "pattern is empty",
		`{"pattern":"x","path_glob":"../**"}`:             "cannot leave the repository root",
		`{"pattern":"x","path_glob":"/etc/*"}`:            "absolute",
		`{"pattern":"x","repo":"web"}`:                    "single-repo graph",
		`{"pattern":"x","literal":true,"path_glob":"[x"}`: "not a valid glob",
	} {
		r := call(t, c, "search_text", args)
		if !r.IsError || !strings.Contains(r.Text, want) {
			t.Errorf("%s: %+v, want error %q", args, r, want)
		}
	}
	noRoot := New(Options{})
	noRoot.SetGraph(fixture())
	if r := call(t, noRoot, "search_text", `{"pattern":"x"}`); !r.IsError || !strings.Contains(r.Text, "--source-root") {
		t.Errorf("no source root: %+v", r)
	}
	if _, err := c.Call(t.Context(), "search_text", []byte(`{"pattern":"x","max_results":1001}`)); err == nil {
		t.Error("max_results over 1000 accepted")
	}
}

// TestSearchTextSkips: ignore files, synaptic output (by name and by the
// graph.json + .manifest.json pair), sensitive and binary files, and
// symlinks out of the root are never searched; a lone graph.json is.
func TestSearchTextSkips(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	files := map[string]string{
		"src/a.go":                "package a // needle\n",
		"data/graph.json":         `{"needle": 1}`,
		".gitignore":              "gen/\n",
		"gen/x.go":                "needle",
		".synapticignore":         "vendorish/\n",
		"vendorish/y.go":          "needle",
		"synaptic-out/graph.json": "needle",
		"graphs/graph.json":       "needle",
		"graphs/.manifest.json":   "{}",
		"graphs/graph.json.bak2":  "needle",
		".env":                    "TOKEN=needle",
		"keys/id.pem":             "needle",
		"blob.bin":                "needle\x00",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(outside, "secret.go"), []byte("needle"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	c := New(Options{SourceRoot: root})
	c.SetGraph(&graph.Graph{Nodes: []graph.Node{{ID: "a", Label: "a", SourceFile: "src/a.go", Kind: "file"}}})
	r := call(t, c, "search_text", `{"pattern":"needle"}`)
	st := structured(t, r)
	var got []string
	for _, h := range st["hits"].([]any) {
		got = append(got, h.(map[string]any)["file"].(string))
	}
	if strings.Join(got, " ") != "data/graph.json src/a.go" {
		t.Fatalf("searched %v:\n%s", got, r.Text)
	}
	if !strings.Contains(r.Text, "1 binary") || !strings.Contains(r.Text, "synaptic output") {
		t.Errorf("skips not reported:\n%s", r.Text)
	}
}

// TestSearchTextFederated: a co-located workspace; hits carry their repo,
// repo narrows the walk, and path_glob applies relative to each member.
func TestSearchTextFederated(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"api/src/h.go": "func H() { // needle\n}\n",
		"web/src/c.ts": "// needle\n",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	c := New(Options{SourceRoot: root})
	c.SetGraph(&graph.Graph{Nodes: []graph.Node{
		{ID: "api_h", Label: "H()", SourceFile: "api/src/h.go", Kind: "function", Repo: "api", Span: &graph.Span{StartLine: 1, EndLine: 2}},
		{ID: "web_c", Label: "c.ts", SourceFile: "web/src/c.ts", Kind: "file", Repo: "web"},
	}})
	st := structured(t, call(t, c, "search_text", `{"pattern":"needle","path_glob":"src/**"}`))
	hits := st["hits"].([]any)
	if len(hits) != 2 || hits[0].(map[string]any)["repo"] != "api" || hits[1].(map[string]any)["repo"] != "web" {
		t.Fatalf("hits %v", hits)
	}
	if n := hits[0].(map[string]any)["node"].(map[string]any); n["label"] != "H()" {
		t.Fatalf("node %v", n)
	}
	st = structured(t, call(t, c, "search_text", `{"pattern":"needle","repo":"web"}`))
	hits = st["hits"].([]any)
	if len(hits) != 1 || hits[0].(map[string]any)["file"] != "web/src/c.ts" {
		t.Fatalf("repo=web hits %v", hits)
	}
	if r := call(t, c, "search_text", `{"pattern":"x","repo":"nope"}`); !r.IsError || !strings.Contains(r.Text, "api, web") {
		t.Fatalf("unknown repo: %+v", r)
	}
}
