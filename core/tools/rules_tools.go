package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// The rule-pack tools: audit_sql, advise_sql and readiness_audit. The
// packs run behind Options.Rules (plugins/rulehost in the binary), so a
// team's own pack in a plugin folder shows up here without a rebuild.

// severityValues are the severity argument's values, most severe first.
var severityValues = func() []string {
	out := make([]string, len(abi.Severities))
	for i, s := range abi.Severities {
		out[i] = string(s)
	}
	return out
}()

// Readiness profiles.
const (
	profileAuto    = "auto"
	profileGeneric = "generic"
)

var (
	findingProps = map[string]any{
		"rule_id": typ("string"), "severity": typ("string"), "category": typ("string"), "subsystem": typ("string"),
		"title": typ("string"), "detail": typ("string"), "location": typ("string"), "node_ids": stringList,
		"evidence": typ("string"), "remediation": typ("string"), "confidence": typ("number"), "impact": typ("integer"),
	}
	// sqlFindingProps are the members the spec lists for SQL findings;
	// the rest are declared by readiness_audit, where they matter.
	sqlFindingProps = map[string]any{
		"rule_id": typ("string"), "severity": typ("string"), "category": typ("string"), "title": typ("string"),
		"detail": typ("string"), "location": typ("string"), "remediation": typ("string"), "confidence": typ("number"),
	}
	packsProp   = objects
	auditSchema = outSchema(map[string]any{
		"version": typ("integer"), "summary": typ("string"), "findings": arrayOf(sqlFindingProps),
		"total": typ("integer"), "packs": packsProp, "partial": typ("boolean"),
	}, "version", "summary", "findings")
	readinessSchema = outSchema(map[string]any{
		"version": typ("integer"), "profile": typ("string"), "summary": typ("string"), "counts_by_severity": typ("object"),
		"groups":   objects,
		"findings": arrayOf(findingProps), "total": typ("integer"), "skipped": stringList,
		"packs": packsProp, "partial": typ("boolean"),
	}, "version", "summary", "counts_by_severity", "groups", "findings", "skipped")
)

// ruleTools returns the rule-pack tools.
func (c *Catalog) ruleTools() []Tool {
	severity := enumStr("severity", "Minimum severity.", "", severityValues...)
	limit := integer("limit", "Max listed.", 20, 1, -1)
	tools := []Tool{
		{
			Name:        "readiness_audit",
			Description: "Port/readiness blockers found without a build: stubs, sentinels, generated noise.",
			InputSchema: object(
				str("profile", "auto (default) or generic."),
				str("repo", "Federated member tag."),
				severity, limit,
				boolean("verbose", "List all, with detail."),
			),
			OutputSchema: readinessSchema,
			Run:          c.run(c.readinessAudit),
		},
		{
			Name:        "audit_sql",
			Description: "Audit the SQL: RLS gaps, grants, injection, missing indexes and keys, SELECT *, non-sargable, N+1.",
			InputSchema: object(severity, limit,
				boolean("verbose", "List all, with detail.")),
			OutputSchema: auditSchema,
			Run:          c.run(c.auditSQL),
		},
		{
			Name:        "advise_sql",
			Description: "Critique one query before writing it: audit checks plus its tables' existence, RLS and indexes.",
			InputSchema: object(
				str("query", "The SQL to critique.").required(),
				enumStr("dialect", "Dialect hint.", "", "postgres", "mysql", "mssql", "sqlite"),
			),
			OutputSchema: auditSchema,
			Run:          c.run(c.adviseSQL),
		},
	}
	for i := range tools {
		tools[i].Annotations = readOnly
	}
	return tools
}

type auditArgs struct {
	Severity string `json:"severity"`
	Limit    *int   `json:"limit"`
	Verbose  bool   `json:"verbose"`
	Profile  string `json:"profile"`
	Repo     string `json:"repo"`
	Query    string `json:"query"`
	Dialect  string `json:"dialect"`
}

