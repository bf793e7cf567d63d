package analysis

import (
	"cmp"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// God is one hub: Rank is 1-based and absolute (it does not restart with
// offset); Degree is in + out edges of every relation, as the tools show it;
// Tests counts the test nodes that reach it (reverse impact), 0 marking an
// untested hub.
type God struct {
	Node   int32
	Rank   int
	Degree int
	Tests  int
}

// MaxGodNodes caps one page of GodNodes.
const MaxGodNodes = 200

// genericNames are bare names that are hubs in every codebase and say
// nothing about this one: language builtins and typing names, framework
// types, and universal method names. Compared with graph.BareName.
var genericNames = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`
		new get set string error init main len cap append make copy close delete
		read write run start stop reset name id type value key data args kwargs self this
		str int int64 float bool byte bytes rune list dict map tuple set object any interface
		print println printf sprintf fprintf errorf fatal fatalf log logf panic recover
		equal equals hashcode tostring __init__ __str__ __repr__ __eq__ __hash__ constructor
		default clone size next dispose close open err ok ctx context options config
		optional union callable mock os json re sys vec arc rc box hashmap hashset option result
		task ienumerable guid fact theory assert expect describe it test setup teardown
		dependencies version description
	`) {
		genericNames[n] = true
		maxGeneric = max(maxGeneric, len(n))
	}
}

// Test-reach walk bounds: reverse calls/references up to godDepth hops,
// and no further level once godVisit nodes are visited. Tests usually reach
// a hub within a few hops; the cap keeps a hub called from everywhere cheap.
// It is checked between levels only, so the count is a function of the
// graph and not of edge order.
const (
	godDepth = 4
	godVisit = 50000
)

// isNoise reports whether node i cannot be a god node: files, packages and
// modules (containment makes them hubs by construction), external stubs and
// concepts (no source file), nodes labelled like their file, test code, and
// generic names.
func isNoise(x *graph.Index, i int32) bool {
	n := x.Node(i)
	switch {
	case n.SourceFile == "", n.IsTest:
		return true
	case n.Kind == "file", n.Kind == "package", n.Kind == "module", n.Kind == "namespace", n.Kind == "directory":
		return true
	case n.Label == path.Base(n.SourceFile):
		return true
	}
	return isGeneric(n.Label)
}

// maxGeneric is the length of the longest generic name.
var maxGeneric int

// isGeneric is genericNames[graph.BareName(label)] without lower-casing
// into a new string: isNoise asks it for every node, twice a report.
func isGeneric(label string) bool {
	l := strings.TrimPrefix(strings.TrimSuffix(label, "()"), ".")
	var buf [32]byte
	if len(l) > maxGeneric || len(l) > len(buf) {
		// Longer than every generic name; only lower-casing non-ASCII
		// can shorten it.
		return !isASCII(l) && genericNames[graph.BareName(label)]
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c >= utf8.RuneSelf {
			return genericNames[graph.BareName(label)]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return genericNames[string(buf[:len(l)])]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ranking returns the god-node candidates once per Index.
func ranking(x *graph.Index) []int32 {
	d := derive(x)
	d.rankOnce.Do(func() {
		_, rank := byID(x)
		for i := range int32(x.Len()) {
			if x.Degree(i) > 0 && !isNoise(x, i) {
				d.ranked = append(d.ranked, i)
			}
		}
		slices.SortFunc(d.ranked, func(a, b int32) int {
			return cmp.Or(cmp.Compare(x.Degree(b), x.Degree(a)), cmp.Compare(rank[a], rank[b]))
		})
	})
	return d.ranked
}

// GodNodes returns the hubs ranked offset+1 .. offset+topN (topN capped at
// MaxGodNodes) and how many nodes are ranked in all.
func GodNodes(x *graph.Index, topN, offset int) (gods []God, total int) {
	ranked := ranking(x)
	total = len(ranked)
	topN = min(max(topN, 0), MaxGodNodes)
	offset = max(offset, 0)
	if offset >= total || topN == 0 {
		return nil, total
	}
	page := ranked[offset:min(total, offset+topN)]
	tests := testsOf(x, page)
	gods = make([]God, len(page))
	for k, i := range page {
		gods[k] = God{Node: i, Rank: offset + k + 1, Degree: x.Degree(i), Tests: tests[k]}
	}
	return gods, total
}

// walker does bounded reverse-impact walks; its visit stamps are reused
// across the hubs of one call.
type walker struct {
	x     *graph.Index
	stamp []int32
	gen   int32
	cur   []int32
	next  []int32
}

func newWalker(x *graph.Index) *walker { return &walker{x: x, stamp: make([]int32, x.Len())} }

// testsReaching counts the test nodes (test functions, and test files
// whose top-level code calls in) from which node i
// is reached, walking back along calls and references; from a type it also
// steps to its methods, since a test calling a method exercises the type.
func (w *walker) testsReaching(i int32) int {
	x := w.x
	w.gen++
	w.stamp[i] = w.gen
	w.cur = append(w.cur[:0], i)
	visited, tests := 1, 0
	for depth := 0; depth < godDepth && len(w.cur) > 0 && visited < godVisit; depth++ {
		w.next = w.next[:0]
		for _, v := range w.cur {
			visit := func(u int32) {
				if u < 0 || w.stamp[u] == w.gen {
					return
				}
				w.stamp[u] = w.gen
				visited++
				w.next = append(w.next, u)
				// A test file's node counts when it is reached: it was
				// reached through a call or reference made by the file's
				// top-level code, which is how Jest/Vitest (describe/it
				// callbacks), Mocha and script-style tests call the code.
				if x.Node(u).IsTest {
					tests++
				}
			}
			for _, e := range x.In(v) {
				switch x.Edge(e).Relation {
				case "calls", "references":
					s, _ := x.Ends(e)
					visit(s)
				}
			}
			for _, e := range x.Out(v) {
				if x.Edge(e).Relation == "method" {
					_, t := x.Ends(e)
					visit(t)
				}
			}
		}
		w.cur, w.next = w.next, w.cur
	}
	return tests
}
