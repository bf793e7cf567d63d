package synql

import "regexp"

// Query is a parsed SYNQL query:
//
//	MATCH (a:kind)-[:rel*1..3]->(b) WHERE expr RETURN items ORDER BY keys LIMIT n
type Query struct {
	Nodes []NodePat // the chain's nodes, left to right
	Rels  []RelPat  // Rels[i] links Nodes[i] and Nodes[i+1]
	Where Expr      // nil = no filter
	Items []Item
	Order []OrderKey
	Limit int // 0 = none given
}

// NodePat is "(var:kind)"; both parts are optional.
type NodePat struct {
	Var  string
	Kind string // lower-cased; "" = any
}

// Direction is how a relationship pattern follows stored edges.
type Direction uint8

// Directions.
const (
	Out  Direction = iota // -[..]->
	In                    // <-[..]-
	Both                  // -[..]-
)

// MaxHops caps variable-length relationships: "*" means 1..MaxHops.
const MaxHops = 8

// RelPat is "-[:rel1|rel2*min..max]->".
type RelPat struct {
	Relations []string // lower-cased; empty = any
	Min, Max  int
	Dir       Direction
}

// Field names a node property in var.field.
type Field string

// The node fields SYNQL knows.
const (
	FName       Field = "name"
	FLabel      Field = "label"
	FID         Field = "id"
	FKind       Field = "kind"
	FVisibility Field = "visibility"
	FFile       Field = "file"
	FLine       Field = "line"
	FLOC        Field = "loc"
	FFanIn      Field = "fan_in"
	FFanOut     Field = "fan_out"
	FDegree     Field = "degree"
	FCommunity  Field = "community"
	FLanguage   Field = "language"
	FIsTest     Field = "is_test"
	FRepo       Field = "repo"
	FParams     Field = "params"      // parameter count
	FReturnType Field = "return_type" // declared result type
	FSignature  Field = "signature"   // the raw header
)

// Fields lists every field, for error messages and completion.
var Fields = []Field{FName, FLabel, FID, FKind, FVisibility, FFile, FLine, FLOC, FFanIn, FFanOut, FDegree,
	FCommunity, FLanguage, FIsTest, FRepo, FParams, FReturnType, FSignature}

// Op is a binary operator.
type Op string

// Operators.
const (
	OpEq       Op = "="
	OpNe       Op = "<>"
	OpLt       Op = "<"
	OpLe       Op = "<="
	OpGt       Op = ">"
	OpGe       Op = ">="
	OpRegex    Op = "=~"
	OpContains Op = "CONTAINS"
	OpStarts   Op = "STARTS WITH"
	OpEnds     Op = "ENDS WITH"
	OpIn       Op = "IN"
	OpAnd      Op = "AND"
	OpOr       Op = "OR"
)

// Expr is a WHERE expression.
type Expr interface{ vars(into map[string]bool) }

// Binary is "l op r".
type Binary struct {
	Op   Op
	L, R Expr
	re   *regexp.Regexp // compiled once for =~ with a literal pattern
}

// Not is "NOT x".
type Not struct{ X Expr }

// Prop is "var.field".
type Prop struct {
	Var   string
	Field Field
	at    int // 1 + the variable's chain position, set by Parse; 0 = look it up
}

// Lit is a string, number or boolean literal.
type Lit struct{ V Value }

// List is "[a, b, c]", the right side of IN.
type List struct{ Items []Value }

func (b *Binary) vars(m map[string]bool) { b.L.vars(m); b.R.vars(m) }
func (n *Not) vars(m map[string]bool)    { n.X.vars(m) }
func (p *Prop) vars(m map[string]bool)   { m[p.Var] = true }
func (*Lit) vars(map[string]bool)        {}
func (*List) vars(map[string]bool)       {}

// Item is one RETURN item: a node variable, var.field, or count(var|*).
type Item struct {
	Var   string
	Field Field // "" = the node itself
	Count bool  // count(Var), or count(*) when Var is ""
	Alias string
}

// Name is the item's column name.
func (it Item) Name() string {
	switch {
	case it.Alias != "":
		return it.Alias
	case it.Count && it.Var == "":
		return "count(*)"
	case it.Count:
		return "count(" + it.Var + ")"
	case it.Field != "":
		return it.Var + "." + string(it.Field)
	}
	return it.Var
}

// OrderKey is one ORDER BY key: a RETURN column (by name or alias) or a
// var.field.
type OrderKey struct {
	Item Item
	Desc bool
}
