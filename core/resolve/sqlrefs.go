package resolve

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	q "github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// SQL relations: the schema's own links (from the sql extractor's
// symbols and their attributes) and code's links to it (from the SQL
// sites extractors report). Tables are matched by their folded name, the
// way the database does; a table defined again in a later migration is
// one table, its last definition.
const (
	RelQueries     = "queries"      // code or a .sql statement -> a table it reads
	RelWritesTo    = "writes_to"    // ... -> the table an INSERT/UPDATE/DELETE/MERGE changes
	RelCallsProc   = "calls_proc"   // ... -> the function/procedure a CALL/EXEC runs
	RelHasColumn   = "has_column"   // table -> column (also one an ALTER TABLE adds)
	RelHasIndex    = "has_index"    // table -> index
	RelIndexes     = "indexes"      // index -> a column it covers
	RelReferences  = "references"   // table -> table its foreign key points at
	RelProtectedBy = "protected_by" // table -> RLS policy / security policy
	RelGrants      = "grants"       // role -> table; the privileges are the context
	RelReadsFrom   = "reads_from"   // view -> table or view
	RelTriggers    = "triggers"     // trigger -> the function it runs
)

// SQLContext is the context of code->SQL and schema edges.
const SQLContext = "sql"

// computedTable names the target of a statement whose table is built at
// run time (FROM %s, FROM ${t}): the statement is kept, not guessed.
const computedTable = "(computed table)"

// sqlIndex is the schema's objects by folded name, as the migrations
// leave them: files in path order, statements in source order, a CREATE
// replacing an earlier table of its name, RENAME TO moving a table to
// its new name and DROP TABLE removing it.
type sqlIndex struct {
	tables   map[string]int32            // the live table of each name
	views    map[string]int32            // last CREATE VIEW
	routines map[string]int32            // last CREATE FUNCTION/PROCEDURE
	columns  map[string]map[string]int32 // table -> column -> symbol
	altered  map[int32]int32             // ALTER TABLE symbol -> the table it altered, then
	live     map[int32]bool              // tables that exist at the end
	final    map[int32]string            // live table -> its name at the end
	// at holds the tables a statement named, as they were when it ran: a
	// policy ON jobs before jobs was renamed is a policy of the renamed table.
	at map[int32]map[string]int32
}

// sqlNameAttrs are the attributes that name a table.
var sqlNameAttrs = []string{q.AttrOn, q.AttrReads, q.AttrReferences, q.AttrTable}

// resolveSQL adds the SQL edges; a graph without SQL costs one pass over
// the files.
func (r *resolver) resolveSQL() {
	var sqlFiles, codeFiles []int32
	for fi := range r.files {
		f := &r.files[fi]
		switch {
		case declaresSchema(f):
			sqlFiles = append(sqlFiles, int32(fi))
		case len(f.Facts.SQL) > 0:
			codeFiles = append(codeFiles, int32(fi))
		}
	}
	if len(sqlFiles) == 0 && len(codeFiles) == 0 {
		return
	}
	x := r.indexSQL(sqlFiles)
	r.markRenamed(x)
	for _, fi := range sqlFiles {
		r.schemaEdges(x, &r.files[fi])
	}
	for _, fi := range codeFiles {
		r.codeSQLEdges(x, &r.files[fi])
	}
}

func fold(name string) string { return strings.ToLower(name) }

// markRenamed writes "renamed_to" on a table node whose table a later
// ALTER TABLE … RENAME TO renamed: the node keeps the label it was
// created with, and the name the code and the audit use is the new one.
func (r *resolver) markRenamed(x *sqlIndex) {
	renamed := map[string]string{}
	for t, name := range x.final {
		if fold(r.syms[t].name) != name {
			renamed[r.syms[t].id] = name
		}
	}
	if len(renamed) == 0 {
		return
	}
	for i := range r.nodes {
		if name, ok := renamed[r.nodes[i].ID]; ok {
			v, _ := json.Marshal(name)
			if r.nodes[i].Extra == nil {
				r.nodes[i].Extra = map[string]json.RawMessage{}
			}
			r.nodes[i].Extra["renamed_to"] = v
		}
	}
}

