package manifest

import (
	"path"
	"path/filepath"
	"regexp"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Rule is one [[rules.rule]] table of a rule pack: a rule id the pack may
// report. The host refuses findings under ids the manifest does not
// declare, so a pack cannot pass off one rule as another.
//
//	[[rules.rule]]
//	id       = "SEC-RLS-001"
//	severity = "high"
//	category = "security"
//	title    = "Tenant table without row-level security"
//	doc      = "A table with a tenant column and RLS disabled leaks rows across tenants."
type Rule struct {
	ID       string
	Severity abi.Severity // the rule's default severity
	Category string
	Title    string
	Doc      string
}

// ruleIDRE: upper-case letters, digits and dashes, as in SEC-RLS-001.
var ruleIDRE = regexp.MustCompile(`^[A-Z][A-Z0-9_-]{0,63}$`)

func (v *validator) ruleDecls(raw []rawRule) []Rule {
	if len(raw) == 0 {
		v.add([]string{"rules"}, "a rule pack needs at least one [[rules.rule]] table with id, severity, category and title")
	}
	seen := map[string]bool{}
	out := make([]Rule, 0, len(raw))
	for i, r := range raw {
		key := []string{"rules", "rule"}
		switch {
		case !ruleIDRE.MatchString(r.ID):
			v.addN(-1, append(key, "id"), "[[rules.rule]] #%d: id %q is not valid; use upper-case letters, digits and dashes (e.g. \"SEC-RLS-001\")", i+1, r.ID)
		case seen[r.ID]:
			v.addN(-1, append(key, "id"), "rule id %q is declared twice", r.ID)
		}
		seen[r.ID] = true
		if abi.Severity(r.Severity).Rank() < 0 {
			v.addN(-1, append(key, "severity"), "rule %s: severity %q is not valid; use critical, high, medium, low or info", r.ID, r.Severity)
		}
		if r.Category == "" || r.Title == "" {
			v.addN(-1, key, "rule %s needs a category and a title", r.ID)
		}
		out = append(out, Rule{ID: r.ID, Severity: abi.Severity(r.Severity), Category: r.Category, Title: r.Title, Doc: r.Doc})
	}
	return out
}

func (v *validator) examples(dir string) {
	if dir == "" {
		return
	}
	if !filepath.IsLocal(filepath.FromSlash(dir)) || path.Clean(dir) != dir {
		v.add([]string{"rules", "examples"}, "examples %q must be a clean folder path inside the plugin folder", dir)
	}
}

// ExamplesDir returns the pack's examples folder.
func (r *Rules) ExamplesDir(pluginDir string) string {
	d := r.Examples
	if d == "" {
		d = "examples"
	}
	return filepath.Join(pluginDir, filepath.FromSlash(d))
}

// Rule returns the declared rule with id, if any.
func (r *Rules) Rule(id string) (Rule, bool) {
	for _, x := range r.Rules {
		if x.ID == id {
			return x, true
		}
	}
	return Rule{}, false
}
