package query

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// maxAliases bounds the _search_terms tokens indexed per node, so a node
// with a huge alias list (a localization bundle) cannot dominate.
const maxAliases = 32

// maxDocTokens bounds the doc tokens indexed per node (a doc is already
// one bounded paragraph; this keeps a wordy one from costing memory).
const maxDocTokens = 48

// channel is one token channel: postings (token id → nodes or files) and
// each document's length normalizer 1/√|tokens|.
type channel struct {
	post [][]int32
	norm []float32
}

// Engine answers queries over one graph snapshot. Build it once per graph
// (New) and share it: it is read-only and safe for concurrent queries.
type Engine struct {
	x   *graph.Index
	tok map[string]int32 // token → token id
	df  []int32          // per token: nodes carrying it in any channel

	label, owner, alias channel // per node
	path                channel // per file (postings are file ids)
	// doc is the doc-comment channel, with its own document frequency:
	// prose repeats common words that names rarely carry, and counting
	// them in df would lower every label match's IDF.
	doc   channel
	docDF []int32

	files     []string // file id → source_file
	fileID    map[string]int32
	fileNodes [][]int32 // file id → nodes
	nodeFile  []int32   // node → file id, -1 for none

	labelKey  []string // bare lowercase label, for exact matches
	keyCount  map[string]int32
	ownerOf   []int32   // node → owning type node, -1
	prior     []float32 // node prior
	size      []float32 // size prior of lexical matches (Tuning.SizeExp), nil when off
	nbPrior   []float32 // neighbour prior (repeated labels fade)
	test      []bool    // test and benchmark nodes (see Tuning.TestDemote)
	container []bool    // file, package and module nodes (see Tuning.ContainerShow)
	avgDegree float64
	testCalls []int32 // calls from test code per node (Tuning.TestCalls), nil when off
	generated []bool  // nodes of generated files (Tuning.GeneratedPrior), nil when none or off

	idSorted bool      // node order is id order, so ties compare indices
	pool     sync.Pool // *scratch
	mark     []int32   // build scratch

	t       Tuning
	opts    options
	buildAt time.Duration
}

// Option configures an Engine.
type Option func(*options)

type options struct {
	logger Logger
	root   string // repository root, for since/recency
	tuning *Tuning
	now    func() time.Time
}

// WithLogger appends every query to l (see FileLogger / LoggerFromEnv).
func WithLogger(l Logger) Option { return func(o *options) { o.logger = l } }

// WithRoot names the directory the graph was extracted from; `since`
// resolves git history there. Without it recency is silently off.
func WithRoot(dir string) Option { return func(o *options) { o.root = dir } }

// New indexes x for querying. It costs one pass over nodes and edges; the
// time it took is BuildTime.
func New(x *graph.Index, opts ...Option) *Engine {
	start := time.Now()
	e := &Engine{x: x, tok: map[string]int32{}}
	for _, o := range opts {
		o(&e.opts)
	}
	if e.opts.now == nil {
		e.opts.now = time.Now
	}
	e.t = DefaultTuning
	if e.opts.tuning != nil {
		e.t = *e.opts.tuning
	}
	e.build()
	e.buildAt = time.Since(start)
	return e
}

// BuildTime is how long New took.
func (e *Engine) BuildTime() time.Duration { return e.buildAt }

// Index returns the graph index the engine was built on.
func (e *Engine) Index() *graph.Index { return e.x }

func (e *Engine) id(t string) int32 {
	if i, ok := e.tok[t]; ok {
		return i
	}
	i := int32(len(e.df))
	e.tok[t] = i
	e.df = append(e.df, 0)
	e.mark = append(e.mark, -1)
	e.label.post = append(e.label.post, nil)
	e.owner.post = append(e.owner.post, nil)
	e.alias.post = append(e.alias.post, nil)
	e.path.post = append(e.path.post, nil)
	e.doc.post = append(e.doc.post, nil)
	e.docDF = append(e.docDF, 0)
	return i
}

