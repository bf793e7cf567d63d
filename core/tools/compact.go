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

// compactOp is one operation of a grouped tool: a full tool's name and
// the few words that say what it is for, when its name does not.
type compactOp struct{ name, hint string }

// compactGroups are the grouped tools and the operations each holds, in
// advertised order. The action values are the full catalog's tool names,
// so a grouped call is the same call: group(action=find_callers, label=X)
// runs find_callers(label=X) through Catalog.Call. The groups are few and
// the hints terse on purpose: every byte here is paid for by a client on
// every request, and the full catalog is one flag away.
var compactGroups = []struct {
	name, title, about string
	ops                []compactOp
}{
	{"synaptic_search", "Synaptic: search first", "Find code.", []compactOp{
		{"query_graph", "nodes relevant to a question"},
		{"search_text", "grep"},
		{"structural_search", "SYNQL: MATCH (c:class) WHERE c.loc>500 RETURN c"},
		{"dynamic_hazards", "reflection/eval sites"}}},
	{"synaptic_relations", "Synaptic: symbols", "A symbol, its edges.", []compactOp{
		{"get_node", ""}, {"describe_node", "takes/returns/calls"}, {"get_source", ""},
		{"get_neighbors", ""}, {"find_callers", ""}, {"find_callees", ""},
		{"find_references", "every use"}, {"affected", "blast radius"}, {"shortest_path", ""}}},
	{"synaptic_overview", "Synaptic: overview", "Whole graph; audits.", []compactOp{
		{"graph_stats", ""}, {"god_nodes", "hubs"}, {"get_community", ""}, {"list_repos", ""}, {"repo_stats", ""},
		{"audit_sql", ""}, {"advise_sql", "critique one query"}, {"readiness_audit", "port blockers"}}},
	{"synaptic_changes", "Synaptic: changes", "Change impact (git, gh).", []compactOp{
		{"working_changes_impact", "git diff vs base"}, {"predict_impact", "forecast"}, {"affected_tests", "tests to run"},
		{"predict_edit", "kind: delete|signature|visibility"}, {"plan_rename", ""}, {"time_travel_diff", ""},
		{"list_prs", ""}, {"get_pr_impact", ""}, {"triage_prs", ""}}},
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
		var hints []string
		for _, op := range g.ops {
			if t, ok := c.Tool(op.name); ok {
				members = append(members, t)
				hints = append(hints, op.hint)
				grouped[op.name] = true
			}
		}
		if len(members) == 0 {
			continue
		}
		for _, m := range members {
			v.groups[g.name] = append(v.groups[g.name], m.Name)
		}
		v.tools = append(v.tools, groupTool(g.name, g.title, g.about, members, hints))
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
// members' arguments (types only) plus the required action; its
// description lists each action's arguments and hint.
func groupTool(name, title, about string, members []Tool, hints []string) Tool {
	props := map[string]any{}
	var actions, lines []string
	ann := Annotations{ReadOnlyHint: true, IdempotentHint: true}
	for i, t := range members {
		actions = append(actions, t.Name)
		line := fmt.Sprintf("%s(%s)", t.Name, strings.Join(argSummary(t, props), ","))
		if hints[i] != "" {
			line += " " + hints[i]
		}
		lines = append(lines, line)
		ann.ReadOnlyHint = ann.ReadOnlyHint && t.Annotations.ReadOnlyHint
		ann.IdempotentHint = ann.IdempotentHint && t.Annotations.IdempotentHint
		ann.DestructiveHint = ann.DestructiveHint || t.Annotations.DestructiveHint
		ann.OpenWorldHint = ann.OpenWorldHint || t.Annotations.OpenWorldHint
	}
	props[ActionArg] = map[string]any{"type": "string", "enum": actions}
	schema := map[string]any{"type": "object", "properties": props, "required": []string{ActionArg}}
	return Tool{
		Name: name, Title: title,
		Description: about + " action (*required):\n" + strings.Join(lines, "\n"),
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
