package findings

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/sqlview"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// Code-to-SQL statements come from the graph: extraction links each SQL
// literal at a database call to the tables it names (queries, writes_to,
// calls_proc edges with the statements on them), so an audit reads no
// code to find them. Only the lines above a call site (for the N+1
// rule) are read from the source, when there is one.

// codeRelations carry code's statements.
var codeRelations = map[string]bool{"queries": true, "writes_to": true, "calls_proc": true}

const contextLines = 15

// edgeStatement is one statement as graph.json keeps it on an edge.
type edgeStatement struct {
	Line  int    `json:"line"`
	SQL   string `json:"sql"`
	Built string `json:"built"`
}

type statementKey struct {
	caller int32
	line   int
	text   string
}

// codeStatements collects the statements on x's code->SQL edges, one per
// call site however many tables it names, in file and line order.
func codeStatements(x *graph.Index, src Source, includeTests bool) []abi.SQLStatement {
	var keys []statementKey
	built := map[statementKey]string{}
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if n.Language == sqlview.Language || (n.IsTest && !includeTests) {
			continue
		}
		for _, e := range x.Out(i) {
			ed := x.Edge(e)
			raw, ok := ed.Extra["statements"]
			if !ok || !codeRelations[ed.Relation] {
				continue
			}
			var sts []edgeStatement
			if json.Unmarshal(raw, &sts) != nil {
				continue
			}
			for _, st := range sts {
				k := statementKey{i, st.Line, st.SQL}
				if _, seen := built[k]; !seen && st.SQL != "" {
					keys = append(keys, k)
					built[k] = st.Built
				}
			}
		}
	}
	slices.SortFunc(keys, func(a, b statementKey) int {
		na, nb := x.Node(a.caller), x.Node(b.caller)
		return cmp.Or(strings.Compare(na.SourceFile, nb.SourceFile), cmp.Compare(a.line, b.line),
			strings.Compare(na.ID, nb.ID), strings.Compare(a.text, b.text))
	})
	lines := sourceLines{src: src, files: map[string][]string{}}
	out := make([]abi.SQLStatement, 0, len(keys))
	for _, k := range keys {
		n := x.Node(k.caller)
		toks := sqltext.Lex(k.text, 1)
		st := abi.SQLStatement{Text: k.text, Verb: sqltext.Verb(toks), Tables: sqltext.Tables(toks), Caller: n.ID,
			Location: n.SourceFile + ":" + strconv.Itoa(k.line), Built: built[k]}
		st.Context = lines.above(n, k.line)
		out = append(out, st)
	}
	return out
}

// sourceLines reads the files of call sites once each, within the
// snippet budget.
type sourceLines struct {
	src   Source
	files map[string][]string
	total int
}

// above returns up to contextLines source lines above line, inside the
// caller's span when it has one.
func (s *sourceLines) above(n *graph.Node, line int) []string {
	if s.src == nil || n.SourceFile == "" {
		return nil
	}
	lines, ok := s.files[n.SourceFile]
	if !ok {
		data, err := s.src.ReadFile(n.SourceFile)
		if err == nil && len(data) <= maxSnippetFile && s.total+len(data) <= maxSnippetTotal {
			s.total += len(data)
			lines = strings.Split(string(data), "\n")
		}
		s.files[n.SourceFile] = lines
	}
	if line < 1 || line > len(lines) {
		return nil
	}
	from := max(line-1-contextLines, 0)
	if n.Span != nil && n.Span.StartLine >= 1 {
		from = max(from, n.Span.StartLine-1)
	}
	if from >= line-1 {
		return nil
	}
	return append([]string(nil), lines[from:line-1]...)
}
