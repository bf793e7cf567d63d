package synql

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLimit caps LIMIT, and MaxChain the nodes of one MATCH pattern.
const (
	MaxLimit = 10000
	MaxChain = 6
	maxDepth = 64 // nesting of parentheses and NOT in WHERE
)

// Parse parses a SYNQL query. Errors are *SyntaxError (with the position
// and what was expected) or a plain error for a semantic problem (unknown
// field, unbound variable, bad regex), which names the valid choices.
func Parse(q string) (*Query, error) {
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	p := &parser{src: q, toks: toks}
	query, err := p.query()
	if err != nil {
		return nil, err
	}
	if err := check(query); err != nil {
		return nil, err
	}
	return query, nil
}

type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i = min(p.i+1, len(p.toks)-1); return t }

func (p *parser) fail(expected string) error {
	t := p.peek()
	return &SyntaxError{Pos: t.pos, Col: utf8.RuneCountInString(p.src[:t.pos]) + 1, Found: t.String(), Expected: expected}
}

// isKw reports whether the next token is the keyword kw (any case).
func (p *parser) isKw(kw string) bool {
	t := p.peek()
	return t.kind == tIdent && strings.EqualFold(t.text, kw)
}

func (p *parser) kw(kw string) error {
	if !p.isKw(kw) {
		return p.fail(kw)
	}
	p.next()
	return nil
}

func (p *parser) isPunct(s string) bool { t := p.peek(); return t.kind == tPunct && t.text == s }

func (p *parser) punct(s string) error {
	if !p.isPunct(s) {
		return p.fail(strconv.Quote(s))
	}
	p.next()
	return nil
}

// keywords cannot name variables.
var keywords = []string{"match", "where", "return", "order", "by", "limit", "and", "or", "not", "in", "contains", "starts", "ends", "with", "as", "asc", "desc", "count", "true", "false", "null"}

func (p *parser) ident(what string) (string, error) {
	t := p.peek()
	if t.kind != tIdent || slices.Contains(keywords, strings.ToLower(t.text)) {
		return "", p.fail(what)
	}
	p.next()
	return t.text, nil
}

func (p *parser) query() (*Query, error) {
	q := &Query{}
	if err := p.kw("MATCH"); err != nil {
		return nil, err
	}
	if err := p.chain(q); err != nil {
		return nil, err
	}
	if p.isKw("WHERE") {
		p.next()
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		q.Where = e
	}
	if err := p.kw("RETURN"); err != nil {
		if q.Where == nil && !p.isKw("WHERE") {
			return nil, p.fail("a relationship (-[...]->), WHERE or RETURN")
		}
		return nil, err
	}
	for {
		it, err := p.item()
		if err != nil {
			return nil, err
		}
		q.Items = append(q.Items, it)
		if !p.isPunct(",") {
			break
		}
		p.next()
	}
	if p.isKw("ORDER") {
		p.next()
		if err := p.kw("BY"); err != nil {
			return nil, err
		}
		for {
			it, err := p.orderItem()
			if err != nil {
				return nil, err
			}
			k := OrderKey{Item: it}
			if p.isKw("DESC") {
				p.next()
				k.Desc = true
			} else if p.isKw("ASC") {
				p.next()
			}
			q.Order = append(q.Order, k)
			if !p.isPunct(",") {
				break
			}
			p.next()
		}
	}
	if p.isKw("LIMIT") {
		p.next()
		n, err := p.int("a row count after LIMIT")
		if err != nil {
			return nil, err
		}
		if n < 1 || n > MaxLimit {
			return nil, fmt.Errorf("LIMIT %d is out of range 1..%d", n, MaxLimit)
		}
		q.Limit = n
	}
	if p.peek().kind != tEOF {
		return nil, p.fail("end of query (after RETURN come only ORDER BY and LIMIT)")
	}
	return q, nil
}

func (p *parser) int(what string) (int, error) {
	t := p.peek()
	if t.kind != tNumber || strings.Contains(t.text, ".") {
		return 0, p.fail(what)
	}
	n, err := strconv.Atoi(t.text)
	if err != nil || n > 1_000_000 {
		return 0, p.fail(what + " (a small whole number)")
	}
	p.next()
	return n, nil
}

