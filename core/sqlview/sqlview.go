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

// Schema builds the SQL schema of x's graph, replaying the migrations in
// order (files by path, statements by line): a CREATE TABLE replaces an
// earlier table of its name, ALTER TABLE … RENAME TO moves a table to its
// new name and DROP TABLE removes it, and what a statement names is the
// table of that name when it ran, reported under the table's final name.
// The result is deterministic: objects are sorted by name, then location.
func Schema(x *graph.Index, opts Options) *abi.SQLSchema {
	s := &abi.SQLSchema{}
	tables := map[string]*abi.SQLTable{}
	owner := map[int32]*abi.SQLTable{}   // table node -> its definition
	named := map[int32][]*abi.SQLTable{} // node -> the tables its attributes named, when it ran
	var children, late []int32
	for _, i := range replayOrder(x) {
		n := x.Node(i)
		a := nodeAttrs(n)
		named[i] = resolveNames(tables, a)
		switch n.Kind {
		case q.KindTable:
			t := &abi.SQLTable{Name: name(n), Dialect: a.get(q.AttrDialect), NodeID: n.ID, Location: Location(n)}
			tables[t.Name] = t
			owner[i] = t
			if pk := a.get(q.AttrPrimaryKey); pk != "" {
				t.PrimaryKey = strings.Split(pk, ",")
			}
			children = append(children, i)
		case q.KindAlterTable:
			t := tables[name(n)]
			if t == nil {
				late = append(late, i) // a table a later file creates, or none
				continue
			}
			owner[i] = t
			alter(t, a)
			if to := a.get(q.AttrRenameTo); to != "" {
				delete(tables, t.Name)
				t.Name = strings.ToLower(to)
				tables[t.Name] = t
			}
			children = append(children, i)
		case q.KindDropTable:
			delete(tables, name(n))
		}
	}
	live := map[*abi.SQLTable]bool{}
	for _, t := range tables {
		live[t] = true
	}
	for _, i := range late {
		if t := tables[name(x.Node(i))]; t != nil {
			owner[i] = t
			alter(t, nodeAttrs(x.Node(i)))
			children = append(children, i)
		}
	}
	for _, i := range children {
		if t := owner[i]; live[t] {
			addMembers(x, i, t)
		}
	}
	// final names what node i's attribute values named, as the tables
	// are called at the end.
	final := func(i int32, attr string) []string {
		var out []string
		k := 0
		for _, p := range nodeAttrs(x.Node(i)) {
			if !slices.Contains(nameAttrs, p.Name) {
				continue
			}
			t := named[i][k]
			k++
			if p.Name != attr {
				continue
			}
			if t != nil && live[t] {
				out = append(out, t.Name)
			} else {
				out = append(out, p.TypeRef)
			}
		}
		return out
	}
	first := func(i int32, attr string) string {
		if v := final(i, attr); len(v) > 0 {
			return v[0]
		}
		return ""
	}
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if n.Language != Language {
			continue
		}
		a := nodeAttrs(n)
		switch n.Kind {
		case q.KindView:
			s.Views = append(s.Views, abi.SQLView{Name: name(n), Reads: final(i, q.AttrReads), SecurityInvoker: a.has(q.AttrSecurityInvoker), NodeID: n.ID, Location: Location(n)})
		case q.KindPolicy:
			if !a.has(q.AttrSecurityPolicy) {
				s.Policies = append(s.Policies, abi.SQLPolicy{Name: name(n), Table: first(i, q.AttrOn), Command: a.get(q.AttrCommand), Roles: a.all(q.AttrRole),
					Using: a.get(q.AttrUsing), WithCheck: a.get(q.AttrWithCheck), NodeID: n.ID, Location: Location(n)})
			}
		case q.KindGrant:
			s.Grants = append(s.Grants, abi.SQLGrant{Privileges: a.all(q.AttrPrivilege), Tables: final(i, q.AttrOn), Roles: a.all(q.AttrRole), NodeID: n.ID, Location: Location(n)})
		case q.KindQuery:
			if n.IsTest && !opts.IncludeTests {
				continue
			}
			text := ""
			if n.Signature != nil {
				text = n.Signature.Raw
			}
			s.Statements = append(s.Statements, abi.SQLStatement{Text: text, Verb: a.get(q.AttrVerb), Tables: final(i, q.AttrTable),
				NodeID: n.ID, Location: Location(n), Built: abi.BuiltLiteral})
		case q.KindIndex:
			if isChild(x, i) {
				continue
			}
			if t := tableNamed(named[i], nodeAttrs(n), q.AttrOn); t != nil && live[t] {
				t.Indexes = append(t.Indexes, index(n, a))
			}
		}
		if n.Kind == q.KindPolicy && a.has(q.AttrSecurityPolicy) {
			k := 0
			for _, p := range a {
				if !slices.Contains(nameAttrs, p.Name) {
					continue
				}
				if t := named[i][k]; p.Name == q.AttrOn && t != nil && live[t] {
					t.SecurityPolicy = true
				}
				k++
			}
		}
	}
	for t := range live {
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

// nameAttrs are the attributes whose value names a table.
var nameAttrs = []string{q.AttrOn, q.AttrReads, q.AttrTable}

// resolveNames returns, for each name attribute of a in order, the table
// it names now (nil when none).
func resolveNames(tables map[string]*abi.SQLTable, a attrs) []*abi.SQLTable {
	var out []*abi.SQLTable
	for _, p := range a {
		if slices.Contains(nameAttrs, p.Name) {
			out = append(out, tables[strings.ToLower(p.TypeRef)])
		}
	}
	return out
}

// tableNamed is the table resolved for the first attr of a.
func tableNamed(named []*abi.SQLTable, a attrs, attr string) *abi.SQLTable {
	k := 0
	for _, p := range a {
		if !slices.Contains(nameAttrs, p.Name) {
			continue
		}
		if p.Name == attr {
			return named[k]
		}
		k++
	}
	return nil
}

// alter applies an ALTER TABLE's switches to t.
func alter(t *abi.SQLTable, a attrs) {
	t.RLSEnabled = (t.RLSEnabled || a.has(q.AttrEnableRLS)) && !a.has(q.AttrDisableRLS)
	t.RLSForced = t.RLSForced || a.has(q.AttrForceRLS)
	if pk := a.get(q.AttrPrimaryKey); pk != "" {
		t.PrimaryKey = strings.Split(pk, ",")
	}
}

// replayOrder is the SQL nodes that change the set of tables, by file and
// line (ties by node order, which is id order).
func replayOrder(x *graph.Index) []int32 {
	var out []int32
	for i := int32(0); i < int32(x.Len()); i++ {
		n := x.Node(i)
		if n.Language == Language {
			out = append(out, i)
		}
	}
	slices.SortStableFunc(out, func(a, b int32) int {
		na, nb := x.Node(a), x.Node(b)
		return cmp.Or(strings.Compare(na.SourceFile, nb.SourceFile), cmp.Compare(x.Line(a), x.Line(b)))
	})
	return out
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
