package tools

import (
	"fmt"
	"regexp"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// RenameCheck is the verdict of `synaptic refactor verify` on a plan
// after its edits were applied and the tree re-extracted.
type RenameCheck struct {
	SitesChecked int
	Problems     []string // empty: the rename is complete
	Dependents   int      // dependents of the new symbol in the new graph
}

// OK reports a complete rename.
func (r RenameCheck) OK() bool { return len(r.Problems) == 0 }

// VerifyRename checks p against the re-extracted graph g and the edited
// sources under root: every planned site now names the new symbol, the
// old symbol is gone from its file, the new one is defined there, and its
// dependents still link to it.
func VerifyRename(p RenamePlan, g *graph.Graph, root string) RenameCheck {
	var r RenameCheck
	src := newSourceCache(root)
	newWord := regexp.MustCompile(`\b` + regexp.QuoteMeta(p.New) + `\b`)
	oldWord := regexp.MustCompile(`\b` + regexp.QuoteMeta(p.Old) + `\b`)
	// The k-th edit on a line moves by k×(len(new)−len(old)) once the
	// edits before it on that line are applied.
	seen := map[string]int{}
	for _, e := range p.Edits {
		r.SitesChecked++
		key := fmt.Sprintf("%s:%d", e.File, e.Line)
		col := e.Col - 1 + seen[key]*(len(p.New)-len(p.Old))
		seen[key]++
		line, ok := src.line(e.File, e.Line)
		switch {
		case !ok:
			r.Problems = append(r.Problems, fmt.Sprintf("%s:%d: cannot read the line under %s", e.File, e.Line, root))
		case col >= 0 && col+len(p.New) <= len(line) && line[col:col+len(p.New)] == p.New:
		case newWord.MatchString(line) && !oldWord.MatchString(line):
			// Renamed, at another column (the line was reformatted).
		default:
			r.Problems = append(r.Problems, fmt.Sprintf("%s:%d:%d: still %q, not %q: %s", e.File, e.Line, e.Col, p.Old, p.New, sanitize(line)))
		}
	}
	x := graph.NewIndex(g)
	var oldNodes, newNodes []int32
	for _, i := range x.FileNodes(p.File) {
		switch bareName(x.Node(i).Label) {
		case p.Old:
			oldNodes = append(oldNodes, i)
		case p.New:
			newNodes = append(newNodes, i)
		}
	}
	for _, i := range oldNodes {
		n := x.Node(i)
		deps := 0
		for _, e := range x.In(i) {
			if !ownership(x.Edge(e).Relation) {
				deps++
			}
		}
		r.Problems = append(r.Problems, fmt.Sprintf("%s still defines %s (%s, %s), with %d dependents resolving to the old name", p.File, sanitize(n.Label), sanitize(n.Kind), n.SourceLocation, deps))
	}
	if len(newNodes) == 0 {
		r.Problems = append(r.Problems, fmt.Sprintf("%s defines no symbol named %s: was the definition renamed, or moved?", p.File, p.New))
	}
	for _, i := range newNodes {
		for _, e := range x.In(i) {
			if !ownership(x.Edge(e).Relation) {
				r.Dependents++
			}
		}
	}
	if r.Dependents < p.Affected {
		r.Problems = append(r.Problems, fmt.Sprintf("%s has %d dependents, the plan had %d: some uses no longer link (missed sites, or a name clash)", p.New, r.Dependents, p.Affected))
	}
	return r
}
