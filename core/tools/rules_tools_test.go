package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// fakeRunner answers every audit with fixed findings and records inputs.
type fakeRunner struct {
	findings []abi.Finding
	packs    []findings.PackRun
	got      []*abi.RuleInput
}

func (f *fakeRunner) RunRules(_ context.Context, t findings.Target, in *abi.RuleInput) findings.Outcome {
	f.got = append(f.got, in)
	return findings.Outcome{Findings: f.findings, Packs: f.packs}
}

func callTool(t *testing.T, c *Catalog, name, args string) Result {
	t.Helper()
	r, err := c.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return r
}

func TestRuleTools(t *testing.T) {
	fr := &fakeRunner{
		findings: []abi.Finding{
			{RuleID: "B-LOW", Severity: abi.SeverityLow, Location: "b.sql:1", Title: "low one", Confidence: 0.9},
			{RuleID: "A-HIGH", Severity: abi.SeverityHigh, Location: "a.sql:2", Title: hostileLabel, Detail: "why", Remediation: "fix", Confidence: 0.5,
				NodeIDs: []string{"pkg_server_server_serve"}},
		},
		packs: []findings.PackRun{{Name: "good", Findings: 2}, {Name: "evil", Error: "trap: boom"}},
	}
	c := New(Options{Rules: fr})
	c.SetGraph(fixture())
	r := callTool(t, c, "audit_sql", `{}`)
	lines := strings.Split(strings.TrimSpace(r.Text), "\n")
	if r.IsError || len(lines) != 4 || !strings.Contains(lines[0], "2 finding(s) (1 high, 1 low)") || !strings.Contains(lines[0], "PARTIAL") ||
		lines[1] != "! pack evil: trap: boom" || !strings.HasPrefix(lines[2], "[high] A-HIGH @ a.sql:2 (0.50) ") || !strings.HasPrefix(lines[3], "[low] B-LOW") {
		t.Fatalf("audit_sql text:\n%s", r.Text)
	}
	if strings.Contains(r.Text, "\x1b") || strings.Contains(r.Text, "forged\x00") {
		t.Errorf("hostile title not sanitised: %q", r.Text)
	}
	rep := r.Structured.(*findings.AuditReport)
	if rep.Findings[0].Impact == 0 || !rep.Partial || len(rep.Findings) != 2 {
		t.Errorf("structured = %+v", rep)
	}
	if r := callTool(t, c, "audit_sql", `{"severity":"high","limit":1,"verbose":true}`); !strings.Contains(r.Text, "    fix: fix") || strings.Contains(r.Text, "B-LOW") {
		t.Errorf("severity/verbose:\n%s", r.Text)
	}
	if r := callTool(t, c, "audit_sql", `{"limit":1}`); !strings.Contains(r.Text, "+1 more") {
		t.Errorf("limit:\n%s", r.Text)
	}
	r = callTool(t, c, "advise_sql", `{"query":"SELECT * FROM t","dialect":"mysql"}`)
	if in := fr.got[len(fr.got)-1]; r.IsError || in.Mode != abi.ModeAdvise || in.Query.Text != "SELECT * FROM t" || in.Dialect != "mysql" {
		t.Errorf("advise input %+v, result %+v", in, r)
	}
	if r := callTool(t, c, "advise_sql", `{"query":"  "}`); !r.IsError {
		t.Error("empty query accepted")
	}
	r = callTool(t, c, "readiness_audit", `{}`)
	rr, _ := r.Structured.(*findings.ReadinessReport)
	if r.IsError || rr == nil || rr.Profile != "auto" || len(rr.Skipped) == 0 || !strings.Contains(r.Text, "skipped: source checks") {
		t.Errorf("readiness without source root:\n%s", r.Text)
	}
	if in := fr.got[len(fr.got)-1]; in.Project != nil || len(in.Snippets) != 0 || len(in.Nodes) == 0 {
		t.Errorf("readiness input without source root: project %v, %d snippets, %d nodes", in.Project, len(in.Snippets), len(in.Nodes))
	}
	if r := callTool(t, c, "readiness_audit", `{"profile":"fabric"}`); !r.IsError || !strings.Contains(r.Text, "use auto or generic") {
		t.Errorf("unknown profile: %+v", r)
	}
	if r := callTool(t, c, "readiness_audit", `{"repo":"nope"}`); !r.IsError {
		t.Errorf("unknown repo accepted: %+v", r)
	}
}

func TestRuleToolsWithoutPacks(t *testing.T) {
	c := New(Options{})
	c.SetGraph(fixture())
	if r := callTool(t, c, "audit_sql", `{}`); !r.IsError || !strings.Contains(r.Text, "No rule packs are loaded") {
		t.Errorf("no runner: %+v", r)
	}
	c = New(Options{Rules: &fakeRunner{}})
	c.SetGraph(fixture())
	if r := callTool(t, c, "readiness_audit", `{}`); !r.IsError || !strings.Contains(r.Text, `targets = ["readiness"]`) {
		t.Errorf("no pack joins: %+v", r)
	}
}
