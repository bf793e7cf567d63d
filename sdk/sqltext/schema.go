package sqltext

// The SQL extractor reports schema objects as symbols whose Signature
// carries their attributes, and the host rebuilds the schema from those
// graph nodes; these names are the contract between the two.

// ObjectKind is the symbol kind of one SQL object.
type ObjectKind = string

// Symbol kinds the SQL extractor reports.
const (
	KindTable      ObjectKind = "table"
	KindAlterTable ObjectKind = "alter_table" // ALTER TABLE: its actions and added columns/constraints
	KindDropTable  ObjectKind = "drop_table"  // DROP TABLE: the table is gone from here on
	KindColumn     ObjectKind = "column"
	KindConstraint ObjectKind = "constraint"
	KindIndex      ObjectKind = "index"
	KindView       ObjectKind = "view"
	KindPolicy     ObjectKind = "policy"
	KindGrant      ObjectKind = "grant"
	KindFunction   ObjectKind = "function"
	KindProcedure  ObjectKind = "procedure"
	KindTrigger    ObjectKind = "trigger"
	KindQuery      ObjectKind = "query"     // a DML statement in a .sql file
	KindStatement  ObjectKind = "statement" // a statement the extractor could not read, kept as text
)

// Attr is the name of one attribute, a Signature parameter whose Type holds
// the value ("" for flags).
type Attr = string

// Attributes.
const (
	AttrDialect         Attr = "dialect"          // table: postgres mysql sqlite mssql
	AttrPrimaryKey      Attr = "primary_key"      // column flag; table/constraint: comma-separated columns
	AttrNotNull         Attr = "not_null"         // column flag
	AttrUnique          Attr = "unique"           // column/index flag
	AttrReferences      Attr = "references"       // column/constraint: "table.column" (or "table")
	AttrColumn          Attr = "column"           // index/constraint: one indexed or constrained column
	AttrOn              Attr = "on"               // index/policy/trigger/grant/constraint: the table
	AttrReads           Attr = "reads"            // view: a table it reads
	AttrSecurityInvoker Attr = "security_invoker" // view flag
	AttrCommand         Attr = "command"          // policy: ALL SELECT INSERT UPDATE DELETE
	AttrRole            Attr = "role"             // policy/grant: a role
	AttrUsing           Attr = "using"            // policy: the USING expression
	AttrWithCheck       Attr = "with_check"       // policy: the WITH CHECK expression
	AttrSecurityPolicy  Attr = "security_policy"  // policy flag: a SQL Server SECURITY POLICY
	AttrPrivilege       Attr = "privilege"        // grant: one privilege (ALL, SELECT, ...)
	AttrEnableRLS       Attr = "enable_rls"       // alter_table flag
	AttrForceRLS        Attr = "force_rls"        // alter_table flag
	AttrDisableRLS      Attr = "disable_rls"      // alter_table flag
	AttrRenameTo        Attr = "rename_to"        // alter_table: the table's new name (ALTER TABLE a RENAME TO b)
	AttrExecutes        Attr = "executes"         // trigger: the function it runs
	AttrVerb            Attr = "verb"             // query: SELECT INSERT UPDATE DELETE MERGE
	AttrTable           Attr = "table"            // query: a table it touches
)

// Dialect is a SQL dialect.
type Dialect = string

// Dialects.
const (
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
	SQLite   Dialect = "sqlite"
	MSSQL    Dialect = "mssql"
)
