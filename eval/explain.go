package eval

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/synaptic-graph/synaptic/core/query"
)

// explainDepth is how many nodes Explain settles: far past the top 10, so
// a miss at rank 40 shows its rank instead of "unranked".
const explainDepth = 200

// MissCause classifies why an expected symbol is not in the top 10.
type MissCause string

// The miss causes, from nearest to farthest from the top 10.
const (
	// CauseLexical: the symbol matches the question itself but others
	// match it better.
	CauseLexical MissCause = "lexical-outranked"
	// CauseNeighbour: reached only through a neighbour's offer, which
	// ranks below the top 10.
	CauseNeighbour MissCause = "neighbour-outranked"
	// CauseUnreached: matches nothing and no settled node offered it
	// anything within explainDepth.
	CauseUnreached MissCause = "unreached"
	// CauseAbsent: no node of the graph matches the expectation.
	CauseAbsent MissCause = "absent"
)

// Miss is one expected symbol outside the top 10, with the node that
// came closest and why it ranks there.
type Miss struct {
	Expect Expect
	Cause  MissCause
	Node   int32 // -1 when CauseAbsent
	Why    query.Explanation
}

// Explain reranks q with explanations and returns its misses (expected
// symbols outside the top 10), writing the top 10 and each miss to w.
func Explain(ctx context.Context, w io.Writer, c Corpus, q Question) []Miss {
	e := c.Engine
	x := e.Explain(ctx, query.Request{Question: q.Text}, explainDepth)
	fmt.Fprintf(w, "[%s] %q  seeds:", c.Name, q.Text)
	for _, s := range x.Seeds {
		fmt.Fprintf(w, " %s", e.Index().Qualified(s))
	}
	fmt.Fprintln(w)
	for k, n := range x.Ranked[:min(10, len(x.Ranked))] {
		mark := " "
		for _, exp := range q.Expect {
			if Matches(e, n.Index, exp) {
				mark = "*"
			}
		}
		fmt.Fprintf(w, "  %s%2d %-40s %s\n", mark, k+1, e.Index().Qualified(n.Index), x.Format(x.Of(n.Index)))
	}
	var misses []Miss
	for _, exp := range q.Expect {
		m, ok := closest(e, x, exp)
		if !ok {
			continue
		}
		misses = append(misses, m)
		where := "(no node)"
		if m.Node >= 0 {
			where = e.Index().Qualified(m.Node) + " " + x.Format(m.Why) + links(e, x, m.Node)
		}
		fmt.Fprintf(w, "  MISS %s [%s] %s\n", exp, m.Cause, where)
	}
	return misses
}

// closest finds the node matching exp that ranks best (else the one with
// the best lexical score); ok is false when it is in the top 10.
func closest(e *query.Engine, x *query.Explained, exp Expect) (Miss, bool) {
	m := Miss{Expect: exp, Cause: CauseAbsent, Node: -1}
	var best query.Explanation
	for i := range int32(e.Index().Len()) {
		if !Matches(e, i, exp) {
			continue
		}
		ex := x.Of(i)
		if m.Node < 0 || better(ex, best) {
			m.Node, best = i, ex
		}
	}
	if m.Node < 0 {
		return m, true
	}
	if best.Rank > 0 && best.Rank <= 10 {
		return m, false
	}
	m.Why = best
	switch {
	case best.Touched && best.Via < 0:
		m.Cause = CauseLexical
	case best.Rank > 0:
		m.Cause = CauseNeighbour
	case best.Touched:
		m.Cause = CauseLexical
	default:
		m.Cause = CauseUnreached
	}
	return m, true
}

func better(a, b query.Explanation) bool {
	switch {
	case a.Rank > 0 && b.Rank > 0:
		return a.Rank < b.Rank
	case a.Rank > 0 || b.Rank > 0:
		return a.Rank > 0
	}
	return a.Lexical > b.Lexical
}

// links lists node i's edges to nodes ranked in the top 10 or chosen as
// seeds: the graph evidence a miss has beside its own words.
func links(e *query.Engine, x *query.Explained, i int32) string {
	g := e.Index()
	near := func(o int32) bool {
		r := x.Of(o)
		return r.Seed || (r.Rank > 0 && r.Rank <= 10)
	}
	var b strings.Builder
	for _, ed := range g.Out(i) {
		if _, t := g.Ends(ed); near(t) {
			fmt.Fprintf(&b, " -%s-> %s#%d", g.Edge(ed).Relation, g.Qualified(t), x.Of(t).Rank)
		}
	}
	for _, ed := range g.In(i) {
		if s, _ := g.Ends(ed); near(s) {
			fmt.Fprintf(&b, " <-%s- %s#%d", g.Edge(ed).Relation, g.Qualified(s), x.Of(s).Rank)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n      links:" + b.String()
}
