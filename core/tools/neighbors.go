package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// hop is one edge seen from a node: the edge, the node at the other end and
// whether the edge leaves (out) or enters (in) the node.
type hop struct {
	edge  int32
	other int32
	out   bool
}

func (h hop) arrow() string {
	if h.out {
		return "-->"
	}
	return "<--"
}

func (h hop) direction() string {
	if h.out {
		return "out"
	}
	return "in"
}

// relationTally formats counts as "calls(3), contains(2)", largest first.
func relationTally(raw map[string]int) string {
	by := sanitizeKeys(raw) // hostile relations must not split or forge a tally
	keys := slices.Collect(maps.Keys(by))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(by[b], by[a]), strings.Compare(a, b)) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s(%d)", k, by[k])
	}
	return strings.Join(parts, ", ")
}

// fileOrExternal names a node's file for list lines.
func (s *snapshot) fileOrExternal(i int32) string {
	if f := sanitize(s.x.Node(i).SourceFile); f != "" {
		return f
	}
	return "external"
}

// writeSites prints every site of edge e (primary first) under a list line.
func (s *snapshot) writeSites(b *strings.Builder, sr *siteReader, e int32) {
	ed := s.x.Edge(e)
	if ed.SourceFile != "" {
		fmt.Fprintf(b, "      at %s\n", sr.line(ed.SourceFile, ed.SourceLocation))
	}
	for _, site := range ed.Sites {
		fmt.Fprintf(b, "      at %s\n", sr.line(site.SourceFile, site.SourceLocation))
	}
}

type neighborRow struct {
	Label     string `json:"label"`
	Qualified string `json:"qualified"`
	Relation  string `json:"relation"`
	Direction string `json:"direction"`
}

func (c *Catalog) getNeighbors(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Label          string `json:"label"`
		RelationFilter string `json:"relation_filter"`
		ShowSites      bool   `json:"show_sites"`
		Limit          *int   `json:"limit"`
		Verbose        bool   `json:"verbose"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	i, _, fail := s.resolveOne(a.Label)
	if fail != nil {
		return *fail // no structured mirror for an unresolved seed (spec)
	}
	limit := c.limit(a.Limit, a.Verbose)

	filter := strings.ToLower(a.RelationFilter)
	keepRel := s.p.relSet(func(rel string) bool { return filter == "" || strings.Contains(strings.ToLower(rel), filter) })
	relCount := make([]int, len(s.p.relNames))
	hops := make([]hop, 0, s.x.Degree(i))
	add := func(e int32, out bool) {
		r := s.p.relID[e]
		relCount[r]++
		if keepRel[r] {
			hops = append(hops, hop{edge: e, other: s.x.Other(e, i), out: out})
		}
	}
	for _, e := range s.x.Out(i) {
		add(e, true)
	}
	for _, e := range s.x.In(i) {
		add(e, false)
	}
	byRel := map[string]int{}
	for r, n := range relCount {
		if n > 0 {
			byRel[s.p.relNames[r]] = n
		}
	}
	total := len(hops)
	// Out before in, then relation, then the most-connected neighbour; all
	// integer keys, and only the listed prefix is sorted.
	shown := topK(hops, limit, func(p, q hop) int {
		if p.out != q.out {
			if p.out {
				return -1
			}
			return 1
		}
		return cmp.Or(
			cmp.Compare(s.p.relID[p.edge], s.p.relID[q.edge]),
			s.byDegree(p.other, q.other),
			cmp.Compare(p.edge, q.edge),
		)
	})

	seed, seedQ := s.label(i), s.qualified(i)
	rows := make([]neighborRow, 0, len(shown))
	var b strings.Builder
	switch {
	case total == 0 && filter != "" && len(byRel) > 0:
		fmt.Fprintf(&b, "Neighbors of %s (%s):\n(none with relation '%s'; this node has: %s)", seed, seedQ, sanitize(a.RelationFilter), relationTally(byRel))
	case total == 0:
		fmt.Fprintf(&b, "Neighbors of %s (%s): none (isolated node)", seed, seedQ)
	default:
		fmt.Fprintf(&b, "Neighbors of %s (%s): %d", seed, seedQ, total)
		if filter != "" {
			fmt.Fprintf(&b, " with relation '%s'", sanitize(a.RelationFilter))
		}
		fmt.Fprintf(&b, "; by relation: %s\n", relationTally(byRel))
		var sr *siteReader
		if a.ShowSites {
			sr = newSiteReader(c.opts.SourceRoot)
			defer sr.close()
		}
		for _, h := range shown {
			rel := sanitize(s.x.Edge(h.edge).Relation)
			row := neighborRow{Label: s.label(h.other), Qualified: s.qualified(h.other), Relation: rel, Direction: h.direction()}
			rows = append(rows, row)
			fmt.Fprintf(&b, "  %s [%s] %s  (%s)\n", h.arrow(), rel, row.Label, s.fileOrExternal(h.other))
			if sr != nil {
				s.writeSites(&b, sr, h.edge)
			}
		}
		if n := total - len(shown); n > 0 {
			fmt.Fprintf(&b, "  +%d more (pass verbose=true, a larger limit, or a relation_filter)\n", n)
		}
	}
	return Result{Text: strings.TrimRight(b.String(), "\n"), Structured: map[string]any{
		"seed": seed, "seed_qualified": seedQ, "neighbors": rows, "by_relation": sanitizeKeys(byRel),
		"total": total, "truncated": len(shown) < total,
	}}
}

// limit resolves a list cap: explicit > concise/normal default; verbose
// lifts it.
func (c *Catalog) limit(explicit *int, verbose bool) int {
	if verbose {
		return int(^uint(0) >> 1)
	}
	if explicit != nil {
		return max(*explicit, 1)
	}
	return c.defaults().limit
}

func sanitizeKeys(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[sanitize(k)] += v
	}
	return out
}
