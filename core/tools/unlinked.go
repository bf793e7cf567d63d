package tools

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Unlinked member calls (core/resolve/unlinked.go): a caller's node lists,
// under "unlinked_calls", the names of its calls on receivers whose type
// is unknown. find_callers reports them next to the linked callers, so a
// method called only that way never reads as unused, and test selection
// keeps the tests that make such calls: they may run the method.

// unlinkedIndex maps a method name to the nodes with an unlinked call of
// that name, in node order, and counts the methods declaring each name.
type unlinkedIndex struct {
	callers map[string][]int32
	methods map[string]int
	names   map[int32][]string // node -> its unlinked call names, decoded once
}

// unlinkedState is the lazily built index of one snapshot.
type unlinkedState struct {
	once sync.Once
	idx  unlinkedIndex
}

// maxUnlinkedTargets is how many methods may share a name for an unlinked
// call of it to count as evidence: __init__ or close are declared by so
// many types that such a call says nothing about any one of them.
const maxUnlinkedTargets = 4

func (s *snapshot) unlinkedIdx() unlinkedIndex {
	s.unlinked.once.Do(func() {
		idx := unlinkedIndex{callers: map[string][]int32{}, methods: map[string]int{}, names: map[int32][]string{}}
		for i := range s.g.Nodes {
			if isMethodKind(s.g.Nodes[i].Kind) {
				idx.methods[bareName(s.g.Nodes[i].Label)]++
			}
			raw, ok := s.g.Nodes[i].Extra["unlinked_calls"]
			if !ok {
				continue
			}
			var names []string
			if json.Unmarshal(raw, &names) != nil {
				continue
			}
			idx.names[int32(i)] = names
			for _, n := range names {
				idx.callers[n] = append(idx.callers[n], int32(i))
			}
		}
		s.unlinked.idx = idx
	})
	return s.unlinked.idx
}

// unlinkedCallers returns the nodes calling method i's name on a receiver
// of unknown type; nil when i is not a method or too many methods share
// its name for such a call to point at it.
func (s *snapshot) unlinkedCallers(i int32) []int32 {
	if !isMethodKind(s.x.Node(i).Kind) {
		return nil
	}
	idx, name := s.unlinkedIdx(), bareName(s.x.Node(i).Label)
	if idx.methods[name] > maxUnlinkedTargets {
		return nil
	}
	return idx.callers[name]
}

func isMethodKind(kind string) bool {
	return kind == "method" || kind == "constructor" || kind == "property"
}

// maxUnlinkedShown bounds the unlinked callers find_callers names.
const maxUnlinkedShown = 5

// unlinkedNote is find_callers' line about unlinked callers of i, with
// the seeds' own nodes left out; "" when there are none.
func (s *snapshot) unlinkedNote(i int32, isSeed func(int32) bool) string {
	var callers []int32
	for _, c := range s.unlinkedCallers(i) {
		if !isSeed(c) {
			callers = append(callers, c)
		}
	}
	if len(callers) == 0 {
		return ""
	}
	slices.SortFunc(callers, s.byDegree)
	names := make([]string, 0, maxUnlinkedShown)
	for _, c := range callers[:min(len(callers), maxUnlinkedShown)] {
		names = append(names, s.qualified(c))
	}
	more := ""
	if n := len(callers) - len(names); n > 0 {
		more = fmt.Sprintf(" (+%d more)", n)
	}
	return fmt.Sprintf("%d function(s) call .%s() on a receiver of unknown type, not linked, and may run it: %s%s",
		len(callers), sanitize(bareName(s.x.Node(i).Label)), strings.Join(names, ", "), more)
}

// unlinkedHits continues test selection's walk from the unlinked callers
// of every method among the seeds and hits, spending what is left of
// depth; each such caller is one hop further than the method. What it
// reaches is a start too: before_set <- (unlinked) set <- (unlinked)
// the tests calling cf.set().
func (s *snapshot) unlinkedHits(seeds []int32, hits []impactHit, rels []bool, depth int) []impactHit {
	test := s.walkFacts().test
	seen := s.p.scratch(s.x.Len())
	defer s.p.release(seen)
	starts := make([]impactHit, 0, len(seeds)+len(hits))
	for _, sd := range seeds {
		seen.mark(sd)
		starts = append(starts, impactHit{node: sd})
	}
	for _, h := range hits {
		seen.mark(h.node)
		starts = append(starts, h)
	}
	var out []impactHit
	for k := 0; k < len(starts); k++ {
		st := starts[k]
		if st.depth >= depth {
			continue
		}
		callers := s.unlinkedCallers(st.node)
		if len(callers) == 0 {
			continue
		}
		via := fmt.Sprintf("calls .%s() (receiver type unknown)", bareName(s.x.Node(st.node).Label))
		var from []int32
		for _, c := range callers {
			if !seen.has(c) {
				seen.mark(c)
				from = append(from, c)
				h := impactHit{node: c, depth: st.depth + 1, via: via}
				out, starts = append(out, h), append(starts, h)
			}
		}
		for _, h := range s.reverseImpact(from, rels, depth-st.depth-1) {
			if !seen.has(h.node) {
				seen.mark(h.node)
				h := impactHit{node: h.node, depth: st.depth + 1 + h.depth, via: testVia(test, h, via)}
				out, starts = append(out, h), append(starts, h)
			}
		}
	}
	return out
}

// unlinkedNames returns the names of node i's unlinked member calls.
func (s *snapshot) unlinkedNames(i int32) []string { return s.unlinkedIdx().names[i] }
