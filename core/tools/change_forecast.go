package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
)

// ChangeForecast is predict_impact's structuredContent: the whole
// forecast, never truncated by limit (which caps only the text).
type ChangeForecast struct {
	Summary          string         `json:"summary"`
	ChangedFiles     []forecastFile `json:"changed_files"`
	ChangedNodes     []forecastNode `json:"changed_nodes"`
	PublicAPIBreaks  []apiBreak     `json:"public_api_breaks"`
	BlastRadius      []testRow      `json:"blast_radius"`
	BlastRadiusTotal int            `json:"blast_radius_total"`
	AtRiskTests      []testRow      `json:"at_risk_tests"`
	VerifyChecklist  []string       `json:"verify_checklist"`
	Risk             risk           `json:"risk"`
}

type forecastFile struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
	Status  string `json:"status"`
	Binary  bool   `json:"binary"`
	Lines   int    `json:"lines"`
	InGraph bool   `json:"in_graph"`
	Nodes   int    `json:"nodes"`
}

type forecastNode struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Kind  string `json:"kind"`
	File  string `json:"file"`
	Line  int    `json:"line"`
}

// apiBreak is a changed symbol with dependents outside its file.
type apiBreak struct {
	ID              string   `json:"id"`
	Label           string   `json:"label"`
	File            string   `json:"file"`
	Visibility      string   `json:"visibility,omitempty"`
	OtherFiles      int      `json:"dependents_other_files"`
	OtherModules    int      `json:"dependents_other_modules"`
	ExternalSamples []string `json:"sample_dependents"`
}

// RiskLevel is the change-risk band.
type RiskLevel string

// Risk bands: score×100 < 33 low, < 66 medium, else high.
const (
	RiskLow    RiskLevel = "low"
	RiskMedium RiskLevel = "medium"
	RiskHigh   RiskLevel = "high"
)

type risk struct {
	Score   float64      `json:"score"` // 0..1
	Level   RiskLevel    `json:"level"`
	Drivers []riskDriver `json:"drivers"`
}

type riskDriver struct {
	Name         string  `json:"name"`
	Value        int     `json:"value"`
	Cap          int     `json:"cap"`
	Weight       float64 `json:"weight"`
	Contribution float64 `json:"contribution"`
}

// riskFeatures are the original's saturating features: each contributes
// weight × min(value/cap, 1).
var riskFeatures = []struct {
	name   string
	weight float64
	cap    int
}{
	{"blast radius", 0.30, 100},
	{"public API", 0.20, 3},
	{"changed lines", 0.20, 400},
	{"changed files", 0.10, 10},
	{"changed symbols", 0.10, 30},
	{"recent commits", 0.10, 20},
}

func scoreRisk(values []int) risk {
	var r risk
	for k, f := range riskFeatures {
		c := f.weight * math.Min(float64(values[k])/float64(f.cap), 1)
		r.Score += c
		r.Drivers = append(r.Drivers, riskDriver{Name: f.name, Value: values[k], Cap: f.cap, Weight: f.weight, Contribution: math.Round(c*1000) / 1000})
	}
	r.Score = math.Round(r.Score*1000) / 1000
	switch s := r.Score * 100; {
	case s < 33:
		r.Level = RiskLow
	case s < 66:
		r.Level = RiskMedium
	default:
		r.Level = RiskHigh
	}
	slices.SortStableFunc(r.Drivers, func(a, b riskDriver) int {
		switch {
		case a.Contribution > b.Contribution:
			return -1
		case a.Contribution < b.Contribution:
			return 1
		}
		return 0
	})
	return r
}

func (c *Catalog) predictImpact(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a changeArgs
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	cs, fail := c.collect(ctx, s, a.Files, a.Base)
	if fail != nil {
		return *fail
	}
	if len(cs.files) == 0 {
		return Result{Text: fmt.Sprintf("No changes vs %s.", cs.against())}
	}
	limit := c.limit(a.Limit, a.Verbose)
	if a.Limit == nil && !a.Verbose {
		limit = 20
	}
	depth := a.depth()
	hits := s.impactOf(cs, depth)
	fc := s.forecast(cs, hits, depth, c.recentCommits(ctx, cs, a.Files))
	return Result{Text: s.forecastText(fc, limit), Structured: fc}
}

// recentCommits counts the branch's commits since the merge base, or for
// explicit files the commits of the last 90 days that touched them; 0
// outside git (the driver then reads 0, it never fails the forecast).
func (c *Catalog) recentCommits(ctx context.Context, cs changeSet, files []string) int {
	r := c.repo()
	var out []byte
	var err error
	if cs.base != nil {
		out, err = r.Git(ctx, "rev-list", "--count", cs.base.Merge+"..HEAD")
	} else {
		out, err = r.Git(ctx, append([]string{"rev-list", "--count", "--since=90.days", "HEAD", "--"}, files...)...)
	}
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return n
}

