package tools

import "encoding/json"

// readOnly is the annotation set of the graph-only tools: read-only,
// non-destructive, idempotent, and closed-world (they do not shell out).
var readOnly = Annotations{ReadOnlyHint: true, IdempotentHint: true}

// nameHelp documents every argument that names a node: the resolution
// cascade accepts all of these forms.
const nameHelp = "Name, name@file or id."

// defaults are the per-call defaults; Concise lowers them exactly as the
// spec lists (lists 20, get_community 40, top_n 6, context_lines 25,
// token_budget 800, terse query list 10). Explicit arguments always win.
type defaults struct {
	limit, community, topN, contextLines, tokenBudget, terse int
}

func (c *Catalog) defaults() defaults {
	if c.opts.Concise {
		return defaults{limit: 20, community: 40, topN: 6, contextLines: 25, tokenBudget: 800, terse: 10}
	}
	return defaults{limit: 50, community: 100, topN: 10, contextLines: 40, tokenBudget: 1200, terse: 15}
}

// buildTools returns the catalog in its advertised order; speculate is
// present only with AllowExec.
func (c *Catalog) buildTools() []Tool {
	d := c.defaults()
	labelProp := func(desc string) prop { return str("label", desc).required() }
	limitProp := integer("limit", "Max listed.", d.limit, 1, -1)
	verboseProp := boolean("verbose", "List all.")
	depthProp := integer("depth", "Hops, 1..16.", 3, -1, -1)
	sitesProp := boolean("show_sites", "Print each site's line.")
	tools := []Tool{
		{
			Name:        "query_graph",
			Title:       "Synaptic: Query This Codebase (Start Here)",
			Description: "Start here: the nodes most relevant to a question, ranked; full=true adds edges.",
			InputSchema: object(
				str("question", "Question or symbol.").required(),
				enumStr("mode", "Tie-break: shallower (bfs) or deeper (dfs).", "bfs", "bfs", "dfs"),
				boolean("full", "Whole subgraph with edges."),
				integer("token_budget", "Approximate output tokens.", d.tokenBudget, 1, -1),
				strArray("context_filter", "File path substrings to keep."),
				str("since", "Boost nodes changed since a git ref, date or auto."),
				enumStr("recency_mode", "With since: seed also starts from changed nodes.", "boost", "boost", "seed"),
			),
			OutputSchema: querySchema,
			Run:          c.run(c.queryGraph),
		},
		{
			Name:         "get_node",
			Description:  "A node's metadata: id, file, kind, community, degree, LOC, doc.",
			InputSchema:  object(labelProp(nameHelp)),
			OutputSchema: nodeSchema,
			Run:          c.run(c.getNode),
		},
		{
			Name:        "get_source",
			Description: "Source of a symbol or file range (the only tool returning file contents).",
			InputSchema: object(
				str("label", "Symbol; omit with file."),
				str("file", "Repo-relative file."),
				str("lines", "With file: \"108-140\" or \"108\"."),
				integer("context_lines", "Lines, 1..400.", d.contextLines, -1, -1),
			),
			Run: c.run(c.getSource),
		},
		{
			Name:        "get_neighbors",
			Description: "A node's neighbours with direction and relation.",
			InputSchema: object(
				labelProp(nameHelp),
				str("relation_filter", "Relation substring."),
				sitesProp, limitProp, verboseProp,
			),
			OutputSchema: neighborsSchema,
			Run:          c.run(c.getNeighbors),
		},
		{
			Name:        "get_community",
			Description: "A community's members, a page at a time.",
			InputSchema: object(
				integer("community_id", "Community id (0 = largest).", -1, 0, -1).required(),
				integer("offset", "Members to skip.", 0, 0, -1),
				integer("limit", "Page size.", d.community, 1, -1),
			),
			Run: c.run(c.getCommunity),
		},
		{
			Name:        "god_nodes",
			Description: "The most-connected nodes with their test counts (for blast radius use affected).",
			InputSchema: object(
				integer("top_n", "How many, at most 200.", d.topN, 1, -1),
				integer("offset", "Hubs to skip.", 0, 0, -1),
			),
			OutputSchema: godSchema,
			Run:          c.run(c.godNodes),
		},
		{
			Name:         "graph_stats",
			Description:  "Node, edge, community, confidence, cross-language/repo and dynamic-site counts.",
			InputSchema:  object(),
			OutputSchema: statsSchema,
			Run:          c.run(c.graphStats),
		},
		{
			Name:         "list_repos",
			Description:  "Federated members with node/edge counts.",
			InputSchema:  object(),
			OutputSchema: reposSchema,
			Run:          c.run(c.listRepos),
		},
		{
			Name:        "repo_stats",
			Description: "Counts for one federated member.",
			InputSchema: object(str("repo", "Repo tag (see list_repos).").required()),
			Run:         c.run(c.repoStats),
		},
		{
			Name:        "shortest_path",
			Description: "Shortest connection between two nodes, undirected unless directed=true.",
			InputSchema: object(
				str("source", "Start node.").required(),
				str("target", "End node.").required(),
				integer("max_hops", "Hop limit.", 8, 1, -1),
				boolean("directed", "Forward edges only (a call chain)."),
			),
			Run: c.run(c.shortestPath),
		},
		{
			Name:        "affected",
			Description: "Blast radius: what transitively depends on a symbol (a class folds in its members).",
			InputSchema: object(
				labelProp(nameHelp),
				depthProp,
				strArray("relations", "Relations to follow; default the impact set."),
				limitProp, verboseProp,
			),
			OutputSchema: affectedSchema,
			Run:          c.run(c.affected),
		},
		{
			Name:        "find_callers",
			Description: "Who calls or uses a symbol; a class folds in its members.",
			InputSchema: object(labelProp(nameHelp), limitProp, verboseProp, sitesProp),
			Run:         c.run(c.finder(callersMode)),
		},
		{
			Name:        "find_callees",
			Description: "What a symbol calls or uses; a class folds in its members.",
			InputSchema: object(labelProp(nameHelp), limitProp, verboseProp, sitesProp),
			Run:         c.run(c.finder(calleesMode)),
		},
		{
			Name:        "find_references",
			Description: "Every use of a symbol: calls, imports, inheritance, type uses.",
			InputSchema: object(labelProp(nameHelp), limitProp, verboseProp, sitesProp),
			Run:         c.run(c.finder(referencesMode)),
		},
		{
			Name:         "describe_node",
			Description:  "\"Takes X, returns Y, calls Z\" for a symbol (graph only).",
			InputSchema:  object(labelProp(nameHelp)),
			OutputSchema: describeSchema,
			Run:          c.run(c.describeNode),
		},
	}
	tools = append(tools, c.searchTools()...)
	tools = append(tools, c.ruleTools()...)
	tools = append(tools, c.changeTools()...)
	tools = append(tools, c.speculateTool()...)
	// Tools that set no annotations are read-only and closed-world; the
	// ones that shell out or run commands carry their own.
	for i := range tools {
		if tools[i].Annotations == (Annotations{}) {
			tools[i].Annotations = readOnly
		}
	}
	return tools
}

