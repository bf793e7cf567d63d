package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// RenameSite is one place a rename plan edits or asks to review.
type RenameSite struct {
	File       string  `json:"file"`
	Line       int     `json:"line"`
	Col        int     `json:"col"` // 1-based byte column of the old name
	Old        string  `json:"old"`
	New        string  `json:"new"`
	Reason     string  `json:"reason"`
	Confidence float64 `json:"confidence"`
}

// RenamePlan is plan_rename's plan; `synaptic refactor verify --from`
// reads it back. It never edits anything itself.
type RenamePlan struct {
	TargetID   string       `json:"target_id"`
	Label      string       `json:"label"`
	File       string       `json:"file"`
	Old        string       `json:"old"`
	New        string       `json:"new"`
	Confidence string       `json:"confidence"` // high, medium, low
	Edits      []RenameSite `json:"edits"`
	Review     []RenameSite `json:"review"`
	Affected   int          `json:"affected"`
	Notes      []string     `json:"notes,omitempty"`
}

var identifier = regexp.MustCompile(`^[\p{L}_$][\p{L}\p{N}_$]*$`)

// bareName is a label without call parentheses or a method dot, case kept.
func bareName(label string) string {
	return strings.TrimPrefix(strings.TrimSuffix(label, "()"), ".")
}

// RenamePlan plans renaming the symbol name (or the node id) to to; file
// narrows an ambiguous name to definitions whose path contains it.
func (c *Catalog) RenamePlan(name, to, id, file string) (RenamePlan, error) {
	defer c.pin()()
	s := c.current()
	if s == nil {
		return RenamePlan{}, fmt.Errorf("no graph loaded (run synaptic extract first)")
	}
	return s.renamePlan(c.opts.SourceRoot, name, to, id, file)
}

func (s *snapshot) renameTarget(name, id, file string) (int32, error) {
	if id != "" {
		if i := s.x.ID(id); i >= 0 {
			return i, nil
		}
		return -1, fmt.Errorf("no node has id '%s'", sanitize(id))
	}
	r := s.lookup(name)
	cands := r.Candidates
	if r.Found() {
		cands = []int32{r.Node}
	}
	if file != "" {
		cands = slices.DeleteFunc(slices.Clone(cands), func(i int32) bool { return !strings.Contains(s.x.Node(i).SourceFile, file) })
	}
	switch len(cands) {
	case 0:
		if file != "" {
			return -1, fmt.Errorf("no symbol '%s' defined in a file matching '%s'", sanitize(name), sanitize(file))
		}
		return -1, fmt.Errorf("%s", s.unresolvedText(name, r))
	case 1:
		return cands[0], nil
	}
	return -1, fmt.Errorf("%s\n(pass file=<path substring> or id=<node id>)", s.unresolvedText(name, graph.Resolution{Node: -1, Candidates: cands}))
}

