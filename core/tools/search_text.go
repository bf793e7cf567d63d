package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/core/search"
)

// search_text limits: the spec's default and maximum hit counts, and the
// wall-clock bound on one call (RE2 cannot backtrack, but a huge tree can
// still take long; the answer then says it is partial).
const (
	defaultTextResults = 100
	maxTextResults     = 1000
	searchTextTimeout  = 20 * time.Second
)

// searchTextTool declares search_text.
func (c *Catalog) searchTextTool() Tool {
	caseProp := prop{name: "case_sensitive", schema: map[string]any{"type": "boolean", "description": "Default: smart case."}}
	return Tool{
		Name:        "search_text",
		Description: "Grep the source (strings, config, logs, TODOs); each hit names its enclosing symbol.",
		InputSchema: object(
			str("pattern", "RE2 regex, per line.").required(),
			boolean("literal", "pattern is a fixed string."),
			caseProp,
			str("repo", "Federated member tag."),
			str("path_glob", "File glob, e.g. src/**/*.ts."),
			integer("max_results", "Hits before truncation.", defaultTextResults, 1, maxTextResults),
		),
		OutputSchema: searchTextSchema,
		Annotations:  readOnly,
		Run:          c.run(c.searchText),
	}
}

var searchTextSchema = outSchema(map[string]any{
	"pattern": typ("string"), "total": typ("integer"), "truncated": typ("boolean"), "files_scanned": typ("integer"),
	"partial": typ("boolean"),
	"hits": arrayOf(map[string]any{
		"repo": typ("string"), "file": typ("string"), "line": typ("integer"), "col": typ("integer"),
		"match": typ("string"), "line_text": typ("string"),
		"node": map[string]any{"type": []string{"object", "null"}},
	}),
}, "pattern", "total", "truncated", "files_scanned", "hits")

// textHit is one search_text hit as structured output.
type textHit struct {
	Repo     string     `json:"repo"`
	File     string     `json:"file"`
	Line     int        `json:"line"`
	Col      int        `json:"col"`
	Match    string     `json:"match"`
	LineText string     `json:"line_text"`
	Node     *enclosing `json:"node"`
}

// enclosing is the symbol whose span holds a hit.
type enclosing struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Kind      string `json:"kind"`
	Community *int   `json:"community"`
	node      int32
}

type searchTextArgs struct {
	Pattern       string `json:"pattern"`
	Literal       bool   `json:"literal"`
	CaseSensitive *bool  `json:"case_sensitive"`
	Repo          string `json:"repo"`
	PathGlob      string `json:"path_glob"`
	MaxResults    *int   `json:"max_results"`
}

func (c *Catalog) searchText(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a searchTextArgs
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	m, err := search.Compile(a.Pattern, a.Literal, a.CaseSensitive)
	if err != nil {
		return errorf("search_text: %v", err)
	}
	var glob *search.Glob
	if a.PathGlob != "" {
		if glob, err = search.ParseGlob(a.PathGlob); err != nil {
			return errorf("search_text: %v", err)
		}
	}
	scope, fail := s.textScope(c.opts.SourceRoot, a.Repo)
	if fail != nil {
		return *fail
	}
	maxResults := defaultTextResults
	if a.MaxResults != nil {
		maxResults = min(max(*a.MaxResults, 1), maxTextResults)
	}
	ctx, cancel := context.WithTimeout(ctx, searchTextTimeout)
	defer cancel()
	j, err := openJail(c.opts.SourceRoot)
	if err != nil {
		return errorf("search_text: %v", err)
	}
	defer j.close()
	res, err := search.Search(ctx, m, search.Options{
		Root:       scope.dir,
		Keep:       func(rel string) bool { return glob.Match(scope.repoRel(s, rel)) },
		MaxResults: maxResults,
		Read:       func(rel string) ([]byte, error) { return j.read(scope.prefix + rel) },
	})
	if err != nil {
		return errorf("search_text: cannot walk %s: %v", sanitize(scope.dir), err)
	}
	hits := s.attribute(scope, res.Hits)
	return Result{Text: searchTextText(a.Pattern, res, hits), Structured: map[string]any{
		"pattern": sanitize(a.Pattern), "total": res.Total, "truncated": res.Truncated,
		"files_scanned": res.FilesScanned, "partial": res.Partial, "hits": hits,
	}}
}

// textScope is where search_text looks: a directory under the source
// root, and the prefix that turns a path below it into a graph path.
type textScope struct {
	dir    string
	prefix string // "" or "<tag>/"
	repo   string // the --repo tag, if any
}

// repoRel is rel relative to its repo root: path globs apply per member.
func (sc textScope) repoRel(s *snapshot, rel string) string {
	if sc.repo != "" {
		return rel
	}
	if tag, rest, ok := strings.Cut(rel, "/"); ok && s.isRepo(tag) {
		return rest
	}
	return rel
}

// repoOf names the member a graph path belongs to ("" in a single repo).
func (sc textScope) repoOf(s *snapshot, path string) string {
	if sc.repo != "" {
		return sc.repo
	}
	if tag, _, ok := strings.Cut(path, "/"); ok && s.isRepo(tag) {
		return tag
	}
	return ""
}

