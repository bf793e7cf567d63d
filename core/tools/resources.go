package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/report"
	"github.com/synaptic-graph/synaptic/core/textsafe"
)

// Resource is a fixed, readable resource.
type Resource struct {
	URI, Name, Description, MIMEType string
	Read                             func(ctx context.Context) (string, error)
}

// ResourceTemplate makes a family of URIs readable (RFC 6570 level 1).
type ResourceTemplate struct {
	URITemplate, Name, Description, MIMEType string
	// Read reads one concrete URI of the template; it returns a
	// *NotFoundError for a well-formed URI naming nothing.
	Read func(ctx context.Context, uri string) (string, error)
}

// ErrResourceNotFound is wrapped by every *NotFoundError.
var ErrResourceNotFound = errors.New("resource not found")

// NotFoundError is an unknown resource URI. Protocol layers map it to
// -32002 (legacy) or -32602 with data.uri (modern).
type NotFoundError struct {
	URI    string
	Reason string
}

func (e *NotFoundError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("resource not found: %s (%s)", e.URI, e.Reason)
	}
	return "resource not found: " + e.URI
}

// Unwrap lets errors.Is(err, ErrResourceNotFound) match.
func (e *NotFoundError) Unwrap() error { return ErrResourceNotFound }

// errNoGraph is returned by resource reads before the first SetGraph.
var errNoGraph = errors.New("no graph loaded")

// Resources lists the six fixed resources in a stable order.
func (c *Catalog) Resources() []Resource {
	text := func(f func(*snapshot) string) func(context.Context) (string, error) {
		return func(ctx context.Context) (string, error) {
			if _, err := c.await(ctx); err != nil {
				return "", err
			}
			c.freshen(ctx)
			defer c.pin()()
			return f(c.current()), nil
		}
	}
	return []Resource{
		{URI: "synaptic://report", Name: "report", MIMEType: "text/markdown",
			Description: "GRAPH_REPORT.md: the human-readable summary of the loaded graph.", Read: text(c.reportText)},
		{URI: "synaptic://stats", Name: "stats", MIMEType: "text/plain",
			Description: "Node, edge and community counts and the confidence mix (same as graph_stats).",
			Read:        text(func(s *snapshot) string { return s.statsText(s.stats()) })},
		{URI: "synaptic://god-nodes", Name: "god-nodes", MIMEType: "text/plain",
			Description: "The top 10 most-connected nodes.",
			Read:        text(func(s *snapshot) string { t, _ := s.godText(10, 0); return t })},
		{URI: "synaptic://surprises", Name: "surprises", MIMEType: "text/plain",
			Description: "Surprising cross-community connections.", Read: text(surprisesText)},
		{URI: "synaptic://audit", Name: "audit", MIMEType: "text/plain",
			Description: "The edge-confidence breakdown, overall and per relation.", Read: text(auditText)},
		{URI: "synaptic://questions", Name: "questions", MIMEType: "text/plain",
			Description: "Suggested questions to ask the graph.", Read: text(questionsText)},
	}
}

// Templates lists the resource templates in a stable order.
func (c *Catalog) Templates() []ResourceTemplate {
	return []ResourceTemplate{
		{URITemplate: "synaptic://node/{label}", Name: "node", MIMEType: "text/plain",
			Description: "Metadata for one node by label, id, bare name or label@file (same as get_node).", Read: c.readNode},
		{URITemplate: "synaptic://community/{id}", Name: "community", MIMEType: "text/plain",
			Description: "Members of one community by id.", Read: c.readCommunity},
	}
}

// ReadResource reads a fixed or templated URI; it returns the text and the
// MIME type, or a *NotFoundError for an unknown URI.
func (c *Catalog) ReadResource(ctx context.Context, uri string) (text, mimeType string, err error) {
	for _, r := range c.Resources() {
		if r.URI == uri {
			t, err := r.Read(ctx)
			return t, r.MIMEType, err
		}
	}
	for _, t := range c.Templates() {
		prefix, _, _ := strings.Cut(t.URITemplate, "{")
		if strings.HasPrefix(uri, prefix) {
			text, err := t.Read(ctx, uri)
			return text, t.MIMEType, err
		}
	}
	return "", "", &NotFoundError{URI: uri}
}

// noFreshenKey marks a context whose resource reads skip the catch-up.
type noFreshenKey struct{}

// WithoutFreshen returns ctx marked so that resource reads answer from the
// served snapshot as it is, without Options.Freshen first: serve's change
// notifier reads through it while the refresh it reports is still under
// way.
func WithoutFreshen(ctx context.Context) context.Context {
	return context.WithValue(ctx, noFreshenKey{}, true)
}

// freshen runs Options.Freshen before a resource read (as before a tool
// call, so a read right after an edit sees it).
func (c *Catalog) freshen(ctx context.Context) {
	if c.opts.Freshen == nil || ctx.Value(noFreshenKey{}) != nil {
		return
	}
	c.opts.Freshen(ctx)
}

// templateArg extracts and unescapes the single variable of a URI.
func templateArg(uri, prefix string) (string, bool) {
	raw, ok := strings.CutPrefix(uri, prefix)
	if !ok || raw == "" || strings.ContainsAny(raw, "?#") {
		return "", false
	}
	v, err := url.PathUnescape(raw)
	return v, err == nil && v != ""
}

