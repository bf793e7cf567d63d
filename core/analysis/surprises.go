package analysis

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Surprise is one unexpected cross-community edge.
type Surprise struct {
	Edge  int32
	Score float64
	Why   string
}

// MaxSurprises caps Surprises' limit.
const MaxSurprises = 100

// notSurprising relations are expected to cross files and clusters: they
// are how modules are assembled, not hidden couplings.
var notSurprising = map[string]bool{"imports": true, "imports_from": true, "contains": true, "method": true, "re_exports": true}

// Periphery-to-hub: one end has at most peripheryDegree edges, the other
// at least hubDegree.
const (
	peripheryDegree = 2
	hubDegree       = 5
)

// Surprises returns the top limit cross-community edges by surprise. The
// score follows the original's: a confidence bonus (AMBIGUOUS 3, INFERRED 2,
// EXTRACTED 1), +2 when the ends differ in file type or language, +2 for
// different top-level directories, +1 for different communities, +1 for a
// peripheral node reaching a hub; an INFERRED call or use that crosses
// languages or file types is likely a name collision and keeps only the
// hub bonus. Only edges between symbols (not files, packages, stubs or
// generic names such as builtin types) of different files and communities
// count. Ties go to lower confidence
// scores, then source id, target id, relation and context; each target
// appears once.
func Surprises(x *graph.Index, limit int) []Surprise {
	limit = min(limit, MaxSurprises)
	if limit <= 0 {
		return nil
	}
	comm := communityOf(x)
	var out []Surprise
	for e := range int32(len(x.G.Edges)) {
		ed := x.Edge(e)
		if notSurprising[ed.Relation] {
			continue
		}
		s, t := x.Ends(e)
		if s < 0 || s == t || comm[s] < 0 || comm[t] < 0 || comm[s] == comm[t] {
			continue
		}
		a, b := x.Node(s), x.Node(t)
		if symbolless(a) || symbolless(b) || a.SourceFile == b.SourceFile ||
			genericNames[graph.BareName(a.Label)] || genericNames[graph.BareName(b.Label)] {
			continue
		}
		score, _ := surprise(x, e, s, t, comm, false)
		out = append(out, Surprise{Edge: e, Score: score})
	}
	_, rank := byID(x)
	slices.SortFunc(out, func(p, q Surprise) int {
		if c := cmp.Compare(q.Score, p.Score); c != 0 {
			return c
		}
		ep, eq := x.Edge(p.Edge), x.Edge(q.Edge)
		ps, pt := x.Ends(p.Edge)
		qs, qt := x.Ends(q.Edge)
		return cmp.Or(cmp.Compare(ep.Score(), eq.Score()), cmp.Compare(rank[ps], rank[qs]), cmp.Compare(rank[pt], rank[qt]),
			strings.Compare(ep.Relation, eq.Relation), strings.Compare(ep.Context, eq.Context))
	})
	// One surprise per target: sibling files (per-OS variants, generated
	// twins) otherwise fill the list with the same connection.
	seen := map[int32]bool{}
	keep := out[:0]
	for _, su := range out {
		if _, t := x.Ends(su.Edge); !seen[t] && len(keep) < limit {
			seen[t] = true
			keep = append(keep, su)
		}
	}
	out = keep
	for k := range out {
		s, t := x.Ends(out[k].Edge)
		_, out[k].Why = surprise(x, out[k].Edge, s, t, comm, true)
	}
	return out
}

// symbolless reports nodes that are containers or stubs, not symbols.
func symbolless(n *graph.Node) bool {
	switch n.Kind {
	case "file", "package", "module", "namespace", "directory":
		return true
	}
	return n.SourceFile == ""
}

// surprise scores edge e (s -> t); with explain it also says why. Scoring
// alone runs on every candidate edge, so it formats nothing.
func surprise(x *graph.Index, e, s, t int32, comm []int32, explain bool) (float64, string) {
	ed := x.Edge(e)
	a, b := x.Node(s), x.Node(t)
	var why []string
	note := func(format string, args ...any) {
		if explain {
			why = append(why, fmt.Sprintf(format, args...))
		}
	}
	bonus := 0.0
	switch ed.Confidence {
	case graph.Ambiguous:
		bonus = 3
	case graph.Inferred:
		bonus = 2
	case graph.Extracted:
		bonus = 1
	}
	crossKind := (a.FileType != b.FileType && a.FileType != "" && b.FileType != "") ||
		(a.Language != b.Language && a.Language != "" && b.Language != "")
	suppressed := ed.Confidence == graph.Inferred && (ed.Relation == "calls" || ed.Relation == "uses") && crossKind
	score := 0.0
	if !suppressed {
		score += bonus
		note("%s %s", ed.Confidence, ed.Relation)
		if crossKind {
			score += 2
			note("crosses %s to %s", kindOf(a), kindOf(b))
		}
		if da, db := topDir(a.SourceFile), topDir(b.SourceFile); da != db {
			score += 2
			note("from %s/ to %s/", da, db)
		}
		score++
		note("joins communities %d and %d", comm[s], comm[t])
	} else {
		note("%s %s across languages (possible name collision)", ed.Confidence, ed.Relation)
	}
	ds, dt := x.Degree(s), x.Degree(t)
	switch {
	case ds <= peripheryDegree && dt >= hubDegree:
		score++
		note("peripheral %s (degree %d) reaches hub %s (degree %d)", a.Label, ds, b.Label, dt)
	case dt <= peripheryDegree && ds >= hubDegree:
		score++
		note("hub %s (degree %d) reaches peripheral %s (degree %d)", a.Label, ds, b.Label, dt)
	}
	return score, strings.Join(why, "; ")
}

func kindOf(n *graph.Node) string {
	if n.Language != "" {
		return n.FileType + "/" + n.Language
	}
	return n.FileType
}

// topDir is the first path segment of a repo-relative file, or "." for a
// file at the root.
func topDir(file string) string {
	if i := strings.IndexByte(file, '/'); i > 0 {
		return file[:i]
	}
	return "."
}
