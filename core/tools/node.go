package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// typeKinds are the node kinds whose impact lives on their members: callers
// attach to methods, not to the bare type symbol.
var typeKinds = map[string]bool{
	"class": true, "struct": true, "interface": true, "enum": true, "trait": true,
	"record": true, "protocol": true,
}

// memberRelations link a type to its members.
var memberRelations = map[string]bool{"method": true, "contains": true, "has_method": true}

// members returns a type node's members (nil for a non-type), in edge
// order, without duplicates.
func (s *snapshot) members(i int32) []int32 {
	if !typeKinds[s.x.Node(i).Kind] {
		return nil
	}
	var out []int32
	seen := map[int32]bool{i: true}
	for _, e := range s.x.Out(i) {
		if !memberRelations[s.x.Edge(e).Relation] {
			continue
		}
		_, t := s.x.Ends(e)
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// startLine is a node's first line from its span or "L<n>" location, or 0.
func startLine(loc string, span int) int {
	if span > 0 {
		return span
	}
	var n int
	if _, err := fmt.Sscanf(loc, "L%d", &n); err == nil && n > 0 {
		return n
	}
	return 0
}

// nodeInfo is get_node's structured mirror for a found node.
type nodeInfo struct {
	Found      bool   `json:"found"`
	ID         string `json:"id"`
	Label      string `json:"label"`
	SourceFile string `json:"source_file"`
	FileType   string `json:"file_type"`
	Degree     int    `json:"degree"`
	Community  *int   `json:"community,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Visibility string `json:"visibility,omitempty"`
	LOC        int    `json:"loc,omitempty"`
	Doc        string `json:"doc,omitempty"` // first sentence of the doc comment
	// DynamicCaveat warns that 0 static dependents may still be reached
	// by dynamic dispatch (search_dynamic.go).
	DynamicCaveat *dynamicCaveat `json:"dynamic_caveat,omitempty"`
}

func (s *snapshot) nodeInfo(i int32) nodeInfo {
	n := s.x.Node(i)
	info := nodeInfo{
		Found: true, ID: sanitize(n.ID), Label: sanitize(n.Label), SourceFile: sanitize(n.SourceFile),
		FileType: sanitize(n.FileType), Degree: s.x.Degree(i), Kind: sanitize(n.Kind), Visibility: sanitize(n.Visibility),
	}
	if c := s.communityOf(i); c >= 0 {
		info.Community = &c
	}
	if n.Span != nil && n.Span.EndLine >= n.Span.StartLine && n.Span.StartLine > 0 {
		info.LOC = n.Span.EndLine - n.Span.StartLine + 1
	}
	if n.Doc != "" {
		info.Doc = docSentence(n.Doc)
	}
	return info
}

// nodeText renders get_node (and the synaptic://node/{label} resource).
func (s *snapshot) nodeText(i int32) string {
	n := s.x.Node(i)
	info := s.nodeInfo(i)
	var b strings.Builder
	fmt.Fprintf(&b, "Node: %s\n", info.Label)
	fmt.Fprintf(&b, "  id: %s\n", info.ID)
	if info.SourceFile == "" {
		b.WriteString("  source: (external)\n")
	} else {
		src := info.SourceFile
		if loc := sanitize(n.SourceLocation); loc != "" {
			src += ":" + loc
		}
		fmt.Fprintf(&b, "  source: %s\n", src)
		fmt.Fprintf(&b, "  qualified: %s\n", s.qualified(i))
	}
	fmt.Fprintf(&b, "  type: %s\n", cmp.Or(info.FileType, "unknown"))
	if info.Community != nil {
		fmt.Fprintf(&b, "  community: %d\n", *info.Community)
	}
	fmt.Fprintf(&b, "  degree: %d (%d in, %d out)\n", info.Degree, len(s.x.In(i)), len(s.x.Out(i)))
	if info.Kind != "" {
		fmt.Fprintf(&b, "  kind: %s\n", info.Kind)
	}
	if info.Visibility != "" {
		fmt.Fprintf(&b, "  visibility: %s\n", info.Visibility)
	}
	if info.LOC > 0 {
		fmt.Fprintf(&b, "  loc: %d\n", info.LOC)
	}
	if r := sanitize(n.Repo); r != "" {
		fmt.Fprintf(&b, "  repo: %s\n", r)
	}
	if info.Doc != "" {
		fmt.Fprintf(&b, "  doc: %s\n", info.Doc)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (c *Catalog) getNode(_ context.Context, s *snapshot, args json.RawMessage) Result {
	i, fail := s.labelNode(args)
	if fail != nil {
		return *fail
	}
	info, text := s.nodeInfo(i), s.nodeText(i)
	if info.DynamicCaveat = s.caveat(i, s.staticDependents(i)); info.DynamicCaveat != nil {
		text += "\n  dynamic caveat: " + info.DynamicCaveat.Message
	}
	return Result{Text: text, Structured: info}
}

// labelNode decodes the {"label"} arguments of get_node and describe_node
// and resolves the node, or returns the failure with its structured
// found:false mirror.
func (s *snapshot) labelNode(args json.RawMessage) (int32, *Result) {
	var a struct {
		Label string `json:"label"`
	}
	if err := decode(args, &a); err != nil {
		r := errorf("%v", err)
		return -1, &r
	}
	i, r, fail := s.resolveOne(a.Label)
	if fail != nil {
		fail.Structured = s.unresolvedStructured(r, nil)
	}
	return i, fail
}

// describeRelations are the outgoing edges describe_node reports as "calls".
var describeRelations = map[string]bool{"calls": true, "invokes": true, "calls_service": true}

func (c *Catalog) describeNode(_ context.Context, s *snapshot, args json.RawMessage) Result {
	i, fail := s.labelNode(args)
	if fail != nil {
		return *fail
	}
	n := s.x.Node(i)
	seen := map[int32]bool{}
	var callees []int32
	for _, e := range s.x.Out(i) {
		if !describeRelations[s.x.Edge(e).Relation] {
			continue
		}
		if _, t := s.x.Ends(e); !seen[t] {
			seen[t] = true
			callees = append(callees, t)
		}
	}
	slices.SortFunc(callees, func(a, b int32) int {
		return cmp.Or(strings.Compare(s.x.Node(a).Label, s.x.Node(b).Label), strings.Compare(s.x.Node(a).ID, s.x.Node(b).ID))
	})
	calleeLabels := make([]string, len(callees))
	for k, t := range callees {
		calleeLabels[k] = s.label(t)
	}
	members := s.members(i)

	label := s.label(i)
	var parts []string
	var sig *string
	if n.Signature != nil {
		var ps []string
		for _, p := range n.Signature.Params {
			if p.TypeRef != "" {
				ps = append(ps, sanitize(p.Name)+" "+sanitize(p.TypeRef))
			} else {
				ps = append(ps, sanitize(p.Name))
			}
		}
		if len(ps) == 0 {
			parts = append(parts, "takes no parameters")
		} else {
			parts = append(parts, "takes "+strings.Join(ps, ", "))
		}
		if rt := sanitize(n.Signature.ReturnType); rt != "" {
			parts = append(parts, "returns "+rt)
		}
		if raw := sanitize(n.Signature.Raw); raw != "" {
			sig = &raw
		}
	}
	if len(members) > 0 {
		parts = append(parts, fmt.Sprintf("has %d member(s)", len(members)))
	}
	if len(calleeLabels) > 0 {
		shown := calleeLabels[:min(len(calleeLabels), 8)]
		cl := "calls " + strings.Join(shown, ", ")
		if len(calleeLabels) > len(shown) {
			cl += fmt.Sprintf(" +%d more", len(calleeLabels)-len(shown))
		}
		parts = append(parts, cl)
	}
	kind := sanitize(cmp.Or(n.Kind, n.FileType))
	summary := label
	if kind != "" {
		summary += " (" + kind + ")"
	}
	if len(parts) == 0 {
		summary += ": no signature or outgoing calls recorded"
	} else {
		summary += ": " + strings.Join(parts, "; ")
	}

	var b strings.Builder
	b.WriteString(summary)
	doc := docSentence(n.Doc)
	if doc != "" {
		fmt.Fprintf(&b, "\nDoc: %s", doc)
	}
	if sig != nil {
		fmt.Fprintf(&b, "\nSignature: %s", *sig)
	}
	if len(calleeLabels) > 0 {
		fmt.Fprintf(&b, "\nCalls (%d): %s", len(calleeLabels), strings.Join(calleeLabels, ", "))
	}
	st := map[string]any{
		"found": true, "id": sanitize(n.ID), "label": label, "kind": sanitize(n.Kind),
		"summary": summary, "callees": nonNil(calleeLabels), "signature": sig,
	}
	if doc != "" {
		st["doc"] = doc
	}
	if len(members) > 0 {
		const maxMembers = 40
		ml := make([]string, 0, min(len(members), maxMembers))
		for _, m := range members[:min(len(members), maxMembers)] {
			ml = append(ml, s.label(m))
		}
		fmt.Fprintf(&b, "\nMembers (%d): %s", len(members), strings.Join(ml, ", "))
		if len(members) > maxMembers {
			fmt.Fprintf(&b, " +%d more", len(members)-maxMembers)
		}
		st["members"] = ml
		st["member_count"] = len(members)
	}
	if cv := s.caveat(i, s.staticDependents(i)); cv != nil {
		fmt.Fprintf(&b, "\nDynamic caveat: %s", cv.Message)
		st["dynamic_caveat"] = cv
	}
	return Result{Text: b.String(), Structured: st}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
