package abi

// # Rule packs
//
// A rule pack is a WASI reactor like an extractor, exporting
// synaptic_abi_version, synaptic_in_buf and synaptic_init (an Init with no
// grammars) plus
//
//	synaptic_rules_run(size i32) i64          input = RuleInput; returns packed output
//
// whose Result payload after StatusOK is a RuleOutput. Both are encoded
// by rules_wire.go (EncodeRuleInput, DecodeRuleOutput, ...). The host
// decodes the output with size limits and checks every finding against the
// rules the manifest declares.

// RulesVersion is the version of the rule-pack messages below. The host
// refuses a RuleOutput of another version.
const RulesVersion = 1

// ExportRules is the rule-pack entry point.
const ExportRules = "synaptic_rules_run"

// RuleMode is what the host asks a pack to do.
type RuleMode string

// Rule modes.
const (
	ModeAudit     RuleMode = "audit"     // audit the SQL-aware graph (Schema)
	ModeAdvise    RuleMode = "advise"    // critique one candidate Query against Schema
	ModeReadiness RuleMode = "readiness" // audit Nodes, Snippets and Project
)

// Severity ranks a finding; critical is the most severe.
type Severity string

// Severities, most severe first.
const (
	SeverityCritical Severity = "critical"
	SeverityHigh     Severity = "high"
	SeverityMedium   Severity = "medium"
	SeverityLow      Severity = "low"
	SeverityInfo     Severity = "info"
)

// Severities lists the severities, most severe first.
var Severities = []Severity{SeverityCritical, SeverityHigh, SeverityMedium, SeverityLow, SeverityInfo}

// Rank returns 0 for critical … 4 for info, and -1 for an unknown severity.
func (s Severity) Rank() int {
	for i, v := range Severities {
		if v == s {
			return i
		}
	}
	return -1
}

// RuleInput is what the host hands a pack.
type RuleInput struct {
	Version int      `json:"version"`
	Mode    RuleMode `json:"mode"`
	Profile string   `json:"profile,omitempty"` // readiness: auto, generic, ...
	Dialect string   `json:"dialect,omitempty"` // advise: the caller's hint (postgres mysql mssql sqlite), "" if none
	// Query is the candidate statement of advise mode.
	Query *SQLStatement `json:"query,omitempty"`
	// Schema is the SQL-aware subgraph (audit, advise).
	Schema *SQLSchema `json:"schema,omitempty"`
	// Nodes, Snippets and Project are readiness inputs. Project is nil when
	// the host has no source root; Snippets are then empty too.
	Nodes    []CodeNode   `json:"nodes,omitempty"`
	Snippets []Snippet    `json:"snippets,omitempty"`
	Project  *ProjectMeta `json:"project,omitempty"`
}

// SQLSchema is every SQL object of the graph, merged by name across files
// (an ALTER TABLE in a later migration lands on its table).
type SQLSchema struct {
	Tables     []SQLTable     `json:"tables,omitempty"`
	Views      []SQLView      `json:"views,omitempty"`
	Policies   []SQLPolicy    `json:"policies,omitempty"`
	Grants     []SQLGrant     `json:"grants,omitempty"`
	Statements []SQLStatement `json:"statements,omitempty"`
}

// SQLTable is one table.
type SQLTable struct {
	Name           string      `json:"name"`
	Dialect        string      `json:"dialect,omitempty"`
	NodeID         string      `json:"node_id,omitempty"`
	Location       string      `json:"location,omitempty"` // file:line
	Columns        []SQLColumn `json:"columns,omitempty"`
	PrimaryKey     []string    `json:"primary_key,omitempty"`
	Indexes        []SQLIndex  `json:"indexes,omitempty"`
	RLSEnabled     bool        `json:"rls_enabled,omitempty"`
	RLSForced      bool        `json:"rls_forced,omitempty"`
	SecurityPolicy bool        `json:"security_policy,omitempty"` // SQL Server SECURITY POLICY on the table
}

// SQLColumn is one column.
type SQLColumn struct {
	Name       string `json:"name"`
	Type       string `json:"type,omitempty"`
	NotNull    bool   `json:"not_null,omitempty"`
	PrimaryKey bool   `json:"primary_key,omitempty"`
	Unique     bool   `json:"unique,omitempty"`
	References string `json:"references,omitempty"` // "table.column" or "table" of a foreign key
	NodeID     string `json:"node_id,omitempty"`
	Location   string `json:"location,omitempty"`
}