// chain parses node (rel node)*.
func (p *parser) chain(q *Query) error {
	n, err := p.node()
	if err != nil {
		return err
	}
	q.Nodes = append(q.Nodes, n)
	for p.isPunct("-") || p.isPunct("<-") {
		if len(q.Nodes) >= MaxChain {
			return fmt.Errorf("a MATCH pattern holds at most %d nodes", MaxChain)
		}
		r, err := p.rel()
		if err != nil {
			return err
		}
		n, err := p.node()
		if err != nil {
			return err
		}
		q.Rels = append(q.Rels, r)
		q.Nodes = append(q.Nodes, n)
	}
	return nil
}

func (p *parser) node() (NodePat, error) {
	var n NodePat
	if err := p.punct("("); err != nil {
		return n, p.fail("a node pattern such as (f:function)")
	}
	if p.peek().kind == tIdent {
		v, err := p.ident("a variable name")
		if err != nil {
			return n, err
		}
		n.Var = v
	}
	if p.isPunct(":") {
		p.next()
		t := p.peek()
		if t.kind != tIdent {
			return n, p.fail("a node kind after ':' (function, method, class, ...)")
		}
		p.next()
		n.Kind = strings.ToLower(t.text)
	}
	if err := p.punct(")"); err != nil {
		return n, p.fail("')' closing the node pattern")
	}
	return n, nil
}

// rel parses -[...]->, <-[...]- or -[...]- (the brackets are optional:
// --> <-- --).
func (p *parser) rel() (RelPat, error) {
	r := RelPat{Min: 1, Max: 1}
	left := p.next().text // "-" or "<-"
	if p.isPunct("[") {
		p.next()
		if p.peek().kind == tIdent && !p.isPunct(":") {
			if _, err := p.ident("a relationship variable"); err != nil {
				return r, err
			}
		}
		if p.isPunct(":") {
			p.next()
			for {
				t := p.peek()
				if t.kind != tIdent {
					return r, p.fail("a relation name after ':' (calls, imports, ...)")
				}
				p.next()
				r.Relations = append(r.Relations, strings.ToLower(t.text))
				if !p.isPunct("|") {
					break
				}
				p.next()
			}
		}
		if p.isPunct("*") {
			p.next()
			if err := p.hops(&r); err != nil {
				return r, err
			}
		}
		if err := p.punct("]"); err != nil {
			return r, p.fail("']' closing the relationship")
		}
	}
	switch {
	case left == "<-" && p.isPunct("-"):
		p.next()
		r.Dir = In
	case left == "-" && p.isPunct("->"):
		p.next()
		r.Dir = Out
	case left == "-" && p.isPunct("-"):
		p.next()
		r.Dir = Both
	default:
		return r, p.fail("'->' or '-' ending the relationship")
	}
	return r, nil
}

// hops parses the range after '*': "", "n", "n..m", "n..", "..m".
func (p *parser) hops(r *RelPat) error {
	r.Min, r.Max = 1, MaxHops
	if p.peek().kind == tNumber {
		n, err := p.int("a hop count")
		if err != nil {
			return err
		}
		r.Min, r.Max = n, n
	}
	if p.isPunct("..") {
		p.next()
		r.Max = MaxHops
		if p.peek().kind == tNumber {
			m, err := p.int("a hop count")
			if err != nil {
				return err
			}
			r.Max = m
		}
	}
	if r.Min < 1 || r.Max > MaxHops || r.Min > r.Max {
		return fmt.Errorf("hop range *%d..%d is out of bounds: hops run from 1 to %d", r.Min, r.Max, MaxHops)
	}
	return nil
}

func (p *parser) item() (Item, error) {
	var it Item
	if p.isKw("count") {
		p.next()
		if err := p.punct("("); err != nil {
			return it, err
		}
		it.Count = true
		if p.isPunct("*") {
			p.next()
		} else {
			v, err := p.ident("a variable or * inside count()")
			if err != nil {
				return it, err
			}
			it.Var = v
		}
		if err := p.punct(")"); err != nil {
			return it, err
		}
	} else {
		v, err := p.ident("a variable, var.field or count(...) to RETURN")
		if err != nil {
			return it, err
		}
		it.Var = v
		if p.isPunct(".") {
			p.next()
			f, err := p.field()
			if err != nil {
				return it, err
			}
			it.Field = f
		}
	}
	if p.isKw("AS") {
		p.next()
		a, err := p.ident("a column alias after AS")
		if err != nil {
			return it, err
		}
		it.Alias = a
	}
	return it, nil
}

// orderItem is a RETURN column name/alias, var.field or count(...).
func (p *parser) orderItem() (Item, error) {
	it, err := p.item()
	if err != nil {
		return it, err
	}
	if it.Alias != "" {
		return it, p.fail("ASC, DESC, ',' or LIMIT (no AS in ORDER BY)")
	}
	return it, nil
}