func (s *snapshot) isRepo(tag string) bool {
	for _, r := range s.repos {
		if r.Repo == tag {
			return true
		}
	}
	return false
}

// textScope resolves the source root and an optional repo tag, or says
// why there is nothing to search.
func (s *snapshot) textScope(root, repo string) (textScope, *Result) {
	fail := func(format string, a ...any) (textScope, *Result) {
		r := errorf(format, a...)
		return textScope{}, &r
	}
	if root == "" {
		return fail("search_text: %v", &jailError{Kind: "noroot"})
	}
	if repo == "" {
		return textScope{dir: root}, nil
	}
	if !s.isRepo(repo) {
		if len(s.repos) == 0 {
			return fail("search_text: repo %q given, but this is a single-repo graph: omit repo.", sanitize(repo))
		}
		tags := make([]string, len(s.repos))
		for i, r := range s.repos {
			tags[i] = sanitize(r.Repo)
		}
		return fail("search_text: unknown repo %q; the members are: %s", sanitize(repo), strings.Join(tags, ", "))
	}
	if strings.ContainsAny(repo, `/\`) || repo == "." || repo == ".." {
		return fail("search_text: repo tag %q cannot name a directory under the source root", sanitize(repo))
	}
	dir := filepath.Join(root, repo)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fail("search_text: repo %s is not under the source root: %s is not a directory", sanitize(repo), sanitize(dir))
	}
	return textScope{dir: dir, prefix: repo + "/", repo: repo}, nil
}

// attribute turns engine hits into output rows, each with the innermost
// node whose span encloses its line.
func (s *snapshot) attribute(sc textScope, hits []search.Hit) []textHit {
	out := make([]textHit, 0, len(hits))
	var spans []spanNode
	lastFile := "\x00"
	for _, h := range hits {
		path := sc.prefix + h.File
		if path != lastFile {
			spans, lastFile = s.spansOf(path), path
		}
		out = append(out, textHit{
			Repo: sanitize(sc.repoOf(s, path)), File: sanitize(path), Line: h.Line, Col: h.Col,
			Match: sanitize(h.Match), LineText: sanitize(h.Text), Node: s.innermost(spans, h.Line),
		})
	}
	return out
}

type spanNode struct {
	node       int32
	start, end int
}

// spansOf lists the nodes of a file that record a line span.
func (s *snapshot) spansOf(path string) []spanNode {
	var out []spanNode
	for _, i := range s.x.FileNodes(path) {
		if sp := s.x.Node(i).Span; sp != nil && sp.StartLine > 0 && sp.EndLine >= sp.StartLine {
			out = append(out, spanNode{i, sp.StartLine, sp.EndLine})
		}
	}
	return out
}

// innermost picks the smallest span holding line (ties: the later start,
// then the node order), or nil outside every span.
func (s *snapshot) innermost(spans []spanNode, line int) *enclosing {
	best := -1
	for k, sp := range spans {
		if line < sp.start || line > sp.end {
			continue
		}
		if best < 0 || sp.end-sp.start < spans[best].end-spans[best].start ||
			sp.end-sp.start == spans[best].end-spans[best].start && sp.start > spans[best].start {
			best = k
		}
	}
	if best < 0 {
		return nil
	}
	i := spans[best].node
	n := s.x.Node(i)
	e := &enclosing{ID: sanitize(n.ID), Label: s.label(i), Kind: sanitize(n.Kind), node: i}
	if c := s.communityOf(i); c >= 0 {
		e.Community = &c
	}
	return e
}

// searchTextText renders the hits as "file:line:col <line> [symbol kind]".
func searchTextText(pattern string, res *search.Result, hits []textHit) string {
	var b strings.Builder
	if res.Total == 0 {
		fmt.Fprintf(&b, "No matches for %q in %d file(s) scanned.", sanitize(pattern), res.FilesScanned)
	} else {
		fmt.Fprintf(&b, "%d hit(s) for %q in %d file(s) scanned", res.Total, sanitize(pattern), res.FilesScanned)
		if res.Truncated {
			fmt.Fprintf(&b, " (showing the first %d: narrow with path_glob, or raise max_results up to %d)", len(hits), maxTextResults)
		}
		b.WriteString(":")
	}
	for _, h := range hits {
		fmt.Fprintf(&b, "\n%s:%d:%d %s", h.File, h.Line, h.Col, h.LineText)
		if h.Node != nil {
			fmt.Fprintf(&b, " [%s %s]", h.Node.Label, h.Node.Kind)
		}
	}
	var skipped []string
	for _, n := range []struct {
		count int
		what  string
	}{{res.Binary, "binary"}, {res.TooLarge, fmt.Sprintf("over %d MiB", search.DefaultMaxFileSize>>20)}, {res.Unreadable, "unreadable or refused by the jail"}, {res.OutputFiles, "synaptic output"}} {
		if n.count > 0 {
			skipped = append(skipped, fmt.Sprintf("%d %s", n.count, n.what))
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "\nSkipped files: %s.", strings.Join(skipped, ", "))
	}
	if res.Partial {
		fmt.Fprintf(&b, "\nPARTIAL: stopped early (the %s bound or a cancelled call) with %d of %d file(s) scanned; the counts cover only those files.", searchTextTimeout, res.FilesScanned, res.Files)
	}
	return b.String()
}
