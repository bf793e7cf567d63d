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

// path returns the hops of a shortest undirected path from a to b within
// maxHops, or nil; connected reports whether the search ran out of graph
// (false: a and b are not connected at all) rather than out of hops.
//
// A plain BFS from a finds b's distance; the path is then rebuilt from b
// backward, choosing at every step among the predecessors one hop closer
// to a by edge priority, then lower degree, then node id, then edge index.
// Only those few candidates are ever sorted, so the walk stays linear.
func (s *snapshot) path(a, b int32, maxHops int, directed bool) (p []hop, connected bool) {
	sc := s.p.scratch(s.x.Len())
	defer s.p.release(sc)
	dist := sc.i32
	sc.mark(a)
	dist[a] = 0
	frontier, next := []int32{a}, []int32(nil)
	found := false
	for d := int32(1); d <= int32(maxHops) && len(frontier) > 0 && !found; d++ {
		next = next[:0]
		for _, u := range frontier {
			visit := func(e int32) {
				o := s.x.Other(e, u)
				if sc.has(o) {
					return
				}
				sc.mark(o)
				dist[o] = d
				next = append(next, o)
				found = found || o == b
			}
			for _, e := range s.x.Out(u) {
				if !directed || s.flows(e) {
					visit(e)
				}
			}
			if !directed {
				for _, e := range s.x.In(u) {
					visit(e)
				}
			}
		}
		frontier, next = next, frontier
	}
	if !found {
		return nil, len(frontier) > 0
	}
	better := func(x, y hop) int { // x, y: candidate steps into the current node
		return cmp.Or(
			cmp.Compare(s.prio(x.edge), s.prio(y.edge)),
			cmp.Compare(s.x.Degree(x.other), s.x.Degree(y.other)),
			s.p.idCompare(s.g, x.other, y.other),
			cmp.Compare(x.edge, y.edge),
		)
	}
	var rev []hop
	for v := b; v != a; {
		var best hop
		have := false
		consider := func(e int32, out bool) { // out: the edge leaves the predecessor
			u := s.x.Other(e, v)
			if !sc.has(u) || dist[u] != dist[v]-1 {
				return
			}
			h := hop{edge: e, other: u, out: out}
			if !have || better(h, best) < 0 {
				best, have = h, true
			}
		}
		for _, e := range s.x.In(v) {
			if !directed || s.flows(e) {
				consider(e, true)
			}
		}
		if !directed {
			for _, e := range s.x.Out(v) {
				consider(e, false)
			}
		}
		rev = append(rev, hop{edge: best.edge, other: v, out: best.out})
		v = best.other
	}
	slices.Reverse(rev)
	return rev, true
}

// flows reports whether a directed path may take edge e: every relation
// but structural ownership, which points from a container to what it holds
// rather than along a flow.
func (s *snapshot) flows(e int32) bool { return !ownership(s.p.relNames[s.p.relID[e]]) }

// prio is an edge's shortest_path exploration priority.
func (s *snapshot) prio(e int32) int { return edgePriority(s.p.relNames[s.p.relID[e]]) }

func (c *Catalog) shortestPath(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Source   string `json:"source"`
		Target   string `json:"target"`
		MaxHops  *int   `json:"max_hops"`
		Directed bool   `json:"directed"`
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
	if a.Directed {
		if p, _ := s.path(src, dst, maxHops, true); p != nil {
			return Result{Text: s.pathText(src, p, "Directed path")}
		}
	}
	p, connected := s.path(src, dst, maxHops, false)
	switch {
	case p == nil && !connected:
		return errorf("No path between %s and %s: they are not connected.", s.qualified(src), s.qualified(dst))
	case p == nil:
		return errorf("No path between %s and %s within max_hops=%d (pass a larger max_hops).", s.qualified(src), s.qualified(dst), maxHops)
	}
	text := s.pathText(src, p, "Shortest path")
	if a.Directed {
		text = fmt.Sprintf("No directed path from %s to %s within %d hops (following calls, imports and references forward); the shortest undirected connection instead:\n", s.qualified(src), s.qualified(dst), maxHops) + text
	}
	return Result{Text: text}
}

// pathText renders a path, one hop per line.
func (s *snapshot) pathText(src int32, p []hop, title string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d hop(s)):\n  %s\n", title, len(p), s.qualified(src))
	for _, h := range p {
		rel := sanitize(s.x.Edge(h.edge).Relation)
		if h.out {
			fmt.Fprintf(&b, "  --%s--> %s\n", rel, s.qualified(h.other))
		} else {
			fmt.Fprintf(&b, "  <--%s-- %s\n", rel, s.qualified(h.other))
		}
	}
	if title == "Directed path" {
		b.WriteString("(every hop follows its edge forward: a chain of calls, imports or references)")
	} else {
		b.WriteString("(arrows keep the stored edge direction; a backward arrow means connected through, not called by)")
	}
	return b.String()
}
