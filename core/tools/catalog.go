// Package tools is the protocol-neutral catalog behind `synaptic serve` and
// `synaptic call`: tools, resources, resource templates, prompts and
// completions over a swappable graph snapshot.
//
// It knows nothing about JSON-RPC. The MCP server is handed an adapter of a
// Catalog, and the CLI runs the same handlers, so the two can never answer
// differently. Every label, relation and path that reaches output goes
// through sanitize; get_source is the only tool that returns raw file bytes,
// and only from inside the source-root jail.
package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// Annotations are the hints a host uses to decide how safe a tool is.
type Annotations struct {
	ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint bool
}

// Tool is one callable tool. InputSchema and OutputSchema are JSON Schema
// objects (OutputSchema is nil for text-only tools).
type Tool struct {
	Name, Title, Description string
	InputSchema              json.RawMessage
	OutputSchema             json.RawMessage
	Annotations              Annotations
	// Run executes the tool on arguments already checked by ValidateArgs.
	Run func(ctx context.Context, args json.RawMessage) Result
}

// Result is a tool's answer: the text content block, an optional
// structuredContent object (nil = omit) and whether it is a tool-level
// failure the model should see.
type Result struct {
	Text       string
	Structured any
	IsError    bool
	// Meta goes in the result's _meta (FreshnessMetaKey).
	Meta map[string]any
}

// Options configures a Catalog.
type Options struct {
	// SourceRoot is the get_source jail; "" means no source root.
	SourceRoot string
	// Concise lowers list and budget defaults (explicit arguments win).
	Concise bool
	// AllowExec advertises speculate, which runs the project's tests in a
	// throwaway worktree; without it the tool is neither listed nor callable.
	AllowExec bool
	// GraphPath is the loaded graph.json; its directory is where
	// GRAPH_REPORT.md and workspace-state.json are looked for.
	GraphPath string
	// RenderReport serves synaptic://report rendered from the loaded graph
	// instead of the GRAPH_REPORT.md beside it: a pinned snapshot
	// (--immutable-graph) verifies graph.json only, so a file beside it
	// must not change what the pinned server says.
	RenderReport bool
	// Freshen, when set, runs before every data request, after the graph
	// is loaded: serve's auto-freshen, which may publish a newer graph
	// (SetGraph) before the request reads one. A non-empty note is put in
	// front of the answer (the graph could not be refreshed).
	Freshen func(ctx context.Context) (note string)
	// Freshness, when set, is asked after every tool call; what it
	// returns goes in the result's _meta under FreshnessMetaKey.
	Freshness func() *Freshness
	// Rules runs rule packs for audit_sql, advise_sql and readiness_audit;
	// nil answers them with an error saying how to add packs.
	Rules findings.Runner
	// ExtractRevision runs the extraction pipeline on dir (a throwaway
	// worktree of one revision) and writes graph.json into outDir. It is
	// injected by the composition root, so core never imports the plugin
	// host; nil makes time_travel_diff say it is unavailable.
	ExtractRevision func(ctx context.Context, dir, outDir string) error
	// ExtractKey identifies the extraction build (synaptic and its
	// plugins), so graphs cached per commit are rebuilt by a new build.
	ExtractKey string
}

// Catalog serves everything over the current graph snapshot. All methods
// are safe for concurrent use; SetGraph swaps the snapshot atomically so a
// hot reload never tears a request in flight (a request keeps the snapshot
// it started with).
type Catalog struct {
	opts    Options
	bg      sync.WaitGroup // SetGraph's background work (tests wait for it)
	snap    atomic.Pointer[snapshot]
	tools   []Tool
	byTo    map[string]int
	loading atomic.Pointer[graphLoad] // set while the first graph loads
	// reading is held shared by everything that reads a snapshot (tool
	// calls, resource reads, completions, the background query index):
	// Patch rewrites the served graph's records in place only when it
	// can take it exclusively at once, and never waits for it.
	reading sync.RWMutex
	// patching serializes Patch and the spare room made after SetGraph.
	patching sync.Mutex
}

// graphLoad is a graph load in progress: done closes when it ends, err is
// set (before done closes) when it failed.
type graphLoad struct {
	done chan struct{}
	err  error
}

