package findings

import (
	"reflect"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestRank(t *testing.T) {
	f := func(id string, sev abi.Severity, conf float64, loc string) abi.Finding {
		return abi.Finding{RuleID: id, Severity: sev, Confidence: conf, Location: loc}
	}
	in := []abi.Finding{
		f("L", abi.SeverityLow, 0.9, "a:1"),
		f("H2", abi.SeverityHigh, 0.5, "a:2"),
		f("C", abi.SeverityCritical, 0.1, "a:3"),
		f("H1", abi.SeverityHigh, 0.8, "a:4"),
		f("H1", abi.SeverityHigh, 0.8, "a:4"), // duplicate
		f("H1", abi.SeverityHigh, 0.8, "a:5"),
	}
	var got []string
	for _, x := range Rank(in) {
		got = append(got, x.RuleID+"@"+x.Location)
	}
	want := []string{"C@a:3", "H1@a:4", "H1@a:5", "H2@a:2", "L@a:1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rank = %v, want %v", got, want)
	}
	if n := len(AtLeast(Rank(in), abi.SeverityHigh)); n != 4 {
		t.Errorf("AtLeast(high) kept %d, want 4", n)
	}
}

func TestImpact(t *testing.T) {
	g := &graph.Graph{Nodes: []graph.Node{{ID: "a"}, {ID: "b"}, {ID: "c"}, {ID: "d"}}, Edges: []graph.Edge{
		{Source: "b", Target: "a", Relation: "calls"},
		{Source: "c", Target: "b", Relation: "calls"},
		{Source: "d", Target: "a", Relation: "contains"}, // ownership is not dependence
	}}
	x := graph.NewIndex(g)
	fs := []Finding{{Finding: abi.Finding{NodeIDs: []string{"a"}}}, {Finding: abi.Finding{NodeIDs: []string{"missing"}}}}
	AddImpact(x, fs)
	if fs[0].Impact != 2 || fs[1].Impact != 0 {
		t.Errorf("impacts = %d, %d; want 2, 0", fs[0].Impact, fs[1].Impact)
	}
}

func TestReports(t *testing.T) {
	o := Outcome{Findings: []abi.Finding{{RuleID: "X", Severity: abi.SeverityHigh, Subsystem: "core", Location: "f:1"}},
		Packs: []PackRun{{Name: "good", Findings: 1}, {Name: "bad", Error: "trap"}}}
	r := NewAuditReport("SQL audit", o, "1 table(s)")
	if !r.Partial || r.Summary != "SQL audit: 1 finding(s) (1 high) over 1 table(s); PARTIAL: pack bad failed (see packs)" {
		t.Errorf("audit report = %+v", r)
	}
	rr := NewReadinessReport("auto", o, []string{"source checks: no source root"})
	if rr.CountsBySeverity["high"] != 1 || len(rr.Groups) != 1 || rr.Groups[0].Subsystem != "core" || len(rr.Skipped) != 1 {
		t.Errorf("readiness report = %+v", rr)
	}
}