func (r *resolver) indexSQL(files []int32) *sqlIndex {
	x := &sqlIndex{tables: map[string]int32{}, views: map[string]int32{}, routines: map[string]int32{},
		columns: map[string]map[string]int32{}, altered: map[int32]int32{}, live: map[int32]bool{}, final: map[int32]string{},
		at: map[int32]map[string]int32{}}
	for _, fi := range files {
		f := &r.files[fi]
		for li := range f.Facts.Symbols {
			s := &f.Facts.Symbols[li]
			g := f.first + int32(li)
			name := fold(s.Name)
			x.snapshot(g, s)
			switch q.ObjectKind(s.Kind) {
			case q.KindTable:
				x.tables[name] = g
			case q.KindAlterTable:
				t, ok := x.tables[name]
				if !ok {
					continue
				}
				x.altered[g] = t
				if to := attrValues(s, q.AttrRenameTo); len(to) > 0 {
					delete(x.tables, name)
					x.tables[fold(to[0])] = t
				}
			case q.KindDropTable:
				delete(x.tables, name)
			case q.KindView:
				x.views[name] = g
			case q.KindFunction, q.KindProcedure:
				x.routines[name] = g
			}
		}
	}
	for name, t := range x.tables {
		x.live[t] = true
		x.final[t] = name
	}
	// Columns of the live tables, declared in their CREATE or added by an
	// ALTER TABLE, under the table's final name.
	final := x.final
	for _, fi := range files {
		f := &r.files[fi]
		for li := range f.Facts.Symbols {
			s := &f.Facts.Symbols[li]
			if q.ObjectKind(s.Kind) != q.KindColumn || s.Parent < 0 {
				continue
			}
			owner := r.sqlOwner(x, f.first+s.Parent)
			if owner < 0 {
				continue
			}
			t := final[owner]
			if x.columns[t] == nil {
				x.columns[t] = map[string]int32{}
			}
			x.columns[t][fold(s.Name)] = f.first + int32(li)
		}
	}
	return x
}

// sqlOwner is the live table a member symbol (column, constraint, inline
// index) belongs to: its own CREATE TABLE, or the table an ALTER TABLE
// altered; -1 for a table replaced or dropped later.
func (r *resolver) sqlOwner(x *sqlIndex, parent int32) int32 {
	switch r.syms[parent].kind {
	case q.KindTable:
		if x.live[parent] {
			return parent
		}
	case q.KindAlterTable:
		if t, ok := x.altered[parent]; ok && x.live[t] {
			return t
		}
	}
	return -1
}

func symAttrs(s *abi.Symbol) []abi.Param {
	if s.Signature == nil {
		return nil
	}
	return s.Signature.Params
}

func attrValues(s *abi.Symbol, name string) []string {
	var out []string
	for _, p := range symAttrs(s) {
		if p.Name == name && p.Type != "" {
			out = append(out, p.Type)
		}
	}
	return out
}

// columnOf finds column c of live table t.
func (x *sqlIndex) columnOf(t int32, c string) (int32, bool) {
	col, ok := x.columns[x.final[t]][fold(c)]
	return col, ok
}

// snapshot records the tables s names as they are now.
func (x *sqlIndex) snapshot(g int32, s *abi.Symbol) {
	for _, p := range symAttrs(s) {
		if !slices.Contains(sqlNameAttrs, p.Name) {
			continue
		}
		name, _, _ := strings.Cut(fold(p.Type), ".")
		if p.Name != q.AttrReferences {
			name = fold(p.Type)
		}
		if t, ok := x.tables[name]; ok {
			if x.at[g] == nil {
				x.at[g] = map[string]int32{}
			}
			x.at[g][name] = t
		}
	}
}

// table resolves a name statement g used to the live table it meant:
// the table of that name when g ran, else the one of that name at the
// end (a foreign key to a table a later file creates).
func (x *sqlIndex) table(g int32, name string) (int32, bool) {
	name = fold(name)
	if t, ok := x.at[g][name]; ok {
		return t, x.live[t]
	}
	t, ok := x.tables[name]
	return t, ok
}

// relation resolves a name statement g used: a table, else a view; g -1
// for code, which runs against the final schema.
func (x *sqlIndex) relation(g int32, name string) (int32, bool) {
	if t, ok := x.table(g, name); ok {
		return t, true
	}
	t, ok := x.views[fold(name)]
	return t, ok
}

func (r *resolver) sqlEdge(src, dst, rel, ctx, file string, line uint32) {
	r.edgeCtx(src, dst, rel, graph.Extracted, ctx, file, line)
}