func (c *Catalog) readNode(ctx context.Context, uri string) (string, error) {
	label, ok := templateArg(uri, "synaptic://node/")
	if !ok {
		return "", &NotFoundError{URI: uri, Reason: "expected synaptic://node/{label}"}
	}
	if _, err := c.await(ctx); err != nil {
		return "", err
	}
	c.freshen(ctx)
	defer c.pin()()
	s := c.current()
	r := s.lookup(label)
	switch {
	case r.Found():
		return s.nodeText(r.Node), nil
	case len(r.Candidates) > 0:
		return s.unresolvedText(label, r), nil // a real answer: which one did you mean
	}
	return "", &NotFoundError{URI: uri, Reason: "no node matches '" + sanitize(label) + "'"}
}

func (c *Catalog) readCommunity(ctx context.Context, uri string) (string, error) {
	raw, ok := templateArg(uri, "synaptic://community/")
	id, err := strconv.Atoi(raw)
	if !ok || err != nil || id < 0 {
		return "", &NotFoundError{URI: uri, Reason: "expected synaptic://community/{id} with a non-negative integer id"}
	}
	if _, err := c.await(ctx); err != nil {
		return "", err
	}
	c.freshen(ctx)
	defer c.pin()()
	s := c.current()
	text, found := s.communityText(id, 0, int(^uint(0)>>1))
	if !found {
		return "", &NotFoundError{URI: uri, Reason: text}
	}
	return text, nil
}

// reportText serves the GRAPH_REPORT.md written beside the graph, or renders
// one from the loaded graph when the file is absent or cannot be read
// safely, or when Options.RenderReport pins it to the graph. The file comes
// from disk next to a graph that may be hostile, so it is sanitized like
// every other graph-derived text.
func (c *Catalog) reportText(s *snapshot) string {
	note := ""
	if c.opts.GraphPath != "" && !c.opts.RenderReport {
		data, err := readBeside(c.opts.GraphPath, "GRAPH_REPORT.md", maxReportFile)
		if err == nil {
			return textsafe.Text(string(data))
		}
		if !errors.Is(err, fs.ErrNotExist) {
			note = "> GRAPH_REPORT.md beside the graph was not served (" + sanitize(err.Error()) + "); this report is rendered from the loaded graph.\n\n"
		}
	}
	var b strings.Builder
	b.WriteString(note)
	if err := report.Write(&b, report.Input{Graph: s.g}); err != nil {
		return "report unavailable: " + err.Error()
	}
	return b.String()
}

func surprisesText(s *snapshot) string {
	sur := analysis.Surprises(s.x, 20)
	if len(sur) == 0 {
		return "No surprising cross-community connections."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d surprising connection(s):\n", len(sur))
	for k, su := range sur {
		src, dst := s.x.Ends(su.Edge)
		if src < 0 {
			continue
		}
		fmt.Fprintf(&b, "%d. %s --%s--> %s  [score %.2f]\n", k+1, s.qualified(src), sanitize(s.x.Edge(su.Edge).Relation), s.qualified(dst), su.Score)
		if why := sanitize(su.Why); why != "" {
			fmt.Fprintf(&b, "   why: %s\n", why)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func auditText(s *snapshot) string {
	a := analysis.ConfidenceAudit(s.x)
	tiers := []string{"EXTRACTED", "INFERRED", "AMBIGUOUS"}
	total := 0
	for _, n := range a.Total {
		total += n
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Edge confidence over %d edges:\n", total)
	for _, t := range tiers {
		n := a.Total[graph.Confidence(t)]
		fmt.Fprintf(&b, "  %-9s %d (%s)\n", t, n, pct(n, total))
	}
	// Merge by sanitized name, so a hostile relation cannot add a row.
	byRel := map[string]map[graph.Confidence]int{}
	for r, m := range a.ByRelation {
		k := sanitize(r)
		if byRel[k] == nil {
			byRel[k] = map[graph.Confidence]int{}
		}
		for conf, n := range m {
			byRel[k][conf] += n
		}
	}
	rels := make([]string, 0, len(byRel))
	for r := range byRel {
		rels = append(rels, r)
	}
	slices.Sort(rels)
	if len(rels) > 0 {
		b.WriteString("By relation (EXTRACTED / INFERRED / AMBIGUOUS):\n")
	}
	for _, r := range rels {
		m := byRel[r]
		fmt.Fprintf(&b, "  %s: %d / %d / %d\n", r, m[graph.Confidence("EXTRACTED")], m[graph.Confidence("INFERRED")], m[graph.Confidence("AMBIGUOUS")])
	}
	return strings.TrimRight(b.String(), "\n")
}

func questionsText(s *snapshot) string {
	qs := analysis.Questions(s.x)
	if len(qs) == 0 {
		return "No suggested questions for this graph."
	}
	var b strings.Builder
	b.WriteString("Suggested questions:\n")
	for k, q := range qs {
		fmt.Fprintf(&b, "%d. %s\n", k+1, sanitize(q.Text))
		if why := sanitize(q.Why); why != "" {
			fmt.Fprintf(&b, "   why: %s\n", why)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func pct(n, total int) string {
	if total == 0 {
		return "0.0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}
