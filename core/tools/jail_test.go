//go:build linux

package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/synaptic-graph/synaptic/core/graph"
)

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestJailRefusesSpecialFiles: a FIFO inside the root must be refused at
// once, never block the reading goroutine (the thread-exhaustion crash of
// the attack run), for get_source by file and by label and for show_sites.
func TestJailRefusesSpecialFiles(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "pkg", "fifo.go")
	writeFile(t, filepath.Join(root, "pkg", "a.go"), "package pkg\n")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if err := os.Symlink("fifo.go", filepath.Join(root, "pkg", "to_fifo.go")); err != nil {
		t.Fatal(err)
	}
	g := &graph.Graph{Nodes: []graph.Node{
		{ID: "f", Label: "F()", SourceFile: "pkg/fifo.go", SourceLocation: "L1"},
		{ID: "a", Label: "A()", SourceFile: "pkg/a.go", SourceLocation: "L1"},
	}, Edges: []graph.Edge{{Source: "f", Target: "a", Relation: "calls", SourceFile: "pkg/fifo.go", SourceLocation: "L1"}}}
	c := New(Options{SourceRoot: root})
	c.SetGraph(g)
	args := []struct{ tool, args string }{
		{"get_source", `{"file":"pkg/fifo.go"}`},
		{"get_source", `{"file":"pkg/to_fifo.go"}`},
		{"get_source", `{"label":"F()"}`},
		{"find_callers", `{"label":"A()","show_sites":true}`},
	}
	var wg sync.WaitGroup
	var done atomic.Int32
	for range 20 { // concurrent, as the HTTP attack was
		for _, a := range args {
			wg.Go(func() {
				r, err := c.Call(context.Background(), a.tool, []byte(a.args))
				if err != nil {
					t.Errorf("%s %s: %v", a.tool, a.args, err)
					return
				}
				if a.tool == "get_source" && (!r.IsError || !strings.Contains(r.Text, "FIFO (named pipe), not a regular file")) {
					t.Errorf("%s %s = %+v", a.tool, a.args, r)
				}
				if a.tool == "find_callers" && !strings.Contains(r.Text, "not a regular file") {
					t.Errorf("show_sites on a FIFO: %s", r.Text)
				}
				done.Add(1)
			})
		}
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatalf("reads blocked on a FIFO: %d of %d calls returned", done.Load(), 20*len(args))
	}
}