// BeginLoad says a graph is being loaded in the background (serve answers
// the handshake before a large graph is parsed): data requests arriving
// meanwhile wait for it instead of answering "no graph". EndLoad ends it.
func (c *Catalog) BeginLoad() { c.loading.Store(&graphLoad{done: make(chan struct{})}) }

// EndLoad ends the load BeginLoad announced; on err the waiting requests
// get it as their answer.
func (c *Catalog) EndLoad(err error) {
	if l := c.loading.Load(); l != nil {
		l.err = err
		close(l.done)
	}
}

// await returns the snapshot in effect, first waiting for a load in
// progress (or for ctx); nil with the reason when there is no graph.
func (c *Catalog) await(ctx context.Context) (*snapshot, error) {
	if l := c.loading.Load(); l != nil {
		select {
		case <-l.done:
			if l.err != nil && c.current() == nil {
				return nil, fmt.Errorf("the graph could not be loaded: %w", l.err)
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("still loading the graph: %w", ctx.Err())
		}
	}
	if s := c.current(); s != nil {
		return s, nil
	}
	return nil, errNoGraph
}

// ErrUnknownTool is returned by Call for a name that is not in Tools().
// Protocol layers map it to invalid params (-32602).
var ErrUnknownTool = errors.New("unknown tool")

// New builds a catalog with no graph; tools report "no graph loaded" until
// SetGraph is called.
func New(opts Options) *Catalog {
	c := &Catalog{opts: opts}
	c.tools = c.buildTools()
	c.byTo = make(map[string]int, len(c.tools))
	for i, t := range c.tools {
		c.byTo[t.Name] = i
	}
	return c
}

// SetGraph indexes g, precomputes the per-graph caches and publishes the
// new snapshot. g must not be modified afterwards, other than by Patch.
func (c *Catalog) SetGraph(g *graph.Graph) {
	s := newSnapshot(g, c.opts)
	c.snap.Store(s)
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		if c.opts.Freshen != nil {
			c.makeRoom(s)
		}
		// Build the query index in the background, so serving starts at
		// once and the first query_graph does not pay for it (queryIndex
		// is a sync.Once: a query arriving earlier waits for the same
		// build).
		defer c.pin()()
		if s := c.current(); s != nil {
			s.queryIndex()
		}
	}()
}

// pin holds off in-place patches while the caller reads the snapshot it
// takes after pinning (c.current()); it returns the unpin. Reads may nest:
// a patch never waits for the lock, so a reader waiting behind it cannot
// deadlock another.
func (c *Catalog) pin() (unpin func()) {
	c.reading.RLock()
	return c.reading.RUnlock
}

// Patch applies p to the served graph and publishes the result with the
// per-graph tables carried over. The records are rewritten in place
// (graph.ApplyIndexedInPlace; st.InPlace) when no request is reading the
// graph at that moment, which for an assistant's edit-then-ask is nearly
// always; otherwise, rather than wait for a request that may run for
// seconds, the result goes to new arrays and the readers keep their
// snapshot intact (busy). Patch calls are serialized.
func (c *Catalog) Patch(p graph.Patch) (st graph.PatchStats, busy bool, err error) {
	c.patching.Lock()
	defer c.patching.Unlock()
	prev := c.current()
	if prev == nil {
		return graph.PatchStats{}, false, errNoGraph
	}
	if c.reading.TryLock() {
		x, st := prev.g.ApplyIndexedInPlace(p, prev.x)
		c.SetPatched(x)
		c.reading.Unlock()
		return st, false, nil
	}
	x, st := prev.g.ApplyIndexed(p, prev.x)
	c.SetPatched(x)
	return st, true, nil
}

