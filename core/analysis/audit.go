package analysis

import "github.com/synaptic-graph/synaptic/core/graph"

// Audit counts edges by confidence tier, per relation and in total.
type Audit struct {
	ByRelation map[string]map[graph.Confidence]int
	Total      map[graph.Confidence]int
}

// ConfidenceAudit counts EXTRACTED / INFERRED / AMBIGUOUS edges by relation.
// Ratios are left to the renderer (report.AuditText).
func ConfidenceAudit(x *graph.Index) Audit {
	a := Audit{ByRelation: map[string]map[graph.Confidence]int{}, Total: map[graph.Confidence]int{}}
	for i := range x.G.Edges {
		e := &x.G.Edges[i]
		m := a.ByRelation[e.Relation]
		if m == nil {
			m = map[graph.Confidence]int{}
			a.ByRelation[e.Relation] = m
		}
		m[e.Confidence]++
		a.Total[e.Confidence]++
	}
	return a
}