// TestJailReadPolicy: files extraction skips as sensitive, VCS metadata or
// ignored are refused with the rule named, under their own name and
// through a symlink; [source] allow in .synaptic/config.toml opens them.
func TestJailReadPolicy(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".env":                    "API_TOKEN=s3cr3t\n",
		".env.production":         "DB_PASSWORD=s3cr3t\n",
		".env.example":            "API_TOKEN=changeme\n",
		".git/config":             "[remote \"origin\"]\n\turl = https://user:ghp_s3cr3t@example.com/r.git\n",
		"deploy/id_rsa":           "-----BEGIN s3cr3t-----\n",
		"certs/server.pem":        "s3cr3t\n",
		".ssh/config":             "Host s3cr3t\n",
		"notes.txt":               "s3cr3t gitignored\n",
		"build-cache/out.go":      "package s3cr3t\n",
		"pkg/a.go":                "package pkg\n",
		".gitignore":              "notes.txt\nbuild-cache/\n",
		"pkg/fixtures/.env":       "FIXTURE=s3cr3t\n",
		".synaptic/config.toml":   "",
		"docs/readme.md":          "hello\n",
		"sub/.gitignore":          "!keep.go\n*.gen.go\n",
		"sub/x.gen.go":            "package s3cr3t\n",
		"sub/keep.go":             "package sub\n",
		"link/.placeholder":       "",
		"pkg/innocent_name.go.md": "fine\n",
	}
	for p, s := range files {
		writeFile(t, filepath.Join(root, p), s)
	}
	if err := os.Symlink("../.env", filepath.Join(root, "link", "config.txt")); err != nil {
		t.Fatal(err)
	}
	c := New(Options{SourceRoot: root})
	c.SetGraph(&graph.Graph{})
	tests := []struct {
		file string
		want string // "" = served
	}{
		{".env", "sensitive (credential file name)"},
		{".env.production", "sensitive (dotenv file)"},
		{".env.example", ""},
		{".git/config", "vcs-metadata (inside .git/)"},
		{"deploy/id_rsa", "sensitive (SSH key file name)"},
		{"certs/server.pem", "sensitive"},
		{".ssh/config", "sensitive (under a .ssh/ directory)"},
		{"notes.txt", "ignored (matched by an ignore file)"},
		{"build-cache/out.go", "ignored (directory build-cache/ is ignored)"},
		{"sub/x.gen.go", "ignored"},
		{"sub/keep.go", ""},
		{"pkg/a.go", ""},
		{"docs/readme.md", ""},
		{"link/config.txt", "sensitive (credential file name)"}, // the name it resolves to counts
		{filepath.Join(root, ".env"), "sensitive"},              // absolute inside the root
		{"pkg/fixtures/.env", "sensitive"},
	}
	for _, tc := range tests {
		r := call(t, c, "get_source", `{"file":`+quote(tc.file)+`}`)
		if tc.want == "" {
			if r.IsError {
				t.Errorf("%s refused: %s", tc.file, r.Text)
			}
			continue
		}
		if !r.IsError || !strings.Contains(r.Text, tc.want) || !strings.Contains(r.Text, sourceConfigFile) || strings.Contains(r.Text, "s3cr3t") {
			t.Errorf("%s = %+v, want refusal %q", tc.file, r, tc.want)
		}
	}

	writeFile(t, filepath.Join(root, sourceConfigFile), "[source]\nallow = [\"pkg/fixtures/**\", \".env.production\"]\n")
	for file, served := range map[string]bool{"pkg/fixtures/.env": true, ".env.production": true, ".env": false, ".git/config": false} {
		r := call(t, c, "get_source", `{"file":`+quote(file)+`}`)
		if r.IsError == served {
			t.Errorf("with allow-list, %s: %+v", file, r)
		}
	}
	// The config itself stays unreadable: it lives under .synaptic/.
	if r := call(t, c, "get_source", `{"file":".synaptic/config.toml"}`); !r.IsError {
		t.Errorf("config served: %s", r.Text)
	}
}

// TestJailSwapRace swaps a directory for a symlink to outside the root
// while get_source reads through it: the outside file must never be served
// (the attack run saw it in 19.5% of the calls).
func TestJailSwapRace(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	writeFile(t, filepath.Join(root, "race", "data.txt"), "INSIDE ok\n")
	writeFile(t, filepath.Join(dir, "outside", "data.txt"), "TOP SECRET OUTSIDE\n")
	if err := os.Symlink("../outside", filepath.Join(root, "race_alt")); err != nil {
		t.Fatal(err)
	}
	c := New(Options{SourceRoot: root})
	c.SetGraph(&graph.Graph{})
	stop := make(chan struct{})
	var swapper sync.WaitGroup
	swapper.Go(func() {
		a, b := filepath.Join(root, "race"), filepath.Join(root, "race_alt")
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := renameExchange(a, b); err != nil {
				t.Errorf("renameat2: %v", err)
				return
			}
		}
	})
	var inside, refused int
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		r := call(t, c, "get_source", `{"file":"race/data.txt"}`)
		switch {
		case strings.Contains(r.Text, "OUTSIDE"):
			close(stop)
			swapper.Wait()
			t.Fatalf("served the file outside the root: %s", r.Text)
		case r.IsError:
			refused++
		default:
			inside++
		}
	}
	close(stop)
	swapper.Wait()
	if inside == 0 || refused == 0 {
		t.Errorf("the race was not exercised: %d served, %d refused", inside, refused)
	}
	t.Logf("%d served from inside, %d refused, 0 outside", inside, refused)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// renameExchange swaps two paths atomically (renameat2 RENAME_EXCHANGE).
func renameExchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// TestReportBesideGraph: synaptic://report never follows a symlink, never
// blocks on a FIFO, is capped and sanitized, and a pinned catalog renders
// it from the graph.
func TestReportBesideGraph(t *testing.T) {
	dir := t.TempDir()
	graphPath := filepath.Join(dir, "graph.json")
	data, err := os.ReadFile("testdata/real/graph.json")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, graphPath, string(data))
	writeFile(t, filepath.Join(dir, "outside.txt"), "root:*:20228:0:99999:7:::\n")
	report := filepath.Join(dir, "GRAPH_REPORT.md")
	read := func(opts Options) string {
		t.Helper()
		c := New(opts)
		if err := c.LoadGraph(graphPath); err != nil {
			t.Fatal(err)
		}
		done := make(chan string, 1)
		go func() {
			got, _, err := c.ReadResource(context.Background(), "synaptic://report")
			if err != nil {
				t.Error(err)
			}
			done <- got
		}()
		select {
		case got := <-done:
			return got
		case <-time.After(5 * time.Second):
			t.Fatal("report read blocked")
			return ""
		}
	}
	opts := Options{GraphPath: graphPath}

	if err := os.Symlink("outside.txt", report); err != nil {
		t.Fatal(err)
	}
	if got := read(opts); strings.Contains(got, "root:*") || !strings.Contains(got, "is a symlink") {
		t.Errorf("symlinked report: %.300q", got)
	}
	os.Remove(report)
	if err := syscall.Mkfifo(report, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := read(opts); !strings.Contains(got, "FIFO (named pipe), not a regular file") {
		t.Errorf("FIFO report: %.300q", got)
	}
	os.Remove(report)
	writeFile(t, report, "# Report\x1b]52;c;SGVsbG8=\x07\n\u202eevil\u2028row\n")
	if got := read(opts); got != "# Report\nevil row\n" {
		t.Errorf("sanitized report = %q", got)
	}
	if got := read(Options{GraphPath: graphPath, RenderReport: true}); strings.Contains(got, "evil") || !strings.Contains(got, "skipped files") {
		t.Errorf("pinned report came from disk: %.300q", got)
	}
	if err := os.WriteFile(report, make([]byte, maxReportFile+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := read(opts); !strings.Contains(got, "over the 8 MiB cap") {
		t.Errorf("oversized report: %.300q", got)
	}
}

// TestIntegerArgumentsNeverWrap: offsets and limits near MaxInt64 are
// answered, never a panic (offset+limit used to wrap in get_community).
func TestIntegerArgumentsNeverWrap(t *testing.T) {
	c := newFixtureCatalog(t, Options{SourceRoot: "testdata/src"})
	const big = "9223372036854775807"
	for _, tc := range []struct{ tool, args string }{
		{"get_community", `{"community_id":0,"offset":1,"limit":` + big + `}`},
		{"get_community", `{"community_id":0,"offset":` + big + `,"limit":1}`},
		{"get_community", `{"community_id":0,"offset":` + big + `,"limit":` + big + `}`},
		{"god_nodes", `{"top_n":` + big + `,"offset":` + big + `}`},
		{"get_source", `{"file":"pkg/server.go","lines":"` + big + `"}`},
		{"get_source", `{"file":"pkg/server.go","lines":"3-` + big + `"}`},
		{"get_source", `{"label":".Serve()@pkg","context_lines":` + big + `}`},
		{"get_neighbors", `{"label":".Serve()@pkg","limit":` + big + `}`},
		{"affected", `{"label":".Serve()@pkg","depth":` + big + `,"limit":` + big + `}`},
		{"shortest_path", `{"source":".Serve()@pkg","target":"NewServer","max_hops":` + big + `}`},
		{"query_graph", `{"question":"serve","token_budget":` + big + `}`},
	} {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s %s panicked: %v", tc.tool, tc.args, p)
				}
			}()
			if _, err := c.Call(context.Background(), tc.tool, []byte(tc.args)); err != nil {
				t.Logf("%s %s: %v", tc.tool, tc.args, err)
			}
		}()
	}
}
