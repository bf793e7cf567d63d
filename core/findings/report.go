package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ReportVersion is the version of AuditReport and ReadinessReport.
const ReportVersion = 1

// AuditReport is audit_sql's and advise_sql's structured result.
type AuditReport struct {
	Version  int       `json:"version"`
	Summary  string    `json:"summary"`
	Findings []Finding `json:"findings"`
	Total    int       `json:"total"`   // findings before the limit
	Packs    []PackRun `json:"packs"`   // packs asked, with their errors
	Partial  bool      `json:"partial"` // a pack failed: findings may be missing
	Notes    []string  `json:"notes,omitempty"`
}

// Group is readiness findings of one subsystem.
type Group struct {
	Subsystem  string         `json:"subsystem"`
	Count      int            `json:"count"`
	BySeverity map[string]int `json:"by_severity"`
}

// ReadinessReport is readiness_audit's structured result.
type ReadinessReport struct {
	Version          int            `json:"version"`
	Profile          string         `json:"profile"`
	Summary          string         `json:"summary"`
	CountsBySeverity map[string]int `json:"counts_by_severity"`
	Groups           []Group        `json:"groups"`
	Findings         []Finding      `json:"findings"`
	Total            int            `json:"total"`
	Skipped          []string       `json:"skipped"` // checks not run, and why
	Packs            []PackRun      `json:"packs"`
	Partial          bool           `json:"partial"`
}

// Counts returns the findings per severity, every severity present.
func Counts(fs []Finding) map[string]int {
	m := map[string]int{}
	for _, s := range abi.Severities {
		m[string(s)] = 0
	}
	for _, f := range fs {
		m[string(f.Severity)]++
	}
	return m
}

// countLine renders "2 high, 1 low" (severities with findings only).
func countLine(c map[string]int) string {
	var parts []string
	for _, s := range abi.Severities {
		if n := c[string(s)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func partial(packs []PackRun) (bool, string) {
	var bad []string
	for _, p := range packs {
		if p.Error != "" {
			bad = append(bad, p.Name)
		}
	}
	if len(bad) == 0 {
		return false, ""
	}
	return true, fmt.Sprintf("; PARTIAL: pack %s failed (see packs)", strings.Join(bad, ", "))
}

// NewAuditReport ranks o's findings and summarises them; what describes
// the input ("12 tables, 40 statements").
func NewAuditReport(title string, o Outcome, what string) *AuditReport {
	fs := Rank(o.Findings)
	r := &AuditReport{Version: ReportVersion, Findings: fs, Total: len(fs), Packs: o.Packs}
	if r.Packs == nil {
		r.Packs = []PackRun{}
	}
	p, note := partial(o.Packs)
	r.Partial = p
	r.Summary = fmt.Sprintf("%s: %d finding(s) (%s) over %s%s", title, len(fs), countLine(Counts(fs)), what, note)
	return r
}

// NewReadinessReport ranks o's findings, groups them by subsystem and
// lists the skipped checks.
func NewReadinessReport(profile string, o Outcome, skipped []string) *ReadinessReport {
	fs := Rank(o.Findings)
	r := &ReadinessReport{Version: ReportVersion, Profile: profile, Findings: fs, Total: len(fs), CountsBySeverity: Counts(fs),
		Skipped: skipped, Packs: o.Packs}
	if r.Skipped == nil {
		r.Skipped = []string{}
	}
	if r.Packs == nil {
		r.Packs = []PackRun{}
	}
	groups := map[string]*Group{}
	for _, f := range fs {
		sub := cmp.Or(f.Subsystem, "(none)")
		g := groups[sub]
		if g == nil {
			g = &Group{Subsystem: sub, BySeverity: map[string]int{}}
			groups[sub] = g
		}
		g.Count++
		g.BySeverity[string(f.Severity)]++
	}
	for _, g := range groups {
		r.Groups = append(r.Groups, *g)
	}
	slices.SortFunc(r.Groups, func(a, b Group) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Subsystem, b.Subsystem))
	})
	if r.Groups == nil {
		r.Groups = []Group{}
	}
	p, note := partial(o.Packs)
	r.Partial = p
	r.Summary = fmt.Sprintf("Readiness audit (profile %s): %d finding(s) (%s) in %d subsystem(s)%s", profile, len(fs), countLine(r.CountsBySeverity), len(r.Groups), note)
	if len(skipped) > 0 {
		r.Summary += fmt.Sprintf("; %d check group(s) skipped", len(skipped))
	}
	return r
}

// Text renders findings one per line, [severity] rule @ location (conf)
// title, with detail and fix when verbose; clean sanitises each string on
// its way out. limit <= 0 or verbose lists all.
func Text(b *strings.Builder, fs []Finding, limit int, verbose bool, clean func(string) string) {
	n := len(fs)
	if !verbose && limit > 0 && n > limit {
		n = limit
	}
	for _, f := range fs[:n] {
		fmt.Fprintf(b, "[%s] %s @ %s (%.2f) %s\n", f.Severity, clean(f.RuleID), clean(f.Location), f.Confidence, clean(f.Title))
		if verbose {
			if f.Detail != "" {
				fmt.Fprintf(b, "    %s\n", clean(f.Detail))
			}
			if f.Evidence != "" {
				fmt.Fprintf(b, "    evidence: %s\n", clean(f.Evidence))
			}
			if f.Remediation != "" {
				fmt.Fprintf(b, "    fix: %s\n", clean(f.Remediation))
			}
			fmt.Fprintf(b, "    impact: %d dependent node(s)\n", f.Impact)
		}
	}
	if n < len(fs) {
		fmt.Fprintf(b, "+%d more (raise limit or set verbose=true to list all)\n", len(fs)-n)
	}
}

// PackLines renders failed packs, so a partial answer says so.
func PackLines(b *strings.Builder, packs []PackRun, clean func(string) string) {
	for _, p := range packs {
		if p.Error != "" {
			fmt.Fprintf(b, "! pack %s: %s\n", clean(p.Name), clean(p.Error))
		}
	}
}

// Markdown renders an audit as audit.md.
func Markdown(title, summary string, fs []Finding, packs []PackRun, skipped []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n%s\n\n", title, summary)
	if len(packs) > 0 {
		b.WriteString("## Packs\n\n| pack | findings | error |\n|---|---|---|\n")
		for _, p := range packs {
			fmt.Fprintf(&b, "| %s | %d | %s |\n", p.Name, p.Findings, mdCell(p.Error))
		}
		b.WriteString("\n")
	}
	if len(skipped) > 0 {
		b.WriteString("## Skipped checks\n\n")
		for _, s := range skipped {
			fmt.Fprintf(&b, "- %s\n", s)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Findings\n\n")
	if len(fs) == 0 {
		b.WriteString("None.\n")
	}
	for _, f := range fs {
		fmt.Fprintf(&b, "### [%s] %s: %s\n\n- location: `%s`\n- category: %s\n- confidence: %.2f\n- impact: %d\n", f.Severity, f.RuleID, f.Title, f.Location, f.Category, f.Confidence, f.Impact)
		if f.Evidence != "" {
			fmt.Fprintf(&b, "- evidence: `%s`\n", strings.ReplaceAll(f.Evidence, "`", "'"))
		}
		fmt.Fprintf(&b, "\n%s\n\n**Fix:** %s\n\n", f.Detail, f.Remediation)
	}
	return b.String()
}

func mdCell(s string) string { return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s) }
