package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Question is a suggested question about the graph and why it is worth
// asking.
type Question struct {
	Text, Why string
}

// MaxQuestions is how many questions Questions returns at most.
const MaxQuestions = 7

// Questions returns about seven questions generated from the graph, in
// priority order, each kind contributing a bounded number:
//  1. AMBIGUOUS edges (up to 2): which candidate is meant.
//  2. Bridge nodes (up to 2): the symbols with edges into the most other
//     communities (a cheap, deterministic stand-in for betweenness).
//  3. Untested hubs (up to 2): top-20 god nodes no test reaches.
//  4. Inferred hubs (1): a top-5 god node with at least 2 INFERRED edges.
//  5. An inferred/ambiguous cluster (1): the community of at least 5 nodes
//     with the highest share (at least 20%) of non-EXTRACTED edges.
//  6. An import cycle (1).
//  7. Isolated nodes (1): symbols with at most one edge.
//
// When nothing applies, one placeholder question says so.
func Questions(x *graph.Index) []Question {
	var qs []Question
	add := func(list []Question, most int) { qs = append(qs, list[:min(most, len(list))]...) }
	add(ambiguousQuestions(x), 2)
	add(bridgeQuestions(x), 2)
	gods, _ := GodNodes(x, 20, 0)
	add(untestedQuestions(x, gods), 2)
	add(inferredHubQuestions(x, gods), 1)
	add(clusterQuestions(x), 1)
	if c := ImportCycles(x, 5); len(c) > 0 {
		add([]Question{cycleQuestion(x, c[0], len(c))}, 1)
	}
	add(isolatedQuestions(x), 1)
	if len(qs) == 0 {
		return []Question{{
			Text: "Which parts of this codebase matter most?",
			Why:  "The graph shows no ambiguous edges, bridges, untested hubs, cycles or isolated symbols to start from.",
		}}
	}
	return qs[:min(len(qs), MaxQuestions)]
}

func ambiguousQuestions(x *graph.Index) []Question {
	var es []int32
	for e := range int32(len(x.G.Edges)) {
		if s, _ := x.Ends(e); s >= 0 && x.Edge(e).Confidence == graph.Ambiguous {
			es = append(es, e)
		}
	}
	slices.SortFunc(es, func(a, b int32) int { return compareEdgeKeys(x.Edge(a), x.Edge(b)) })
	var qs []Question
	for _, e := range es[:min(2, len(es))] {
		s, t := x.Ends(e)
		ed := x.Edge(e)
		qs = append(qs, Question{
			Text: fmt.Sprintf("What is the exact relationship between %s and %s?", Ref(x, s), Ref(x, t)),
			Why:  fmt.Sprintf("The %s edge is AMBIGUOUS: extraction saw several candidates and could not tell which one is meant.", ed.Relation),
		})
	}
	return qs
}

func compareEdgeKeys(a, b *graph.Edge) int {
	return cmp.Or(strings.Compare(a.Source, b.Source), strings.Compare(a.Target, b.Target),
		strings.Compare(a.Relation, b.Relation), strings.Compare(a.Context, b.Context))
}

// bridgeQuestions ranks non-noise symbols by the number of distinct other
// communities among their neighbours (at least 3), ties by degree then id.
func bridgeQuestions(x *graph.Index) []Question {
	comm := communityOf(x)
	type bridge struct {
		node  int32
		comms []int32
	}
	var bs []bridge
	seen := make([]int32, 0, 16)
	for i := range int32(x.Len()) {
		if comm[i] < 0 || isNoise(x, i) || x.Degree(i) < 3 {
			continue
		}
		seen = seen[:0]
		for _, list := range [2][]int32{x.Out(i), x.In(i)} {
			for _, e := range list {
				u := x.Other(e, i)
				if c := comm[u]; c >= 0 && c != comm[i] && !symbolless(x.Node(u)) && !slices.Contains(seen, c) {
					seen = append(seen, c)
				}
			}
		}
		if len(seen) >= 3 {
			bs = append(bs, bridge{i, slices.Sorted(slices.Values(seen))})
		}
	}
	slices.SortFunc(bs, func(a, b bridge) int {
		return cmp.Or(cmp.Compare(len(b.comms), len(a.comms)), cmp.Compare(x.Degree(b.node), x.Degree(a.node)),
			strings.Compare(x.Node(a.node).ID, x.Node(b.node).ID))
	})
	var qs []Question
	for _, b := range bs[:min(2, len(bs))] {
		ids := make([]string, 0, 4)
		for _, c := range b.comms[:min(4, len(b.comms))] {
			ids = append(ids, fmt.Sprint(c))
		}
		more := ""
		if len(b.comms) > 4 {
			more = ", …"
		}
		qs = append(qs, Question{
			Text: fmt.Sprintf("Why does %s connect %d other communities?", Ref(x, b.node), len(b.comms)),
			Why: fmt.Sprintf("It links community %d to communities %s%s; a change to it ripples across clusters.",
				comm[b.node], strings.Join(ids, ", "), more),
		})
	}
	return qs
}

func untestedQuestions(x *graph.Index, gods []God) []Question {
	var qs []Question
	for _, g := range gods {
		if g.Tests == 0 {
			qs = append(qs, Question{
				Text: fmt.Sprintf("What depends on %s, and what would break if it changed?", Ref(x, g.Node)),
				Why:  fmt.Sprintf("It is god node #%d with %d connections and no test reaches it.", g.Rank, g.Degree),
			})
		}
	}
	return qs
}

