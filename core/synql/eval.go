package synql

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Bounds on one evaluation: steps (candidates tried plus edges followed)
// and distinct rows collected before sorting. A query past either stops
// with an error or a capped answer instead of running away.
const (
	DefaultMaxWork = 20_000_000
	MaxRows        = 100_000
)

// ErrWork is returned when a query needs more steps than its bound.
var ErrWork = errors.New("SYNQL query stopped at its work bound: narrow it with a node kind or a WHERE filter on the first node, or fewer hops")

// Engine evaluates queries over one graph. Derived per-node tables
// (fan-in/out, effective LOC, kind lists) are built once, on first use.
// It is safe for concurrent use.
type Engine struct {
	x *graph.Index

	once      sync.Once
	fanIn     []int32
	fanOut    []int32
	effLOC    []int32
	byKind    map[string][]int32
	byName    map[string][]int32 // name field -> nodes, in index order
	byFile    map[string][]int32 // file field -> nodes, in index order
	relations map[string]bool    // lower-cased relation names present
	marks     sync.Pool          // *visited, for reach
	MaxWork   int
}

// visited marks nodes seen by one reach: mark[i] == gen means seen, so a
// new reach is a generation bump, not a cleared map.
type visited struct {
	mark []uint32
	gen  uint32
}

// NewEngine wraps an index.
func NewEngine(x *graph.Index) *Engine { return &Engine{x: x, MaxWork: DefaultMaxWork} }

// Index returns the graph the engine evaluates over.
func (e *Engine) Index() *graph.Index { return e.x }

// Result is a query's answer: node rows (every item a node variable) or
// scalar groups (fields and counts).
type Result struct {
	Columns []string
	Nodes   [][]int32 // node rows, when NodeRows
	Groups  [][]Value // scalar rows otherwise
	// NodeRows says which of Nodes and Groups holds the answer.
	NodeRows bool
	// Total is the number of distinct rows before LIMIT; Truncated says
	// LIMIT (or the caller's limit) cut some; Capped says collection
	// stopped at MaxRows, so Total is a lower bound.
	Total     int
	Truncated bool
	Capped    bool
}

// Len is the number of rows returned.
func (r *Result) Len() int {
	if r.NodeRows {
		return len(r.Nodes)
	}
	return len(r.Groups)
}

// Run evaluates q; limit (when > 0) caps rows below q's own LIMIT.
func (e *Engine) Run(ctx context.Context, q *Query, limit int) (*Result, error) {
	e.prepare()
	if err := e.checkNames(q); err != nil {
		return nil, err
	}
	ev := newEvaluation(ctx, e, q)
	if err := ev.match(0); err != nil {
		return nil, err
	}
	res := ev.finish()
	if q.Limit > 0 && (limit <= 0 || q.Limit < limit) {
		limit = q.Limit
	}
	if limit > 0 && res.Len() > limit {
		res.Truncated = true
		res.Nodes = res.Nodes[:min(len(res.Nodes), limit)]
		res.Groups = res.Groups[:min(len(res.Groups), limit)]
	}
	return res, nil
}

func (e *Engine) prepare() {
	e.once.Do(func() {
		n := e.x.Len()
		e.fanIn, e.fanOut, e.effLOC = make([]int32, n), make([]int32, n), make([]int32, n)
		e.byKind = map[string][]int32{}
		e.byName = map[string][]int32{}
		e.byFile = map[string][]int32{}
		e.relations = map[string]bool{}
		for i := range int32(len(e.x.G.Edges)) {
			e.relations[strings.ToLower(e.x.Edge(i).Relation)] = true
		}
		seen := map[int32]struct{}{}
		distinct := func(i int32, edges []int32) int32 {
			clear(seen)
			for _, ed := range edges {
				if o := e.x.Other(ed, i); o >= 0 && o != i {
					seen[o] = struct{}{}
				}
			}
			return int32(len(seen))
		}
		for i := range int32(n) {
			nd := e.x.Node(i)
			e.byKind[strings.ToLower(nd.Kind)] = append(e.byKind[strings.ToLower(nd.Kind)], i)
			if v := nodeName(nd); v != "" {
				e.byName[v] = append(e.byName[v], i)
			}
			if nd.SourceFile != "" {
				e.byFile[nd.SourceFile] = append(e.byFile[nd.SourceFile], i)
			}
			e.fanIn[i], e.fanOut[i] = distinct(i, e.x.In(i)), distinct(i, e.x.Out(i))
			e.effLOC[i] = int32(e.loc(i))
		}
	})
}