func (s *snapshot) forecast(cs changeSet, hits []impactHit, depth, commits int) ChangeForecast {
	fc := ChangeForecast{BlastRadiusTotal: len(hits)}
	for _, f := range cs.files {
		fc.ChangedFiles = append(fc.ChangedFiles, forecastFile{Path: sanitize(f.Path), OldPath: sanitize(f.OldPath), Status: string(f.Status),
			Binary: f.Binary, Lines: f.Lines(), InGraph: f.GraphPath != "", Nodes: len(f.Nodes)})
	}
	symbols := 0
	for _, i := range cs.seeds {
		n := s.x.Node(i)
		line := 0
		if n.Span != nil {
			line = n.Span.StartLine
		}
		if n.Kind != "file" {
			symbols++
		}
		fc.ChangedNodes = append(fc.ChangedNodes, forecastNode{ID: sanitize(n.ID), Label: s.label(i), Kind: sanitize(n.Kind), File: sanitize(n.SourceFile), Line: line})
		if br, ok := s.apiBreak(i); ok {
			fc.PublicAPIBreaks = append(fc.PublicAPIBreaks, br)
		}
	}
	ordered := slices.Clone(hits)
	slices.SortStableFunc(ordered, s.byDepthThenDegree)
	for _, h := range ordered {
		n := s.x.Node(h.node)
		fc.BlastRadius = append(fc.BlastRadius, testRow{ID: sanitize(n.ID), Label: s.label(h.node), File: sanitize(n.SourceFile), Depth: h.depth, ViaRelation: sanitize(h.via)})
	}
	fc.AtRiskTests = s.selectTests(cs, depth)
	fc.Risk = scoreRisk([]int{len(hits), len(fc.PublicAPIBreaks), cs.lines(), len(cs.files), symbols, commits})
	fc.Summary = fmt.Sprintf("%d files, %d changed nodes vs %s: %d dependents within %d hops, %d public APIs at risk, %d tests at risk; risk %s (%.0f/100)",
		len(cs.files), len(cs.seeds), cs.against(), len(hits), depth, len(fc.PublicAPIBreaks), len(fc.AtRiskTests), fc.Risk.Level, fc.Risk.Score*100)
	fc.VerifyChecklist = s.checklist(cs, fc, depth)
	for _, sl := range []*[]forecastNode{&fc.ChangedNodes} {
		if *sl == nil {
			*sl = []forecastNode{}
		}
	}
	if fc.PublicAPIBreaks == nil {
		fc.PublicAPIBreaks = []apiBreak{}
	}
	if fc.BlastRadius == nil {
		fc.BlastRadius = []testRow{}
	}
	return fc
}

// apiBreak reports a changed symbol whose direct dependents live in other
// files: renaming or re-typing it breaks code the change does not touch.
func (s *snapshot) apiBreak(i int32) (apiBreak, bool) {
	n := s.x.Node(i)
	if n.Kind == "file" || n.Kind == "package" || n.IsTest {
		return apiBreak{}, false
	}
	want := map[string]bool{}
	for _, r := range defaultImpactRelations {
		want[r] = true
	}
	files, mods := map[string]bool{}, map[string]bool{}
	var samples []string
	for _, e := range s.x.In(i) {
		if !want[s.x.Edge(e).Relation] {
			continue
		}
		src, _ := s.x.Ends(e)
		f := s.x.Node(src).SourceFile
		if f == "" || f == n.SourceFile {
			continue
		}
		if !files[f] && len(samples) < 3 {
			samples = append(samples, s.qualified(src))
		}
		files[f] = true
		if path.Dir(f) != path.Dir(n.SourceFile) {
			mods[path.Dir(f)] = true
		}
	}
	if len(files) == 0 {
		return apiBreak{}, false
	}
	return apiBreak{ID: sanitize(n.ID), Label: s.label(i), File: sanitize(n.SourceFile), Visibility: sanitize(n.Visibility),
		OtherFiles: len(files), OtherModules: len(mods), ExternalSamples: samples}, true
}