func (e *Engine) build() {
	g := e.x.G
	n := len(g.Nodes)
	e.label.norm = make([]float32, n)
	e.owner.norm = make([]float32, n)
	e.alias.norm = make([]float32, n)
	e.doc.norm = make([]float32, n)
	e.labelKey = make([]string, n)
	e.prior = make([]float32, n)
	if e.t.SizeExp != 0 {
		e.size = make([]float32, n)
	}
	e.nbPrior = make([]float32, n)
	e.test = make([]bool, n)
	e.container = make([]bool, n)
	e.nodeFile = make([]int32, n)
	e.ownerOf = e.owners()

	e.fileID = map[string]int32{}
	e.keyCount = map[string]int32{}
	fileID := e.fileID
	var pathToks [][]int32 // per file id
	labelCount := map[string]int32{}
	var scratch []string
	var ids, seen, nameIDs []int32
	e.mark = nil // token id → last node that counted it in df
	defer func() { e.mark = nil }()
	degSum := 0
	for i := range g.Nodes {
		nd := &g.Nodes[i]
		ni := int32(i)
		degSum += e.x.Degree(ni)
		e.labelKey[i] = graph.BareName(nd.Label)
		e.keyCount[e.labelKey[i]]++
		labelCount[strings.ToLower(nd.Label)]++
		e.prior[i] = float32(e.nodePrior(nd))
		if e.t.SizeExp != 0 {
			e.size[i] = float32(e.sizePrior(nd))
		}
		e.test[i] = nd.IsTest || graph.IsTestPath(nd.SourceFile)
		e.container[i] = isContainer(nd.Kind)

		countDF := func(t int32) {
			if e.mark[t] != ni {
				e.mark[t] = ni
				e.df[t]++
			}
		}
		addChannel := func(c *channel, toks []string) {
			ids = ids[:0]
			for _, s := range toks {
				t := e.id(s)
				if !containsID(ids, t) {
					ids = append(ids, t)
				}
			}
			for _, t := range ids {
				c.post[t] = append(c.post[t], ni)
				countDF(t)
			}
			c.norm[i] = invSqrt(len(ids))
		}
		if nd.Kind == "file" {
			scratch = append(scratch[:0], pathTokens(nd.Label)...)
		} else {
			scratch = appendTokens(scratch[:0], nd.Label)
		}
		addChannel(&e.label, scratch)
		nameIDs = append(nameIDs[:0], ids...)
		if o := e.ownerOf[i]; o >= 0 {
			scratch = appendTokens(scratch[:0], g.Nodes[o].Label)
			addChannel(&e.owner, scratch)
			nameIDs = append(nameIDs, ids...)
		}
		if terms := searchTerms(nd); len(terms) > 0 {
			scratch = scratch[:0]
			for _, s := range terms {
				scratch = appendTokens(scratch, s)
				if len(scratch) >= maxAliases {
					scratch = scratch[:maxAliases]
					break
				}
			}
			addChannel(&e.alias, scratch)
		}
		if nd.Doc != "" && e.t.Doc > 0 {
			// The doc's words minus the name's (label and owner): a doc
			// restating its own name would count that name twice.
			scratch = docTokens(scratch[:0], nd.Doc)
			ids = ids[:0]
			for _, s := range scratch {
				if t := e.id(s); !containsID(ids, t) && !containsID(nameIDs, t) {
					ids = append(ids, t)
				}
			}
			for _, t := range ids {
				e.doc.post[t] = append(e.doc.post[t], ni)
				e.docDF[t]++
			}
			e.doc.norm[i] = invSqrt(len(ids))
		}

		e.nodeFile[i] = -1
		if nd.SourceFile != "" {
			f, ok := fileID[nd.SourceFile]
			if !ok {
				f = int32(len(e.files))
				fileID[nd.SourceFile] = f
				e.files = append(e.files, nd.SourceFile)
				e.fileNodes = append(e.fileNodes, nil)
				seen = seen[:0]
				for _, s := range pathTokens(nd.SourceFile) {
					t := e.id(s)
					if !containsID(seen, t) {
						seen = append(seen, t)
					}
				}
				pathToks = append(pathToks, append([]int32(nil), seen...))
			}
			e.nodeFile[i] = f
			e.fileNodes[f] = append(e.fileNodes[f], ni)
			for _, t := range pathToks[f] {
				countDF(t)
			}
		}
	}
	e.path.norm = make([]float32, len(e.files))
	for f, toks := range pathToks {
		for _, t := range toks {
			e.path.post[t] = append(e.path.post[t], int32(f))
		}
		e.path.norm[f] = invSqrt(len(toks))
	}
	if e.size != nil {
		e.centerSizes()
	}
	e.markGenerated()
	for i := range g.Nodes {
		c := labelCount[strings.ToLower(g.Nodes[i].Label)]
		e.nbPrior[i] = 1
		if c > 2 {
			e.nbPrior[i] = float32(math.Max(math.Sqrt(2/float64(c)), 0.35))
		}
	}
	e.countTestCalls()
	e.idSorted = slices.IsSortedFunc(g.Nodes, func(a, b graph.Node) int { return strings.Compare(a.ID, b.ID) })
	if n > 0 {
		e.avgDegree = float64(degSum) / float64(n)
	}
}