// makeRoom readies s, while it is served, for the edits to come (serve's
// start, its exact runs): it builds the tables a patch reads and carries
// over, and republishes s with its records copied into arrays with spare
// room, so that the next edits patch it in place instead of copying it on
// the answer's path. It runs in the background as a reader (a patch
// meanwhile copies, beside it, and makes this one moot).
func (c *Catalog) makeRoom(s *snapshot) {
	unpin := c.pin()
	if c.current() != s {
		unpin()
		return
	}
	s.x.PreparePatches()
	if s.g.HasRoom() {
		unpin()
		return
	}
	x, _ := s.g.ApplyIndexed(graph.Patch{}, s.x)
	unpin()
	x.PreparePatches() // carried over already; a no-op unless s had none
	c.patching.Lock()
	defer c.patching.Unlock()
	if c.current() == s {
		c.SetPatched(x)
	}
}

// SetPatched publishes x, an index carried over a patch of the served
// graph (graph.ApplyIndexed): the per-graph tables are carried over too
// when x was patched from the snapshot being served, and the query index
// is left to the first query_graph, so an answer right after an edit does
// not wait for tables it does not read.
func (c *Catalog) SetPatched(x *graph.Index) {
	prev := c.current()
	var p *perf
	if pv := x.Provenance(); prev != nil && pv != nil && pv.Base == prev.x {
		p = patchedPerf(prev.p, prev.x, x)
	}
	if p == nil {
		p = newPerf(x.G, x)
	}
	c.snap.Store(newSnapshotOf(x, p, c.opts))
}

// LoadGraph reads a graph.json and publishes it; on error the serving
// snapshot is kept.
func (c *Catalog) LoadGraph(path string) error {
	g, err := graph.ReadFile(path)
	if err != nil {
		return err
	}
	c.SetGraph(g)
	return nil
}

// Index returns the index of the graph being served (its G), or nil
// before the first SetGraph: serve's quick update patches it into the
// next one.
func (c *Catalog) Index() *graph.Index {
	if s := c.current(); s != nil {
		return s.x
	}
	return nil
}

// current returns the snapshot in effect, or nil before the first SetGraph.
func (c *Catalog) current() *snapshot { return c.snap.Load() }

// Tools lists the tools in a stable order.
func (c *Catalog) Tools() []Tool { return c.tools }

// Tool returns the named tool.
func (c *Catalog) Tool(name string) (Tool, bool) {
	i, ok := c.byTo[name]
	if !ok {
		return Tool{}, false
	}
	return c.tools[i], true
}

// Call validates args against the tool's input schema and runs it. It
// returns ErrUnknownTool or an *ArgsError (both are protocol-level
// invalid-params errors); tool failures come back as a Result with IsError.
func (c *Catalog) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	t, ok := c.Tool(name)
	if !ok {
		return Result{}, fmt.Errorf("%w: %q", ErrUnknownTool, name)
	}
	if err := ValidateArgs(t, args); err != nil {
		return Result{}, err
	}
	return t.Run(ctx, normArgs(args)), nil
}

// run wraps a handler: it pins the snapshot for the whole call and turns a
// missing graph into a tool error.
func (c *Catalog) run(h func(ctx context.Context, s *snapshot, args json.RawMessage) Result) func(context.Context, json.RawMessage) Result {
	return func(ctx context.Context, args json.RawMessage) Result {
		_, err := c.await(ctx)
		if errors.Is(err, errNoGraph) {
			return errorf("No graph loaded (run synaptic extract first).")
		}
		if err != nil {
			return errorf("%s", sanitize(err.Error()))
		}
		var note string
		if c.opts.Freshen != nil {
			note = c.opts.Freshen(ctx)
		}
		res := func() Result {
			defer c.pin()() // released even if h panics: else every later patch copies
			return h(ctx, c.current(), normArgs(args))
		}()
		if note != "" {
			res.Text = sanitize(note) + "\n" + res.Text
		}
		return c.withFreshness(res)
	}
}

// withFreshness states in res's _meta how current the graph is.
func (c *Catalog) withFreshness(res Result) Result {
	if c.opts.Freshness == nil {
		return res
	}
	if f := c.opts.Freshness(); f != nil {
		if res.Meta == nil {
			res.Meta = map[string]any{}
		}
		res.Meta[FreshnessMetaKey] = f
	}
	return res
}

// errorf builds an IsError result.
func errorf(format string, a ...any) Result {
	return Result{Text: fmt.Sprintf(format, a...), IsError: true}
}
