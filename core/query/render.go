package query

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/textsafe"
)

type renderParams struct {
	mode     string
	full     bool
	terse    int
	question string
	rec      *recency
}

// render builds the spec's text and structuredContent from a ranking:
//
//	Traversal: <mode> | Start: [<seeds>] | <n> nodes found
//	Recency: ...                                   (when since resolved)
//	NODE [score] (changed)? label [file_type] source_file (qualified: label@path)?
//	EDGE a --relation--> b                         (full only)
//	(terse: top N of M matched nodes ...)          (terse, when more matched)
func (e *Engine) render(rk ranking, p renderParams) Response {
	var b strings.Builder
	seeds := make([]string, len(rk.seeds))
	for k, s := range rk.seeds {
		seeds[k] = textsafe.Label(e.x.G.Nodes[s].Label)
	}
	fmt.Fprintf(&b, "Traversal: %s | Start: [%s] | %d nodes found\n", p.mode, strings.Join(seeds, ", "), len(rk.hits))
	if p.rec != nil {
		fmt.Fprintf(&b, "Recency: %s\n", p.rec.summary)
	}
	resp := Response{Structured: Structured{Nodes: []Node{}, Edges: []Edge{}}}
	resp.Ranked = make([]Node, 0, len(rk.hits))
	for _, h := range rk.hits {
		resp.Ranked = append(resp.Ranked, e.resultNode(h, p.rec))
	}
	shown := len(rk.hits)
	if !p.full {
		shown = min(shown, p.terse)
	}
	for _, qn := range resp.Ranked[:shown] {
		changed := ""
		if qn.Changed != nil && *qn.Changed {
			changed = " (changed)"
		}
		fmt.Fprintf(&b, "NODE [%.2f]%s %s [%s] %s", qn.Score, changed, qn.Label, cmp.Or(qn.FileType, "unknown"), cmp.Or(qn.SourceFile, "(external)"))
		if qn.Qualified != "" {
			fmt.Fprintf(&b, " (qualified: %s)", qn.Qualified)
		}
		b.WriteByte('\n')
		resp.Structured.Nodes = append(resp.Structured.Nodes, qn)
	}
	if p.full {
		for _, ed := range e.resultEdges(rk.hits, 2*len(rk.hits)) {
			resp.Structured.Edges = append(resp.Structured.Edges, ed)
			fmt.Fprintf(&b, "EDGE %s --%s--> %s\n", ed.Source, ed.Relation, ed.Target)
		}
	}
	switch {
	case len(rk.hits) == 0:
		fmt.Fprintf(&b, "(no nodes match '%s'; try a symbol name, or get_node / structural terms)\n", textsafe.Label(p.question))
	case shown < len(rk.hits):
		fmt.Fprintf(&b, "(terse: top %d of %d matched nodes; pass full=true for all of them with their edges)\n", shown, len(rk.hits))
	}
	resp.Text = strings.TrimRight(b.String(), "\n")
	return resp
}

func (e *Engine) resultNode(h hit, rec *recency) Node {
	n := &e.x.G.Nodes[h.node]
	qn := Node{
		Label: textsafe.Label(n.Label), FileType: textsafe.Label(n.FileType), SourceFile: textsafe.Label(n.SourceFile),
		Score: math.Round(h.score*1000) / 1000, ID: n.ID, Index: h.node,
	}
	if len(e.x.WithLabel(n.Label)) > 1 {
		qn.Qualified = textsafe.Label(e.x.Qualified(h.node))
	}
	if rec != nil {
		c := rec.changed(e, h.node)
		qn.Changed = &c
	}
	return qn
}

// resultEdges returns the edges between result nodes, ordered by the score
// of their weaker endpoint, then (source, target, relation); at most limit.
func (e *Engine) resultEdges(hits []hit, limit int) []Edge {
	score := make(map[int32]float64, len(hits))
	for _, h := range hits {
		score[h.node] = h.score
	}
	type scored struct {
		e int32
		v float64
	}
	var es []scored
	for _, h := range hits {
		for _, ed := range e.x.Out(h.node) {
			_, t := e.x.Ends(ed)
			if v, ok := score[t]; ok {
				es = append(es, scored{ed, math.Min(v, h.score)})
			}
		}
	}
	g := e.x.G
	slices.SortFunc(es, func(a, b scored) int {
		ea, eb := &g.Edges[a.e], &g.Edges[b.e]
		return cmp.Or(cmp.Compare(b.v, a.v), strings.Compare(ea.Source, eb.Source), strings.Compare(ea.Target, eb.Target),
			strings.Compare(ea.Relation, eb.Relation), cmp.Compare(a.e, b.e))
	})
	out := make([]Edge, 0, min(len(es), limit))
	for _, se := range es[:min(len(es), limit)] {
		s, t := e.x.Ends(se.e)
		out = append(out, Edge{
			Source: textsafe.Label(g.Nodes[s].Label), Relation: textsafe.Label(g.Edges[se.e].Relation), Target: textsafe.Label(g.Nodes[t].Label),
		})
	}
	return out
}
