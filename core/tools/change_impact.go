package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

func (c *Catalog) workingChangesImpact(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Base     string `json:"base"`
		Verbose  bool   `json:"verbose"`
		Limit    *int   `json:"limit"`
		CodeOnly bool   `json:"code_only"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	limit := 20
	if a.Limit != nil {
		limit = *a.Limit
	}
	cs, fail := c.collect(ctx, s, nil, a.Base)
	if fail != nil {
		return *fail
	}
	if len(cs.files) == 0 {
		return Result{Text: fmt.Sprintf("No changes vs %s.", cs.against())}
	}
	return Result{Text: s.workingChangesText(cs, a.Verbose, limit, a.CodeOnly)}
}

// workingChangesText renders working_changes_impact for a change set.
func (s *snapshot) workingChangesText(cs changeSet, verbose bool, limit int, codeOnly bool) string {
	a := struct{ Verbose, CodeOnly bool }{verbose, codeOnly}
	files := cs.files
	nodes := cs.seeds
	if a.CodeOnly {
		files = slices.DeleteFunc(slices.Clone(files), func(f changeFile) bool { return !isCodeFile(s, f) })
		nodes = nil
		for _, f := range files {
			nodes = append(nodes, f.Nodes...)
		}
		slices.Sort(nodes)
		nodes = slices.Compact(nodes)
	}
	comms := map[int]int{}
	for _, i := range nodes {
		if id := s.communityOf(i); id >= 0 {
			comms[id]++
		}
	}
	kind := "graph nodes"
	if a.CodeOnly {
		kind = "code graph nodes"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Working changes vs %s: %d files, %d %s, %d communities touched\n", cs.against(), len(files), len(nodes), kind, len(comms))
	for _, f := range files {
		b.WriteString(fileLine(f) + "\n")
	}
	if a.CodeOnly && len(files) < len(cs.files) {
		fmt.Fprintf(&b, "  (%d non-code or unmodelled files left out by code_only)\n", len(cs.files)-len(files))
	}
	if a.Verbose {
		shown := topK(slices.Clone(nodes), limit, s.byDegree)
		fmt.Fprintf(&b, "Top touched nodes (%d of %d, by connectivity):\n", len(shown), len(nodes))
		for _, i := range shown {
			fmt.Fprintf(&b, "  %s  (%s, degree %d)\n", s.label(i), s.fileOrExternal(i), s.x.Degree(i))
		}
		ids := make([]int, 0, len(comms))
		for id := range comms {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(x, y int) int {
			if comms[x] != comms[y] {
				return comms[y] - comms[x]
			}
			return x - y
		})
		b.WriteString("Communities touched:\n")
		for _, id := range ids {
			fmt.Fprintf(&b, "  [%d] %s  (%d touched nodes)\n", id, s.communityLabel(id), comms[id])
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// testRow is one test that reaches the change.
type testRow struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Qualified   string `json:"qualified"` // resolves back to exactly this node (the name cascade)
	File        string `json:"file"`
	Depth       int    `json:"depth"`
	ViaRelation string `json:"via_relation"`
}

// impactRels is the default impact relation set as a relation-id mask.
func (s *snapshot) impactRels() []bool {
	want := map[string]bool{}
	for _, r := range defaultImpactRelations {
		want[r] = true
	}
	return s.p.relSet(func(rel string) bool { return want[strings.ToLower(rel)] })
}

// impactOf walks the reverse-impact set of the change set's seeds.
func (s *snapshot) impactOf(cs changeSet, depth int) []impactHit {
	return s.reverseImpact(cs.seeds, s.impactRels(), depth)
}

// selectTests is the test selection: the tests the walk (surfaceImpact:
// private helpers cost no hop) reached, directly, through dynamic dispatch (dispatchHits) or from a reached test helper
// through test code (throughTestCode), the tests named after a seed
// whose callers the edges may not show (namedTests), and those found by
// widening the seeds no test reaches (widenedTests).
func (s *snapshot) selectTests(cs changeSet, depth int) []testRow {
	rels := s.impactRels()
	all := s.testWalk(cs.seeds, s.surfaceImpact(cs.seeds, rels, depth), rels, depth)
	unreached := s.unreachedSeeds(cs.seeds, rels, depth)
	all = append(all, s.namedTests(s.namedSeeds(cs.seeds, unreached))...)
	return s.atRiskTests(cs, append(all, s.widenedTests(cs, unreached, rels, depth)...))
}

// unreachedSeeds marks the seeds from which no test the default command
// runs is within depth (reachesTest), by position in seeds. Only symbols
// are asked: a file or package node is never widened nor matched by
// name, and a test is selected by being changed; walking from a whole
// file's node would cost as much as the selection itself.
func (s *snapshot) unreachedSeeds(seeds []int32, rels []bool, depth int) []bool {
	out := make([]bool, len(seeds))
	test := s.walkFacts().test
	for k, sd := range seeds {
		if kind := s.x.Node(sd).Kind; kind != "file" && kind != "package" && !test[sd] {
			out[k] = !s.reachesTest([]int32{sd}, rels, depth)
		}
	}
	return out
}

// namedSeeds are the seeds whose tests namedTests looks for by name: the
// ones no test reaches, and the methods an interface may call (a test
// calling Sign through a SigningMethod it looked up links to the
// interface, not to SigningMethodRSA.Sign). A function or a plain method
// that tests reach has its callers in the edges: a test named after it
// that reaches none of them does not run it (iter's TestForEachIdx for
// ForEach, conc's ExampleWaitGroup_WaitAndRecover for WaitGroup.Wait).
func (s *snapshot) namedSeeds(seeds []int32, unreached []bool) []int32 {
	var out []int32
	for k, sd := range seeds {
		if _, dyn := s.dispatchable(sd); dyn || unreached[k] {
			out = append(out, sd)
		}
	}
	return out
}

// atRiskTests keeps the test nodes among the changed nodes (hop 0) and
// the hits. A test file's own node is listed only when none of its test
// symbols is (it stands for file-level tests, e.g. Jest's describe/it).
func (s *snapshot) atRiskTests(cs changeSet, hits []impactHit) []testRow {
	test := s.walkFacts().test
	dup := s.p.scratch(s.x.Len())
	defer s.p.release(dup)
	var found []impactHit
	for _, i := range cs.seeds {
		if test[i] && !dup.has(i) {
			dup.mark(i)
			found = append(found, impactHit{node: i, depth: 0, via: "changed"})
		}
	}
	for _, h := range hits {
		if test[h.node] && !dup.has(h.node) {
			dup.mark(h.node)
			found = append(found, h)
		}
	}
	symbolFiles := map[string]bool{}
	for _, h := range found {
		if n := s.x.Node(h.node); n.Kind != "file" {
			symbolFiles[n.SourceFile] = true
		}
	}
	found = slices.DeleteFunc(found, func(h impactHit) bool {
		n := s.x.Node(h.node)
		return n.Kind == "file" && symbolFiles[n.SourceFile]
	})
	fileRank := s.walkFacts().fileRank
	slices.SortFunc(found, func(a, b impactHit) int {
		if a.depth != b.depth {
			return a.depth - b.depth
		}
		if c := fileRank[a.node] - fileRank[b.node]; c != 0 {
			return int(c)
		}
		return s.p.idCompare(s.g, a.node, b.node)
	})
	rows := make([]testRow, 0, len(found))
	for _, h := range found {
		n := s.x.Node(h.node)
		rows = append(rows, testRow{ID: sanitize(n.ID), Label: s.label(h.node), Qualified: s.qualified(h.node), File: sanitize(n.SourceFile), Depth: h.depth, ViaRelation: sanitize(h.via)})
	}
	return rows
}

// changeArgs are the arguments shared by predict_impact and affected_tests.
type changeArgs struct {
	Files   []string `json:"files"`
	Base    string   `json:"base"`
	Depth   *int     `json:"depth"`
	Limit   *int     `json:"limit"`
	Verbose bool     `json:"verbose"`
}

func (a changeArgs) depth() int {
	d := 3
	if a.Depth != nil {
		d = *a.Depth
	}
	return min(max(d, 1), maxDepth)
}

func (c *Catalog) affectedTests(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a changeArgs
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	cs, fail := c.collect(ctx, s, a.Files, a.Base)
	if fail != nil {
		return *fail
	}
	depth := a.depth()
	tests := s.selectTests(cs, depth)
	st := map[string]any{"tests": tests, "total": len(tests)}
	var b strings.Builder
	if len(cs.files) == 0 {
		return Result{Text: fmt.Sprintf("No changes vs %s.", cs.against()), Structured: st}
	}
	fmt.Fprintf(&b, "%d tests reach the change (<= %d hops; %d files, %d changed nodes vs %s):\n", len(tests), depth, len(cs.files), len(cs.seeds), cs.against())
	for _, t := range tests {
		fmt.Fprintf(&b, "  [%d] %s  %s\n", t.Depth, t.ViaRelation, t.Qualified)
	}
	if len(tests) == 0 {
		b.WriteString("  (no test in the graph reaches the change; tests reached only by dynamic dispatch, or inline tests the extractor does not mark, are not seen)\n")
	}
	if n := unmodelled(cs); n > 0 {
		fmt.Fprintf(&b, "Note: %d changed files are not in the graph (new since extraction, or not code); their dependents are unknown: re-run synaptic extract.\n", n)
	}
	return Result{Text: strings.TrimRight(b.String(), "\n"), Structured: st}
}

// unmodelled counts changed files the graph has no node for.
func unmodelled(cs changeSet) int {
	n := 0
	for _, f := range cs.files {
		if f.GraphPath == "" {
			n++
		}
	}
	return n
}
