package tools

import (
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// testdata/selection/graph.json.gz is a real extraction of seven GOROOT
// packages (bufio, container/list, container/ring, encoding/csv,
// image/color, text/tabwriter, errors) and four CPython modules with
// their unittest suites (textwrap, fnmatch, shlex, glob): interface
// dispatch, unlinked calls, test helpers and every widening step occur.
// selection.txt pins, for every callable changed alone and for every
// file changed whole, the selected tests at depths 1 and 3 (count and a
// hash of the rows), so a faster walk must give the same answer.
// Regenerate (only for an explained change of the selection) with
// go test ./core/tools -run TestSelectionGolden -update.

func loadSelectionGraph(t testing.TB) *graph.Graph {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "selection", "graph.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// selectionCase is one change set of the golden: a name and its seeds.
type selectionCase struct {
	name  string
	files []gitdiff.File
}

// selectionCases are every callable as a one-line edit of its first
// line, and every file as added whole.
func selectionCases(s *snapshot) []selectionCase {
	var out []selectionCase
	files := map[string]bool{}
	var order []string
	for i := range s.g.Nodes {
		n := &s.g.Nodes[i]
		if n.SourceFile != "" && !files[n.SourceFile] {
			files[n.SourceFile] = true
			order = append(order, n.SourceFile)
		}
		if !isCallable(n.Kind) || n.Span == nil || n.Span.StartLine == 0 {
			continue
		}
		l := n.Span.StartLine
		out = append(out, selectionCase{name: n.ID, files: []gitdiff.File{{Path: n.SourceFile, Status: gitdiff.Modified, Added: 1, Removed: 1,
			Hunks: []gitdiff.Hunk{{OldStart: l, OldLines: 1, NewStart: l, NewLines: 1}}}}})
	}
	for _, f := range order {
		out = append(out, selectionCase{name: "file " + f, files: []gitdiff.File{{Path: f, Status: gitdiff.Added}}})
	}
	return out
}

// selectionDigest renders one case's selection as a golden line.
func selectionDigest(s *snapshot, c selectionCase, depth int) string {
	rows := s.selectTests(newChangeSet(s.x, nil, c.files), depth)
	h := sha256.New()
	for _, r := range rows {
		fmt.Fprintf(h, "%s\t%d\t%s\n", r.ID, r.Depth, r.ViaRelation)
	}
	return fmt.Sprintf("%s d%d: %d tests %x", c.name, depth, len(rows), h.Sum(nil)[:8])
}

func TestSelectionGolden(t *testing.T) {
	c := New(Options{})
	c.SetGraph(loadSelectionGraph(t))
	s := c.current()
	var b strings.Builder
	for _, sc := range selectionCases(s) {
		for _, d := range []int{1, 3} {
			b.WriteString(selectionDigest(s, sc, d) + "\n")
		}
	}
	path := filepath.Join("testdata", "selection", "selection.txt")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	got := strings.Split(b.String(), "\n")
	for k, w := range strings.Split(string(want), "\n") {
		if k >= len(got) || got[k] != w {
			t.Errorf("selection changed:\n got %q\nwant %q", got[min(k, len(got)-1)], w)
			if k > 20 {
				break
			}
		}
	}
	if len(got) != len(strings.Split(string(want), "\n")) {
		t.Errorf("selection cases: got %d lines, want %d", len(got), len(strings.Split(string(want), "\n")))
	}
}

// TestPredictAndAffectedInStep: predict_impact's at_risk_tests and
// affected_tests' tests are one selection, for every file of the real
// extraction changed whole.
func TestPredictAndAffectedInStep(t *testing.T) {
	c := New(Options{})
	c.SetGraph(loadSelectionGraph(t))
	files := map[string]bool{}
	for _, n := range c.current().g.Nodes {
		if n.SourceFile != "" {
			files[n.SourceFile] = true
		}
	}
	selected := 0
	for f := range files {
		args := fmt.Sprintf(`{"files":[%q],"depth":3}`, f)
		pr, at := call(t, c, "predict_impact", args), call(t, c, "affected_tests", args)
		fc, ok := pr.Structured.(ChangeForecast)
		if !ok {
			t.Fatalf("%s: predict_impact structured is %T", f, pr.Structured)
		}
		st, _ := at.Structured.(map[string]any)
		tests, _ := st["tests"].([]testRow)
		if fmt.Sprint(fc.AtRiskTests) != fmt.Sprint(tests) {
			t.Errorf("%s: predict_impact selects %d tests, affected_tests %d", f, len(fc.AtRiskTests), len(tests))
		}
		selected += len(tests)
	}
	if selected == 0 {
		t.Error("no file selected any test: the comparison proves nothing")
	}
}
