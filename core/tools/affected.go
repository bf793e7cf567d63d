package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// defaultImpactRelations is the structural-impact set affected walks
// backward by default, plus the cross-language relations, so the blast
// radius spans subprocess, FFI and HTTP/gRPC boundaries. Ownership edges
// (contains, method) are deliberately absent: a file "containing" a function
// does not depend on it.
var defaultImpactRelations = []string{
	"calls", "references", "imports", "imports_from", "re_exports", "inherits", "extends", "implements",
	"uses", "mixes_in", "embeds", "depends_on", "reads_from",
	"invokes", "binds_native", "calls_service", "handled_by",
	"uses_api", "dynamic_ref", "queries", "writes_to", "calls_proc",
}

// maxDepth is affected's upper clamp.
const maxDepth = 16

// impactHit is one dependent found by the reverse walk.
type impactHit struct {
	node  int32
	depth int
	via   string
}

// reverseImpact walks incoming edges whose relation is in rels from seeds,
// up to depth hops, and returns every reached non-seed node with the depth
// and relation it was first reached by (breadth-first in edge order, so
// the answer is a function of the graph alone).
func (s *snapshot) reverseImpact(seeds []int32, rels []bool, depth int) []impactHit {
	sc := s.p.scratch(s.x.Len())
	defer s.p.release(sc)
	for _, sd := range seeds {
		sc.mark(sd)
	}
	var hits []impactHit
	frontier := slices.Clone(seeds)
	var next []int32
	for d := 1; d <= depth && len(frontier) > 0; d++ {
		next = next[:0]
		for _, u := range frontier {
			for _, e := range s.x.In(u) {
				r := s.p.relID[e]
				if !rels[r] {
					continue
				}
				src, _ := s.x.Ends(e)
				if sc.has(src) {
					continue
				}
				sc.mark(src)
				hits = append(hits, impactHit{node: src, depth: d, via: s.p.relNames[r]})
				next = append(next, src)
			}
		}
		frontier, next = next, frontier
	}
	return hits
}

// byDepthThenDegree orders hits for display: nearest first, then the most
// connected.
func (s *snapshot) byDepthThenDegree(a, b impactHit) int {
	if a.depth != b.depth {
		return a.depth - b.depth
	}
	return s.byDegree(a.node, b.node)
}

type affectedRow struct {
	Label       string `json:"label"`
	Qualified   string `json:"qualified"`
	Depth       int    `json:"depth"`
	ViaRelation string `json:"via_relation"`
}

func (c *Catalog) affected(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Label     string   `json:"label"`
		Depth     *int     `json:"depth"`
		Relations []string `json:"relations"`
		Limit     *int     `json:"limit"`
		Verbose   bool     `json:"verbose"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	depth := 3
	if a.Depth != nil {
		depth = *a.Depth
	}
	depth = min(max(depth, 1), maxDepth)
	limit := c.limit(a.Limit, a.Verbose)

	i, r, fail := s.resolveOne(a.Label)
	if fail != nil {
		// Say so rather than a misleading "total: 0".
		fail.Structured = s.unresolvedStructured(r, map[string]any{"resolved": false, "seed": sanitize(a.Label)})
		return *fail
	}
	want := map[string]bool{}
	relList := a.Relations
	if len(relList) == 0 {
		relList = defaultImpactRelations
	}
	for _, rel := range relList {
		want[strings.ToLower(strings.TrimSpace(rel))] = true
	}
	rels := s.p.relSet(func(rel string) bool { return want[strings.ToLower(rel)] })
	members := s.members(i)
	seeds := append([]int32{i}, members...)
	hits := s.reverseImpact(seeds, rels, depth)

	seed := s.label(i)
	byDepth := map[string]int{}
	for _, h := range hits {
		byDepth[strconv.Itoa(h.depth)]++
	}
	total := len(hits)
	shown := topK(hits, limit, s.byDepthThenDegree)
	rows := make([]affectedRow, 0, len(shown))
	var b strings.Builder
	if len(members) > 0 {
		fmt.Fprintf(&b, "%s is a %s with %d members; impact is aggregated across the class and its members\n", seed, sanitize(s.x.Node(i).Kind), len(members))
	}
	fmt.Fprintf(&b, "%d nodes depend on %s (<= %d hops):\n", total, seed, depth)
	for _, h := range shown {
		row := affectedRow{Label: s.label(h.node), Qualified: s.qualified(h.node), Depth: h.depth, ViaRelation: sanitize(h.via)}
		rows = append(rows, row)
		fmt.Fprintf(&b, "  [%d] %s  %s  (%s)\n", h.depth, row.ViaRelation, row.Label, s.fileOrExternal(h.node))
	}
	if n := total - len(shown); n > 0 {
		fmt.Fprintf(&b, "  +%d more (pass verbose=true or a larger limit)\n", n)
	}
	if total > 0 {
		parts := make([]string, 0, len(byDepth))
		for d := 1; d <= depth; d++ {
			if n := byDepth[strconv.Itoa(d)]; n > 0 {
				parts = append(parts, fmt.Sprintf("%dh: %d", d, n))
			}
		}
		fmt.Fprintf(&b, "By depth: %s", strings.Join(parts, ", "))
	} else if twins := s.twinNote(i); twins != "" {
		b.WriteString("  (no linked dependents) " + twins)
	} else {
		b.WriteString("  (no static dependents; a symbol reached only by dynamic dispatch, reflection or DI still shows 0 here)")
	}
	st := map[string]any{
		"seed": seed, "seed_qualified": s.qualified(i), "resolved": true, "affected": rows,
		"total": total, "truncated": len(shown) < total, "by_depth": byDepth,
	}
	if len(members) > 0 {
		st["aggregated_over_members"] = len(members)
	}
	return Result{Text: strings.TrimRight(b.String(), "\n"), Structured: st}
}