func (a *auditArgs) limit() int {
	if a.Limit == nil {
		return 20
	}
	return *a.Limit
}

// noRules is the answer when the binary was started without a rule runtime.
func noRules() Result {
	return errorf("No rule packs are loaded in this server: build them with 'make plugins' (bin/plugins/sql, bin/plugins/readiness) or add a pack folder to --plugins / $SYNAPTIC_PLUGINS / <repo>/.synaptic/plugins.")
}

// noPack says an audit had no pack to run.
func noPack(t findings.Target) Result {
	return errorf("No rule pack joins the %s audit: a pack declares targets = [%q] in its plugin.toml; 'synaptic rules list' shows the loaded packs.", t, t)
}

func (c *Catalog) auditSQL(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a auditArgs
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	if c.opts.Rules == nil {
		return noRules()
	}
	var src findings.Source
	if c.opts.SourceRoot != "" {
		src = jailSource{root: c.opts.SourceRoot}
	}
	in := findings.AuditInput(s.x, src, false)
	o := c.opts.Rules.RunRules(ctx, findings.TargetSQL, in)
	if len(o.Packs) == 0 {
		return noPack(findings.TargetSQL)
	}
	what := fmt.Sprintf("%d table(s), %d view(s), %d policy(ies), %d grant(s), %d statement(s)",
		len(in.Schema.Tables), len(in.Schema.Views), len(in.Schema.Policies), len(in.Schema.Grants), len(in.Schema.Statements))
	if len(in.Schema.Tables)+len(in.Schema.Statements) == 0 {
		what += " (the graph holds no SQL: extract a repository with .sql files)"
	}
	return auditResult(s.x, findings.NewAuditReport("SQL audit", o, what), &a)
}

func (c *Catalog) adviseSQL(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a auditArgs
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	if strings.TrimSpace(a.Query) == "" {
		return errorf("query is empty: pass the SQL to critique, e.g. query=\"SELECT * FROM orders WHERE lower(email) = $1\"")
	}
	if len(a.Query) > 1<<20 {
		return errorf("query has %d bytes; advise_sql takes one statement of at most 1 MiB", len(a.Query))
	}
	if c.opts.Rules == nil {
		return noRules()
	}
	in := findings.AdviseInput(s.x, a.Query, a.Dialect)
	o := c.opts.Rules.RunRules(ctx, findings.TargetSQL, in)
	if len(o.Packs) == 0 {
		return noPack(findings.TargetSQL)
	}
	what := fmt.Sprintf("one query naming %d known table(s)", len(in.Schema.Tables))
	a.Verbose = true
	return auditResult(s.x, findings.NewAuditReport("SQL advice", o, what), &a)
}

func auditResult(x *graph.Index, r *findings.AuditReport, a *auditArgs) Result {
	findings.AddImpact(x, r.Findings)
	r.Findings = cleanFindings(findings.AtLeast(r.Findings, abi.Severity(a.Severity)))
	r.Total = len(r.Findings)
	var b strings.Builder
	b.WriteString(sanitize(r.Summary))
	if a.Severity != "" {
		fmt.Fprintf(&b, "; %d at %s or above", len(r.Findings), a.Severity)
	}
	b.WriteString("\n")
	findings.PackLines(&b, r.Packs, sanitize)
	findings.Text(&b, r.Findings, a.limit(), a.Verbose, sanitize)
	return Result{Text: b.String(), Structured: r}
}