func inferredHubQuestions(x *graph.Index, gods []God) []Question {
	var qs []Question
	for _, g := range gods[:min(5, len(gods))] {
		n := 0
		for _, list := range [2][]int32{x.Out(g.Node), x.In(g.Node)} {
			for _, e := range list {
				if x.Edge(e).Confidence == graph.Inferred {
					n++
				}
			}
		}
		if n >= 2 {
			qs = append(qs, Question{
				Text: fmt.Sprintf("Are the %d inferred connections of %s correct?", n, Ref(x, g.Node)),
				Why:  fmt.Sprintf("It is god node #%d and %d of its %d edges were resolved by heuristics, not read from the source.", g.Rank, n, g.Degree),
			})
		}
	}
	return qs
}

// clusterQuestions finds the community (>= 5 members) whose edges (with at
// least one end inside) are most often INFERRED or AMBIGUOUS.
func clusterQuestions(x *graph.Index) []Question {
	comms := CommunitiesOf(x)
	comm := communityOf(x)
	type cl struct {
		c           *Community
		weak, total int
	}
	var best *cl
	for k := range comms {
		c := &comms[k]
		if len(c.Members) < 5 {
			continue
		}
		cur := cl{c: c}
		for _, i := range c.Members {
			for _, e := range x.Out(i) {
				cur.total++
				if x.Edge(e).Confidence != graph.Extracted {
					cur.weak++
				}
			}
			for _, e := range x.In(i) {
				if s, _ := x.Ends(e); comm[s] != int32(c.ID) {
					cur.total++
					if x.Edge(e).Confidence != graph.Extracted {
						cur.weak++
					}
				}
			}
		}
		if cur.total == 0 || cur.weak*5 < cur.total {
			continue
		}
		if best == nil || cur.weak*best.total > best.weak*cur.total {
			best = &cur
		}
	}
	if best == nil {
		return nil
	}
	return []Question{{
		Text: fmt.Sprintf("How reliable is community %d (%s)?", best.c.ID, best.c.Name),
		Why:  fmt.Sprintf("%d of its %d edges are INFERRED or AMBIGUOUS rather than read from the source.", best.weak, best.total),
	}}
}

func cycleQuestion(x *graph.Index, c []int32, total int) Question {
	names := make([]string, len(c))
	for j, i := range c {
		names[j] = Ref(x, i)
	}
	why := "Import cycles couple modules so they can only change together."
	if total > 1 {
		count := fmt.Sprint(total)
		if total >= MaxCycles {
			count += "+"
		}
		why = fmt.Sprintf("It is the shortest of %s import cycles; cycles couple modules so they can only change together.", count)
	}
	if len(c) == 2 {
		return Question{Text: fmt.Sprintf("Why do %s and %s import each other?", names[0], names[1]), Why: why}
	}
	return Question{Text: fmt.Sprintf("Can the import cycle %s -> %s be broken?", strings.Join(names, " -> "), names[0]), Why: why}
}

// isolatedQuestions names up to 3 isolated symbols (see Isolated).
func isolatedQuestions(x *graph.Index) []Question {
	iso := Isolated(x)
	if len(iso) == 0 {
		return nil
	}
	names := make([]string, 0, 3)
	for _, i := range iso[:min(3, len(iso))] {
		names = append(names, Ref(x, i))
	}
	return []Question{{
		Text: fmt.Sprintf("What are %s for?", strings.Join(names, ", ")),
		Why:  fmt.Sprintf("%s no connection besides their container: dead code, dynamic entry points or edges extraction missed.", countHave(len(iso), "symbol")),
	}}
}

// Isolated returns, sorted by id, the functions, methods and types (not
// data members, files, packages, stubs or tests) whose only edges are
// their own containment: nothing calls, references or imports them and
// they use nothing. It is computed once per Index and shared: callers
// must not modify it.
func Isolated(x *graph.Index) []int32 {
	d := derive(x)
	d.memoMu.Lock()
	defer d.memoMu.Unlock()
	if !d.isoDone {
		d.isolated, d.isoDone = isolated(x), true
	}
	return d.isolated
}

func isolated(x *graph.Index) []int32 {
	var iso []int32
	for i := range int32(x.Len()) {
		n := x.Node(i)
		if symbolless(n) || n.IsTest {
			continue
		}
		switch n.Kind {
		case "field", "constant", "variable", "property", "parameter":
			continue
		}
		if linked(x, i) {
			continue
		}
		iso = append(iso, i)
	}
	slices.SortFunc(iso, func(a, b int32) int { return strings.Compare(x.Node(a).ID, x.Node(b).ID) })
	return iso
}

// linked reports whether node i has an edge other than containment into it.
func linked(x *graph.Index, i int32) bool {
	for _, e := range x.Out(i) {
		if s, t := x.Ends(e); s != t {
			return true
		}
	}
	for _, e := range x.In(i) {
		switch x.Edge(e).Relation {
		case "contains", "method":
		default:
			return true
		}
	}
	return false
}

// countHave is "1 symbol has" or "n symbols have".
func countHave(n int, noun string) string {
	if n == 1 {
		return "1 " + noun + " has"
	}
	return fmt.Sprintf("%d %ss have", n, noun)
}

// Ref names node i for a reader in a way that resolves back to it: the path
// for a file node, else graph.Index.Qualified ("label@file", or the id of a
// node without a file).
func Ref(x *graph.Index, i int32) string {
	if n := x.Node(i); n.Kind == "file" && n.SourceFile != "" {
		return n.SourceFile
	}
	return x.Qualified(i)
}