// schemaEdges links one .sql file's objects to the tables they name.
func (r *resolver) schemaEdges(x *sqlIndex, f *fileInfo) {
	for li := range f.Facts.Symbols {
		s := &f.Facts.Symbols[li]
		g := f.first + int32(li)
		id, line := r.syms[g].id, s.Span.StartLine
		owner := int32(-1)
		if s.Parent >= 0 {
			owner = r.sqlOwner(x, f.first+s.Parent)
		}
		switch q.ObjectKind(s.Kind) {
		case q.KindColumn:
			if owner >= 0 {
				r.sqlEdge(r.syms[owner].id, id, RelHasColumn, SQLContext, f.Path, line)
				r.foreignKeys(x, g, owner, s, f.Path, line)
			}
		case q.KindConstraint:
			if owner >= 0 {
				r.foreignKeys(x, g, owner, s, f.Path, line)
			}
		case q.KindIndex:
			on := owner
			if on < 0 {
				for _, t := range attrValues(s, q.AttrOn) {
					if tt, ok := x.table(g, t); ok {
						on = tt
					}
				}
			}
			if on < 0 {
				continue
			}
			r.sqlEdge(r.syms[on].id, id, RelHasIndex, SQLContext, f.Path, line)
			for _, c := range attrValues(s, q.AttrColumn) {
				if col, ok := x.columnOf(on, c); ok {
					r.sqlEdge(id, r.syms[col].id, RelIndexes, SQLContext, f.Path, line)
				}
			}
		case q.KindPolicy:
			for _, t := range attrValues(s, q.AttrOn) {
				if tt, ok := x.table(g, t); ok {
					r.sqlEdge(r.syms[tt].id, id, RelProtectedBy, SQLContext, f.Path, line)
				}
			}
		case q.KindGrant:
			privs := strings.Join(attrValues(s, q.AttrPrivilege), ",")
			for _, role := range attrValues(s, q.AttrRole) {
				for _, t := range attrValues(s, q.AttrOn) {
					if tt, ok := x.relation(g, t); ok {
						r.sqlEdge(r.sqlRole(role, f.Language), r.syms[tt].id, RelGrants, privs, f.Path, line)
					}
				}
			}
		case q.KindView:
			for _, t := range attrValues(s, q.AttrReads) {
				if tt, ok := x.relation(g, t); ok && tt != g {
					r.sqlEdge(id, r.syms[tt].id, RelReadsFrom, SQLContext, f.Path, line)
				}
			}
		case q.KindTrigger:
			for _, fn := range attrValues(s, q.AttrExecutes) {
				if tt, ok := x.routines[fold(fn)]; ok {
					r.sqlEdge(id, r.syms[tt].id, RelTriggers, SQLContext, f.Path, line)
				}
			}
		case q.KindQuery:
			target := ""
			if s.Signature != nil {
				target = fold(q.WriteTarget(q.Lex(s.Signature.Raw, 1)))
			}
			for _, t := range attrValues(s, q.AttrTable) {
				rel := RelQueries
				if fold(t) == target {
					rel = RelWritesTo
				}
				if tt, ok := x.relation(g, t); ok {
					r.sqlEdge(id, r.syms[tt].id, rel, SQLContext, f.Path, line)
				}
			}
		}
	}
}

// foreignKeys adds owner -> referenced table for s's REFERENCES.
func (r *resolver) foreignKeys(x *sqlIndex, g, owner int32, s *abi.Symbol, file string, line uint32) {
	for _, ref := range attrValues(s, q.AttrReferences) {
		table, _, _ := strings.Cut(ref, ".")
		if tt, ok := x.table(g, table); ok && tt != owner {
			r.sqlEdge(r.syms[owner].id, r.syms[tt].id, RelReferences, SQLContext, file, line)
		}
	}
}

// sqlRole returns the node of a database role, made once (in the
// language of the first file granting to it).
func (r *resolver) sqlRole(name, language string) string {
	key := "sql-role\x00" + fold(name)
	if id, ok := r.stubs[key]; ok {
		return id
	}
	if r.stubs == nil {
		r.stubs = make(map[string]string)
	}
	id := r.uniqueID(graph.MakeID("sql", "role", fold(name)), 0)
	r.stubs[key] = id
	r.nodes = append(r.nodes, graph.Node{ID: id, Label: fold(name), FileType: "code", Kind: "role", Language: language})
	return id
}

// sqlStatement is one statement on a code->SQL edge, as graph.json
// writes it in the edge's "statements".
type sqlStatement struct {
	Line  uint32 `json:"line"`
	SQL   string `json:"sql"`
	Built string `json:"built"`
}

type codeSQLKey struct {
	from, to, rel string
}

