package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// CatalogMode is how the tools are advertised: one per operation, or
// grouped into a handful with an action argument for clients that pay
// tokens for every tool definition.
type CatalogMode string

// The catalog modes.
const (
	FullCatalog    CatalogMode = "full"
	CompactCatalog CatalogMode = "compact"
)

// ParseCatalogMode reads a --catalog / $SYNAPTIC_CATALOG / ?catalog= value.
func ParseCatalogMode(s string) (CatalogMode, error) {
	switch m := CatalogMode(strings.ToLower(strings.TrimSpace(s))); m {
	case "", FullCatalog:
		return FullCatalog, nil
	case CompactCatalog:
		return CompactCatalog, nil
	}
	return "", fmt.Errorf("unknown catalog %q: use full or compact", s)
}

// ActionArg is the argument that picks a grouped tool's operation.
const ActionArg = "action"

// compactGroups are the grouped tools and the operations each holds, in
// advertised order. The action values are the full catalog's tool names,
// so a grouped call is the same call: group(action=find_callers, label=X)
// runs find_callers(label=X) through Catalog.Call.
var compactGroups = []struct {
	name, title, about string
	members            []string
}{
	{"synaptic_search", "Synaptic: search the codebase (start here)", "Find what is relevant to a question.",
		[]string{"query_graph"}},
	{"synaptic_symbol", "Synaptic: inspect a symbol", "One symbol: metadata, a summary, its source.",
		[]string{"get_node", "describe_node", "get_source"}},
	{"synaptic_relations", "Synaptic: follow relations", "Edges around a symbol: neighbours, callers, callees, references, blast radius, paths.",
		[]string{"get_neighbors", "find_callers", "find_callees", "find_references", "affected", "shortest_path"}},
	{"synaptic_overview", "Synaptic: graph overview", "The graph as a whole: stats, hubs, communities, federated repos.",
		[]string{"graph_stats", "god_nodes", "get_community", "list_repos", "repo_stats"}},
	{"synaptic_find", "Synaptic: search text and structure", "Grep with the enclosing symbol of each hit, SYNQL structural queries and patterns, dynamic-dispatch blind spots.",
		[]string{"search_text", "structural_search", "dynamic_hazards"}},
	{"synaptic_audit", "Synaptic: audits", "Rule-pack findings: the SQL audit, advice on one query, the readiness audit.",
		[]string{"audit_sql", "advise_sql", "readiness_audit"}},
	{"synaptic_changes", "Synaptic: what a change breaks", "Working changes (git), forecasts, tests to run, edit and rename plans, history.",
		[]string{"working_changes_impact", "predict_impact", "affected_tests", "predict_edit", "plan_rename", "time_travel_diff"}},
	{"synaptic_prs", "Synaptic: pull requests", "Pull requests through the gh CLI, with their blast radius.",
		[]string{"list_prs", "get_pr_impact", "triage_prs"}},
}

// Compact is the catalog seen through grouped tools. Tools it does not
// group (added later, or only in some builds) are advertised as they are,
// so every operation stays reachable. It answers through the catalog's own
// Call: same validation, same handlers, same bytes.
type Compact struct {
	c      *Catalog
	tools  []Tool
	groups map[string][]string // group name -> member tool names
}

// Compact returns the grouped view of c.
func (c *Catalog) Compact() *Compact {
	v := &Compact{c: c, groups: map[string][]string{}}
	grouped := map[string]bool{}
	for _, g := range compactGroups {
		var members []Tool
		for _, name := range g.members {
			if t, ok := c.Tool(name); ok {
				members = append(members, t)
				grouped[name] = true
			}
		}
		if len(members) == 0 {
			continue
		}
		for _, m := range members {
			v.groups[g.name] = append(v.groups[g.name], m.Name)
		}
		v.tools = append(v.tools, groupTool(g.name, g.title, g.about, members))
	}
	for _, t := range c.Tools() {
		if !grouped[t.Name] {
			v.tools = append(v.tools, t)
		}
	}
	return v
}

// Tools lists the grouped tools, then the ungrouped ones.
func (v *Compact) Tools() []Tool { return v.tools }

// Call runs a grouped tool's action, or an ungrouped tool, through the
// catalog.
func (v *Compact) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	members, ok := v.groups[name]
	if !ok {
		if slices.ContainsFunc(v.tools, func(t Tool) bool { return t.Name == name }) {
			return v.c.Call(ctx, name, args)
		}
		return Result{}, fmt.Errorf("%w: %q", ErrUnknownTool, name)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(normArgs(args), &m); err != nil {
		return Result{}, &ArgsError{name, "arguments must be a JSON object"}
	}
	var action string
	if raw, ok := m[ActionArg]; !ok || json.Unmarshal(raw, &action) != nil || !slices.Contains(members, action) {
		return Result{}, &ArgsError{name, fmt.Sprintf("argument %q must be one of %s", ActionArg, strings.Join(members, ", "))}
	}
	delete(m, ActionArg)
	rest, _ := json.Marshal(m)
	return v.c.Call(ctx, action, rest)
}

// groupTool builds one grouped tool: its schema is the union of the
// members' arguments (types only, the prose is in the description) plus
// the required action.
func groupTool(name, title, about string, members []Tool) Tool {
	props := map[string]any{}
	var actions, lines []string
	ann := Annotations{ReadOnlyHint: true, IdempotentHint: true}
	for _, t := range members {
		actions = append(actions, t.Name)
		args := argSummary(t, props)
		lines = append(lines, fmt.Sprintf("- %s(%s): %s", t.Name, strings.Join(args, ", "), firstSentence(t.Description)))
		ann.ReadOnlyHint = ann.ReadOnlyHint && t.Annotations.ReadOnlyHint
		ann.IdempotentHint = ann.IdempotentHint && t.Annotations.IdempotentHint
		ann.DestructiveHint = ann.DestructiveHint || t.Annotations.DestructiveHint
		ann.OpenWorldHint = ann.OpenWorldHint || t.Annotations.OpenWorldHint
	}
	props[ActionArg] = map[string]any{"type": "string", "enum": actions}
	schema := map[string]any{"type": "object", "properties": props, "required": []string{ActionArg}}
	return Tool{
		Name: name, Title: title,
		Description: about + " Set action to one of (* = required):\n" + strings.Join(lines, "\n"),
		InputSchema: mustJSON(schema), Annotations: ann,
	}
}

// argSummary lists t's arguments ("label*" when required) and adds their
// bare types to props.
func argSummary(t Tool, props map[string]any) (args []string) {
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	json.Unmarshal(t.InputSchema, &s)
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		p := s.Properties[n]
		if _, seen := props[n]; !seen {
			bare := map[string]any{"type": p["type"]}
			if items, ok := p["items"]; ok {
				bare["items"] = items
			}
			props[n] = bare
		}
		if slices.Contains(s.Required, n) {
			n += "*"
		}
		args = append(args, n)
	}
	return args
}

// maxOpSummary bounds one operation's line in a group's description: the
// compact catalog exists for clients that pay per token of tool
// definitions; the full description is one tools/list away.
const maxOpSummary = 90

// firstSentence keeps a description's first sentence, cut at a word
// boundary past maxOpSummary bytes.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if len(s) > maxOpSummary {
		cut := strings.LastIndexByte(s[:maxOpSummary], ' ')
		if cut <= 0 {
			cut = maxOpSummary
		}
		s = s[:cut] + "…"
	}
	return s
}