// checklist turns the forecast into the steps to verify the change.
func (s *snapshot) checklist(cs changeSet, fc ChangeForecast, depth int) []string {
	var out []string
	if n := len(fc.AtRiskTests); n > 0 {
		out = append(out, fmt.Sprintf("Run the %d at-risk tests: %s", n, testCommand(fc.AtRiskTests)))
	} else {
		out = append(out, "No test in the graph reaches the change: add one, or check tests reached only by dynamic dispatch")
	}
	for k, br := range fc.PublicAPIBreaks {
		if k == 5 {
			out = append(out, fmt.Sprintf("…and %d more public APIs with outside dependents", len(fc.PublicAPIBreaks)-5))
			break
		}
		out = append(out, fmt.Sprintf("Check the dependents of %s in %d other files (find_callers %s)", br.Label, br.OtherFiles, s.qualifiedByID(br.ID)))
	}
	if n := unmodelled(cs); n > 0 {
		out = append(out, fmt.Sprintf("Re-run synaptic extract: %d changed files are not in the graph, so their impact is unknown", n))
	}
	for _, f := range cs.files {
		if f.Binary {
			out = append(out, fmt.Sprintf("Review the binary file %s by hand", sanitize(f.Path)))
		}
	}
	if fc.BlastRadiusTotal > 0 {
		out = append(out, fmt.Sprintf("The blast radius stops at %d hops; pass a larger depth for the transitive set", depth))
	}
	return out
}

func (s *snapshot) qualifiedByID(id string) string {
	if i := s.x.ID(id); i >= 0 {
		return s.exactRef(i)
	}
	return id
}

// testCommand suggests how to run the tests: go test -run per package for
// Go, pytest node ids for Python, else the test files.
func testCommand(tests []testRow) string {
	goPkgs := map[string][]string{}
	var py, other []string
	seen := map[string]bool{}
	for _, t := range tests {
		name := strings.TrimSuffix(strings.TrimPrefix(t.Label, "."), "()")
		switch {
		case strings.HasSuffix(t.File, "_test.go") && !strings.Contains(t.Label, "."):
			d := "./" + path.Dir(t.File)
			goPkgs[d] = append(goPkgs[d], name)
		case strings.HasSuffix(t.File, ".py"):
			if id := t.File + "::" + name; !seen[id] {
				seen[id] = true
				py = append(py, id)
			}
		default:
			if !seen[t.File] {
				seen[t.File] = true
				other = append(other, t.File)
			}
		}
	}
	var parts []string
	dirs := make([]string, 0, len(goPkgs))
	for d := range goPkgs {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		names := slices.Compact(slices.Sorted(slices.Values(goPkgs[d])))
		parts = append(parts, fmt.Sprintf("go test %s -run '^(%s)$'", d, strings.Join(names, "|")))
	}
	if len(py) > 0 {
		parts = append(parts, "pytest "+strings.Join(py, " "))
	}
	if len(other) > 0 {
		parts = append(parts, "the tests in "+strings.Join(other, ", "))
	}
	return strings.Join(parts, "; ")
}

func (s *snapshot) forecastText(fc ChangeForecast, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Forecast: %s\n", fc.Summary)
	var drv []string
	for _, d := range fc.Risk.Drivers {
		if d.Contribution > 0 {
			drv = append(drv, fmt.Sprintf("%s %d/%d (+%.0f)", d.Name, d.Value, d.Cap, d.Contribution*100))
		}
	}
	fmt.Fprintf(&b, "Risk: %s (%.0f/100); drivers: %s\n", fc.Risk.Level, fc.Risk.Score*100, strings.Join(drv, ", "))
	section := func(title string, n int, row func(k int) string) {
		fmt.Fprintf(&b, "%s (%d):\n", title, n)
		for k := 0; k < min(n, limit); k++ {
			b.WriteString("  " + row(k) + "\n")
		}
		if n > limit {
			fmt.Fprintf(&b, "  +%d more (pass verbose=true or a larger limit)\n", n-limit)
		}
	}
	section("Changed nodes", len(fc.ChangedNodes), func(k int) string {
		n := fc.ChangedNodes[k]
		return fmt.Sprintf("%s [%s] %s:L%d", n.Label, n.Kind, n.File, n.Line)
	})
	section("Public API at risk", len(fc.PublicAPIBreaks), func(k int) string {
		br := fc.PublicAPIBreaks[k]
		return fmt.Sprintf("%s (%s): dependents in %d other files, %d other modules", br.Label, br.File, br.OtherFiles, br.OtherModules)
	})
	section("Tests at risk", len(fc.AtRiskTests), func(k int) string {
		t := fc.AtRiskTests[k]
		return fmt.Sprintf("[%d] %s  %s", t.Depth, t.ViaRelation, t.Qualified)
	})
	section("Blast radius", fc.BlastRadiusTotal, func(k int) string {
		h := fc.BlastRadius[k]
		file := h.File
		if file == "" {
			file = "external"
		}
		return fmt.Sprintf("[%d] %s  %s  (%s)", h.Depth, h.ViaRelation, h.Label, file)
	})
	b.WriteString("Verify:\n")
	for k, item := range fc.VerifyChecklist {
		fmt.Fprintf(&b, "  %d. %s\n", k+1, item)
	}
	return strings.TrimRight(b.String(), "\n")
}
