package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/synql"
)

// structural_search's row limits.
const (
	defaultStructuralLimit = 25
	maxStructuralLimit     = 1000
)

// engine is the snapshot's SYNQL engine, built on first use.
func (s *snapshot) engine() *synql.Engine {
	s.synqlOnce.Do(func() { s.synqlEng = synql.NewEngine(s.x) })
	return s.synqlEng
}

func (c *Catalog) structuralSearchTool() Tool {
	names := make([]string, len(synql.Patterns))
	for i, p := range synql.Patterns {
		names[i] = string(p)
	}
	return Tool{
		Name:        "structural_search",
		Description: "SYNQL structural search (MATCH (c:class) WHERE c.loc > 500 RETURN c), a named pattern, or a file outline.",
		InputSchema: object(
			str("query", "MATCH ... [WHERE] RETURN ... [ORDER BY] [LIMIT]. Fields: "+fieldNames()+"."),
			str("pattern", "Built-in pattern: "+strings.Join(names, ", ")+"."),
			str("file", "Outline files matching this."),
			integer("limit", "Max rows.", defaultStructuralLimit, 1, maxStructuralLimit),
		),
		OutputSchema: structuralSchema,
		Annotations:  readOnly,
		Run:          c.run(c.structuralSearch),
	}
}

func fieldNames() string {
	s := make([]string, len(synql.Fields))
	for i, f := range synql.Fields {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

var structuralNode = map[string]any{"type": "object", "properties": map[string]any{
	"id": typ("string"), "label": typ("string"), "kind": typ("string"), "visibility": typ("string"),
	"file": typ("string"), "line": typ("integer"), "loc": typ("integer"),
	"signature": map[string]any{"type": []string{"object", "null"}},
}}

var structuralSchema = outSchema(map[string]any{
	"columns":   map[string]any{"type": "array", "items": typ("string")},
	"results":   map[string]any{"type": "array", "items": map[string]any{"type": "array", "items": structuralNode}},
	"groups":    map[string]any{"type": "array", "items": map[string]any{"type": "array"}},
	"total":     typ("integer"),
	"truncated": typ("boolean"),
}, "columns", "total", "truncated")

// structuralRow is one node of a structural_search row.
type structuralRow struct {
	ID         string           `json:"id"`
	Label      string           `json:"label"`
	Kind       string           `json:"kind"`
	Visibility string           `json:"visibility"`
	File       string           `json:"file"`
	Line       int              `json:"line"`
	LOC        int              `json:"loc"`
	Signature  *graph.Signature `json:"signature"`
}

func (c *Catalog) structuralSearch(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		Query   string `json:"query"`
		Pattern string `json:"pattern"`
		File    string `json:"file"`
		Limit   *int   `json:"limit"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	limit := defaultStructuralLimit
	if a.Limit != nil {
		limit = min(max(*a.Limit, 1), maxStructuralLimit)
	}
	e := s.engine()
	var res *synql.Result
	var title string
	switch {
	case a.Pattern != "":
		nodes, err := e.Pattern(synql.PatternName(strings.ToLower(strings.TrimSpace(a.Pattern))))
		if err != nil {
			return errorf("structural_search: %v", err)
		}
		res, title = nodeList(nodes, limit, "node"), fmt.Sprintf("Pattern %s", sanitize(a.Pattern))
	case strings.TrimSpace(a.Query) != "":
		q, err := synql.Parse(a.Query)
		if err != nil {
			return errorf("structural_search: %v", err)
		}
		if res, err = e.Run(ctx, q, limit); err != nil {
			return errorf("structural_search: %v", err)
		}
		title = "Query"
	case a.File != "":
		res, title = nodeList(e.Outline(a.File), limit, "symbol"), fmt.Sprintf("Outline of files matching %q", sanitize(a.File))
	default:
		return errorf("structural_search needs a query (MATCH (c:class) RETURN c), a pattern (%s) or a file to outline.", strings.Join(patternNames(), ", "))
	}
	return s.structuralResult(title, res)
}

func patternNames() []string {
	s := make([]string, len(synql.Patterns))
	for i, p := range synql.Patterns {
		s[i] = string(p)
	}
	return s
}

// nodeList wraps a pattern's or outline's nodes as one-column rows.
func nodeList(nodes []int32, limit int, column string) *synql.Result {
	res := &synql.Result{Columns: []string{column}, NodeRows: true, Total: len(nodes)}
	for _, i := range nodes[:min(len(nodes), limit)] {
		res.Nodes = append(res.Nodes, []int32{i})
	}
	res.Truncated = len(nodes) > limit
	return res
}

func (s *snapshot) structuralResult(title string, res *synql.Result) Result {
	cols := make([]string, len(res.Columns))
	for i, c := range res.Columns {
		cols[i] = sanitize(c)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d row(s)", title, res.Total)
	if res.Capped {
		fmt.Fprintf(&b, " (at least: collection stopped at %d distinct rows)", synql.MaxRows)
	}
	if res.Truncated {
		fmt.Fprintf(&b, ", showing %d (raise limit, up to %d, or narrow the query)", res.Len(), maxStructuralLimit)
	}
	if res.Total == 0 {
		b.WriteString(" -- nothing matched.")
	} else {
		fmt.Fprintf(&b, " [%s]:", strings.Join(cols, " | "))
	}
	st := map[string]any{"columns": cols, "total": res.Total, "truncated": res.Truncated || res.Capped}
	if res.NodeRows {
		rows := make([][]structuralRow, 0, len(res.Nodes))
		for _, r := range res.Nodes {
			cells := make([]structuralRow, len(r))
			text := make([]string, len(r))
			for k, i := range r {
				cells[k] = s.structuralRow(i)
				text[k] = s.rowText(cells[k])
			}
			rows = append(rows, cells)
			fmt.Fprintf(&b, "\n  %s", strings.Join(text, "  |  "))
		}
		st["results"] = rows
	} else {
		groups := make([][]any, 0, len(res.Groups))
		for _, r := range res.Groups {
			vals := make([]any, len(r))
			text := make([]string, len(r))
			for k, v := range r {
				vals[k] = v.JSON()
				if sv, ok := vals[k].(string); ok {
					vals[k] = sanitize(sv)
				}
				text[k] = sanitize(v.String())
			}
			groups = append(groups, vals)
			fmt.Fprintf(&b, "\n  %s", strings.Join(text, " | "))
		}
		st["groups"] = groups
	}
	return Result{Text: b.String(), Structured: st}
}

func (s *snapshot) structuralRow(i int32) structuralRow {
	n := s.x.Node(i)
	r := structuralRow{ID: sanitize(n.ID), Label: s.label(i), Kind: sanitize(n.Kind), Visibility: sanitize(n.Visibility),
		File: sanitize(n.SourceFile), Line: synql.StartLine(n)}
	if v := s.engine().Field(i, synql.FLOC); !v.IsNull() {
		r.LOC = int(v.N)
	}
	if sig := n.Signature; sig != nil {
		clean := &graph.Signature{Params: make([]graph.Param, len(sig.Params)), ReturnType: sanitize(sig.ReturnType), Raw: sanitize(sig.Raw)}
		for k, p := range sig.Params {
			clean.Params[k] = graph.Param{Name: sanitize(p.Name), TypeRef: sanitize(p.TypeRef)}
		}
		r.Signature = clean
	}
	return r
}

// rowText is "label [kind/visibility] file:Lline".
func (s *snapshot) rowText(r structuralRow) string {
	kind := cmp.Or(r.Kind, "node")
	if r.Visibility != "" {
		kind += "/" + r.Visibility
	}
	where := cmp.Or(r.File, "(external)")
	if r.Line > 0 {
		where += fmt.Sprintf(":L%d", r.Line)
	}
	return fmt.Sprintf("%s [%s] %s", r.Label, kind, where)
}
