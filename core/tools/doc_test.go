package tools

import (
	"strings"
	"testing"
)

func TestDocSentence(t *testing.T) {
	for doc, want := range map[string]string{
		"": "",
		"NewServer returns a server. It listens.": "NewServer returns a server.",
		"Use e.g. Serve or Close. More.":          "Use e.g. Serve or Close.",
		"Version 1.2 adds this. More.":            "Version 1.2 adds this.",
		"Calls fmt. then continues. Done.":        "Calls fmt. then continues.",
		"One sentence only":                       "One sentence only",
		"Cut by the extractor...":                 "Cut by the extractor...",
		"Is it? Yes.":                             "Is it?",
		"Bad \x1b[2J escape. Two.":                sanitize("Bad \x1b[2J escape."),
	} {
		if got := docSentence(doc); got != want {
			t.Errorf("docSentence(%q) = %q, want %q", doc, got, want)
		}
	}
}

// get_node and describe_node show the doc's first sentence, in text and
// structuredContent; a node without a doc shows none.
func TestNodeToolsShowDoc(t *testing.T) {
	g := fixture()
	for i := range g.Nodes {
		if g.Nodes[i].ID == "pkg_server_newserver" {
			g.Nodes[i].Doc = "NewServer returns a server listening on no address. Call Serve to start it."
		}
	}
	c := New(Options{SourceRoot: "testdata/src"})
	c.SetGraph(g)
	const want = "NewServer returns a server listening on no address."
	for _, tool := range []string{"get_node", "describe_node"} {
		r := call(t, c, tool, `{"label":"NewServer"}`)
		if r.IsError || !strings.Contains(r.Text, want) || strings.Contains(r.Text, "Call Serve") {
			t.Errorf("%s text:\n%s", tool, r.Text)
		}
		if got := structured(t, r)["doc"]; got != want {
			t.Errorf("%s structured doc = %v", tool, got)
		}
		r = call(t, c, tool, `{"label":"main"}`)
		if strings.Contains(strings.ToLower(r.Text), "doc:") || structured(t, r)["doc"] != nil {
			t.Errorf("%s shows a doc for an undocumented node:\n%s", tool, r.Text)
		}
	}
}
