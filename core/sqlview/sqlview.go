// Package sqlview rebuilds the SQL schema from a graph: the SQL extractor
// reports tables, columns, indexes, policies and grants as nodes whose
// signatures carry their attributes (see sdk/sqltext's vocabulary), and
// this package merges them by name across files, so an ALTER TABLE in a
// later migration lands on its table. Rule packs read the result.
package sqlview

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	q "github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// Language is the graph language of SQL nodes.
const Language = "sql"

// Options tune what Schema keeps.
type Options struct {
	// IncludeTests keeps statements found in test code (skipped by default:
	// fixtures are not production queries).
	IncludeTests bool
}

// attrs reads a node's attributes.
type attrs []graph.Param

func (a attrs) has(name string) bool {
	for _, p := range a {
		if p.Name == name {
			return true
		}
	}
	return false
}

func (a attrs) get(name string) string {
	for _, p := range a {
		if p.Name == name {
			return p.TypeRef
		}
	}
	return ""
}

func (a attrs) all(name string) []string {
	var out []string
	for _, p := range a {
		if p.Name == name {
			out = append(out, p.TypeRef)
		}
	}
	return out
}

func nodeAttrs(n *graph.Node) attrs {
	if n.Signature == nil {
		return nil
	}
	return n.Signature.Params
}

// Location formats a node's place as findings write it.
func Location(n *graph.Node) string {
	line, _ := strconv.Atoi(strings.TrimPrefix(n.SourceLocation, "L"))
	if line <= 0 {
		return n.SourceFile
	}
	return n.SourceFile + ":" + strconv.Itoa(line)
}

// name is a node's object name: its label, lower-cased as the extractor
// folds names.
func name(n *graph.Node) string { return strings.ToLower(n.Label) }

// Schema builds the SQL schema of x's graph. The result is deterministic:
// objects are sorted by name, then location.
func Schema(x *graph.Index, opts Options) *abi.SQLSchema {
	s := &abi.SQLSchema{}
	tables := map[string]*abi.SQLTable{}
	owner := map[int32]*abi.SQLTable{} // table node -> its definition
	var alters, children []int32
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if n.Language != Language {
			continue
		}
		a := nodeAttrs(n)
		switch n.Kind {
		case q.KindTable:
			// A table created again (a migration that drops and recreates
			// it) is the later definition: nodes come in id order, which
			// starts with the file, so numbered migrations come in order.
			t := &abi.SQLTable{Name: name(n), Dialect: a.get(q.AttrDialect), NodeID: n.ID, Location: Location(n)}
			tables[t.Name] = t
			owner[i] = t
			if pk := a.get(q.AttrPrimaryKey); pk != "" {
				t.PrimaryKey = strings.Split(pk, ",")
			}
			children = append(children, i)
		case q.KindAlterTable:
			alters = append(alters, i)
		case q.KindView:
			s.Views = append(s.Views, abi.SQLView{Name: name(n), Reads: a.all(q.AttrReads), SecurityInvoker: a.has(q.AttrSecurityInvoker), NodeID: n.ID, Location: Location(n)})
		case q.KindPolicy:
			if !a.has(q.AttrSecurityPolicy) {
				s.Policies = append(s.Policies, abi.SQLPolicy{Name: name(n), Table: a.get(q.AttrOn), Command: a.get(q.AttrCommand), Roles: a.all(q.AttrRole),
					Using: a.get(q.AttrUsing), WithCheck: a.get(q.AttrWithCheck), NodeID: n.ID, Location: Location(n)})
			}
		case q.KindGrant:
			s.Grants = append(s.Grants, abi.SQLGrant{Privileges: a.all(q.AttrPrivilege), Tables: a.all(q.AttrOn), Roles: a.all(q.AttrRole), NodeID: n.ID, Location: Location(n)})
		case q.KindQuery:
			if n.IsTest && !opts.IncludeTests {
				continue
			}
			text := ""
			if n.Signature != nil {
				text = n.Signature.Raw
			}
			s.Statements = append(s.Statements, abi.SQLStatement{Text: text, Verb: a.get(q.AttrVerb), Tables: a.all(q.AttrTable),
				NodeID: n.ID, Location: Location(n), Built: abi.BuiltLiteral})
		}
	}
	// Second pass: what attaches to tables declared anywhere.
	for _, i := range children {
		if t := owner[i]; tables[t.Name] == t {
			addMembers(x, i, t)
		}
	}
	for _, i := range alters {
		n := x.Node(i)
		t := tables[name(n)]
		if t == nil {
			continue // a table this graph does not define
		}
		a := nodeAttrs(n)
		t.RLSEnabled = (t.RLSEnabled || a.has(q.AttrEnableRLS)) && !a.has(q.AttrDisableRLS)
		t.RLSForced = t.RLSForced || a.has(q.AttrForceRLS)
		if pk := a.get(q.AttrPrimaryKey); pk != "" {
			t.PrimaryKey = strings.Split(pk, ",")
		}
		addMembers(x, i, t)
	}
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if n.Language != Language {
			continue
		}
		a := nodeAttrs(n)
		switch {
		case n.Kind == q.KindIndex && !isChild(x, i):
			if t := tables[a.get(q.AttrOn)]; t != nil {
				t.Indexes = append(t.Indexes, index(n, a))
			}
		case n.Kind == q.KindPolicy && a.has(q.AttrSecurityPolicy):
			for _, on := range a.all(q.AttrOn) {
				if t := tables[on]; t != nil {
					t.SecurityPolicy = true
				}
			}
		}
	}
	for _, t := range tables {
		for _, c := range t.Columns {
			if c.PrimaryKey && !slices.Contains(t.PrimaryKey, c.Name) {
				t.PrimaryKey = append(t.PrimaryKey, c.Name)
			}
		}
		slices.SortFunc(t.Indexes, func(a, b abi.SQLIndex) int {
			return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Location, b.Location))
		})
		s.Tables = append(s.Tables, *t)
	}
	slices.SortFunc(s.Tables, func(a, b abi.SQLTable) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(s.Views, func(a, b abi.SQLView) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Location, b.Location))
	})
	slices.SortFunc(s.Policies, func(a, b abi.SQLPolicy) int {
		return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.Name, b.Name))
	})
	slices.SortFunc(s.Grants, func(a, b abi.SQLGrant) int { return cmp.Compare(a.Location, b.Location) })
	slices.SortFunc(s.Statements, func(a, b abi.SQLStatement) int { return cmp.Compare(a.Location, b.Location) })
	return s
}

