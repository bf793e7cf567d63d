package synql

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// PatternName names a built-in architectural pattern.
type PatternName string

// The built-in patterns.
const (
	PatternSingleton      PatternName = "singleton"
	PatternFactory        PatternName = "factory"
	PatternObserver       PatternName = "observer"
	PatternServiceLocator PatternName = "service-locator"
	PatternGodClass       PatternName = "god-class"
)

// Patterns lists the built-in patterns in a stable order.
var Patterns = []PatternName{PatternSingleton, PatternFactory, PatternObserver, PatternServiceLocator, PatternGodClass}

// God-class thresholds: effective LOC and distinct outgoing neighbours.
const (
	godClassLOC    = 500
	godClassFanOut = 20
)

// ErrNoCommunities is service-locator's answer on a graph without
// community ids, which it needs.
var ErrNoCommunities = errors.New("service-locator needs community ids, and this graph has none (re-run synaptic extract)")

// isClassLike: the kinds a class-level pattern looks at.
func isClassLike(kind string) bool { return typeKinds[strings.ToLower(kind)] }

// Pattern evaluates a named pattern: one-node rows ordered by file and line.
func (e *Engine) Pattern(name PatternName) ([]int32, error) {
	e.prepare()
	var keep func(i int32) bool
	switch name {
	case PatternGodClass:
		keep = func(i int32) bool {
			return isClassLike(e.x.Node(i).Kind) && e.effLOC[i] > godClassLOC && e.fanOut[i] > godClassFanOut
		}
	case PatternSingleton:
		keep = e.isSingleton
	case PatternFactory:
		keep = e.isFactory
	case PatternObserver:
		keep = e.isObserver
	case PatternServiceLocator:
		if !e.hasCommunities() {
			return nil, ErrNoCommunities
		}
		keep = e.isServiceLocator
	default:
		names := make([]string, len(Patterns))
		for i, p := range Patterns {
			names[i] = string(p)
		}
		return nil, fmt.Errorf("unknown pattern %q; the patterns are: %s", name, strings.Join(names, ", "))
	}
	var out []int32
	for i := range int32(e.x.Len()) {
		if keep(i) {
			out = append(out, i)
		}
	}
	e.sortByPlace(out)
	return out, nil
}

func (e *Engine) sortByPlace(ns []int32) {
	slices.SortFunc(ns, func(a, b int32) int {
		na, nb := e.x.Node(a), e.x.Node(b)
		if c := strings.Compare(na.SourceFile, nb.SourceFile); c != 0 {
			return c
		}
		if c := StartLine(na) - StartLine(nb); c != 0 {
			return c
		}
		return strings.Compare(na.ID, nb.ID)
	})
}

// ownMembers is a type and its members.
func (e *Engine) ownMembers(i int32) []int32 {
	out := []int32{i}
	for _, ed := range e.x.Out(i) {
		if memberRelations[e.x.Edge(ed).Relation] {
			_, t := e.x.Ends(ed)
			out = append(out, t)
		}
	}
	return out
}

// isSingleton: a class referenced as a field or return type by itself or
// one of its own members (the instance it hands out).
func (e *Engine) isSingleton(i int32) bool {
	if !isClassLike(e.x.Node(i).Kind) {
		return false
	}
	own := e.ownMembers(i)
	for _, ed := range e.x.In(i) {
		edge := e.x.Edge(ed)
		if edge.Relation != "references" || (edge.Context != "field" && edge.Context != "return_type") {
			continue
		}
		if src, _ := e.x.Ends(ed); slices.Contains(own, src) {
			return true
		}
	}
	return false
}

// implementers counts the distinct sources of implements/inherits edges
// into type i.
func (e *Engine) implementers(i int32) int {
	seen := map[int32]bool{}
	for _, ed := range e.x.In(i) {
		if r := e.x.Edge(ed).Relation; r == "implements" || r == "inherits" || r == "extends" {
			src, _ := e.x.Ends(ed)
			seen[src] = true
		}
	}
	return len(seen)
}

// refersToPolymorphic reports whether i has a references edge with context ctx to a
// type with at least two implementers.
func (e *Engine) refersToPolymorphic(i int32, ctx string) bool {
	for _, ed := range e.x.Out(i) {
		edge := e.x.Edge(ed)
		if edge.Relation != "references" || edge.Context != ctx {
			continue
		}
		if _, t := e.x.Ends(ed); t >= 0 && e.implementers(t) >= 2 {
			return true
		}
	}
	return false
}

// isFactory: a function or method whose declared result is a type with at
// least two implementations.
func (e *Engine) isFactory(i int32) bool {
	k := e.x.Node(i).Kind
	return (k == "function" || k == "method") && e.refersToPolymorphic(i, "return_type")
}

// isObserver: a class holding a field of a type with at least two
// implementations (its listeners).
func (e *Engine) isObserver(i int32) bool {
	if !isClassLike(e.x.Node(i).Kind) {
		return false
	}
	for _, m := range e.ownMembers(i) {
		if e.refersToPolymorphic(m, "field") {
			return true
		}
	}
	return false
}

// isServiceLocator: a class called or referenced from at least three
// communities: everything reaches through it.
func (e *Engine) isServiceLocator(i int32) bool {
	if !isClassLike(e.x.Node(i).Kind) {
		return false
	}
	comms := map[int]bool{}
	own := e.ownMembers(i)
	for _, m := range own {
		for _, ed := range e.x.In(m) {
			if r := e.x.Edge(ed).Relation; r != "calls" && r != "references" {
				continue
			}
			src, _ := e.x.Ends(ed)
			if c := e.x.Node(src).Community; c != nil && !slices.Contains(own, src) {
				comms[*c] = true
			}
		}
	}
	return len(comms) >= 3
}

func (e *Engine) hasCommunities() bool {
	for i := range int32(e.x.Len()) {
		if e.x.Node(i).Community != nil {
			return true
		}
	}
	return false
}

// Outline lists the symbols defined in files whose path contains file
// (literally), ordered by file and line; file nodes themselves are left
// out.
func (e *Engine) Outline(file string) []int32 {
	var out []int32
	for i := range int32(e.x.Len()) {
		n := e.x.Node(i)
		if n.SourceFile != "" && strings.Contains(n.SourceFile, file) && n.Kind != "file" {
			out = append(out, i)
		}
	}
	e.sortByPlace(out)
	return out
}
