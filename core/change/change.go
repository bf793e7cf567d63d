// Package change maps a git diff onto the graph: which nodes each changed
// file's line ranges touch. A hunk inside a function touches that
// function (the innermost node whose span covers the lines), not the whole
// file; lines outside every symbol (imports, package clauses) touch the
// file node. Added, untracked and deleted files touch every node they hold.
package change

import (
	"slices"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// File is one changed file mapped onto the graph.
type File struct {
	gitdiff.File
	// GraphPath is the path the graph knows the file by ("" when the
	// graph has no node for it: new since extraction, or not code).
	GraphPath string
	// Nodes are the touched nodes, in node order.
	Nodes []int32
}

// Map maps files onto x. The graph is taken to describe the working tree
// (extracted after the edits), so new-side line numbers are used; a
// deleted file is looked up by its old path and touches all its nodes.
func Map(x *graph.Index, files []gitdiff.File) []File {
	out := make([]File, 0, len(files))
	for _, f := range files {
		m := File{File: f}
		for _, p := range []string{f.Path, f.OldPath} {
			if p != "" && len(x.FileNodes(p)) > 0 {
				m.GraphPath = p
				break
			}
		}
		if m.GraphPath != "" {
			m.Nodes = touched(x, x.FileNodes(m.GraphPath), f)
		}
		out = append(out, m)
	}
	return out
}

// wholeFile reports a change that replaces the file's every node.
func wholeFile(f gitdiff.File) bool {
	switch f.Status {
	case gitdiff.Added, gitdiff.Untracked, gitdiff.Deleted:
		return true
	}
	// A binary or mode-only change has no line ranges to narrow it.
	return len(f.Hunks) == 0
}

// touched returns the nodes of one file that the hunks touch.
func touched(x *graph.Index, nodes []int32, f gitdiff.File) []int32 {
	var file int32 = -1
	var spans []int32
	for _, i := range nodes {
		n := x.Node(i)
		switch {
		case n.Kind == "file":
			file = i
		case n.Kind == "package":
			// A package node sits on its first file but is not in it.
		case n.Span != nil && n.Span.StartLine > 0:
			spans = append(spans, i)
		}
	}
	if wholeFile(f) {
		var all []int32
		for _, i := range nodes {
			if x.Node(i).Kind != "package" {
				all = append(all, i)
			}
		}
		return all
	}
	hit := map[int32]bool{}
	for _, h := range f.Hunks {
		lo, hi := h.NewStart, h.NewStart+h.NewLines-1
		if h.NewLines == 0 {
			// A pure deletion sits between NewStart and NewStart+1: it
			// touches whatever encloses both.
			lo, hi = max(h.NewStart, 1), max(h.NewStart, 1)
		}
		outside := mark(x, spans, lo, hi, hit)
		if outside && file >= 0 {
			hit[file] = true
		}
	}
	var out []int32
	for i := range hit {
		out = append(out, i)
	}
	slices.Sort(out)
	return out
}

// mark records in hit the innermost nodes covering the lines lo..hi and
// reports whether some line lies outside every node.
func mark(x *graph.Index, spans []int32, lo, hi int, hit map[int32]bool) (outside bool) {
	// Walk the range in segments bounded by span starts and ends, so a
	// 10,000-line hunk costs the number of spans, not of lines.
	cuts := []int{lo, hi + 1}
	for _, i := range spans {
		s := x.Node(i).Span
		for _, c := range []int{s.StartLine, s.EndLine + 1} {
			if c > lo && c <= hi {
				cuts = append(cuts, c)
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	for k := 0; k+1 < len(cuts); k++ {
		if in := innermost(x, spans, cuts[k]); in >= 0 {
			hit[in] = true
		} else {
			outside = true
		}
	}
	return outside
}

// innermost returns the smallest span covering line (ties: the later
// start, then the lower index), or -1.
func innermost(x *graph.Index, spans []int32, line int) int32 {
	best, bestLen, bestStart := int32(-1), 0, 0
	for _, i := range spans {
		s := x.Node(i).Span
		end := max(s.EndLine, s.StartLine)
		if line < s.StartLine || line > end {
			continue
		}
		l := end - s.StartLine
		if best < 0 || l < bestLen || l == bestLen && s.StartLine > bestStart {
			best, bestLen, bestStart = i, l, s.StartLine
		}
	}
	return best
}
