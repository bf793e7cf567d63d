package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// edgePriority orders the edges shortest_path explores first, so among
// equally short paths the most meaningful one wins: calls and boundaries,
// then inheritance, imports, uses/depends, references, anything else.
func edgePriority(rel string) int {
	switch {
	case strings.Contains(rel, "call"), rel == "invokes", rel == "binds_native", rel == "handled_by", rel == "dynamic_ref":
		return 0
	case strings.Contains(rel, "inherit"), strings.Contains(rel, "implement"), strings.Contains(rel, "extend"),
		rel == "mixes_in", rel == "embeds":
		return 1
	case strings.Contains(rel, "import"), strings.Contains(rel, "re_export"):
		return 2
	case strings.Contains(rel, "use"), strings.Contains(rel, "depend"):
		return 3
	case strings.Contains(rel, "reference"):
		return 4
	}
	return 5
}

// hopsOf lists node i's incident edges in exploration order: priority,
// then lower degree, then node id, then edge index (fully deterministic).
func (s *snapshot) hopsOf(i int32) []hop {
	hs := make([]hop, 0, s.x.Degree(i))
	for _, e := range s.x.Out(i) {
		hs = append(hs, hop{edge: e, other: s.x.Other(e, i), out: true})
	}
	for _, e := range s.x.In(i) {
		hs = append(hs, hop{edge: e, other: s.x.Other(e, i), out: false})
	}
	slices.SortFunc(hs, func(p, q hop) int {
		return cmp.Or(
			cmp.Compare(edgePriority(s.x.Edge(p.edge).Relation), edgePriority(s.x.Edge(q.edge).Relation)),
			cmp.Compare(s.x.Degree(p.other), s.x.Degree(q.other)),
			strings.Compare(s.x.Node(p.other).ID, s.x.Node(q.other).ID),
			cmp.Compare(p.edge, q.edge),
		)
	})
	return hs
}

// path returns the hops of a shortest undirected path from a to b, or nil.
// The search is not bounded by max_hops, so the caller can tell "too long"
// from "not connected".
func (s *snapshot) path(a, b int32) []hop {
	prev := map[int32]hop{a: {edge: -1}}
	frontier := []int32{a}
	for len(frontier) > 0 {
		var next []int32
		for _, u := range frontier {
			for _, h := range s.hopsOf(u) {
				if _, seen := prev[h.other]; seen {
					continue
				}
				prev[h.other] = hop{edge: h.edge, other: u, out: h.out} // other = where we came from
				if h.other == b {
					var rev []hop
					for v := b; v != a; {
						p := prev[v]
						rev = append(rev, hop{edge: p.edge, other: v, out: p.out})
						v = p.other
					}
					slices.Reverse(rev)
					return rev
				}
				next = append(next, h.other)
			}
		}
		frontier = next
	}
	return nil
}

func (c *Catalog) shortestPath(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Source  string `json:"source"`
		Target  string `json:"target"`
		MaxHops *int   `json:"max_hops"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	maxHops := 8
	if a.MaxHops != nil {
		maxHops = *a.MaxHops
	}
	src, _, fail := s.resolveOne(a.Source)
	if fail != nil {
		fail.Text = "source: " + fail.Text
		return *fail
	}
	dst, _, fail := s.resolveOne(a.Target)
	if fail != nil {
		fail.Text = "target: " + fail.Text
		return *fail
	}
	if src == dst {
		return errorf("'%s' and '%s' resolve to the same node (%s).", sanitize(a.Source), sanitize(a.Target), s.qualified(src))
	}
	p := s.path(src, dst)
	switch {
	case p == nil:
		return errorf("No path between %s and %s: they are not connected.", s.qualified(src), s.qualified(dst))
	case len(p) > maxHops:
		return errorf("No path between %s and %s within max_hops=%d (the shortest is %d hops).", s.qualified(src), s.qualified(dst), maxHops, len(p))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Shortest path (%d hop(s)):\n  %s\n", len(p), s.qualified(src))
	for _, h := range p {
		rel := sanitize(s.x.Edge(h.edge).Relation)
		if h.out {
			fmt.Fprintf(&b, "  --%s--> %s\n", rel, s.qualified(h.other))
		} else {
			fmt.Fprintf(&b, "  <--%s-- %s\n", rel, s.qualified(h.other))
		}
	}
	b.WriteString("(arrows keep the stored edge direction; a backward arrow means connected through, not called by)")
	return Result{Text: b.String()}
}