func (p *parser) field() (Field, error) {
	t := p.peek()
	if t.kind != tIdent {
		return "", p.fail("a field name")
	}
	f := Field(strings.ToLower(t.text))
	if !slices.Contains(Fields, f) {
		return "", fmt.Errorf("unknown field %q at column %d; the fields are: %s", t.text, utf8.RuneCountInString(p.src[:t.pos])+1, fieldList())
	}
	p.next()
	return f, nil
}

func fieldList() string {
	s := make([]string, len(Fields))
	for i, f := range Fields {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

func (p *parser) enter() error {
	if p.depth++; p.depth > maxDepth {
		return p.fail(fmt.Sprintf("less nesting (at most %d levels)", maxDepth))
	}
	return nil
}

func (p *parser) or() (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.isKw("OR") {
		p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: OpOr, L: l, R: r}
	}
	return l, nil
}

func (p *parser) and() (Expr, error) {
	l, err := p.not()
	if err != nil {
		return nil, err
	}
	for p.isKw("AND") {
		p.next()
		r, err := p.not()
		if err != nil {
			return nil, err
		}
		l = &Binary{Op: OpAnd, L: l, R: r}
	}
	return l, nil
}

func (p *parser) not() (Expr, error) {
	if p.isKw("NOT") {
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer func() { p.depth-- }()
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &Not{X: x}, nil
	}
	return p.cmp()
}

var cmpOps = map[string]Op{"=": OpEq, "<>": OpNe, "!=": OpNe, "<": OpLt, "<=": OpLe, ">": OpGt, ">=": OpGe, "=~": OpRegex}

func (p *parser) cmp() (Expr, error) {
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	var op Op
	t := p.peek()
	switch {
	case t.kind == tPunct && cmpOps[t.text] != "":
		p.next()
		op = cmpOps[t.text]
	case p.isKw("CONTAINS"):
		p.next()
		op = OpContains
	case p.isKw("STARTS"), p.isKw("ENDS"):
		op = OpStarts
		if p.isKw("ENDS") {
			op = OpEnds
		}
		p.next()
		if err := p.kw("WITH"); err != nil {
			return nil, err
		}
	case p.isKw("IN"):
		p.next()
		list, err := p.list()
		if err != nil {
			return nil, err
		}
		return &Binary{Op: OpIn, L: l, R: list}, nil
	default:
		if _, isPar := l.(*paren); isPar {
			return l.(*paren).x, nil
		}
		if lit, ok := l.(*Lit); ok && lit.V.Kind == KBool {
			return l, nil
		}
		if _, ok := l.(*Prop); ok {
			return l, nil // a bare field is true when it is boolean true: WHERE f.is_test
		}
		return nil, p.fail("a comparison (= <> < <= > >= =~ CONTAINS STARTS WITH ENDS WITH IN)")
	}
	rpos := p.peek().pos
	r, err := p.operand()
	if err != nil {
		return nil, err
	}
	b := &Binary{Op: op, L: unparen(l), R: unparen(r)}
	if op == OpRegex {
		lit, ok := b.R.(*Lit)
		if !ok || lit.V.Kind != KString {
			return nil, &SyntaxError{Pos: rpos, Col: utf8.RuneCountInString(p.src[:rpos]) + 1, Found: "a non-string", Expected: "a quoted regular expression after =~"}
		}
		re, err := regexp.Compile(lit.V.S)
		if err != nil {
			return nil, fmt.Errorf("the regular expression %q after =~ does not compile: %v", lit.V.S, err)
		}
		b.re = re
	}
	return b, nil
}

// paren wraps a parenthesised expression until cmp knows whether it is a
// whole condition or (not supported) an operand.
type paren struct{ x Expr }

func (p *paren) vars(m map[string]bool) { p.x.vars(m) }

func unparen(e Expr) Expr {
	if pe, ok := e.(*paren); ok {
		return pe.x
	}
	return e
}

func (p *parser) operand() (Expr, error) {
	t := p.peek()
	switch {
	case t.kind == tPunct && t.text == "(":
		p.next()
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if err := p.punct(")"); err != nil {
			return nil, p.fail("')' closing the parenthesis")
		}
		return &paren{x}, nil
	case t.kind == tString:
		p.next()
		return &Lit{V: Str(t.text)}, nil
	case t.kind == tNumber, t.kind == tPunct && t.text == "-":
		v, err := p.number()
		if err != nil {
			return nil, err
		}
		return &Lit{V: v}, nil
	case p.isKw("true"), p.isKw("false"):
		p.next()
		return &Lit{V: Bool(strings.EqualFold(t.text, "true"))}, nil
	case t.kind == tIdent:
		v, err := p.ident("a value: var.field, a quoted string, a number, true or false")
		if err != nil {
			return nil, err
		}
		if err := p.punct("."); err != nil {
			return nil, p.fail("'.' and a field after the variable (" + v + ".name)")
		}
		f, err := p.field()
		if err != nil {
			return nil, err
		}
		return &Prop{Var: v, Field: f}, nil
	}
	return nil, p.fail("a value: var.field, a quoted string, a number, true or false")
}

func (p *parser) number() (Value, error) {
	neg := false
	if p.isPunct("-") {
		p.next()
		neg = true
	}
	t := p.peek()
	if t.kind != tNumber {
		return Value{}, p.fail("a number")
	}
	p.next()
	f, err := strconv.ParseFloat(t.text, 64)
	if err != nil {
		return Value{}, p.fail("a number")
	}
	if neg {
		f = -f
	}
	return Num(f), nil
}

func (p *parser) list() (*List, error) {
	if err := p.punct("["); err != nil {
		return nil, p.fail("'[' starting the IN list")
	}
	l := &List{}
	for !p.isPunct("]") {
		if len(l.Items) > 0 {
			if err := p.punct(","); err != nil {
				return nil, p.fail("',' or ']' in the IN list")
			}
		}
		x, err := p.operand()
		if err != nil {
			return nil, err
		}
		lit, ok := x.(*Lit)
		if !ok {
			return nil, p.fail("a literal in the IN list")
		}
		if len(l.Items) >= 1000 {
			return nil, p.fail("']' (an IN list holds at most 1000 values)")
		}
		l.Items = append(l.Items, lit.V)
	}
	p.next()
	return l, nil
}

// check verifies that every variable used is bound by MATCH, and that
// aggregates and plain items mix only as "group keys + counts".
// positions records in each WHERE property its variable's chain position,
// so evaluation indexes the binding instead of looking the name up.
func positions(q *Query) {
	at := map[string]int{}
	for k, n := range q.Nodes {
		if n.Var != "" {
			at[n.Var] = k + 1
		}
	}
	var walk func(Expr)
	walk = func(x Expr) {
		switch x := x.(type) {
		case *Binary:
			walk(x.L)
			walk(x.R)
		case *Not:
			walk(x.X)
		case *paren:
			walk(x.x)
		case *Prop:
			x.at = at[x.Var]
		}
	}
	walk(q.Where)
}

func check(q *Query) error {
	bound := map[string]bool{}
	for _, n := range q.Nodes {
		if n.Var != "" {
			if bound[n.Var] {
				return fmt.Errorf("variable %q is bound twice in MATCH (cycles are not supported)", n.Var)
			}
			bound[n.Var] = true
		}
	}
	names := func() string {
		var s []string
		for _, n := range q.Nodes {
			if n.Var != "" {
				s = append(s, n.Var)
			}
		}
		if len(s) == 0 {
			return "none: name a node, as in (f:function)"
		}
		return strings.Join(s, ", ")
	}
	if q.Where != nil {
		used := map[string]bool{}
		q.Where.vars(used)
		for _, v := range sortedKeys(used) {
			if !bound[v] {
				return fmt.Errorf("WHERE uses %q, which MATCH does not bind (bound: %s)", v, names())
			}
		}
	}
	positions(q)
	for _, it := range q.Items {
		if it.Var != "" && !bound[it.Var] {
			return fmt.Errorf("RETURN uses %q, which MATCH does not bind (bound: %s)", it.Var, names())
		}
	}
	cols := map[string]bool{}
	for _, it := range q.Items {
		cols[it.Name()] = true
	}
	aggregate := slices.ContainsFunc(q.Items, func(it Item) bool { return it.Count })
	for _, k := range q.Order {
		it := k.Item
		switch {
		case cols[it.Name()]:
		case aggregate:
			return fmt.Errorf("ORDER BY %s: an aggregate query orders by its RETURN columns only", it.Name())
		case it.Count || it.Var == "" || !bound[it.Var]:
			return fmt.Errorf("ORDER BY %s names no RETURN column or bound variable", it.Name())
		}
	}
	return nil
}

func sortedKeys(m map[string]bool) []string {
	s := make([]string, 0, len(m))
	for k := range m {
		s = append(s, k)
	}
	slices.Sort(s)
	return s
}
