// Package rulehost runs rule packs: it loads every kind = "rules" plugin a
// registry found through plugins/host (same sandbox and limits as
// extractors), hands each pack of an audit the input, and checks what comes
// back. A pack that traps, loops, runs out of memory, returns garbage or
// reports rule ids its manifest does not declare is reported and skipped;
// the other packs' findings still come back. It implements
// core/findings.Runner.
package rulehost

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/registry"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Bounds on one finding's strings: a pack may not flood the answer.
const (
	maxTitle    = 300
	maxText     = 4000
	maxNodeIDs  = 100
	maxFindings = 10000
)

// Pack is one loaded (or failed) rule pack.
type Pack struct {
	Manifest *manifest.Manifest
	Origin   string

	once    sync.Once
	plugin  *host.Plugin
	loadErr error
	mu      sync.Mutex // one run at a time per pack (one instance)
}

// Runtime runs the rule packs of a registry.
type Runtime struct {
	host  *host.Host
	packs []*Pack // sorted by name
}

// New collects reg's rule packs. Modules are compiled on first use.
func New(h *host.Host, reg *registry.Registry) *Runtime {
	r := &Runtime{host: h}
	for _, p := range reg.Plugins {
		if p.Manifest.Kind == manifest.KindRules {
			r.packs = append(r.packs, &Pack{Manifest: p.Manifest, Origin: p.Origin})
		}
	}
	return r
}

// Packs returns the rule packs, sorted by name.
func (r *Runtime) Packs() []*Pack { return r.packs }

// Joins reports whether the pack takes part in audit t.
func (p *Pack) Joins(t findings.Target) bool {
	return slices.Contains(p.Manifest.Rules.Targets, string(t))
}

func (p *Pack) load(ctx context.Context, h *host.Host) (*host.Plugin, error) {
	p.once.Do(func() { p.plugin, p.loadErr = h.Load(ctx, p.Manifest, nil) })
	return p.plugin, p.loadErr
}

// RunRules runs every pack of target over in.
func (r *Runtime) RunRules(ctx context.Context, target findings.Target, in *abi.RuleInput) findings.Outcome {
	var o findings.Outcome
	in.Version = abi.RulesVersion
	input := abi.EncodeRuleInput(nil, in)
	for _, p := range r.packs {
		if !p.Joins(target) {
			continue
		}
		fs, err := r.Run(ctx, p, input)
		run := findings.PackRun{Name: p.Manifest.Name, Findings: len(fs)}
		if err != nil {
			run.Error = err.Error()
		}
		o.Findings = append(o.Findings, fs...)
		o.Packs = append(o.Packs, run)
	}
	return o
}

// Run runs one pack over an encoded input and returns its checked
// findings. An error with findings means some were refused.
func (r *Runtime) Run(ctx context.Context, p *Pack, input []byte) ([]abi.Finding, error) {
	pl, err := p.load(ctx, r.host)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	out, err := pl.RunRules(ctx, 0, input)
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return Check(p.Manifest, out)
}

// Check decodes a pack's output (abi.DecodeRuleOutput) and validates every finding against the
// manifest: declared rule id, known severity (the declared one if empty),
// confidence in [0,1], required text, bounded sizes. Undeclared rule ids
// are dropped and named in the error; malformed output is refused whole.
func Check(m *manifest.Manifest, out []byte) ([]abi.Finding, error) {
	ro, err := abi.DecodeRuleOutput(out)
	if err != nil {
		return nil, fmt.Errorf("pack %s returned malformed output (%v); it must answer a RuleOutput built by sdk/rules", m.Name, firstLine(err.Error()))
	}
	if ro.Version != abi.RulesVersion {
		return nil, fmt.Errorf("pack %s answered rule output version %d, this synaptic reads %d; rebuild it against the current sdk", m.Name, ro.Version, abi.RulesVersion)
	}
	if len(ro.Findings) > maxFindings {
		return nil, fmt.Errorf("pack %s returned %d findings, over the limit of %d", m.Name, len(ro.Findings), maxFindings)
	}
	var good []abi.Finding
	undeclared := map[string]int{}
	var problems []string
	for _, f := range ro.Findings {
		decl, ok := m.Rules.Rule(f.RuleID)
		if !ok {
			undeclared[f.RuleID]++
			continue
		}
		if f.Severity == "" {
			f.Severity = decl.Severity
		}
		switch {
		case f.Severity.Rank() < 0:
			problems = append(problems, fmt.Sprintf("%s: severity %q is not valid", f.RuleID, f.Severity))
			continue
		case !(f.Confidence >= 0 && f.Confidence <= 1):
			problems = append(problems, fmt.Sprintf("%s: confidence %v is outside [0,1]", f.RuleID, f.Confidence))
			continue
		case f.Location == "":
			problems = append(problems, fmt.Sprintf("%s: finding has no location", f.RuleID))
			continue
		}
		if f.Title == "" {
			f.Title = decl.Title
		}
		if f.Category == "" {
			f.Category = decl.Category
		}
		f.Title = bound(f.Title, maxTitle)
		f.Detail = bound(f.Detail, maxText)
		f.Evidence = bound(f.Evidence, maxText)
		f.Remediation = bound(f.Remediation, maxText)
		f.Location = bound(f.Location, maxTitle)
		f.Category = bound(f.Category, 64)
		f.Subsystem = bound(f.Subsystem, 128)
		if len(f.NodeIDs) > maxNodeIDs {
			f.NodeIDs = f.NodeIDs[:maxNodeIDs]
		}
		good = append(good, f)
	}
	if ro.Dropped > 0 {
		problems = append(problems, fmt.Sprintf("%d more finding(s) were dropped by the SDK's cap of %d per run", ro.Dropped, len(ro.Findings)))
	}
	if len(undeclared) > 0 {
		ids := make([]string, 0, len(undeclared))
		for id, n := range undeclared {
			ids = append(ids, fmt.Sprintf("%q (%d)", bound(id, 64), n))
		}
		slices.Sort(ids)
		problems = append(problems, fmt.Sprintf("undeclared rule id(s) %s refused; declare them as [[rules.rule]] in %s", strings.Join(ids, ", "), m.Path))
	}
	if len(problems) > 0 {
		if len(problems) > 5 {
			problems = append(problems[:5], fmt.Sprintf("and %d more", len(problems)-5))
		}
		return good, errors.New(strings.Join(problems, "; "))
	}
	return good, nil
}

func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return bound(l, 200)
}

// FromManifests makes a runtime of the given rule packs alone (rules test
// runs one pack built from source this way).
func FromManifests(h *host.Host, ms ...*manifest.Manifest) *Runtime {
	r := &Runtime{host: h}
	for _, m := range ms {
		r.packs = append(r.packs, &Pack{Manifest: m, Origin: "test"})
	}
	return r
}