// checkNames refuses node kinds and relations the graph does not have: a
// typo would otherwise match nothing and read as "none found".
func (e *Engine) checkNames(q *Query) error {
	for _, n := range q.Nodes {
		if n.Kind != "" && len(e.byKind[n.Kind]) == 0 {
			return fmt.Errorf("unknown node kind %q; this graph has: %s", n.Kind, strings.Join(sortedNames(e.byKind), ", "))
		}
	}
	for _, r := range q.Rels {
		for _, rel := range r.Relations {
			if !e.relations[rel] {
				return fmt.Errorf("unknown relation %q; this graph has: %s", rel, strings.Join(sortedNames(e.relations), ", "))
			}
		}
	}
	return nil
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// typeKinds are kinds whose effective LOC widens over their members.
var typeKinds = map[string]bool{"class": true, "struct": true, "interface": true, "enum": true, "trait": true, "protocol": true, "record": true, "object": true}

var memberRelations = map[string]bool{"method": true, "contains": true, "has_method": true}

// loc is a node's span length; a type's span widens to cover its
// same-file members (a Go type's methods sit outside its declaration).
func (e *Engine) loc(i int32) int {
	n := e.x.Node(i)
	if n.Span == nil || n.Span.StartLine <= 0 || n.Span.EndLine < n.Span.StartLine {
		return 0
	}
	lo, hi := n.Span.StartLine, n.Span.EndLine
	if typeKinds[n.Kind] {
		for _, ed := range e.x.Out(i) {
			if !memberRelations[e.x.Edge(ed).Relation] {
				continue
			}
			_, t := e.x.Ends(ed)
			m := e.x.Node(t)
			if m.SourceFile == n.SourceFile && m.Span != nil && m.Span.StartLine > 0 {
				lo, hi = min(lo, m.Span.StartLine), max(hi, m.Span.EndLine)
			}
		}
	}
	return hi - lo + 1
}

// Field returns node i's value for f.
func (e *Engine) Field(i int32, f Field) Value {
	e.prepare()
	switch f { // the fields of the engine's own tables, without touching the node
	case FLOC:
		if e.effLOC[i] > 0 {
			return numInt(int(e.effLOC[i]))
		}
		return Value{}
	case FFanIn:
		return numInt(int(e.fanIn[i]))
	case FFanOut:
		return numInt(int(e.fanOut[i]))
	}
	n := e.x.Node(i)
	str := func(s string) Value {
		if s == "" {
			return Value{}
		}
		return Str(s)
	}
	switch f {
	case FName:
		return str(nodeName(n))
	case FLabel:
		return str(n.Label)
	case FID:
		return str(n.ID)
	case FKind:
		return str(n.Kind)
	case FVisibility:
		return str(n.Visibility)
	case FFile:
		return str(n.SourceFile)
	case FLine:
		if l := StartLine(n); l > 0 {
			return numInt(l)
		}
		return Value{}
	case FDegree:
		return numInt(e.x.Degree(i))
	case FCommunity:
		if n.Community != nil {
			return numInt(*n.Community)
		}
		return Value{}
	case FLanguage:
		if n.Language != "" {
			return Str(n.Language)
		}
		return str(strings.TrimPrefix(path.Ext(n.SourceFile), "."))
	case FIsTest:
		return Bool(n.IsTest)
	case FRepo:
		return str(n.Repo)
	case FParams:
		if n.Signature != nil {
			return numInt(len(n.Signature.Params))
		}
	case FReturnType:
		if n.Signature != nil {
			return str(n.Signature.ReturnType)
		}
	case FSignature:
		if n.Signature != nil {
			return str(n.Signature.Raw)
		}
	}
	return Value{}
}

// nodeName is the name field: the label without "()" and a leading ".".
func nodeName(n *graph.Node) string {
	return strings.TrimPrefix(strings.TrimSuffix(n.Label, "()"), ".")
}

// StartLine is a node's first line: its span, else its "L<n>" location.
func StartLine(n *graph.Node) int {
	if n.Span != nil && n.Span.StartLine > 0 {
		return n.Span.StartLine
	}
	var l int
	if _, err := fmt.Sscanf(n.SourceLocation, "L%d", &l); err == nil && l > 0 {
		return l
	}
	return 0
}

// evaluation is one run's state.
type evaluation struct {
	ctx  context.Context
	e    *Engine
	q    *Query
	bind []int32
	// conds[k] are the WHERE conjuncts decidable once node k is bound.
	conds  [][]Expr
	vars   map[string]int // variable -> chain position
	work   int
	agg    bool
	rows   map[string]*row
	keys   []string // row keys in first-seen order
	key    []byte   // emit's scratch row key
	capped bool
}

type row struct {
	nodes  []int32
	vals   []Value
	counts []map[int32]struct{} // per count(var) item
	star   int                  // count(*)
}

func newEvaluation(ctx context.Context, e *Engine, q *Query) *evaluation {
	ev := &evaluation{ctx: ctx, e: e, q: q, bind: make([]int32, len(q.Nodes)), vars: map[string]int{}, rows: map[string]*row{}}
	for k, n := range q.Nodes {
		if n.Var != "" {
			ev.vars[n.Var] = k
		}
	}
	ev.conds = make([][]Expr, len(q.Nodes))
	for _, c := range conjuncts(q.Where, nil) {
		used := map[string]bool{}
		c.vars(used)
		at := 0
		for v := range used {
			at = max(at, ev.vars[v])
		}
		ev.conds[at] = append(ev.conds[at], c)
	}
	ev.agg = slices.ContainsFunc(q.Items, func(it Item) bool { return it.Count })
	return ev
}

// conjuncts splits an AND tree, so each part is tested as early as its
// variables are bound.
func conjuncts(x Expr, into []Expr) []Expr {
	if x == nil {
		return into
	}
	if b, ok := x.(*Binary); ok && b.Op == OpAnd {
		return conjuncts(b.R, conjuncts(b.L, into))
	}
	return append(into, x)
}

func (ev *evaluation) step(n int) error {
	ev.work += n
	if ev.work > ev.e.MaxWork {
		return ErrWork
	}
	if ev.work&0xffff < n {
		if err := ev.ctx.Err(); err != nil {
			return fmt.Errorf("SYNQL query cancelled: %w", err)
		}
	}
	return nil
}

// match binds chain position k and everything after it.
func (ev *evaluation) match(k int) error {
	if k == len(ev.q.Nodes) {
		ev.emit()
		return nil
	}
	try := func(i int32) error {
		if err := ev.step(1); err != nil {
			return err
		}
		if kind := ev.q.Nodes[k].Kind; k > 0 && kind != "" && !strings.EqualFold(ev.e.x.Node(i).Kind, kind) { // k = 0 scans byKind
			return nil
		}
		ev.bind[k] = i
		for _, c := range ev.conds[k] {
			if !ev.truth(c) {
				return nil
			}
		}
		return ev.match(k + 1)
	}
	if k == 0 {
		if named, ok := ev.nameCandidates(); ok {
			for _, i := range named {
				if kind := ev.q.Nodes[0].Kind; kind != "" && !strings.EqualFold(ev.e.x.Node(i).Kind, kind) {
					continue
				}
				if err := try(i); err != nil {
					return err
				}
			}
			return nil
		}
		cands := ev.e.byKind[ev.q.Nodes[0].Kind]
		if ev.q.Nodes[0].Kind == "" {
			for i := range int32(ev.e.x.Len()) {
				if err := try(i); err != nil {
					return err
				}
			}
			return nil
		}
		for _, i := range cands {
			if err := try(i); err != nil {
				return err
			}
		}
		return nil
	}
	reached, err := ev.reach(ev.bind[k-1], ev.q.Rels[k-1])
	if err != nil {
		return err
	}
	for _, i := range reached {
		if err := try(i); err != nil {
			return err
		}
	}
	return nil
}

// nameCandidates is the first node's candidates when a WHERE conjunct
// pins its name or file to a literal (a.name = 'X', a.file = 'x.go'):
// that index's list, in the same node order a scan would meet them.
// false when none does.
func (ev *evaluation) nameCandidates() ([]int32, bool) {
	v0 := ev.q.Nodes[0].Var
	for _, c := range ev.conds[0] {
		b, ok := c.(*Binary)
		if !ok || b.Op != OpEq {
			continue
		}
		p, lit := b.L, b.R
		if _, isLit := p.(*Lit); isLit {
			p, lit = lit, p
		}
		pr, ok1 := p.(*Prop)
		l, ok2 := lit.(*Lit)
		if !ok1 || !ok2 || pr.Var != v0 || v0 == "" || l.V.Kind != KString {
			continue
		}
		switch pr.Field {
		case FName:
			return ev.e.byName[l.V.S], true
		case FFile:
			return ev.e.byFile[l.V.S], true
		}
	}
	return nil, false
}

// reach lists the nodes reachable from u through r within its hop range,
// each once, in breadth-first edge order.
func (ev *evaluation) reach(u int32, r RelPat) ([]int32, error) {
	x := ev.e.x
	seen, _ := ev.e.marks.Get().(*visited)
	if seen == nil || len(seen.mark) != x.Len() {
		seen = &visited{mark: make([]uint32, x.Len())}
	}
	defer ev.e.marks.Put(seen)
	if seen.gen++; seen.gen == 0 { // wrapped: old marks would read as seen
		clear(seen.mark)
		seen.gen = 1
	}
	seen.mark[u] = seen.gen
	frontier := []int32{u}
	var out []int32
	for d := 1; d <= r.Max && len(frontier) > 0; d++ {
		var next []int32
		for _, v := range frontier {
			var lists [2][]int32
			switch r.Dir {
			case Out:
				lists[0] = x.Out(v)
			case In:
				lists[0] = x.In(v)
			case Both:
				lists[0], lists[1] = x.Out(v), x.In(v)
			}
			for _, edges := range lists {
				if err := ev.step(len(edges)); err != nil {
					return nil, err
				}
				for _, ed := range edges {
					if len(r.Relations) > 0 && !slices.Contains(r.Relations, strings.ToLower(x.Edge(ed).Relation)) {
						continue
					}
					w := x.Other(ed, v)
					if w < 0 {
						continue
					}
					if seen.mark[w] == seen.gen {
						continue
					}
					seen.mark[w] = seen.gen
					next = append(next, w)
					if d >= r.Min {
						out = append(out, w)
					}
				}
			}
		}
		frontier = next
	}
	return out, nil
}

// emit records one complete binding.
func (ev *evaluation) emit() {
	key := ev.key[:0]
	var nodes []int32
	var vals []Value
	for _, it := range ev.q.Items {
		if it.Count {
			continue
		}
		i := ev.bind[ev.vars[it.Var]]
		if it.Field == "" && !ev.agg {
			nodes = append(nodes, i)
			key = append(strconv.AppendInt(append(key, 'n'), int64(i), 10), '|')
			continue
		}
		v := ev.e.Field(i, it.Field)
		if it.Field == "" {
			v = Str(ev.e.x.Node(i).ID)
		}
		vals = append(vals, v)
		key = append(append(append(strconv.AppendInt(key, int64(v.Kind), 10), ':'), v.String()...), '|')
	}
	ev.key = key
	r := ev.rows[string(key)] // no allocation for a row already seen
	if r == nil {
		k := string(key)
		if len(ev.rows) >= MaxRows {
			ev.capped = true
			return
		}
		r = &row{nodes: nodes, vals: vals}
		for range ev.q.Items {
			r.counts = append(r.counts, nil)
		}
		ev.rows[k] = r
		ev.keys = append(ev.keys, k)
	}
	r.star++
	for j, it := range ev.q.Items {
		if it.Count && it.Var != "" {
			if r.counts[j] == nil {
				r.counts[j] = map[int32]struct{}{}
			}
			r.counts[j][ev.bind[ev.vars[it.Var]]] = struct{}{}
		}
	}
}

// finish turns the collected rows into a sorted Result.
func (ev *evaluation) finish() *Result {
	q := ev.q
	res := &Result{Capped: ev.capped}
	for _, it := range q.Items {
		res.Columns = append(res.Columns, it.Name())
	}
	res.NodeRows = !ev.agg && !slices.ContainsFunc(q.Items, func(it Item) bool { return it.Field != "" })
	type out struct {
		r    *row
		vals []Value // one per item, for sorting and groups
	}
	rows := make([]out, 0, len(ev.keys))
	for _, k := range ev.keys {
		r := ev.rows[k]
		o := out{r: r}
		vi := 0
		for j, it := range q.Items {
			switch {
			case it.Count && it.Var == "":
				o.vals = append(o.vals, numInt(r.star))
			case it.Count:
				o.vals = append(o.vals, numInt(len(r.counts[j])))
			case res.NodeRows:
				o.vals = append(o.vals, Value{})
			default:
				o.vals = append(o.vals, r.vals[vi])
				vi++
			}
		}
		rows = append(rows, o)
	}
	colOf := map[string]int{}
	for j, it := range q.Items {
		colOf[it.Name()] = j
		if it.Alias != "" {
			colOf[it.Alias] = j
		}
	}
	// key returns the sort value of row o for ORDER BY key k.
	key := func(o out, k OrderKey) Value {
		if j, ok := colOf[k.Item.Name()]; ok && !(res.NodeRows && k.Item.Field == "") {
			return o.vals[j]
		}
		it := k.Item
		// a node column or var.field of a node row
		for j, qi := range q.Items {
			if qi.Var == it.Var && qi.Field == "" && res.NodeRows {
				i := o.r.nodes[j]
				if it.Field == "" {
					return Str(ev.e.x.Node(i).ID)
				}
				return ev.e.Field(i, it.Field)
			}
		}
		return Value{}
	}
	nodeOrder := func(a, b int32) int {
		na, nb := ev.e.x.Node(a), ev.e.x.Node(b)
		return cmp.Or(strings.Compare(na.SourceFile, nb.SourceFile), cmp.Compare(StartLine(na), StartLine(nb)),
			strings.Compare(na.Label, nb.Label), strings.Compare(na.ID, nb.ID))
	}
	slices.SortStableFunc(rows, func(a, b out) int {
		for _, k := range q.Order {
			c := order(key(a, k), key(b, k))
			if k.Desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		if res.NodeRows {
			for j := range a.r.nodes {
				if c := nodeOrder(a.r.nodes[j], b.r.nodes[j]); c != 0 {
					return c
				}
			}
			return 0
		}
		for j := range a.vals {
			if c := order(a.vals[j], b.vals[j]); c != 0 {
				return c
			}
		}
		return 0
	})
	res.Total = len(rows)
	for _, o := range rows {
		if res.NodeRows {
			res.Nodes = append(res.Nodes, o.r.nodes)
		} else {
			res.Groups = append(res.Groups, o.vals)
		}
	}
	return res
}

// compareCount is compare's fast path for the scans that filter on a
// table field against a number (f.loc > 90, f.fan_in >= 3): the table
// is read directly, no Value built. false when b is not of that shape.
func (ev *evaluation) compareCount(b *Binary) (result, ok bool) {
	p, isProp := b.L.(*Prop)
	l, isLit := b.R.(*Lit)
	if !isProp || !isLit || p.at == 0 || l.V.Kind != KNum {
		return false, false
	}
	i := ev.bind[p.at-1]
	var v int32
	switch p.Field {
	case FLOC:
		if v = ev.e.effLOC[i]; v <= 0 {
			return false, true // no span: null, which compares false
		}
	case FFanIn:
		v = ev.e.fanIn[i]
	case FFanOut:
		v = ev.e.fanOut[i]
	default:
		return false, false
	}
	c := cmp.Compare(float64(v), l.V.N)
	switch b.Op {
	case OpEq:
		return c == 0, true
	case OpNe:
		return c != 0, true
	case OpLt:
		return c < 0, true
	case OpLe:
		return c <= 0, true
	case OpGt:
		return c > 0, true
	case OpGe:
		return c >= 0, true
	}
	return false, false
}

// truth evaluates a WHERE expression on the current binding.
func (ev *evaluation) truth(x Expr) bool {
	switch x := x.(type) {
	case *Binary:
		switch x.Op {
		case OpAnd:
			return ev.truth(x.L) && ev.truth(x.R)
		case OpOr:
			return ev.truth(x.L) || ev.truth(x.R)
		}
		return ev.compare(x)
	case *Not:
		return !ev.truth(x.X)
	case *paren:
		return ev.truth(x.x)
	}
	v := ev.value(x)
	return v.Kind == KBool && v.B
}

func (ev *evaluation) value(x Expr) Value {
	switch x := x.(type) {
	case *Lit:
		return x.V
	case *Prop:
		if x.at > 0 {
			return ev.e.Field(ev.bind[x.at-1], x.Field)
		}
		return ev.e.Field(ev.bind[ev.vars[x.Var]], x.Field)
	case *paren:
		return Bool(ev.truth(x.x))
	case *Binary, *Not:
		return Bool(ev.truth(x))
	}
	return Value{}
}

func (ev *evaluation) compare(b *Binary) bool {
	if r, ok := ev.compareCount(b); ok {
		return r
	}
	l := ev.value(b.L)
	if l.IsNull() {
		return false
	}
	if b.Op == OpIn {
		for _, v := range b.R.(*List).Items {
			if c, ok := compare(l, v); ok && c == 0 {
				return true
			}
		}
		return false
	}
	r := ev.value(b.R)
	switch b.Op {
	case OpRegex:
		return l.Kind == KString && b.re.MatchString(l.S)
	case OpContains, OpStarts, OpEnds:
		if l.Kind != KString || r.Kind != KString {
			return false
		}
		switch b.Op {
		case OpContains:
			return strings.Contains(l.S, r.S)
		case OpStarts:
			return strings.HasPrefix(l.S, r.S)
		}
		return strings.HasSuffix(l.S, r.S)
	}
	c, ok := compare(l, r)
	if !ok {
		return false
	}
	switch b.Op {
	case OpEq:
		return c == 0
	case OpNe:
		return c != 0
	case OpLt:
		return c < 0
	case OpLe:
		return c <= 0
	case OpGt:
		return c > 0
	case OpGe:
		return c >= 0
	}
	return false
}
