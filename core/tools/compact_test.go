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
		{"synaptic_symbol", "get_node", `{"label":"Total"}`},
		{"synaptic_symbol", "describe_node", `{"label":"Total"}`},
		{"synaptic_relations", "find_callers", `{"label":"WithTax","limit":5}`},
		{"synaptic_relations", "affected", `{"label":"WithTax"}`},
		{"synaptic_overview", "graph_stats", `{}`},
		{"synaptic_overview", "god_nodes", `{"top_n":3}`},
		{"synaptic_symbol", "get_node", `{"label":"NoSuchThing"}`},
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
		{"synaptic_symbol", `{"label":"Total"}`, `"action" must be one of get_node, describe_node, get_source`},
		{"synaptic_symbol", `{"action":"find_callers","label":"Total"}`, `must be one of`},
		{"synaptic_symbol", `{"action":"get_node"}`, `missing required argument "label"`},
		{"synaptic_symbol", `{"action":"get_node","label":"x","limit":3}`, `unknown argument "limit"`},
		{"synaptic_symbol", `[1]`, `JSON object`},
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
	var grouped []Tool
	for _, tl := range v.Tools() {
		if _, ok := v.groups[tl.Name]; ok {
			grouped = append(grouped, tl)
		} else {
			t.Errorf("%s is not grouped: add it to compactGroups", tl.Name)
		}
	}
	full, compact := listingBytes(c.Tools()), listingBytes(v.Tools())
	t.Logf("tools/list: full %d bytes (%d tools), compact %d bytes (%d tools)", full, len(c.Tools()), compact, len(v.Tools()))
	// The bound is on the groups: tools added later and not grouped yet
	// are advertised whole, and cost what they cost in the full listing.
	// The group budget was 5 KiB for the 15 graph tools; each further
	// grouped operation (the change-aware and PR tools) may add 256 bytes.
	ops := 0
	for _, tl := range grouped {
		ops += len(v.groups[tl.Name])
	}
	budget := 5*1024 + 256*max(ops-15, 0)
	if g := listingBytes(grouped); g > budget || compact*2 > full {
		t.Errorf("compact groups take %d bytes (listing %d, full %d): want at most %d bytes and under half of the full listing", g, compact, full, budget)
	}
}

// listingBytes approximates a tools/list result: what a client pays for.
func listingBytes(ts []Tool) int {
	type wire struct {
		Name         string          `json:"name"`
		Title        string          `json:"title,omitempty"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
		Annotations  Annotations     `json:"annotations"`
	}
	var out []wire
	for _, t := range ts {
		out = append(out, wire{t.Name, t.Title, t.Description, t.InputSchema, t.OutputSchema, t.Annotations})
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
