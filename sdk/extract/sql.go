package extract

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// sqlLanguages are the code languages whose files the SDK scans for SQL
// literals at database calls, on behalf of every extractor built on it:
// the scan reads text, so no extractor needs its own.
var sqlLanguages = map[string]bool{
	"go": true, "python": true, "javascript": true, "typescript": true, "tsx": true, "java": true,
	"rust": true, "csharp": true, "kotlin": true, "php": true, "ruby": true,
}

// addSQLSites records f's SQL literals at database calls, each owned by
// the innermost callable whose span holds the call's line.
func addSQLSites(f *File) {
	if f.Tree == nil || f.Tree.Grammar == nil || !sqlLanguages[f.Language()] {
		return
	}
	found := sqltext.FindCodeSQL(f.Source(), abi.MaxSQLSites)
	for _, s := range found {
		text := sqltext.Collapse(s.Text, abi.MaxSQLText-len("…"))
		if text == "" {
			continue
		}
		f.facts.SQL = append(f.facts.SQL, abi.SQLSite{From: innermostCallable(f.facts.Symbols, uint32(s.Line)), Text: text, Built: s.Built, Line: uint32(s.Line)})
	}
}

// innermostCallable returns the index of the smallest function, method or
// constructor whose span holds line, or -1.
func innermostCallable(syms []abi.Symbol, line uint32) int32 {
	best, size := int32(-1), uint32(0)
	for i := range syms {
		s := &syms[i]
		if s.Kind != "function" && s.Kind != "method" && s.Kind != "constructor" {
			continue
		}
		if s.Span.StartLine <= line && line <= s.Span.EndLine && (best < 0 || s.Span.EndLine-s.Span.StartLine < size) {
			best, size = int32(i), s.Span.EndLine-s.Span.StartLine
		}
	}
	return best
}
