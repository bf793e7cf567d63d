package tools

import "encoding/json"

// readOnly is the annotation set of the graph-only tools: read-only,
// non-destructive, idempotent, and closed-world (they do not shell out).
var readOnly = Annotations{ReadOnlyHint: true, IdempotentHint: true}

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
	limitProp := func(what string) prop {
		return integer("limit", "Max "+what+" listed before a +N more summary. Ignored when verbose is true.", d.limit, 1, -1)
	}
	verboseProp := func(what string) prop {
		return boolean("verbose", "List every "+what+" instead of the capped top-N.")
	}
	sitesProp := func(what string) prop {
		return boolean("show_sites", "Under each "+what+", print the source line of every call/reference site (at file:line: <code>), read from the source-root jail.")
	}
	tools := []Tool{
		{
			Name:  "query_graph",
			Title: "Synaptic: Query This Codebase (Start Here)",
			Description: "Primary entry point. Retrieve the subgraph most relevant to a natural-language question: " +
				"nodes ranked by relevance (label matches weighted by IDF, expanded best-first through their neighbours). " +
				"Terse by default (top nodes only); full=true adds every budget-bounded node and the edges between them.",
			InputSchema: object(
				str("question", "The natural-language question or symbol name.").required(),
				enumStr("mode", "Traversal mode. Both expand best-first by relevance; bfs breaks ties toward shallower nodes, dfs deeper ones.", "bfs", "bfs", "dfs"),
				boolean("full", "Return the whole budget-bounded subgraph with EDGE lines instead of the terse top-N node list."),
				integer("token_budget", "Approximate output token budget; maps to a node cap of about budget/40 (10..400).", d.tokenBudget, 1, -1),
				strArray("context_filter", "Keep only nodes whose source file path contains one of these substrings."),
				str("since", "Recency boost: nodes whose file changed since this baseline rank higher. A git ref (main, HEAD~10), a date (\"2 weeks ago\"), or auto for the default branch; scope is merge-base..working tree, uncommitted edits included. Silently ignored outside git."),
				enumStr("recency_mode", "Only with since: boost re-ranks matches by recency; seed also injects changed nodes as seeds (\"what did this branch change\").", "boost", "boost", "seed"),
			),
			OutputSchema: querySchema,
			Run:          c.run(c.queryGraph),
		},
		{
			Name:         "get_node",
			Title:        "Get node",
			Description:  "Show a node's metadata and degree: label, id, source file, type, community, degree, plus kind, visibility, LOC and the doc comment's first sentence when recorded.",
			InputSchema:  object(labelProp("A label, bare name, node id, source file or label@file qualifier.")),
			OutputSchema: nodeSchema,
			Run:          c.run(c.getNode),
		},
		{
			Name:  "get_source",
			Title: "Get source",
			Description: "Return the actual source lines of a symbol (or of a file range), read under the --source-root jail. " +
				"The only tool that returns raw file contents.",
			InputSchema: object(
				str("label", "Resolves to a node. Omit when reading by file."),
				str("file", "Read this repo-relative file directly instead of resolving a symbol."),
				str("lines", "With file: the range to read, \"108-140\", or \"108\" (reads context_lines from there). Ignored without file."),
				integer("context_lines", "How many lines to return from the symbol's/line's start, clamped to 1..400.", d.contextLines, -1, -1),
			),
			Run: c.run(c.getSource),
		},
		{
			Name:        "get_neighbors",
			Title:       "Get neighbors",
			Description: "List a node's neighbours with a direction marker and the relation, optionally filtered by relation.",
			InputSchema: object(
				labelProp("The node (label, bare name, id, file, or label@file)."),
				str("relation_filter", "Case-insensitive substring; keep only neighbours whose relation contains it."),
				sitesProp("neighbour"),
				limitProp("neighbours"),
				verboseProp("neighbour"),
			),
			OutputSchema: neighborsSchema,
			Run:          c.run(c.getNeighbors),
		},
		{
			Name:        "get_community",
			Title:       "Get community",
			Description: "List the members of a community (label and source file), one page at a time.",
			InputSchema: object(
				integer("community_id", "The community id (0 = largest).", -1, 0, -1).required(),
				integer("offset", "Members to skip before the page.", 0, 0, -1),
				integer("limit", "Maximum members in this page.", d.community, 1, -1),
			),
			Run: c.run(c.getCommunity),
		},
		{
			Name:  "god_nodes",
			Title: "God nodes",
			Description: "The most-connected nodes (highest degree, every edge kind) with how many tests transitively exercise each. " +
				"Degree measures structural size, not incoming dependence: use affected for blast radius.",
			InputSchema: object(
				integer("top_n", "How many to return; capped at 200 per page (page further with offset).", d.topN, 1, -1),
				integer("offset", "Hubs to skip before the page; the numbering keeps the absolute rank.", 0, 0, -1),
			),
			OutputSchema: godSchema,
			Run:          c.run(c.godNodes),
		},
		{
			Name:         "graph_stats",
			Title:        "Graph stats",
			Description:  "Node, edge and community counts plus the edge-confidence breakdown, cross-language, cross-repo and dynamic-dispatch counts.",
			InputSchema:  object(),
			OutputSchema: statsSchema,
			Run:          c.run(c.graphStats),
		},
		{
			Name:         "list_repos",
			Title:        "List repos",
			Description:  "Federated workspace members (repo tags) with node/edge counts; edges count under their source node's repo.",
			InputSchema:  object(),
			OutputSchema: reposSchema,
			Run:          c.run(c.listRepos),
		},
		{
			Name:        "repo_stats",
			Title:       "Repo stats",
			Description: "Node and edge counts for one federated member.",
			InputSchema: object(str("repo", "The repo tag (see list_repos).").required()),
			Run:         c.run(c.repoStats),
		},
		{
			Name:  "shortest_path",
			Title: "Shortest path",
			Description: "Shortest connection between two nodes, undirected by default. Each node is a copy-ready label@file identity; " +
				"arrows keep the stored edge direction, so a backward arrow means \"connected through\", not a call chain. directed=true asks for a forward chain.",
			InputSchema: object(
				str("source", "Start node.").required(),
				str("target", "End node.").required(),
				integer("max_hops", "Hop limit.", 8, 1, -1),
				boolean("directed", "Follow edges forward only (calls, imports, references; not containment), giving a call chain from source to target; falls back to the undirected path, saying so, when there is none."),
			),
			Run: c.run(c.shortestPath),
		},
		{
			Name:  "affected",
			Title: "Affected (reverse impact)",
			Description: "The nodes that transitively depend on a symbol (the blast radius of changing it), walking impact edges backward. " +
				"A class/type folds in its members, since callers attach to methods.",
			InputSchema: object(
				labelProp("The symbol to start from."),
				integer("depth", "Maximum hops to walk backward, clamped to 1..16.", 3, -1, -1),
				strArray("relations", "Edge relations to follow. Default: the structural-impact set plus cross-language relations."),
				limitProp("dependents"),
				verboseProp("dependent"),
			),
			OutputSchema: affectedSchema,
			Run:          c.run(c.affected),
		},
		{
			Name:        "find_callers",
			Title:       "Find callers",
			Description: "Who calls, uses or references this symbol (incoming call-like edges). A class folds in its members' external callers.",
			InputSchema: object(labelProp("The symbol."), limitProp("callers"), verboseProp("caller"), sitesProp("caller")),
			Run:         c.run(c.finder(callersMode)),
		},
		{
			Name:        "find_callees",
			Title:       "Find callees",
			Description: "What this symbol calls, uses or references (outgoing call-like edges). A class folds in its members' callees.",
			InputSchema: object(labelProp("The symbol."), limitProp("callees"), verboseProp("callee"), sitesProp("callee")),
			Run:         c.run(c.finder(calleesMode)),
		},
		{
			Name:  "find_references",
			Title: "Find references",
			Description: "Every place a symbol is used: all incoming edges except structural ownership (contains/method/defines/has_*), " +
				"so imports, inheritance and type uses count. No member folding.",
			InputSchema: object(labelProp("The symbol."), limitProp("references"), verboseProp("reference"), sitesProp("reference")),
			Run:         c.run(c.finder(referencesMode)),
		},
		{
			Name:         "describe_node",
			Title:        "Describe node",
			Description:  "A compact \"takes X, returns Y, calls Z\" description composed from the captured signature, outgoing calls and the doc comment's first sentence (graph only, no source read).",
			InputSchema:  object(labelProp("The symbol (bare name, label, node id or source file).")),
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
	candidatesSchema = map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": map[string]any{
		"id": typ("string"), "label": typ("string"), "kind": typ("string"), "owner": typ("string"),
		"source_file": typ("string"), "line": typ("integer"), "degree": typ("integer"), "qualified": typ("string"),
	}}}

	statsSchema = outSchema(map[string]any{
		"nodes": typ("integer"), "edges": typ("integer"), "communities": typ("integer"),
		"extracted": typ("integer"), "inferred": typ("integer"), "ambiguous": typ("integer"),
		"cross_repo": typ("integer"), "cross_language": typ("integer"),
		"dynamic_sites": typ("integer"), "dynamic_sites_opaque": typ("integer"), "dynamic_refs_linked": typ("integer"),
	}, "nodes", "edges", "communities", "extracted", "inferred", "ambiguous", "cross_repo", "cross_language",
		"dynamic_sites", "dynamic_sites_opaque", "dynamic_refs_linked")

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
		"summary": typ("string"), "doc": typ("string"), "callees": map[string]any{"type": "array", "items": typ("string")},
		"signature": map[string]any{"type": []string{"string", "null"}},
		"members":   map[string]any{"type": "array", "items": typ("string")}, "member_count": typ("integer"),
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

func arrayOf(props map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": map[string]any{"type": "object", "properties": props}}
}

func outSchema(props map[string]any, required ...string) json.RawMessage {
	return mustJSON(map[string]any{"type": "object", "properties": props, "required": required})
}
