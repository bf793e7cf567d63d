package query

import (
	"math"
	"slices"
)

// spread is the graph channel: each of the best lexical matches passes a
// share of its score to its direct neighbours, and the shares add to the
// neighbours' own lexical scores. It is one step of a personalised
// PageRank seeded by the question's matches: a function called by the
// best match ("readCookies" under Request.Cookies) gains on partial name
// matches that nothing relevant links to, which expansion alone cannot
// give it (expansion keeps the better of a node's own score and one
// neighbour's offer, never their sum). A spreader divides its share by
// its degree^SpreadNorm, so a hub's neighbours get little each.
//
// Shares are summed into a per-query map and added after every spreader
// has spread, in a fixed order, so the result does not depend on map
// iteration and a spreader's own gain does not spread again.
func (e *Engine) spread(s *scratch, p rankParams, spreaders []cand, add func(i int32, v float64)) {
	if e.t.Spread <= 0 || len(spreaders) == 0 {
		return
	}
	gain := map[int32]float64{}
	for _, c := range spreaders {
		if e.container[c.i] {
			continue // a file or package relates everything it holds
		}
		deg := float64(e.x.Degree(c.i))
		share := c.v * e.t.Spread / math.Pow(math.Max(deg, 1), e.t.SpreadNorm)
		give := func(edges []int32, forward bool) {
			for _, ed := range edges {
				o := e.x.Other(ed, c.i)
				if o < 0 || o == c.i || e.container[o] || (p.keep != nil && !p.keep(o)) {
					continue
				}
				w := share * e.spreadFactor(ed, forward) * float64(e.prior[o])
				if e.test[o] {
					w *= p.demote
				}
				if s.rel[o] == 0 {
					w *= e.t.SpreadUnmatched
				}
				if e.t.SpreadRecv > 0 {
					w /= math.Pow(math.Max(float64(e.x.Degree(o)), 1), e.t.SpreadRecv)
				}
				if w > 0 {
					if e.t.SpreadMax {
						gain[o] = math.Max(gain[o], w)
					} else {
						gain[o] += w
					}
				}
			}
		}
		give(e.x.Out(c.i), true)
		give(e.x.In(c.i), false)
	}
	keys := make([]int32, 0, len(gain))
	for i := range gain {
		keys = append(keys, i)
	}
	slices.Sort(keys)
	for _, i := range keys {
		add(i, gain[i])
	}
}

// spreadFactor weighs one edge of the graph channel. forward is the
// edge's own direction from the spreader: what a match calls or owns is
// closer to how it works than what calls it.
func (e *Engine) spreadFactor(ed int32, forward bool) float64 {
	f := 1.0
	switch e.x.G.Edges[ed].Relation {
	case "calls":
	case "method", "contains", "inherits", "implements":
		f = e.t.SpreadMember
	default:
		f = e.t.SpreadRef
	}
	if !forward {
		f *= e.t.SpreadBack
	}
	return f
}
