package tools

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
)

// benchDiff is a 10-file diff: a one-line edit in the middle of the first
// function of ten files spread over the graph (sorted by path).
func benchDiff(s *snapshot) []gitdiff.File {
	byFile := map[string]int{}
	for i := range s.g.Nodes {
		n := &s.g.Nodes[i]
		if (n.Kind == "function" || n.Kind == "method") && n.Span != nil && n.Span.EndLine > n.Span.StartLine+1 && !n.IsTest {
			if l, ok := byFile[n.SourceFile]; !ok || n.Span.StartLine < l {
				byFile[n.SourceFile] = n.Span.StartLine + 1
			}
		}
	}
	files := make([]string, 0, len(byFile))
	for f := range byFile {
		files = append(files, f)
	}
	slices.Sort(files)
	var out []gitdiff.File
	for k := 0; k < 10 && len(files) > 0; k++ {
		f := files[k*len(files)/10]
		l := byFile[f]
		out = append(out, gitdiff.File{Path: f, Status: gitdiff.Modified, Added: 1, Removed: 1,
			Hunks: []gitdiff.Hunk{{OldStart: l, OldLines: 1, NewStart: l, NewLines: 1}}})
	}
	return out
}

// BenchmarkChangeTools: working_changes_impact and predict_impact on a
// 10-file diff, beyond the git diff itself (mapping, walk, selection,
// rendering). SYNAPTIC_BENCH_GRAPH=…/graph.json runs it on a real graph.
func BenchmarkChangeTools(b *testing.B) {
	c, _ := benchCatalog(b)
	s := c.current()
	diff := benchDiff(s)
	b.Run("working_changes_impact", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			cs := newChangeSet(s.x, nil, diff)
			_ = s.workingChangesText(cs, true, 20, false)
		}
	})
	b.Run("predict_impact", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			cs := newChangeSet(s.x, nil, diff)
			hits := s.impactOf(cs, 3)
			_ = s.forecastText(s.forecast(cs, hits, 3, 0), 20)
		}
	})
}

// BenchmarkDispatchIndex: the once-per-snapshot index test selection's
// dispatch step uses (paid by the first change-aware call after a load).
func BenchmarkDispatchIndex(b *testing.B) {
	c, _ := benchCatalog(b)
	s := c.current()
	for b.Loop() {
		_ = buildDispatchIndex(s)
	}
}
