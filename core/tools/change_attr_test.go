package tools

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

func TestAttributeLines(t *testing.T) {
	for _, tc := range []struct {
		src, name string
		want      string
	}{
		{"a.size\nb.sizes\nc.size()\n", "size", "[1 3]"},
		{"x = n.broadcast_address; y = n.broadcast_address\n", "broadcast_address", "[1]"},
		{"size\n.size_x\n\n  o.size", "size", "[4]"},
		{"", "size", "[]"},
	} {
		if got := fmt.Sprint(attributeLines([]byte(tc.src), tc.name)); got != tc.want && !(tc.want == "[]" && got == "[]") {
			t.Errorf("%q: got %s, want %s", tc.src, got, tc.want)
		}
	}
}

// TestPropertyReaders: a changed property no test reaches selects the
// tests that read its attribute, and those reaching a function of its
// package that reads it, not every test of its type.
func TestPropertyReaders(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("net.py", "class Net:\n    @property\n    def broadcast(self):\n        return 1\n    def hosts(self):\n        return self.broadcast\n    def other(self):\n        return 2\n")
	write("tests/test_net.py", "def test_b(n):\n    n.broadcast\n\ndef test_hosts(n):\n    n.hosts()\n\ndef test_other(n):\n    n.other()\n")
	sp := func(a, b int) *graph.Span { return &graph.Span{StartLine: a, EndLine: b} }
	py := func(id, label, kind, file string, span *graph.Span, test bool) graph.Node {
		return graph.Node{ID: id, Label: label, Kind: kind, SourceFile: file, Language: "python", Repo: "r", Span: span, IsTest: test}
	}
	g := &graph.Graph{Directed: true, Nodes: []graph.Node{
		py("netpy", "net.py", "file", "net.py", sp(1, 8), false),
		py("net", "Net", "class", "net.py", sp(1, 8), false),
		py("b", "broadcast", "property", "net.py", sp(2, 4), false),
		py("hosts", ".hosts()", "method", "net.py", sp(5, 6), false),
		py("other", ".other()", "method", "net.py", sp(7, 8), false),
		py("tb", "test_b()", "function", "tests/test_net.py", sp(1, 2), true),
		py("th", "test_hosts()", "function", "tests/test_net.py", sp(4, 5), true),
		py("to", "test_other()", "function", "tests/test_net.py", sp(7, 8), true),
	}, Edges: []graph.Edge{
		{Source: "net", Target: "b", Relation: "method"}, {Source: "net", Target: "hosts", Relation: "method"},
		{Source: "net", Target: "other", Relation: "method"},
		{Source: "th", Target: "hosts", Relation: "calls"}, {Source: "to", Target: "other", Relation: "calls"},
	}}
	c := New(Options{SourceRoot: root})
	c.SetGraph(g)
	s := c.current()
	for _, tc := range []struct {
		root, want string
	}{
		{root, "[test_b() fallback: reads the attribute .broadcast test_hosts() fallback: reads the attribute .broadcast]"},
		{"", "[test_hosts() fallback: same type as broadcast test_other() fallback: same type as broadcast]"}, // nothing to read
	} {
		cs := newChangeSet(s.x, nil, []gitdiff.File{{Path: "net.py", Status: gitdiff.Modified, Hunks: []gitdiff.Hunk{{OldStart: 4, OldLines: 1, NewStart: 4, NewLines: 1}}}})
		cs.root = tc.root
		var got []string
		for _, r := range s.selectTests(cs, 3) {
			got = append(got, r.Label+" "+r.ViaRelation)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("root %q: selected %v, want %s", tc.root, got, tc.want)
		}
	}
}

// FuzzAttributeLines: any file content gives ascending lines that exist
// and hold .name as a whole attribute.
func FuzzAttributeLines(f *testing.F) {
	f.Add([]byte("a.size\nb.sizes\n"), "size")
	f.Add([]byte(".x\n\n.x.x"), "x")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		if name == "" || strings.ContainsAny(name, ".\n") {
			return
		}
		lines := bytes.Split(data, []byte("\n"))
		prev := 0
		for _, l := range attributeLines(data, name) {
			if l <= prev || l > len(lines) {
				t.Fatalf("line %d after %d of %d", l, prev, len(lines))
			}
			if !bytes.Contains(lines[l-1], []byte("."+name)) {
				t.Fatalf("line %d %q holds no .%s", l, lines[l-1], name)
			}
			prev = l
		}
	})
}
