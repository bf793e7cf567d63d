package main_test

import (
	"strings"
	"testing"
)

// TestCLIDocComments: doc comments from the real plugins reach graph.json
// and the tools: get_node and describe_node show the first sentence, and
// query_graph finds a function by words only its doc comment holds.
func TestCLIDocComments(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"lim/lim.go": `// Package lim bounds things.
package lim

// MaxBytesReader is intended for limiting the size of incoming request
// bodies. It closes the reader after the limit.
func MaxBytesReader(n int64) int64 { return n }

func other() {}
`,
		"app/auth.py": `def sign_in(user):
    """Authenticate a user with a one-time code. Then log it."""
    return user
`,
		"web/pairs.ts": `/** Groups consecutive emissions together as arrays of two values. */
export function pairwise() {}
`,
	})
	run(t, root, false, "extract", "--quiet", ".")
	for _, tc := range []struct{ args, want, not string }{
		{"get_node label=MaxBytesReader", "doc: MaxBytesReader is intended for limiting the size of incoming request bodies.", "It closes"},
		{"describe_node label=sign_in", "Doc: Authenticate a user with a one-time code.", "Then log"},
		{"get_node label=pairwise", "doc: Groups consecutive emissions together as arrays of two values.", ""},
		{"get_node label=other", "kind: function", "doc:"},
	} {
		out := run(t, root, false, append([]string{"call"}, strings.Fields(tc.args)...)...)
		if !strings.Contains(out, tc.want) || tc.not != "" && strings.Contains(out, tc.not) {
			t.Errorf("%s:\n%s", tc.args, out)
		}
	}
	out := run(t, root, false, "call", "query_graph", "question=incoming bodies", "token_budget=300")
	if first := strings.SplitN(out, "\nNODE", 3); len(first) < 2 || !strings.Contains(first[1], "MaxBytesReader()") {
		t.Errorf("query_graph does not rank the doc's function first:\n%s", out)
	}
}
