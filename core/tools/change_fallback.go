package tools

import (
	"fmt"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Static edges miss calls through interfaces, function values and
// receivers whose type the extractor could not infer, so a changed symbol
// that no test reaches is not proof that no test runs it. For such a seed
// the selection widens, in steps, until some test is reached, and every
// test found this way says which step found it:
//
//  1. for a method called through an interface, the tests named after
//     its type (TestNYCbCrAAlpha for NYCbCrA.RGBA: no provider is called,
//     the tests build the value as a literal);
//  2. for a property, the tests that read an attribute of its name
//     (change_attr.go);
//  3. for a method, the tests that reach a call of its name on a receiver
//     of unknown type, however many methods share the name (toml's
//     ErrorWithUsage calls u.Usage() on an interface{ Usage() string }
//     it asserts: the tests reaching that call run errParseDate.Usage,
//     the tests merely sharing its type do not);
//  4. the seed's owning type and its other members (a test calling a
//     sibling method or the constructor usually exercises the method);
//  5. every symbol of the seed's file.
//
// Seeds that a test reaches statically are not widened.

// fallbackStep names how a widened selection was found.
type fallbackStep string

const (
	fallbackNamed    fallbackStep = "fallback: named after the type of"
	fallbackUnlinked fallbackStep = "fallback: calls its name on an unknown receiver,"
	fallbackType     fallbackStep = "fallback: same type as"
	fallbackFile     fallbackStep = "fallback: same file as"
)

// widenedTests returns the tests found by widening the seeds of cs that no
// test reaches (unreached, by position in cs.seeds; the rows'
// via_relation names the step and the seed).
func (s *snapshot) widenedTests(cs changeSet, unreached []bool, rels []bool, depth int) []impactHit {
	var out []impactHit
	seen := map[int32]bool{}
	for k, sd := range cs.seeds {
		n := s.x.Node(sd)
		if n.Kind == "file" || n.Kind == "package" || graph.IsTestNode(n) || !unreached[k] {
			continue
		}
		if t, dyn := s.dispatchable(sd); dyn {
			if named := s.testsNamed(n, s.x.Node(t).Label, fmt.Sprintf("%s %s", fallbackNamed, s.label(sd)), seen); len(named) > 0 {
				out = append(out, named...)
				continue
			}
		}
		if readers := s.attributeReaders(cs.root, sd, rels, depth); len(readers) > 0 {
			for _, h := range readers {
				if !seen[h.node] {
					seen[h.node] = true
					out = append(out, h)
				}
			}
			continue
		}
		if found := s.unlinkedNameTests(sd, rels, depth); len(found) > 0 {
			for _, h := range found {
				if !seen[h.node] {
					seen[h.node] = true
					out = append(out, h)
				}
			}
			continue
		}
		for _, step := range []fallbackStep{fallbackType, fallbackFile} {
			wider := s.widen(sd, step)
			if len(wider) == 0 {
				continue
			}
			var found []impactHit
			via, runs := fmt.Sprintf("%s %s", step, s.label(sd)), s.walkFacts().runs
			for _, h := range s.testWalk(wider, s.surfaceImpact(wider, rels, depth), rels, depth) {
				if runs[h.node] {
					h.via = via
					found = append(found, h)
				}
			}
			if len(found) > 0 {
				for _, h := range found {
					if !seen[h.node] {
						seen[h.node] = true
						out = append(out, h)
					}
				}
				break
			}
		}
	}
	return out
}

// unlinkedNameTests is step 3: the runnable tests within depth of the
// functions that call sd's name on a receiver of unknown type (each such
// caller one hop from sd), in sd's Go package, or elsewhere in sd's
// repository and language: a call of .addr() in another Go package says
// nothing about cmd/compile's dumper.addr.
func (s *snapshot) unlinkedNameTests(sd int32, rels []bool, depth int) []impactHit {
	n := s.x.Node(sd)
	if !isMethodKind(n.Kind) || depth < 1 {
		return nil
	}
	f := s.walkFacts()
	var callers []int32
	for _, c := range s.unlinkedIdx().callers[bareName(n.Label)] {
		cn := s.x.Node(c)
		if n.Language == "go" && f.dir[c] == f.dir[sd] || n.Language != "go" && cn.Language == n.Language && cn.Repo == n.Repo {
			callers = append(callers, c)
		}
	}
	if len(callers) == 0 {
		return nil
	}
	hits := make([]impactHit, 0, len(callers))
	for _, c := range callers {
		hits = append(hits, impactHit{node: c, depth: 1})
	}
	for _, h := range s.surfaceImpact(callers, rels, depth-1) {
		h.depth++
		hits = append(hits, h)
	}
	via := fmt.Sprintf("%s %s", fallbackUnlinked, s.label(sd))
	runs := f.runs
	var found []impactHit
	for _, h := range s.testWalk(callers, hits, rels, depth) {
		if runs[h.node] {
			h.via = via
			found = append(found, h)
		}
	}
	return found
}

// reachesTest reports whether a test the default command runs is within
// depth of seeds (through test helpers included).
func (s *snapshot) reachesTest(seeds []int32, rels []bool, depth int) bool {
	hits := s.testWalk(seeds, s.surfaceImpact(seeds, rels, depth), rels, depth)
	runs := s.walkFacts().runs
	return slices.ContainsFunc(hits, func(h impactHit) bool { return runs[h.node] })
}

// widen returns the seeds of one step for sd.
func (s *snapshot) widen(sd int32, step fallbackStep) []int32 {
	switch step {
	case fallbackType:
		for _, e := range s.x.In(sd) {
			if owner, _ := s.x.Ends(e); memberRelations[s.x.Edge(e).Relation] && s.methodOwner(owner) {
				return append([]int32{owner}, s.members(owner)...)
			}
		}
	case fallbackFile:
		var out []int32
		for _, i := range s.x.FileNodes(s.x.Node(sd).SourceFile) {
			if k := s.x.Node(i).Kind; k != "file" && k != "package" {
				out = append(out, i)
			}
		}
		return out
	}
	return nil
}

// testHelperHops bounds the extra walk inside test code: from a test
// helper the walk goes on (through test code only) to the tests that
// call it, however deep the helper chain, up to this many hops.
const testHelperHops = 6

// throughTestCode extends hits: from every reached test-code node it walks
// further back through test-code nodes only, so a helper the depth bound
// stopped at still leads to the tests that use it.
func (s *snapshot) throughTestCode(hits []impactHit, rels []bool) []impactHit {
	f := s.walkFacts()
	seen := s.p.scratch(s.x.Len())
	defer s.p.release(seen)
	var frontier []impactHit
	for _, h := range hits {
		seen.mark(h.node)
		if f.test[h.node] {
			frontier = append(frontier, h)
		}
	}
	var out []impactHit
	for k := 0; k < testHelperHops && len(frontier) > 0; k++ {
		var next []impactHit
		for _, h := range frontier {
			for _, e := range s.x.In(h.node) {
				if !rels[s.p.relID[e]] {
					continue
				}
				src, _ := s.x.Ends(e)
				if seen.has(src) || !f.test[src] {
					continue
				}
				seen.mark(src)
				nh := impactHit{node: src, depth: h.depth + 1, via: s.p.relNames[s.p.relID[e]] + " (through test helpers)"}
				out = append(out, nh)
				next = append(next, nh)
			}
		}
		frontier = next
	}
	return out
}

// runsByDefault reports a test the default test command runs: Go
// benchmarks are test code but run only with -bench, so reaching one
// does not count as covering a change.
func runsByDefault(n *graph.Node) bool {
	return graph.IsTestNode(n) && !(n.Language == "go" && strings.HasPrefix(n.Label, "Benchmark"))
}