// SQLIndex is one index (or unique/key constraint) of a table.
type SQLIndex struct {
	Name     string   `json:"name"`
	Columns  []string `json:"columns"` // an expression column is "(lower(email))"
	Unique   bool     `json:"unique,omitempty"`
	NodeID   string   `json:"node_id,omitempty"`
	Location string   `json:"location,omitempty"`
}

// SQLView is one view.
type SQLView struct {
	Name            string   `json:"name"`
	Reads           []string `json:"reads,omitempty"`
	SecurityInvoker bool     `json:"security_invoker,omitempty"`
	NodeID          string   `json:"node_id,omitempty"`
	Location        string   `json:"location,omitempty"`
}

// SQLPolicy is one row-level security policy.
type SQLPolicy struct {
	Name      string   `json:"name"`
	Table     string   `json:"table"`
	Command   string   `json:"command,omitempty"` // ALL SELECT INSERT UPDATE DELETE
	Roles     []string `json:"roles,omitempty"`
	Using     string   `json:"using,omitempty"`
	WithCheck string   `json:"with_check,omitempty"`
	NodeID    string   `json:"node_id,omitempty"`
	Location  string   `json:"location,omitempty"`
}

// SQLGrant is one GRANT statement.
type SQLGrant struct {
	Privileges []string `json:"privileges"`
	Tables     []string `json:"tables"` // "*" for ALL TABLES IN SCHEMA
	Roles      []string `json:"roles"`
	NodeID     string   `json:"node_id,omitempty"`
	Location   string   `json:"location,omitempty"`
}

// How a statement's text was built.
const (
	BuiltLiteral       = "literal"
	BuiltConcatenation = "concatenation"
	BuiltInterpolation = "interpolation"
)

// SQLStatement is one statement: a DML statement of a .sql file, a query
// found in code, or the candidate query of advise mode.
type SQLStatement struct {
	Text     string   `json:"text"`
	Verb     string   `json:"verb,omitempty"` // SELECT INSERT UPDATE DELETE MERGE ...
	Tables   []string `json:"tables,omitempty"`
	NodeID   string   `json:"node_id,omitempty"`
	Caller   string   `json:"caller,omitempty"` // node id of the code that runs it
	Location string   `json:"location,omitempty"`
	Built    string   `json:"built,omitempty"` // literal, concatenation, interpolation
	// Context holds up to 15 source lines above a code call site, for
	// loop detection; empty when the host has no source.
	Context []string `json:"context,omitempty"`
}

// CodeNode is one graph node handed to a readiness pack.
type CodeNode struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Kind      string `json:"kind,omitempty"`
	File      string `json:"file,omitempty"`
	Line      int    `json:"line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
	Language  string `json:"language,omitempty"`
	Test      bool   `json:"test,omitempty"`
	Generated bool   `json:"generated,omitempty"`
}

// Snippet is a bounded piece of one file: a callable's body or a window of
// lines. Line is the line of Text's first line.
type Snippet struct {
	NodeID string `json:"node_id,omitempty"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Text   string `json:"text"`
}

// ProjectMeta describes the repository around the graph.
type ProjectMeta struct {
	// Files are repository-relative paths up to two directories deep
	// (bounded), enough to see a LICENSE, CI configuration or lockfile.
	Files     []string `json:"files"`
	TestNodes int      `json:"test_nodes"` // graph nodes marked as tests
}

// Finding is one problem a pack reports.
type Finding struct {
	RuleID      string   `json:"rule_id"`
	Severity    Severity `json:"severity"`
	Category    string   `json:"category"`
	Subsystem   string   `json:"subsystem,omitempty"`
	Title       string   `json:"title"`
	Detail      string   `json:"detail"`
	Location    string   `json:"location"` // file:line, or the object's name when it has no file
	NodeIDs     []string `json:"node_ids,omitempty"`
	Evidence    string   `json:"evidence,omitempty"`
	Remediation string   `json:"remediation"`
	Confidence  float64  `json:"confidence"`
}

// RuleOutput is what a pack returns.
type RuleOutput struct {
	Version  int       `json:"version"`
	Findings []Finding `json:"findings"`
	// Dropped counts findings the pack made beyond the SDK's cap; the
	// host reports them, so a capped answer never looks complete.
	Dropped int `json:"dropped,omitempty"`
}
