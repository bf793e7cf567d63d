package main

import (
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/rules"
	q "github.com/synaptic-graph/synaptic/sdk/sqltext"
)

// Pack runs the SQL rules.
type Pack struct{}

// Run audits the schema and its statements (audit), or one query against
// the schema (advise).
func (Pack) Run(in *abi.RuleInput, r *rules.Report) error {
	s := newSchema(in.Schema)
	switch in.Mode {
	case abi.ModeAudit:
		s.auditSchema(r)
		var lx lexer
		for i := range in.Schema.Statements {
			st := &in.Schema.Statements[i]
			checkStatement(st, st.Caller != "", lx.lex(st.Text), r)
		}
	case abi.ModeAdvise:
		if in.Query == nil {
			return fmt.Errorf("advise mode without a query")
		}
		in.Query.Location = orDefault(in.Query.Location, "query")
		checkStatement(in.Query, true, q.Lex(in.Query.Text, 1), r)
		s.crossCheck(in.Query, in.Dialect, r)
	default:
		return fmt.Errorf("the sql pack does not run in %q mode", in.Mode)
	}
	return nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// schema indexes the input schema by table name.
type schema struct {
	in     *abi.SQLSchema
	tables map[string]*abi.SQLTable
}

func newSchema(in *abi.SQLSchema) *schema {
	s := &schema{in: in, tables: map[string]*abi.SQLTable{}}
	for i := range in.Tables {
		s.tables[in.Tables[i].Name] = &in.Tables[i]
	}
	return s
}

// indexed reports whether some index (or the primary key) of t leads
// with col, so lookups on col can use it.
func indexed(t *abi.SQLTable, col string) bool {
	if len(t.PrimaryKey) > 0 && t.PrimaryKey[0] == col {
		return true
	}
	for _, ix := range t.Indexes {
		if len(ix.Columns) > 0 && ix.Columns[0] == col {
			return true
		}
	}
	for _, c := range t.Columns {
		if c.Name == col && c.Unique {
			return true
		}
	}
	return false
}

func column(t *abi.SQLTable, name string) *abi.SQLColumn {
	for i := range t.Columns {
		if t.Columns[i].Name == name {
			return &t.Columns[i]
		}
	}
	return nil
}

// deepRLS reports a dialect with row-level security policies (Postgres;
// SQL Server has SECURITY POLICY, checked by SEC-RLS-005).
func deepRLS(d string) bool { return d == "" || d == q.Postgres }

var tenantColumns = []string{"tenant_id", "org_id", "organization_id", "account_id", "owner_id", "user_id", "company_id", "workspace_id"}

func tenantColumn(t *abi.SQLTable) string {
	for _, c := range t.Columns {
		for _, tc := range tenantColumns {
			if c.Name == tc {
				return c.Name
			}
		}
	}
	return ""
}

var piiMarkers = []string{"password", "passwd", "pwd", "secret", "api_key", "apikey", "token", "private_key", "ssn", "credit_card"}

func pii(name string) string {
	for _, m := range piiMarkers {
		if strings.Contains(name, m) {
			return m
		}
	}
	return ""
}

func finding(id string, sev abi.Severity, cat, loc, title, detail, fix string, conf float64, nodes ...string) abi.Finding {
	var ids []string
	for _, n := range nodes {
		if n != "" {
			ids = append(ids, n)
		}
	}
	return abi.Finding{RuleID: id, Severity: sev, Category: cat, Subsystem: "sql", Location: loc, Title: title, Detail: detail,
		Remediation: fix, Confidence: conf, NodeIDs: ids}
}

func (s *schema) auditSchema(r *rules.Report) {
	rlsTables := map[string]bool{}
	for i := range s.in.Tables {
		t := &s.in.Tables[i]
		for j := range t.Columns {
			t.Columns[j].Location = orDefault(t.Columns[j].Location, t.Location)
		}
		if t.RLSEnabled {
			rlsTables[t.Name] = true
		}
		s.auditTable(t, r)
	}
	for _, p := range s.in.Policies {
		cmd := strings.ToUpper(orDefault(p.Command, "ALL"))
		if p.Using != "" && p.WithCheck == "" && (cmd == "ALL" || cmd == "UPDATE") {
			r.Add(finding("SEC-RLS-003", abi.SeverityHigh, "security", p.Location,
				fmt.Sprintf("Policy %s on %s has USING but no WITH CHECK", p.Name, p.Table),
				fmt.Sprintf("Policy %s (FOR %s) filters the rows a session can see, but without WITH CHECK the USING expression is the only check on new rows, and an UPDATE may move a row out of its tenant.", p.Name, cmd),
				"Add WITH CHECK (<same predicate>) to the policy, or split it into per-command policies.", 0.8, p.NodeID))
		}
		if t := s.tables[p.Table]; t != nil {
			for _, col := range q.ComparedColumns(q.Lex(p.Using+" "+p.WithCheck, 1)) {
				if column(t, col) != nil && !indexed(t, col) {
					r.Add(finding("PERF-IDX-002", abi.SeverityMedium, "performance", p.Location,
						fmt.Sprintf("RLS policy %s filters %s.%s, which has no index", p.Name, t.Name, col),
						"Postgres evaluates the policy predicate on every row a query touches; without an index on the filter column every query on the table scans it.",
						fmt.Sprintf("CREATE INDEX ON %s (%s);", t.Name, col), 0.6, p.NodeID, t.NodeID))
				}
			}
		}
	}
	for _, v := range s.in.Views {
		if v.SecurityInvoker {
			continue
		}
		for _, rd := range v.Reads {
			if rlsTables[rd] && deepRLS(s.tables[rd].Dialect) {
				r.Add(finding("SEC-RLS-004", abi.SeverityMedium, "security", v.Location,
					fmt.Sprintf("View %s reads RLS table %s without security_invoker", v.Name, rd),
					"A view runs with its owner's rights by default, so row-level security on the tables it reads is checked against the owner, not the caller: the view can return every tenant's rows.",
					fmt.Sprintf("CREATE OR REPLACE VIEW %s WITH (security_invoker = true) AS ... (Postgres 15+), or filter in the view.", v.Name), 0.6, v.NodeID))
				break
			}
		}
	}
	for _, g := range s.in.Grants {
		all, public := false, false
		for _, p := range g.Privileges {
			all = all || p == "ALL"
		}
		for _, role := range g.Roles {
			public = public || role == "public"
		}
		if all || public {
			what := "ALL privileges"
			if !all {
				what = strings.Join(g.Privileges, ", ")
			}
			to := strings.Join(g.Roles, ", ")
			r.Add(finding("SEC-GRANT-001", abi.SeverityMedium, "security", g.Location,
				fmt.Sprintf("Over-broad grant: %s on %s to %s", what, strings.Join(g.Tables, ", "), to),
				"GRANT ALL or a grant to PUBLIC gives more than any one role needs (ALL includes TRUNCATE, REFERENCES and TRIGGER; PUBLIC is every role).",
				"Grant only the privileges the role uses (SELECT, INSERT, ...) to a named role.", 0.7, g.NodeID))
		}
	}
}

func (s *schema) auditTable(t *abi.SQLTable, r *rules.Report) {
	if tc := tenantColumn(t); tc != "" && !t.RLSEnabled && deepRLS(t.Dialect) {
		r.Add(finding("SEC-RLS-001", abi.SeverityHigh, "security", t.Location,
			fmt.Sprintf("Table %s has tenant column %s but row-level security is off", t.Name, tc),
			fmt.Sprintf("Rows of %s belong to a tenant (%s), but nothing in the database stops one tenant's session from reading another's: isolation rests on every query remembering its WHERE.", t.Name, tc),
			fmt.Sprintf("ALTER TABLE %s ENABLE ROW LEVEL SECURITY; and add a policy on %s.", t.Name, tc), 0.6, t.NodeID))
	}
	if t.RLSEnabled && !t.RLSForced {
		r.Add(finding("SEC-RLS-002", abi.SeverityHigh, "security", t.Location,
			fmt.Sprintf("Row-level security on %s is enabled but not forced", t.Name),
			"The table owner (often the application's role) bypasses RLS policies unless the table FORCEs row level security.",
			fmt.Sprintf("ALTER TABLE %s FORCE ROW LEVEL SECURITY;", t.Name), 0.7, t.NodeID))
	}
	var sensitive []string
	for _, c := range t.Columns {
		if m := pii(c.Name); m != "" {
			sensitive = append(sensitive, c.Name)
			r.Add(finding("SEC-PII-001", abi.SeverityMedium, "security", c.Location,
				fmt.Sprintf("Column %s.%s looks sensitive (%s)", t.Name, c.Name, m),
				"Secrets and personal data in plain columns end up in backups, logs and replicas.",
				"Store a hash (passwords) or encrypt the column, restrict who can select it, and keep it out of SELECT * and logs.", 0.4, c.NodeID))
		}
	}
	if t.Dialect == q.MSSQL && len(sensitive) > 0 && !t.SecurityPolicy {
		r.Add(finding("SEC-RLS-005", abi.SeverityHigh, "security", t.Location,
			fmt.Sprintf("SQL Server table %s has sensitive columns and no SECURITY POLICY", t.Name),
			fmt.Sprintf("Columns %s hold sensitive data, and no row-level SECURITY POLICY filters who can read the rows.", strings.Join(sensitive, ", ")),
			fmt.Sprintf("CREATE SECURITY POLICY ... ADD FILTER PREDICATE <fn>(<tenant column>) ON %s;", t.Name), 0.5, t.NodeID))
	}
	if len(t.PrimaryKey) == 0 && len(t.Columns) > 0 {
		r.Add(finding("DES-PK-001", abi.SeverityMedium, "design", t.Location,
			fmt.Sprintf("Table %s has no primary key", t.Name),
			"Without a primary key rows cannot be addressed reliably: duplicates creep in, replication and ORMs struggle, and updates touch more than intended.",
			fmt.Sprintf("ALTER TABLE %s ADD PRIMARY KEY (<column>);", t.Name), 0.7, t.NodeID))
	}
	for _, c := range t.Columns {
		if !strings.HasSuffix(c.Name, "_id") {
			continue
		}
		isPK := len(t.PrimaryKey) == 1 && t.PrimaryKey[0] == c.Name
		if !isPK && !indexed(t, c.Name) {
			r.Add(finding("PERF-IDX-001", abi.SeverityMedium, "performance", c.Location,
				fmt.Sprintf("Column %s.%s has no index", t.Name, c.Name),
				"Columns named *_id are usually join and filter keys; without an index each lookup or join scans the table (and deleting a referenced row scans it too).",
				fmt.Sprintf("CREATE INDEX ON %s (%s);", t.Name, c.Name), 0.5, c.NodeID))
		}
		if !isPK && c.References == "" && !c.PrimaryKey && keyType(c.Type) {
			r.Add(finding("DES-FK-001", abi.SeverityLow, "design", c.Location,
				fmt.Sprintf("Column %s.%s looks like a reference but has no foreign key", t.Name, c.Name),
				"A *_id key column with no FOREIGN KEY lets rows point at parents that do not exist.",
				fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES <parent>(id);", t.Name, c.Name), 0.4, c.NodeID))
		}
	}
}

func keyType(t string) bool {
	t = strings.ToLower(t)
	for _, k := range []string{"uuid", "int", "serial", "bigint", "smallint", "uniqueidentifier"} {
		if strings.HasPrefix(t, k) || strings.Contains(t, " "+k) {
			return true
		}
	}
	return false
}

// crossCheck compares an advise query with the schema.
func (s *schema) crossCheck(st *abi.SQLStatement, dialect string, r *rules.Report) {
	toks := q.Lex(st.Text, 1)
	for _, name := range q.Tables(toks) {
		t := s.tables[name]
		if t == nil {
			r.Add(finding("ADV-TBL-001", abi.SeverityInfo, "correctness", st.Location,
				fmt.Sprintf("Table %s is not in the graph's schema", name),
				"No CREATE TABLE for it was extracted: it may be misspelt, created outside this repository, or a view.",
				"Check the name against the schema (get_node), or extract the migrations that create it.", 0.5))
			continue
		}
		if t.RLSEnabled && (dialect == "" || deepRLS(dialect)) {
			r.Add(finding("ADV-RLS-001", abi.SeverityInfo, "security", st.Location,
				fmt.Sprintf("Table %s is behind row-level security", name),
				"Its rows are filtered by policy for the session's role and settings: run the query as the application role with the tenant set, or it sees nothing (or everything, as owner).",
				"Set the tenant context (e.g. SET app.tenant) before running the query.", 0.7, t.NodeID))
		}
	}
	tables := q.Tables(toks)
	for _, col := range q.ComparedColumns(q.Clause(toks, "WHERE")) {
		for _, name := range tables {
			t := s.tables[name]
			if t == nil || column(t, col) == nil || indexed(t, col) {
				continue
			}
			r.Add(finding("ADV-IDX-001", abi.SeverityMedium, "performance", st.Location,
				fmt.Sprintf("The query filters %s.%s, which has no index", name, col),
				"Each run scans the whole table to find the matching rows.",
				fmt.Sprintf("CREATE INDEX ON %s (%s);", name, col), 0.6, t.NodeID))
		}
	}
}