// isChild reports a node owned by a table or ALTER TABLE (an inline
// UNIQUE/KEY definition), which addMembers has placed already.
func isChild(x *graph.Index, i int32) bool {
	for _, e := range x.In(i) {
		if x.Edge(e).Relation != "contains" {
			continue
		}
		src, _ := x.Ends(e)
		if k := x.Node(src).Kind; k == q.KindTable || k == q.KindAlterTable {
			return true
		}
	}
	return false
}

func index(n *graph.Node, a attrs) abi.SQLIndex {
	return abi.SQLIndex{Name: name(n), Columns: a.all(q.AttrColumn), Unique: a.has(q.AttrUnique), NodeID: n.ID, Location: Location(n)}
}

// addMembers adds the columns, constraints and inline indexes under node i
// to t.
func addMembers(x *graph.Index, i int32, t *abi.SQLTable) {
	var constraints []int32
	for _, e := range x.Out(i) {
		if x.Edge(e).Relation != "contains" {
			continue
		}
		_, dst := x.Ends(e)
		n := x.Node(dst)
		a := nodeAttrs(n)
		switch n.Kind {
		case q.KindColumn:
			typ := ""
			if n.Signature != nil {
				typ = n.Signature.ReturnType
			}
			t.Columns = append(t.Columns, abi.SQLColumn{Name: name(n), Type: typ, NotNull: a.has(q.AttrNotNull), PrimaryKey: a.has(q.AttrPrimaryKey),
				Unique: a.has(q.AttrUnique), References: a.get(q.AttrReferences), NodeID: n.ID, Location: Location(n)})
		case q.KindIndex:
			t.Indexes = append(t.Indexes, index(n, a))
		case q.KindConstraint:
			constraints = append(constraints, dst)
		}
	}
	// Constraints last: a foreign key names columns declared before it.
	for _, c := range constraints {
		n := x.Node(c)
		a := nodeAttrs(n)
		{
			if pk := a.get(q.AttrPrimaryKey); pk != "" {
				t.PrimaryKey = strings.Split(pk, ",")
			}
			if ref := a.get(q.AttrReferences); ref != "" {
				for _, col := range a.all(q.AttrColumn) {
					for k := range t.Columns {
						if t.Columns[k].Name == col && t.Columns[k].References == "" {
							t.Columns[k].References = ref
						}
					}
				}
			}
		}
	}
}
