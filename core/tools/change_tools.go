package tools

// openWorld is the annotation set of the read-only tools that shell out
// (git, gh): the answer depends on the world outside the graph.
var openWorld = Annotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: true}

// changeTools are the change-aware tools: working changes, forecasts, test
// selection and edit plans. Each carries its own annotations.
func (c *Catalog) changeTools() []Tool {
	filesProp := strArray("files", "Repo-relative changed files. Omit to use the working-tree diff (committed on this branch, uncommitted and untracked) against base.")
	baseProp := str("base", "Base branch or revision to diff against when files is omitted. Default: the detected default branch (origin/HEAD, then main/master, then the first commit); the answer names the base it used.")
	depthProp := integer("depth", "Reverse-impact hop bound, clamped to 1..16.", 3, -1, -1)
	return []Tool{
		{
			Name:  "working_changes_impact",
			Title: "Working changes impact",
			Description: "Blast radius of the branch's git changes vs a base. " +
				"The diff runs from the merge base (committed, uncommitted and untracked): which files, graph nodes and communities it touches. A hunk inside a function touches that function, not the whole file. Uses git only.",
			InputSchema: object(
				str("base", "Base branch to diff against; default: the detected default branch."),
				boolean("verbose", "Also list the top touched nodes (by connectivity) and the touched communities with labels."),
				integer("limit", "Max touched nodes listed when verbose.", 20, 1, -1),
				boolean("code_only", "Count and list only code nodes, leaving out docs, manifests and lockfiles."),
			),
			Annotations: openWorld,
			Run:         c.run(c.workingChangesImpact),
		},
		{
			Name:  "predict_impact",
			Title: "Predict impact",
			Description: "Forecast a change: dependents, APIs and tests at risk, risk score. " +
				"The changed nodes, the reverse-impact blast radius, the public APIs at risk " +
				"(dependents in other files or modules), the tests at risk, a low/medium/high change-risk score with its drivers, and a verify checklist. " +
				"structuredContent carries the full ChangeForecast.",
			InputSchema: object(filesProp, baseProp, depthProp,
				integer("limit", "Max rows per section in the text (structuredContent is never truncated).", 20, 1, -1),
				boolean("verbose", "List every row in the text.")),
			OutputSchema: forecastSchema,
			Annotations:  openWorld,
			Run:          c.run(c.predictImpact),
		},
		{
			Name:  "affected_tests",
			Title: "Affected tests",
			Description: "The tests to run for a change. " +
				"Predictive test selection: the tests that reach the change through the reverse-impact walk, with hop, relation, label and file. " +
				"Tests are found by each language's markers (Go TestX in _test.go, pytest test_*, JUnit @Test, Rust #[test]) and by path " +
				"(test/tests/__tests__/testing directories, test_*, *_test, *_spec, *.test.*, *.spec.*, *Test, conftest; a bare spec/ is not a test tree). " +
				"A changed symbol no test reaches statically (interface calls, function values) widens to its type's members, then its file; those tests say \"fallback\".",
			InputSchema:  object(filesProp, baseProp, depthProp),
			OutputSchema: testsSchema,
			Annotations:  openWorld,
			Run:          c.run(c.affectedTests),
		},
		{
			Name:  "predict_edit",
			Title: "Predict edit",
			Description: "What a delete, signature or visibility edit of a symbol breaks. " +
				"What breaks if you make one kind of edit to a symbol, split into \"will break\" and \"to review\" with totals and a by-depth rollup: " +
				"delete (every dependent breaks), signature (callers and type users break; bare imports go to review), " +
				"visibility (uses from other files, other packages in Go, break when narrowing). Pure in-memory graph query.",
			InputSchema: object(
				str("symbol", "The symbol to edit (name, bare name, node id, or name@file).").required(),
				str("kind", "delete, signature or visibility.").required(),
				depthProp,
				integer("limit", "Max entries per section before a +N more summary. Ignored when verbose.", 20, 1, -1),
				boolean("verbose", "List every dependent."),
			),
			Annotations: readOnly,
			Run:         c.run(c.predictEdit),
		},
		{
			Name:  "plan_rename",
			Title: "Plan rename",
			Description: "A rename plan; never edits. A confidence-scored rename plan an agent can apply. Exact edit sites (file:line:col, old -> new, reason, confidence) " +
				"from the definition, call sites, references, imports and re-exports, plus lower-confidence Review sites (strings, comments, " +
				"unlinked text matches, same-named symbols). Never edits source; after applying, run synaptic refactor verify.",
			InputSchema: object(
				str("name", "The symbol to rename (its name, or a node id).").required(),
				str("to", "The new name.").required(),
				str("id", "Disambiguate by node id when the name matches several definitions."),
				str("file", "Disambiguate by a file-path substring."),
				integer("limit", "Max sites listed per section (Edits, Review) before a +N more summary. Ignored when verbose is true.", 50, 1, -1),
				boolean("verbose", "List every edit/review site."),
			),
			Annotations: readOnly,
			Run:         c.run(c.planRename),
		},
		{
			Name:  "time_travel_diff",
			Title: "Time travel diff",
			Description: "How the graph changed between two revisions. " +
				"Added/removed module dependencies, removed APIs, " +
				"architectural drift (communities, cross-community edges), new dependency cycles and change hotspots. Each revision is built " +
				"in a throwaway git worktree (always removed) and its graph cached per commit SHA under the user cache dir, so a second call is fast.",
			InputSchema: object(
				str("rev1", "The base revision (HEAD~10, a branch, a tag, a SHA).").required(),
				str("rev2", "The target revision. Default: the working tree (the served graph)."),
				integer("top", "Max rows per ranked section.", 20, 1, -1),
			),
			Annotations: openWorld,
			Run:         c.run(c.timeTravelDiff),
		},
		{
			Name:        "list_prs",
			Title:       "List PRs",
			Description: "Open PRs with CI and review state (gh). Targets the base branch, through the gh CLI. Without gh (or logged out) it says so and only the PR tools are affected.",
			InputSchema: object(
				str("base", "Base branch; default: the repository's detected default branch."),
				str("repo", "Target repo owner/name; default: the current directory's repo."),
			),
			Annotations: openWorld,
			Run:         c.run(c.listPRs),
		},
		{
			Name:        "get_pr_impact",
			Title:       "PR impact",
			Description: "One PR and its blast radius (gh). One PR's detail plus its graph blast radius (communities, nodes and tests touched), mapped from the PR's diff. Requires gh.",
			InputSchema: object(
				integer("pr_number", "The PR number.", -1, 1, -1).required(),
				str("repo", "Target repo owner/name; default: the current directory's repo."),
			),
			Annotations: openWorld,
			Run:         c.run(c.getPRImpact),
		},
		{
			Name:  "triage_prs",
			Title: "Triage PRs",
			Description: "Open PRs ranked for triage (gh). Actionable PRs ranked by status with blast radius, as JSON data with an instruction for the calling model to prioritise " +
				"(no LLM call is made here). Fetches each PR's changed files concurrently. Requires gh.",
			InputSchema: object(
				str("base", "Base branch; default: the detected default branch."),
				str("repo", "Target repo owner/name; default: the current directory's repo."),
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
		"summary": typ("string"),
		"changed_files": arrayOf(map[string]any{"path": typ("string"), "old_path": typ("string"), "status": typ("string"),
			"binary": typ("boolean"), "lines": typ("integer"), "in_graph": typ("boolean"), "nodes": typ("integer")}),
		"changed_nodes": arrayOf(map[string]any{"id": typ("string"), "label": typ("string"), "kind": typ("string"), "file": typ("string"), "line": typ("integer")}),
		"public_api_breaks": arrayOf(map[string]any{"id": typ("string"), "label": typ("string"), "file": typ("string"), "visibility": typ("string"),
			"dependents_other_files": typ("integer"), "dependents_other_modules": typ("integer"),
			"sample_dependents": map[string]any{"type": "array", "items": typ("string")}}),
		"blast_radius":       testRowSchema,
		"blast_radius_total": typ("integer"),
		"at_risk_tests":      testRowSchema,
		"verify_checklist":   map[string]any{"type": "array", "items": typ("string")},
		"risk": map[string]any{"type": "object", "properties": map[string]any{
			"score": typ("number"), "level": map[string]any{"type": "string", "enum": []string{"low", "medium", "high"}},
			"drivers": arrayOf(map[string]any{"name": typ("string"), "value": typ("integer"), "cap": typ("integer"),
				"weight": typ("number"), "contribution": typ("number")}),
		}},
	}, "summary", "changed_files", "changed_nodes", "public_api_breaks", "blast_radius", "blast_radius_total", "at_risk_tests", "verify_checklist", "risk")
)