func (s *snapshot) renamePlan(root, name, to, id, file string) (RenamePlan, error) {
	to = strings.TrimSpace(to)
	i, err := s.renameTarget(name, id, file)
	if err != nil {
		return RenamePlan{}, err
	}
	n := s.x.Node(i)
	old := bareName(n.Label)
	if !identifier.MatchString(to) {
		return RenamePlan{}, fmt.Errorf("'%s' is not a valid identifier", sanitize(to))
	}
	if !identifier.MatchString(old) || n.SourceFile == "" {
		return RenamePlan{}, fmt.Errorf("'%s' (%s) is not a renameable symbol: it has no identifier name or no source file", s.label(i), sanitize(n.Kind))
	}
	if old == to {
		return RenamePlan{}, fmt.Errorf("'%s' already has that name", sanitize(old))
	}
	p := RenamePlan{TargetID: n.ID, Label: n.Label, File: n.SourceFile, Old: old, New: to}
	src := newSourceCache(root)
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(old) + `\b`)
	taken := map[[2]any]bool{} // (file, line) already planned
	add := func(file string, line int, reason string, conf float64) {
		if taken[[2]any{file, line}] {
			return
		}
		text, ok := src.line(file, line)
		if !ok {
			p.Review = append(p.Review, RenameSite{File: file, Line: line, Old: old, New: to, Reason: reason + " (source not readable under the source root)", Confidence: conf})
			taken[[2]any{file, line}] = true
			return
		}
		cols := word.FindAllStringIndex(text, -1)
		if len(cols) == 0 {
			return // the use spans lines; the text scan below finds it
		}
		taken[[2]any{file, line}] = true
		for _, m := range cols {
			site := RenameSite{File: file, Line: line, Col: m[0] + 1, Old: old, New: to, Reason: reason, Confidence: conf}
			if conf < 0.7 || inStringOrComment(text, m[0]) {
				site.Reason += "; in a string or comment on that line"
				site.Confidence = min(conf, 0.4)
				p.Review = append(p.Review, site)
				continue
			}
			p.Edits = append(p.Edits, site)
		}
	}
	if n.Span != nil {
		add(n.SourceFile, n.Span.StartLine, "definition", 1.0)
	} else if l := startLine(n.SourceLocation, 0); l > 0 {
		add(n.SourceFile, l, "definition", 1.0)
	}
	files := map[string]bool{n.SourceFile: true}
	dependents := map[int32]bool{}
	for _, e := range s.x.In(i) {
		ed := s.x.Edge(e)
		if ownership(ed.Relation) {
			continue
		}
		from, _ := s.x.Ends(e)
		dependents[from] = true
		conf := ed.Score()
		reason := siteReason(ed.Relation, ed.Confidence)
		for _, site := range append([]graph.Site{{SourceFile: ed.SourceFile, SourceLocation: ed.SourceLocation}}, ed.Sites...) {
			if site.SourceFile == "" {
				continue
			}
			files[site.SourceFile] = true
			add(site.SourceFile, startLine(site.SourceLocation, 0), reason, conf)
		}
	}
	p.Affected = len(dependents)
	// Same-named symbols of other definitions: never edited, named so a
	// reviewer does not rename them by accident.
	others := 0
	for _, j := range s.x.WithLabel(n.Label) {
		if j == i || s.x.Node(j).SourceFile == "" {
			continue
		}
		m := s.x.Node(j)
		files[m.SourceFile] = true
		if line := startLine(m.SourceLocation, 0); line > 0 && !taken[[2]any{m.SourceFile, line}] {
			taken[[2]any{m.SourceFile, line}] = true
			p.Review = append(p.Review, RenameSite{File: m.SourceFile, Line: line, Old: old, New: to, Confidence: 0.1,
				Reason: fmt.Sprintf("a different %s with the same name: leave it", m.Kind)})
			others++
		}
	}
	// Text scan of every involved file: what the graph does not link
	// (strings, comments, dynamic or unresolved uses) goes to review.
	for _, f := range sortedKeys(files) {
		lines, ok := src.file(f)
		if !ok {
			continue
		}
		for k, text := range lines {
			if taken[[2]any{f, k + 1}] {
				continue
			}
			for _, m := range word.FindAllStringIndex(text, -1) {
				reason, conf := "text match with no graph edge: a dynamic or unresolved use, or another symbol", 0.3
				if inStringOrComment(text, m[0]) {
					reason, conf = "in a string or comment", 0.2
				}
				if others > 0 {
					conf = min(conf, 0.2)
				}
				p.Review = append(p.Review, RenameSite{File: f, Line: k + 1, Col: m[0] + 1, Old: old, New: to, Reason: reason, Confidence: conf})
			}
		}
	}
	if src.skipped > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d files were not scanned (unreadable under the source root, or more than %d files)", src.skipped, maxRenameFiles))
	}
	p.Notes = append(p.Notes, fmt.Sprintf("the text scan covered the %d files that define or use the symbol; other files are not scanned", len(files)))
	sortSites(p.Edits)
	sortSites(p.Review)
	p.Confidence = planConfidence(p, others)
	return p, nil
}

func siteReason(rel string, conf graph.Confidence) string {
	what := map[string]string{"calls": "call site", "imports": "import", "imports_from": "import", "re_exports": "re-export",
		"inherits": "inheritance", "extends": "inheritance", "implements": "implements", "references": "reference"}[rel]
	if what == "" {
		what = rel + " site"
	}
	return fmt.Sprintf("%s (%s)", what, conf)
}