func (c *Catalog) readinessAudit(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a auditArgs
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	profile := a.Profile
	switch profile {
	case "", profileAuto:
		profile = profileAuto
	case profileGeneric:
	default:
		return errorf("Unknown profile %q: use auto or generic.", a.Profile)
	}
	if a.Repo != "" && !slices.ContainsFunc(s.repos, func(r repoCount) bool { return r.Repo == a.Repo }) {
		return errorf("No repo %q in this graph (list_repos shows the tags; a single-repo graph has none).", a.Repo)
	}
	if c.opts.Rules == nil {
		return noRules()
	}
	var src findings.Source
	if c.opts.SourceRoot != "" {
		src = jailSource{root: c.opts.SourceRoot}
	}
	in, skipped := findings.ReadinessInput(s.x, src, profile)
	if a.Repo != "" {
		in.Nodes = slices.DeleteFunc(in.Nodes, func(n abi.CodeNode) bool { return s.x.Node(s.x.ID(n.ID)).Repo != a.Repo })
		keep := map[string]bool{}
		for _, n := range in.Nodes {
			keep[n.File] = true
		}
		in.Snippets = slices.DeleteFunc(in.Snippets, func(sn abi.Snippet) bool { return !keep[sn.File] })
	}
	o := c.opts.Rules.RunRules(ctx, findings.TargetReadiness, in)
	if len(o.Packs) == 0 {
		return noPack(findings.TargetReadiness)
	}
	r := findings.NewReadinessReport(profile, o, skipped)
	findings.AddImpact(s.x, r.Findings)
	r.Findings = cleanFindings(findings.AtLeast(r.Findings, abi.Severity(a.Severity)))
	r.Total = len(r.Findings)
	var b strings.Builder
	b.WriteString(sanitize(r.Summary))
	b.WriteString("\n")
	for _, g := range r.Groups {
		fmt.Fprintf(&b, "  %s: %d\n", sanitize(g.Subsystem), g.Count)
	}
	for _, sk := range r.Skipped {
		fmt.Fprintf(&b, "skipped: %s\n", sanitize(sk))
	}
	findings.PackLines(&b, r.Packs, sanitize)
	findings.Text(&b, r.Findings, a.limit(), a.Verbose, sanitize)
	return Result{Text: b.String(), Structured: r}
}

// cleanFindings sanitises every string a pack wrote before it reaches a
// client: a pack is untrusted code.
func cleanFindings(fs []findings.Finding) []findings.Finding {
	for i := range fs {
		f := &fs[i]
		for _, p := range []*string{&f.RuleID, &f.Category, &f.Subsystem, &f.Title, &f.Detail, &f.Location, &f.Evidence, &f.Remediation} {
			*p = sanitize(*p)
		}
		for j := range f.NodeIDs {
			f.NodeIDs[j] = sanitize(f.NodeIDs[j])
		}
	}
	if fs == nil {
		fs = []findings.Finding{}
	}
	return fs
}

// jailSource reads the repository through the get_source jail.
type jailSource struct{ root string }

func (j jailSource) ReadFile(rel string) ([]byte, error) { return readJailed(j.root, rel) }

// noiseDirs are never listed for project metadata.
var noiseDirs = map[string]bool{".git": true, "node_modules": true, "vendor": true, ".venv": true, "venv": true, "target": true,
	"dist": true, "build": true, "__pycache__": true, "synaptic-out": true, ".hg": true, ".svn": true}

func (j jailSource) Files(depth, max int) []string {
	var out []string
	var walk func(dir string, d int)
	walk = func(dir string, d int) {
		entries, err := os.ReadDir(filepath.Join(j.root, filepath.FromSlash(dir)))
		if err != nil {
			return
		}
		for _, e := range entries {
			if len(out) >= max {
				return
			}
			rel := path.Join(dir, e.Name())
			if e.IsDir() {
				if noiseDirs[e.Name()] {
					continue
				}
				out = append(out, rel+"/")
				if d < depth {
					walk(rel, d+1)
				}
				continue
			}
			if e.Type().IsRegular() || e.Type()&os.ModeSymlink != 0 {
				out = append(out, rel)
			}
		}
	}
	walk("", 0)
	for i, f := range out {
		out[i] = strings.TrimPrefix(f, "/")
	}
	return out
}
