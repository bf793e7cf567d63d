package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/tools"
)

func TestProgressBarNamesPhasePastTheFiles(t *testing.T) {
	var buf bytes.Buffer
	p := &progressBar{w: &buf, on: true, label: "extracting"}
	p.update(3, 3)
	for _, tc := range []struct{ phase, want string }{
		{"parse+extract", "3/3 files  resolving calls…"},
		{"resolve", "finding communities…"},
		{"communities", "writing graph.json"},
	} {
		buf.Reset()
		p.phaseDone(tc.phase)
		if !strings.Contains(buf.String(), tc.want) {
			t.Errorf("after %s: %q, want %q", tc.phase, buf.String(), tc.want)
		}
	}
	buf.Reset()
	p.phaseDone("discover") // phases before the files draw nothing new
	if buf.Len() != 0 {
		t.Errorf("discover redrew: %q", buf.String())
	}
}

func TestHTTPAddrArg(t *testing.T) {
	for _, tc := range []struct{ in, wantErr string }{
		{"127.0.0.1:8765", ""},
		{"[::1]:0", ""},
		{":8765", ""}, // wildcard: allowed, warned about at bind
		{"8765", "--http 8765 needs a host: use --http 127.0.0.1:8765"},
		{"localhost", "is not host:port"},
		{"127.0.0.1:http", "is not a number"},
		{"127.0.0.1:70000", "is not a number from 0 to 65535"},
	} {
		_, err := httpAddrArg(tc.in)
		if (tc.wantErr == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("httpAddrArg(%q) = %v, want %q", tc.in, err, tc.wantErr)
		}
	}
}

func TestGraphFileArg(t *testing.T) {
	repo := t.TempDir()
	out := filepath.Join(repo, "synaptic-out")
	os.MkdirAll(out, 0o755)
	if _, err := graphFileArg(repo); err == nil || !strings.Contains(err.Error(), "synaptic extract") {
		t.Errorf("dir without graph: %v", err)
	}
	g := filepath.Join(out, "graph.json")
	os.WriteFile(g, []byte("{}"), 0o644)
	for _, in := range []string{repo, out, g} {
		if got, err := graphFileArg(in); err != nil || got != g {
			t.Errorf("graphFileArg(%q) = %q, %v; want %q", in, got, err, g)
		}
	}
	if got, err := graphFileArg("missing.json"); err != nil || got != "missing.json" {
		t.Errorf("missing file is passed on for the loader to report: %q %v", got, err)
	}
}

func TestCallToolHelp(t *testing.T) {
	if args, help := withoutHelp([]string{"get_node", "--help", "--", "-h"}); !help || strings.Join(args, " ") != "get_node -- -h" {
		t.Errorf("withoutHelp = %v %v", args, help)
	}
	tl, _ := tools.New(tools.Options{}).Tool("query_graph")
	var buf bytes.Buffer
	printToolHelp(&buf, tl)
	for _, want := range []string{"Usage: synaptic call query_graph", "question=string (required)", "mode=string (one of [bfs dfs]; default bfs)", "context_filter=string,... (comma-separated)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("help lacks %q:\n%s", want, buf.String())
		}
	}
	// Required arguments come first.
	if i, j := strings.Index(buf.String(), "question="), strings.Index(buf.String(), "context_filter="); i > j {
		t.Errorf("required argument not listed first:\n%s", buf.String())
	}
}
