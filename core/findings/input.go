package findings

import (
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/sqlview"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// Source reads the repository a graph was built from; nil when the host
// has no source root.
type Source interface {
	// ReadFile returns a repository-relative file, refusing paths outside
	// the repository.
	ReadFile(rel string) ([]byte, error)
	// Files lists repository-relative paths up to depth directories deep,
	// at most max of them, skipping noise directories (.git,
	// node_modules, ...).
	Files(depth, max int) []string
}

// Bounds of a readiness input: a pack gets whole files, but not a whole
// monorepo.
const (
	maxSnippetFile  = 256 << 10
	maxSnippetTotal = 16 << 20
	maxNodes        = 100000
	maxProjectFiles = 5000
)

// AuditInput is the audit-mode input: the SQL schema of x and the SQL
// statements code runs (from the graph's code->SQL edges); when src is
// not nil, each call site also gets the source lines above it.
// Statements in test code are left out unless includeTests.
func AuditInput(x *graph.Index, src Source, includeTests bool) *abi.RuleInput {
	in := &abi.RuleInput{Version: abi.RulesVersion, Mode: abi.ModeAudit, Schema: sqlview.Schema(x, sqlview.Options{IncludeTests: includeTests})}
	in.Schema.Statements = append(in.Schema.Statements, codeStatements(x, src, includeTests)...)
	return in
}

// AdviseInput is the advise-mode input: one query and the part of the
// schema it names (its tables and views, and their policies).
func AdviseInput(x *graph.Index, query, dialect string) *abi.RuleInput {
	full := sqlview.Schema(x, sqlview.Options{})
	named := map[string]bool{}
	for _, t := range sqltext.Tables(sqltext.Lex(query, 1)) {
		named[t] = true
	}
	s := &abi.SQLSchema{}
	for _, t := range full.Tables {
		if named[t.Name] {
			s.Tables = append(s.Tables, t)
		}
	}
	for _, v := range full.Views {
		if named[v.Name] {
			s.Views = append(s.Views, v)
		}
	}
	for _, p := range full.Policies {
		if named[p.Table] {
			s.Policies = append(s.Policies, p)
		}
	}
	return &abi.RuleInput{Version: abi.RulesVersion, Mode: abi.ModeAdvise, Dialect: dialect, Schema: s,
		Query: &abi.SQLStatement{Text: query, Location: "query", Built: abi.BuiltLiteral}}
}

func line(loc string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(loc, "L"))
	return n
}

// ReadinessInput is the readiness-mode input: the graph's code nodes,
// the text of the files they live in (bounded) and the project's files.
// It returns the checks it could not feed, for the report's skipped list.
func ReadinessInput(x *graph.Index, src Source, profile string) (*abi.RuleInput, []string) {
	in := &abi.RuleInput{Version: abi.RulesVersion, Mode: abi.ModeReadiness, Profile: profile}
	var skipped []string
	files := map[string]bool{}
	var order []string
	tests := 0
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if n.IsTest {
			tests++
		}
		if n.SourceFile == "" || n.Language == sqlview.Language || n.Kind == "" || n.Kind == "file" {
			continue
		}
		if len(in.Nodes) >= maxNodes {
			continue
		}
		cn := abi.CodeNode{ID: n.ID, Label: n.Label, Kind: n.Kind, File: n.SourceFile, Line: line(n.SourceLocation), Language: n.Language, Test: n.IsTest}
		if n.Span != nil {
			cn.Line, cn.EndLine = n.Span.StartLine, n.Span.EndLine
		}
		in.Nodes = append(in.Nodes, cn)
		if !files[n.SourceFile] {
			files[n.SourceFile] = true
			order = append(order, n.SourceFile)
		}
	}
	if len(in.Nodes) >= maxNodes {
		skipped = append(skipped, "graph-only checks: only the first "+strconv.Itoa(maxNodes)+" nodes were handed to the packs")
	}
	if src == nil {
		return in, append(skipped,
			"source checks (placeholders, stubs, sentinel returns): no source root; pass --source-root to serve",
			"project metadata (license, CI, lockfile, tests): no source root")
	}
	in.Project = &abi.ProjectMeta{Files: src.Files(2, maxProjectFiles), TestNodes: tests}
	total, big, over := 0, 0, 0
	for _, f := range order {
		data, err := src.ReadFile(f)
		switch {
		case err != nil:
			continue
		case len(data) > maxSnippetFile:
			big++
			continue
		case total+len(data) > maxSnippetTotal:
			over++
			continue
		}
		total += len(data)
		in.Snippets = append(in.Snippets, abi.Snippet{File: f, Line: 1, Text: string(data)})
	}
	if big > 0 {
		skipped = append(skipped, strconv.Itoa(big)+" file(s) over 256 KiB not scanned for placeholders")
	}
	if over > 0 {
		skipped = append(skipped, strconv.Itoa(over)+" file(s) not scanned: the 16 MiB source budget was spent")
	}
	return in, skipped
}
