package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestCompactAnswersIdentically: every grouped action gives the same
// result, byte for byte, as the full tool; errors stay argument errors.
func TestCompactAnswersIdentically(t *testing.T) {
	c := newFixtureCatalog(t, Options{})
	v := c.Compact()
	ctx := context.Background()
	for _, tc := range []struct{ group, action, args string }{
		{"synaptic_search", "query_graph", `{"question":"cart total"}`},
		{"synaptic_relations", "get_node", `{"label":"Total"}`},
		{"synaptic_relations", "describe_node", `{"label":"Total"}`},
		{"synaptic_relations", "find_callers", `{"label":"WithTax","limit":5}`},
		{"synaptic_relations", "affected", `{"label":"WithTax"}`},
		{"synaptic_overview", "graph_stats", `{}`},
		{"synaptic_overview", "god_nodes", `{"top_n":3}`},
		{"synaptic_relations", "get_node", `{"label":"NoSuchThing"}`},
		{"synaptic_changes", "predict_edit", `{"symbol":"WithTax","kind":"delete"}`},
		{"synaptic_search", "structural_search", `{"file":"cart"}`},
	} {
		want, err := c.Call(ctx, tc.action, json.RawMessage(tc.args))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal([]byte(tc.args), &m)
		m["action"] = tc.action
		args, _ := json.Marshal(m)
		got, err := v.Call(ctx, tc.group, args)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.group, args, err)
		}
		gs, _ := json.Marshal(got.Structured)
		ws, _ := json.Marshal(want.Structured)
		if got.Text != want.Text || string(gs) != string(ws) || got.IsError != want.IsError {
			t.Errorf("%s(action=%s) differs from %s:\n%s\n---\n%s", tc.group, tc.action, tc.action, got.Text, want.Text)
		}
	}
	for _, tc := range []struct{ group, args, want string }{
		{"synaptic_relations", `{"label":"Total"}`, `"action" must be one of get_node, describe_node, get_source, get_neighbors`},
		{"synaptic_relations", `{"action":"graph_stats","label":"Total"}`, `must be one of`},
		{"synaptic_relations", `{"action":"get_node"}`, `missing required argument "label"`},
		{"synaptic_relations", `{"action":"get_node","label":"x","limit":3}`, `unknown argument "limit"`},
		{"synaptic_relations", `[1]`, `JSON object`},
	} {
		_, err := v.Call(ctx, tc.group, json.RawMessage(tc.args))
		var ae *ArgsError
		if !errors.As(err, &ae) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: err = %v, want ArgsError with %q", tc.group, tc.args, err, tc.want)
		}
	}
	if _, err := v.Call(ctx, "find_callers", json.RawMessage(`{"label":"x"}`)); !errors.Is(err, ErrUnknownTool) {
		t.Errorf("a grouped tool's own name should be unknown in the compact view: %v", err)
	}
}

// TestCompactCoversEverything: every full tool is reachable, exactly once,
// as an action or as itself, and the listing is much smaller.
func TestCompactCoversEverything(t *testing.T) {
	c := New(Options{})
	v := c.Compact()
	reach := map[string]int{}
	for _, tl := range v.Tools() {
		if members, ok := v.groups[tl.Name]; ok {
			for _, m := range members {
				reach[m]++
			}
			var s struct {
				Required []string `json:"required"`
			}
			json.Unmarshal(tl.InputSchema, &s)
			// A group is as safe as its least safe member: read-only
			// members give a read-only group, one that shells out makes
			// the group open-world.
			want := readOnly
			for _, m := range members {
				mt, _ := c.Tool(m)
				want.OpenWorldHint = want.OpenWorldHint || mt.Annotations.OpenWorldHint
			}
			if len(s.Required) != 1 || s.Required[0] != ActionArg || tl.Annotations != want {
				t.Errorf("%s: required %v, annotations %+v", tl.Name, s.Required, tl.Annotations)
			}
			continue
		}
		reach[tl.Name]++
	}
	for _, tl := range c.Tools() {
		if reach[tl.Name] != 1 {
			t.Errorf("%s reachable %d times in the compact view", tl.Name, reach[tl.Name])
		}
	}
	for _, tl := range v.Tools() {
		if _, ok := v.groups[tl.Name]; !ok {
			t.Errorf("%s is not grouped: add it to compactGroups", tl.Name)
		}
	}
	full, compact := listingBytes(c.Tools()), listingBytes(v.Tools())
	t.Logf("tools/list: full %d bytes (%d tools), compact %d bytes (%d tools)", full, len(c.Tools()), compact, len(v.Tools()))
	// The targets of issue 15: a client pays for every byte of the listing
	// on every session. A new tool fits by being as terse as the rest.
	if full > maxFullListing || compact > maxCompactListing {
		t.Errorf("tools/list is %d bytes full, %d compact: want at most %d and %d", full, compact, maxFullListing, maxCompactListing)
	}
	if withExec := listingBytes(New(Options{AllowExec: true}).Tools()); withExec > maxFullListing+1024 {
		t.Errorf("tools/list with speculate is %d bytes: want at most %d", withExec, maxFullListing+1024)
	}
}

// The tools/list size targets, in bytes.
const (
	maxFullListing    = 25 * 1024
	maxCompactListing = 5 * 1024
)

// listingBytes is the size of a tools/list result as the server writes
// it (cmd/internal/cli/adapter.go: the title also goes into the
// annotations, every hint is sent): what a client pays for.
func listingBytes(ts []Tool) int {
	type annotations struct {
		Title           string `json:"title,omitempty"`
		ReadOnlyHint    bool   `json:"readOnlyHint"`
		DestructiveHint bool   `json:"destructiveHint"`
		IdempotentHint  bool   `json:"idempotentHint"`
		OpenWorldHint   bool   `json:"openWorldHint"`
	}
	type wire struct {
		Name         string          `json:"name"`
		Title        string          `json:"title,omitempty"`
		Description  string          `json:"description,omitempty"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
		Annotations  annotations     `json:"annotations"`
	}
	var out []wire
	for _, t := range ts {
		a := t.Annotations
		out = append(out, wire{t.Name, t.Title, t.Description, t.InputSchema, t.OutputSchema,
			annotations{t.Title, a.ReadOnlyHint, a.DestructiveHint, a.IdempotentHint, a.OpenWorldHint}})
	}
	b, _ := json.Marshal(map[string]any{"tools": out})
	return len(b)
}

func TestParseCatalogMode(t *testing.T) {
	for in, want := range map[string]CatalogMode{"": FullCatalog, "full": FullCatalog, " Compact ": CompactCatalog} {
		if got, err := ParseCatalogMode(in); err != nil || got != want {
			t.Errorf("ParseCatalogMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseCatalogMode("tiny"); err == nil || !strings.Contains(err.Error(), "full or compact") {
		t.Errorf("bad mode: %v", err)
	}
}