// pathTokens tokenizes a source path without its extension: "go", "py" and
// "ts" would otherwise match every question that mentions the language.
func pathTokens(p string) []string {
	if dot := strings.LastIndexByte(p, '.'); dot > strings.LastIndexByte(p, '/') {
		p = p[:dot]
	}
	return Tokenize(p)
}

// owners maps each member (method, field, nested definition) to the type
// that owns it, through "method" edges and "contains" edges whose source is
// not a file or package. Labels of methods carry no receiver, so this is
// how a question about "conn serve" finds conn's serve.
func (e *Engine) owners() []int32 {
	g := e.x.G
	own := make([]int32, len(g.Nodes))
	for i := range own {
		own[i] = -1
	}
	for i := range g.Edges {
		ed := &g.Edges[i]
		if ed.Relation != "method" && ed.Relation != "contains" {
			continue
		}
		s, t := e.x.Ends(int32(i))
		if s < 0 || s == t {
			continue
		}
		if k := g.Nodes[s].Kind; k == "" || isContainer(k) {
			continue
		}
		if own[t] < 0 || ed.Relation == "method" {
			own[t] = s
		}
	}
	return own
}

// isContainer reports the kinds that hold code rather than being code.
func isContainer(kind string) bool {
	return kind == "file" || kind == "package" || kind == "module"
}

