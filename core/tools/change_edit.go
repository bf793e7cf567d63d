package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
)

// EditKind is the kind of edit predict_edit forecasts.
type EditKind string

// Edit kinds.
const (
	EditDelete     EditKind = "delete"     // every dependent breaks
	EditSignature  EditKind = "signature"  // callers and type users break; bare imports go to review
	EditVisibility EditKind = "visibility" // narrowing to private breaks uses from other files (packages in Go)
)

var editKinds = []EditKind{EditDelete, EditSignature, EditVisibility}

// importRelations only bring a module into scope: they break on a
// signature change only if the symbol is then used, which is a review.
var importRelations = map[string]bool{"imports": true, "imports_from": true, "re_exports": true}

type editRow struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	File        string `json:"file"`
	Depth       int    `json:"depth"`
	ViaRelation string `json:"via_relation"`
	Reason      string `json:"reason"`
}

// classify splits one dependent into will-break (true) or review, with
// the reason.
func (s *snapshot) classify(kind EditKind, seed int32, h impactHit) (bool, string) {
	if kind == EditDelete {
		if h.depth == 1 {
			return true, fmt.Sprintf("%s the deleted symbol directly", verbOf(h.via))
		}
		return true, fmt.Sprintf("depends on a dependent %d hops away; breaks when that dependent is removed or fixed", h.depth-1)
	}
	if h.depth > 1 {
		return false, "transitive dependent: breaks only if the fix of a direct dependent changes its own interface"
	}
	switch kind {
	case EditSignature:
		if importRelations[h.via] {
			return false, "imports the module: breaks only if it uses the symbol"
		}
		return true, fmt.Sprintf("%s the symbol with its current signature", verbOf(h.via))
	case EditVisibility:
		def, dep := s.x.Node(seed), s.x.Node(h.node)
		if sameScope(def.Language, def.SourceFile, dep.SourceFile) {
			return false, "same file (same package in Go): a narrower visibility still allows it"
		}
		return true, fmt.Sprintf("%s it from %s, outside the symbol's file/package", verbOf(h.via), sanitize(dep.SourceFile))
	}
	return false, ""
}

// sameScope reports whether a private symbol stays visible: the same
// directory for Go (package scope), the same file elsewhere.
func sameScope(lang, a, b string) bool {
	if lang == "go" {
		return path.Dir(a) == path.Dir(b)
	}
	return a == b
}

func verbOf(rel string) string {
	switch rel {
	case "calls":
		return "calls"
	case "imports", "imports_from", "re_exports":
		return "imports"
	case "inherits", "extends", "implements", "embeds", "mixes_in":
		return "extends"
	}
	return "uses"
}

func (c *Catalog) predictEdit(_ context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Symbol  string `json:"symbol"`
		Kind    string `json:"kind"`
		Depth   *int   `json:"depth"`
		Limit   *int   `json:"limit"`
		Verbose bool   `json:"verbose"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	kind := EditKind(strings.ToLower(strings.TrimSpace(a.Kind)))
	if !slices.Contains(editKinds, kind) {
		return errorf("Unknown edit kind '%s': pass delete, signature or visibility.", sanitize(a.Kind))
	}
	limit := 20
	if a.Limit != nil {
		limit = max(*a.Limit, 1)
	}
	if a.Verbose {
		limit = int(^uint(0) >> 1)
	}
	depth := changeArgs{Depth: a.Depth}.depth()
	i, _, fail := s.resolveOne(a.Symbol)
	if fail != nil {
		return *fail
	}
	want := map[string]bool{}
	for _, r := range defaultImpactRelations {
		want[r] = true
	}
	rels := s.p.relSet(func(rel string) bool { return want[strings.ToLower(rel)] })
	members := s.members(i)
	hits := s.reverseImpact(append([]int32{i}, members...), rels, depth)
	slices.SortStableFunc(hits, s.byDepthThenDegree)
	var breaks, review []editRow
	for _, h := range hits {
		brk, why := s.classify(kind, i, h)
		n := s.x.Node(h.node)
		row := editRow{ID: sanitize(n.ID), Label: s.label(h.node), File: sanitize(n.SourceFile), Depth: h.depth, ViaRelation: sanitize(h.via), Reason: why}
		if brk {
			breaks = append(breaks, row)
		} else {
			review = append(review, row)
		}
	}
	var b strings.Builder
	if len(members) > 0 {
		fmt.Fprintf(&b, "%s is a %s with %d members; their dependents are included\n", s.label(i), sanitize(s.x.Node(i).Kind), len(members))
	}
	fmt.Fprintf(&b, "%s %s (%s): %d will break, %d to review (<= %d hops)\n", kind, s.label(i), s.fileOrExternal(i), len(breaks), len(review), depth)
	editSection(&b, "Will break", breaks, limit)
	editSection(&b, "To review", review, limit)
	if len(hits) == 0 {
		b.WriteString("No static dependents: a symbol reached only by dynamic dispatch, reflection or DI still shows 0 here.\n")
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

func editSection(b *strings.Builder, title string, rows []editRow, limit int) {
	byDepth := map[int]int{}
	maxD := 0
	for _, r := range rows {
		byDepth[r.Depth]++
		maxD = max(maxD, r.Depth)
	}
	var parts []string
	for d := 1; d <= maxD; d++ {
		if byDepth[d] > 0 {
			parts = append(parts, strconv.Itoa(d)+"h: "+strconv.Itoa(byDepth[d]))
		}
	}
	roll := ""
	if len(parts) > 0 {
		roll = "; " + strings.Join(parts, ", ")
	}
	fmt.Fprintf(b, "%s (%d%s):\n", title, len(rows), roll)
	for k, r := range rows {
		if k == limit {
			fmt.Fprintf(b, "  +%d more (pass verbose=true or a larger limit)\n", len(rows)-limit)
			break
		}
		file := r.File
		if file == "" {
			file = "external"
		}
		fmt.Fprintf(b, "  [%d] %s  %s  (%s): %s\n", r.Depth, r.ViaRelation, r.Label, file, r.Reason)
	}
}