func planConfidence(p RenamePlan, others int) string {
	lowest := 1.0
	for _, e := range p.Edits {
		lowest = min(lowest, e.Confidence)
	}
	switch {
	case others > 0 || lowest < 0.7:
		return "low"
	case lowest < 0.9 || len(p.Review) > 0:
		return "medium"
	}
	return "high"
}

func sortSites(ss []RenameSite) {
	slices.SortFunc(ss, func(a, b RenameSite) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// inStringOrComment is a language-neutral guess: the position follows a
// line comment marker or an odd number of quotes on its line.
func inStringOrComment(line string, at int) bool {
	before := line[:at]
	for _, marker := range []string{"//", "#", "/*", "--"} {
		if strings.Contains(before, marker) {
			return true
		}
	}
	if t := strings.TrimSpace(before); strings.HasPrefix(t, "*") {
		return true
	}
	for _, q := range []string{`"`, "'", "`"} {
		if strings.Count(before, q)%2 == 1 {
			return true
		}
	}
	return false
}

// maxRenameFiles bounds the files one plan reads.
const maxRenameFiles = 256

// sourceCache reads files through the source-root jail, once each.
type sourceCache struct {
	root    string
	files   map[string][]string
	skipped int
}

func newSourceCache(root string) *sourceCache {
	return &sourceCache{root: root, files: map[string][]string{}}
}

func (c *sourceCache) file(f string) ([]string, bool) {
	if lines, ok := c.files[f]; ok {
		return lines, lines != nil
	}
	if c.root == "" || len(c.files) >= maxRenameFiles {
		c.skipped++
		c.files[f] = nil
		return nil, false
	}
	data, err := readJailed(c.root, f)
	if err != nil {
		c.skipped++
		c.files[f] = nil
		return nil, false
	}
	var lines []string
	for _, l := range splitLines(data) {
		lines = append(lines, string(l))
	}
	if lines == nil {
		lines = []string{}
	}
	c.files[f] = lines
	return lines, true
}

func (c *sourceCache) line(f string, n int) (string, bool) {
	lines, ok := c.file(f)
	if !ok || n < 1 || n > len(lines) {
		return "", false
	}
	return lines[n-1], true
}

func (c *Catalog) planRename(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Name, To, ID, File string
		Limit              *int `json:"limit"`
		Verbose            bool `json:"verbose"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	p, err := s.renamePlan(c.opts.SourceRoot, a.Name, a.To, a.ID, a.File)
	if err != nil {
		return errorf("%s", err.Error())
	}
	return Result{Text: renameText(p, c.limit(a.Limit, a.Verbose))}
}

func renameText(p RenamePlan, limit int) string {
	var b strings.Builder
	files := map[string]bool{}
	for _, e := range p.Edits {
		files[e.File] = true
	}
	fmt.Fprintf(&b, "Rename %s -> %s [%s], %d edit(s) across %d file(s), %d to review, %d affected\n",
		sanitize(p.Old), sanitize(p.New), p.Confidence, len(p.Edits), len(files), len(p.Review), p.Affected)
	section := func(title string, sites []RenameSite) {
		fmt.Fprintf(&b, "%s (%d):\n", title, len(sites))
		for k, st := range sites {
			if k == limit {
				fmt.Fprintf(&b, "  +%d more (pass verbose=true or a larger limit)\n", len(sites)-limit)
				break
			}
			fmt.Fprintf(&b, "  %s:%d:%d  %s -> %s  (%s, %.2f)\n", sanitize(st.File), st.Line, st.Col, sanitize(st.Old), sanitize(st.New), sanitize(st.Reason), st.Confidence)
		}
	}
	section("Edits", p.Edits)
	section("Review", p.Review)
	for _, n := range p.Notes {
		b.WriteString("Note: " + n + "\n")
	}
	b.WriteString("Plan only: nothing was edited. After applying, run: synaptic refactor verify --from PLAN (write PLAN with synaptic refactor rename --out)")
	return b.String()
}
