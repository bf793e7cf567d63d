// Package findings ranks, deduplicates and reports what rule packs find.
// The packs themselves run behind the [Runner] interface (plugins/rulehost
// implements it), so core never imports plugins/.
package findings

import (
	"cmp"
	"context"
	"slices"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Target names an audit; a pack's manifest lists the audits it joins.
type Target string

// Audits.
const (
	TargetSQL       Target = "sql"       // audit_sql, advise_sql
	TargetReadiness Target = "readiness" // readiness_audit
)

// Runner runs every rule pack of an audit over one input.
type Runner interface {
	RunRules(ctx context.Context, target Target, in *abi.RuleInput) Outcome
}

// Outcome is what the packs of one audit returned.
type Outcome struct {
	Findings []abi.Finding
	Packs    []PackRun // every pack that was asked, sorted by name
}

// PackRun is one pack's part of an Outcome.
type PackRun struct {
	Name     string `json:"name"`
	Findings int    `json:"findings"`
	// Error says why the pack's findings are missing or incomplete (it
	// trapped, timed out, returned garbage or undeclared rule ids).
	Error string `json:"error,omitempty"`
}

// Finding is a pack's finding with the impact the host adds.
type Finding struct {
	abi.Finding
	// Impact is how many nodes depend on the finding's nodes (a reverse
	// walk over calls, references, imports and inheritance).
	Impact int `json:"impact"`
}

// Rank deduplicates fs on (rule, location, evidence, nodes) and sorts by
// severity, then confidence (higher first), then rule id and location, so
// the same findings always come out in the same order.
func Rank(fs []abi.Finding) []Finding {
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		out = append(out, Finding{Finding: f})
	}
	slices.SortStableFunc(out, compare)
	return slices.CompactFunc(out, func(a, b Finding) bool {
		return a.RuleID == b.RuleID && a.Location == b.Location && a.Evidence == b.Evidence && slices.Equal(a.NodeIDs, b.NodeIDs)
	})
}

func compare(a, b Finding) int {
	return cmp.Or(
		cmp.Compare(a.Severity.Rank(), b.Severity.Rank()),
		cmp.Compare(b.Confidence, a.Confidence),
		cmp.Compare(a.RuleID, b.RuleID),
		cmp.Compare(a.Location, b.Location),
		cmp.Compare(a.Evidence, b.Evidence),
		slices.Compare(a.NodeIDs, b.NodeIDs),
		cmp.Compare(a.Title, b.Title),
		cmp.Compare(a.Detail, b.Detail),
	)
}

// impactRelations are the edges a dependent reaches its dependency by.
var impactRelations = map[string]bool{
	"calls": true, "references": true, "imports": true, "inherits": true, "implements": true,
	"embeds": true, "queries": true, "writes_to": true, "calls_proc": true, "uses": true,
}

// maxImpact bounds one walk; a finding on a hub reports "at least" this.
const maxImpact = 10000

// AddImpact fills each finding's Impact from x: the nodes that reach its
// nodes, transitively, over impactRelations.
func AddImpact(x *graph.Index, fs []Finding) {
	if x == nil {
		return
	}
	for i := range fs {
		fs[i].Impact = impact(x, fs[i].NodeIDs)
	}
}

func impact(x *graph.Index, ids []string) int {
	seen := map[int32]bool{}
	var queue []int32
	for _, id := range ids {
		if n := x.ID(id); n >= 0 && !seen[n] {
			seen[n] = true
			queue = append(queue, n)
		}
	}
	count := 0
	for len(queue) > 0 && count < maxImpact {
		n := queue[0]
		queue = queue[1:]
		for _, e := range x.In(n) {
			if !impactRelations[x.Edge(e).Relation] {
				continue
			}
			src, _ := x.Ends(e)
			if !seen[src] {
				seen[src] = true
				count++
				queue = append(queue, src)
			}
		}
	}
	return count
}

// AtLeast keeps the findings at least as severe as min ("" keeps all).
func AtLeast(fs []Finding, min abi.Severity) []Finding {
	if min == "" {
		return fs
	}
	r := min.Rank()
	out := fs[:0:0]
	for _, f := range fs {
		if f.Severity.Rank() <= r {
			out = append(out, f)
		}
	}
	return out
}