// Output schemas. Optional members are listed in properties but not in
// required, so the same schema covers the found and not-found shapes.
var (
	// candidatesSchema is the disambiguation list of an unresolved name:
	// its rows are documented in the text answer, so only the shape is
	// declared here, keeping tools/list small.
	candidatesSchema = objects

	// statsSchema: every member is required and every member is an
	// integer, which additionalProperties says once instead of per member.
	statsSchema = mustJSON(map[string]any{"type": "object", "additionalProperties": typ("integer"), "required": []string{
		"nodes", "edges", "communities", "extracted", "inferred", "ambiguous", "cross_repo", "cross_language",
		"dynamic_sites", "dynamic_sites_opaque", "dynamic_refs_linked"}})

	nodeSchema = outSchema(map[string]any{
		"found": typ("boolean"), "id": typ("string"), "label": typ("string"), "source_file": typ("string"),
		"file_type": typ("string"), "degree": typ("integer"), "community": typ("integer"), "kind": typ("string"),
		"visibility": typ("string"), "loc": typ("integer"), "doc": typ("string"), "ambiguous": typ("boolean"), "candidates": candidatesSchema,
		"dynamic_caveat": caveatSchema,
	}, "found")

	godSchema = outSchema(map[string]any{
		"god_nodes": arrayOf(map[string]any{"label": typ("string"), "degree": typ("integer"), "id": typ("string"), "test_count": typ("integer")}),
	}, "god_nodes")

	affectedSchema = outSchema(map[string]any{
		"seed": typ("string"), "seed_qualified": typ("string"), "resolved": typ("boolean"),
		"affected": arrayOf(map[string]any{"label": typ("string"), "qualified": typ("string"), "depth": typ("integer"), "via_relation": typ("string")}),
		"total":    typ("integer"), "truncated": typ("boolean"),
		"by_depth":                map[string]any{"type": "object", "additionalProperties": typ("integer")},
		"aggregated_over_members": typ("integer"),
		"found":                   typ("boolean"), "ambiguous": typ("boolean"), "candidates": candidatesSchema,
		"dynamic_caveat": caveatSchema,
	}, "resolved")

	describeSchema = outSchema(map[string]any{
		"found": typ("boolean"), "id": typ("string"), "label": typ("string"), "kind": typ("string"),
		"summary": typ("string"), "doc": typ("string"), "callees": stringList,
		"signature": map[string]any{"type": []string{"string", "null"}},
		"members":   stringList, "member_count": typ("integer"),
		"ambiguous": typ("boolean"), "candidates": candidatesSchema,
		"dynamic_caveat": caveatSchema,
	}, "found")

	neighborsSchema = outSchema(map[string]any{
		"seed": typ("string"), "seed_qualified": typ("string"),
		"neighbors":   arrayOf(map[string]any{"label": typ("string"), "qualified": typ("string"), "relation": typ("string"), "direction": typ("string")}),
		"by_relation": map[string]any{"type": "object", "additionalProperties": typ("integer")},
		"total":       typ("integer"), "truncated": typ("boolean"),
	}, "seed", "neighbors", "by_relation", "total", "truncated")

	reposSchema = outSchema(map[string]any{
		"repos": arrayOf(map[string]any{"repo": typ("string"), "nodes": typ("integer"), "edges": typ("integer"), "source_hash": typ("string")}),
	}, "repos")

	querySchema = outSchema(map[string]any{
		"nodes": arrayOf(map[string]any{"label": typ("string"), "qualified": typ("string"), "file_type": typ("string"),
			"source_file": typ("string"), "score": typ("number"), "changed": typ("boolean")}),
		"edges": arrayOf(map[string]any{"source": typ("string"), "relation": typ("string"), "target": typ("string")}),
	}, "nodes", "edges")
)

func typ(t string) map[string]any { return map[string]any{"type": t} }

// objects and stringList are the shapes of secondary arrays whose rows
// the outputSchema declares only by type.
var (
	objects    = map[string]any{"type": "array", "items": typ("object")}
	stringList = map[string]any{"type": "array", "items": typ("string")}
)

func arrayOf(props map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": props}}
}

func outSchema(props map[string]any, required ...string) json.RawMessage {
	return mustJSON(map[string]any{"type": "object", "properties": props, "required": required})
}
