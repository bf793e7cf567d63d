package tools

import (
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// maxCandidates bounds the candidate list of an ambiguous name.
const maxCandidates = 20

// candidate is one match of an ambiguous name, as shown in structured output.
type candidate struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Kind       string `json:"kind,omitempty"`
	Owner      string `json:"owner,omitempty"`
	SourceFile string `json:"source_file"`
	Line       int    `json:"line,omitempty"`
	Degree     int    `json:"degree"`
	Qualified  string `json:"qualified"`
}

// lookup resolves ref through the shared cascade (graph.Index.Resolve).
func (s *snapshot) lookup(ref string) graph.Resolution { return s.x.Resolve(ref) }

// label returns node i's sanitized label.
func (s *snapshot) label(i int32) string { return sanitize(s.x.Node(i).Label) }

// qualified returns node i's sanitized copy-ready reference (label@file, or
// the id for a node without a file).
func (s *snapshot) qualified(i int32) string { return sanitize(s.x.Qualified(i)) }

// exactRef returns a reference guaranteed to resolve back to node i (see
// graph.Index.Qualified), or the id when sanitizing would change it: a
// pasted reference never lands on the same ambiguity again.
func (s *snapshot) exactRef(i int32) string {
	q := s.x.Qualified(i)
	if sq := sanitize(q); sq == q {
		return sq
	}
	return sanitize(s.x.Node(i).ID)
}

// candidates lists an ambiguous resolution's matches, highest degree first.
func (s *snapshot) candidates(r graph.Resolution) []candidate {
	out := make([]candidate, 0, min(len(r.Candidates), maxCandidates))
	for _, i := range r.Candidates[:min(len(r.Candidates), maxCandidates)] {
		out = append(out, s.candidate(i))
	}
	return out
}

// candidate describes node i for a disambiguation or suggestion list.
func (s *snapshot) candidate(i int32) candidate {
	n := s.x.Node(i)
	c := candidate{
		ID: sanitize(n.ID), Label: sanitize(n.Label), Kind: sanitize(n.Kind), SourceFile: sanitize(n.SourceFile),
		Line: s.x.Line(i), Degree: s.x.Degree(i), Qualified: s.exactRef(i),
	}
	if o := s.x.Owner(i); o >= 0 {
		c.Owner = s.label(o)
	}
	return c
}

// describeCandidate is one line of a candidate list: the copy-ready
// reference, then kind, owner, file:line and degree.
func describeCandidate(c candidate) string {
	where := c.SourceFile
	if where == "" {
		where = "external"
	} else if c.Line > 0 {
		where = fmt.Sprintf("%s:%d", where, c.Line)
	}
	kind := c.Kind
	if kind == "" {
		kind = "node"
	}
	if c.Owner != "" {
		kind += " of " + c.Owner
	}
	return fmt.Sprintf("  %s  (%s, %s, degree %d)", c.Qualified, kind, where, c.Degree)
}

// maxSuggestions is how many near names a "No node matches" offers.
const maxSuggestions = 3

// unresolvedText explains a failed resolution: not found, or ambiguous with
// each candidate's degree and a copy-ready qualifier.
func (s *snapshot) unresolvedText(ref string, r graph.Resolution) string {
	if len(r.Candidates) == 0 {
		near := s.x.Nearest(ref, maxSuggestions)
		if len(near) == 0 {
			return fmt.Sprintf("No node matches '%s'.", sanitize(ref))
		}
		var b strings.Builder
		fmt.Fprintf(&b, "No node matches '%s'. Nearest names:\n", sanitize(ref))
		for _, i := range near {
			b.WriteString(describeCandidate(s.candidate(i)) + "\n")
		}
		return strings.TrimRight(b.String(), "\n")
	}
	var b strings.Builder
	more := ""
	if len(r.Candidates) > 50 { // Resolve stops collecting substring matches past 50
		more = "+"
	}
	fmt.Fprintf(&b, "'%s' is ambiguous: %d%s nodes match. Pass one of these qualified references instead:\n", sanitize(ref), len(r.Candidates), more)
	for _, c := range s.candidates(r) {
		b.WriteString(describeCandidate(c) + "\n")
	}
	if n := len(r.Candidates) - maxCandidates; n > 0 {
		fmt.Fprintf(&b, "  +%d%s more\n", n, more)
	}
	return strings.TrimRight(b.String(), "\n")
}

// resolveOne resolves ref or returns the failure result (IsError) to send.
func (s *snapshot) resolveOne(ref string) (int32, graph.Resolution, *Result) {
	return s.resolved(ref, s.lookup(ref))
}

// resolveCallable is resolveOne preferring functions and methods (see
// graph.Index.ResolveCallable), for the tools that ask about calls.
func (s *snapshot) resolveCallable(ref string) (int32, graph.Resolution, *Result) {
	return s.resolved(ref, s.x.ResolveCallable(ref))
}

func (s *snapshot) resolved(ref string, r graph.Resolution) (int32, graph.Resolution, *Result) {
	if r.Found() {
		return r.Node, r, nil
	}
	res := Result{Text: s.unresolvedText(ref, r), IsError: true}
	return -1, r, &res
}

// unresolvedStructured is the structured mirror of a failed resolution for
// the tools whose outputSchema carries one (get_node, describe_node,
// affected): found:false, plus ambiguous and candidates when ambiguous.
func (s *snapshot) unresolvedStructured(r graph.Resolution, extra map[string]any) map[string]any {
	m := map[string]any{"found": false}
	if len(r.Candidates) > 0 {
		m["ambiguous"] = true
		m["candidates"] = s.candidates(r)
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}