// searchTerms reads the bounded aliases extractors attach as _search_terms
// (a string or a list of strings).
func searchTerms(n *graph.Node) []string {
	raw, ok := n.Extra["_search_terms"]
	if !ok {
		return nil
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	return nil
}

func containsID(s []int32, v int32) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// markGenerated marks the nodes of generated files, which rank ×
// GeneratedPrior like tests rank × TestDemote: exact label matches are
// exempt (see Tuning). The resolver marks the file node.
func (e *Engine) markGenerated() {
	if f := e.t.GeneratedPrior; f <= 0 || f == 1 {
		return
	}
	g := e.x.G
	gen := map[string]bool{}
	for i := range g.Nodes {
		if nd := &g.Nodes[i]; nd.Kind == "file" && string(nd.Extra["generated"]) == "true" {
			gen[nd.SourceFile] = true
		}
	}
	if len(gen) == 0 {
		return
	}
	e.generated = make([]bool, len(g.Nodes))
	for i := range g.Nodes {
		e.generated[i] = gen[g.Nodes[i].SourceFile]
	}
}

// countTestCalls counts, per node, the call edges from test code into it
// (see Tuning.TestCalls); calls between tests count too, but tests are
// demoted for questions not about tests anyway.
func (e *Engine) countTestCalls() {
	if e.t.TestCalls <= 0 {
		return
	}
	g := e.x.G
	e.testCalls = make([]int32, len(g.Nodes))
	for k := range g.Edges {
		if g.Edges[k].Relation != "calls" {
			continue
		}
		if from, to := e.x.Ends(int32(k)); from >= 0 && to >= 0 && e.test[from] {
			e.testCalls[to]++
		}
	}
}

func invSqrt(n int) float32 { return float32(1 / math.Sqrt(float64(max(n, 1)))) }

// nodePrior down-weights nodes that rarely answer a code question directly:
// external stubs, tests, config keys and non-code documents.
func (e *Engine) nodePrior(n *graph.Node) float64 {
	switch {
	case n.SourceFile == "":
		return 0.6
	case n.IsTest || graph.IsTestPath(n.SourceFile):
		return e.t.TestPrior
	case n.Kind == "config_key" || n.Kind == "config_resource":
		return 0.85
	}
	switch n.Kind {
	case "field", "property":
		return e.t.MemberPrior
	case "variable", "constant":
		return e.t.VarPrior
	case "file":
		return e.t.FilePrior
	}
	switch n.FileType {
	case "rationale", "document":
		return 0.75
	case "concept", "paper":
		return 0.7
	case "image":
		return 0.8
	}
	return 1.0
}

// sizePrior favours longer functions and methods by
// log2(2+lines)^SizeExp (centerSizes then divides by the median
// function's): between equal matches, the body that does the work
// (conn.serve, Task.__step) is more often the answer than a one-line
// accessor or wrapper. Types are left out: a class's span holds all its
// methods.
func (e *Engine) sizePrior(n *graph.Node) float64 {
	if e.t.SizeExp == 0 || n.Span == nil {
		return 1
	}
	if !isFunctionKind(n.Kind) {
		return 1
	}
	lines := max(n.Span.EndLine-n.Span.StartLine+1, 1)
	return math.Pow(math.Log2(2+float64(lines)), e.t.SizeExp)
}

// centerSizes divides every function's size prior by the median one, so
// a function of median length weighs what a type or a variable does and
// only the short and the long ones move.
func (e *Engine) centerSizes() {
	var fs []float32
	for i, v := range e.size {
		if isFunctionKind(e.x.G.Nodes[i].Kind) && e.x.G.Nodes[i].Span != nil {
			fs = append(fs, v)
		}
	}
	if len(fs) == 0 {
		return
	}
	slices.Sort(fs)
	mid := fs[len(fs)/2]
	for i, v := range e.size {
		if isFunctionKind(e.x.G.Nodes[i].Kind) && e.x.G.Nodes[i].Span != nil {
			e.size[i] = v / mid
		}
	}
}

func isFunctionKind(k string) bool { return k == "function" || k == "method" || k == "constructor" }

// idf is ln((N+1)/(1+df)) + 1 over the union of channels.
func (e *Engine) idf(t int32) float64 {
	return math.Log(float64(len(e.x.G.Nodes)+1)/float64(1+e.df[t])) + 1
}

// docIDF is the doc channel's idf: over every channel, doc included, so
// a word common in names or in prose ("request", "returns") weighs little
// in a doc, while label matches keep the idf they had without docs.
func (e *Engine) docIDF(t int32) float64 {
	return math.Log(float64(len(e.x.G.Nodes)+1)/float64(1+e.df[t]+e.docDF[t])) + 1
}

// docTokens tokenizes a doc for the doc channel: the words a question
// could match, without the scaffolding questions drop anyway, at most
// maxDocTokens.
func docTokens(out []string, doc string) []string {
	start := len(out)
	out = appendTokens(out, doc)
	kept := out[:start]
	for _, t := range out[start:] {
		if !scaffolding[t] && len(kept)-start < maxDocTokens {
			kept = append(kept, t)
		}
	}
	return kept
}

// hubPenalty shrinks high-fan-out nodes so they do not flood an answer.
// A node that matches the question itself is evidence, not flood, so its
// penalty uses the (milder) HubLexical exponent.
func (e *Engine) hubPenalty(i int32, lexical bool) float64 {
	p := 1 / (1 + math.Log(1+float64(e.x.Degree(i))/math.Max(e.avgDegree, 1)))
	exp := e.t.HubExp
	if lexical {
		exp = e.t.HubLexical
	}
	if exp != 1 {
		p = math.Pow(p, exp)
	}
	return p
}

// Owner returns the type that owns member i (a method's receiver type, a
// field's struct), or -1.
func (e *Engine) Owner(i int32) int32 { return e.ownerOf[i] }
