package tools

// baseHelp documents every base argument: the base is never guessed
// silently, the answer names it.
const baseHelp = "Git base; default the default branch."

// openWorld is the annotation set of the read-only tools that shell out
// (git, gh): the answer depends on the world outside the graph.
var openWorld = Annotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: true}

// changeTools are the change-aware tools: working changes, forecasts, test
// selection and edit plans. Each carries its own annotations.
func (c *Catalog) changeTools() []Tool {
	filesProp := strArray("files", "Changed files; default the diff vs base.")
	baseProp := str("base", baseHelp)
	depthProp := integer("depth", "Hops, 1..16.", 3, -1, -1)
	repoProp := str("repo", "owner/name; default the current repo.")
	return []Tool{
		{
			Name:        "working_changes_impact",
			Description: "Files, nodes and communities touched by the git changes since base (uncommitted, untracked too).",
			InputSchema: object(
				str("base", baseHelp),
				boolean("verbose", "Also list top nodes and communities."),
				integer("limit", "Max nodes listed.", 20, 1, -1),
				boolean("code_only", "Code nodes only."),
			),
			Annotations: openWorld,
			Run:         c.run(c.workingChangesImpact),
		},
		{
			Name:        "predict_impact",
			Description: "Forecast a change: blast radius, public APIs and tests at risk, risk score, verify checklist.",
			InputSchema: object(filesProp, baseProp, depthProp,
				integer("limit", "Max text rows per section.", 20, 1, -1),
				boolean("verbose", "List all.")),
			OutputSchema: forecastSchema,
			Annotations:  openWorld,
			Run:          c.run(c.predictImpact),
		},
		{
			Name:         "affected_tests",
			Description:  "The tests to run for a change, with hop, relation and file (\"fallback\": found by widening).",
			InputSchema:  object(filesProp, baseProp, depthProp),
			OutputSchema: testsSchema,
			Annotations:  openWorld,
			Run:          c.run(c.affectedTests),
		},
		{
			Name:        "predict_edit",
			Description: "What deleting a symbol or changing its signature or visibility breaks.",
			InputSchema: object(
				str("symbol", nameHelp).required(),
				str("kind", "delete, signature or visibility.").required(),
				depthProp,
				integer("limit", "Max per section.", 20, 1, -1),
				boolean("verbose", "List all."),
			),
			Annotations: readOnly,
			Run:         c.run(c.predictEdit),
		},
		{
			Name:        "plan_rename",
			Description: "A confidence-scored rename plan (never edits): exact file:line:col sites, plus sites to review.",
			InputSchema: object(
				str("name", "Symbol name or node id.").required(),
				str("to", "New name.").required(),
				str("id", "Node id, to disambiguate."),
				str("file", "File substring, to disambiguate."),
				integer("limit", "Max per section.", 50, 1, -1),
				boolean("verbose", "List all."),
			),
			Annotations: readOnly,
			Run:         c.run(c.planRename),
		},
		{
			Name:        "time_travel_diff",
			Description: "How the graph changed between two revisions: dependencies, removed APIs, drift, cycles, hotspots.",
			InputSchema: object(
				str("rev1", "Base revision.").required(),
				str("rev2", "Target revision; default the working tree."),
				integer("top", "Max rows per section.", 20, 1, -1),
			),
			Annotations: openWorld,
			Run:         c.run(c.timeTravelDiff),
		},
		{
			Name:        "list_prs",
			Description: "Open PRs into base with CI and review state. Requires gh.",
			InputSchema: object(
				str("base", baseHelp),
				repoProp,
			),
			Annotations: openWorld,
			Run:         c.run(c.listPRs),
		},
		{
			Name:        "get_pr_impact",
			Description: "One PR's detail and blast radius. Requires gh.",
			InputSchema: object(
				integer("pr_number", "PR number.", -1, 1, -1).required(),
				repoProp,
			),
			Annotations: openWorld,
			Run:         c.run(c.getPRImpact),
		},
		{
			Name:        "triage_prs",
			Description: "Open PRs ranked for triage with blast radius. Requires gh.",
			InputSchema: object(
				str("base", baseHelp),
				repoProp,
			),
			Annotations: openWorld,
			Run:         c.run(c.triagePRs),
		},
	}
}

var (
	testRowSchema = arrayOf(map[string]any{"id": typ("string"), "label": typ("string"), "file": typ("string"),
		"depth": typ("integer"), "via_relation": typ("string")})

	testsSchema = outSchema(map[string]any{"tests": testRowSchema, "total": typ("integer")}, "tests", "total")

	forecastSchema = outSchema(map[string]any{
		"summary":            typ("string"),
		"changed_files":      objects,
		"changed_nodes":      objects,
		"public_api_breaks":  objects,
		"blast_radius":       objects,
		"blast_radius_total": typ("integer"),
		"at_risk_tests":      objects,
		"verify_checklist":   stringList,
		"risk": map[string]any{"type": "object", "properties": map[string]any{
			"score": typ("number"), "level": map[string]any{"type": "string", "enum": []string{"low", "medium", "high"}},
			"drivers": objects,
		}},
	}, "summary", "changed_files", "changed_nodes", "public_api_breaks", "blast_radius", "blast_radius_total", "at_risk_tests", "verify_checklist", "risk")
)