// codeSQLEdges links one code file's SQL sites to the tables they name:
// one edge per (caller, table, relation), carrying every statement.
func (r *resolver) codeSQLEdges(x *sqlIndex, f *fileInfo) {
	groups := map[codeSQLKey][]sqlStatement{}
	var order []codeSQLKey
	add := func(k codeSQLKey, st sqlStatement) {
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], st)
	}
	for i := range f.Facts.SQL {
		site := &f.Facts.SQL[i]
		from := f.id
		if site.From >= 0 {
			from = r.syms[f.first+site.From].id
		}
		st := sqlStatement{Line: site.Line, SQL: site.Text, Built: site.Built}
		toks := q.Lex(site.Text, 1)
		verb := q.Verb(toks)
		if verb == "CALL" || verb == "EXEC" {
			if name := routineName(toks); name != "" {
				to := ""
				if t, ok := x.routines[fold(name)]; ok {
					to = r.syms[t].id
				} else {
					to = r.stub(fold(name), q.KindProcedure)
				}
				add(codeSQLKey{from, to, RelCallsProc}, st)
			}
			continue
		}
		target := fold(q.WriteTarget(toks))
		tables := q.Tables(toks)
		if len(tables) == 0 {
			switch name, computed := fromHead(toks); {
			case name != "": // SELECT * FROM add_job(...)
				to := ""
				if t, ok := x.routines[fold(name)]; ok {
					to = r.syms[t].id
				} else {
					to = r.stub(fold(name), q.KindProcedure)
				}
				add(codeSQLKey{from, to, RelCallsProc}, st)
			case computed: // FROM %s, FROM ${table}
				rel := RelQueries
				if q.Writes(verb) {
					rel = RelWritesTo
				}
				add(codeSQLKey{from, r.stub(computedTable, q.KindTable), rel}, st)
			}
			continue
		}
		for _, t := range tables {
			rel := RelQueries
			if fold(t) == target {
				rel = RelWritesTo
			}
			to := ""
			if tt, ok := x.relation(-1, t); ok {
				to = r.syms[tt].id
			} else {
				to = r.stub(fold(t), q.KindTable)
			}
			add(codeSQLKey{from, to, rel}, st)
		}
	}
	for _, k := range order {
		sts := groups[k]
		slices.SortStableFunc(sts, func(a, b sqlStatement) int { return cmp.Compare(a.Line, b.Line) })
		r.sqlEdge(k.from, k.to, k.rel, SQLContext, f.Path, sts[0].Line)
		e := &r.edges[len(r.edges)-1]
		text, _ := json.Marshal(sts[0].SQL)
		all, _ := json.Marshal(sts)
		e.Extra = map[string]json.RawMessage{"sql": text, "statements": all}
		for _, st := range sts[1:] {
			if st.Line != sts[0].Line {
				e.Sites = append(e.Sites, graph.Site{SourceFile: f.Path, SourceLocation: r.loc(st.Line)})
			}
		}
		e.Sites = slices.Compact(e.Sites)
	}
}

// fromHead reads what follows the first FROM/JOIN/INTO/UPDATE of a
// statement that names no table: a function called there (its name), or
// a placeholder the code fills in at run time (computed).
func fromHead(toks []q.Token) (routine string, computed bool) {
	for i, t := range toks {
		switch t.Upper() {
		case "FROM", "JOIN", "INTO", "UPDATE":
		default:
			continue
		}
		if i+1 >= len(toks) {
			return "", true // "SELECT a FROM " + table
		}
		name, k := q.QualifiedName(toks, i+1)
		if name != "" && k < len(toks) && toks[k].Text == "(" {
			return name, false
		}
		next := toks[i+1]
		return "", name == "" && (next.Kind == q.Param || next.Text == "%" || next.Text == "+")
	}
	return "", false
}

// routineName is the routine a CALL/EXEC statement runs.
func routineName(toks []q.Token) string {
	if len(toks) < 2 {
		return ""
	}
	name, _ := q.QualifiedName(toks, 1)
	return name
}

// declaresSchema says whether a file's facts hold schema objects (a
// migration or schema file, whichever plugin read it): the kinds say so,
// not the language's name.
func declaresSchema(f *fileInfo) bool {
	for i := range f.Facts.Symbols {
		switch f.Facts.Symbols[i].Kind {
		case abi.KindTable, abi.KindAlterTable, abi.KindDropTable, abi.KindColumn, abi.KindConstraint, abi.KindIndex,
			abi.KindView, abi.KindPolicy, abi.KindGrant, abi.KindProcedure, abi.KindTrigger, abi.KindQuery, abi.KindStatement:
			return true
		}
	}
	return false
}
