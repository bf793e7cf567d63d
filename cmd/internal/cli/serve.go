package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oklog/run"

	"github.com/synaptic-graph/synaptic/cmd/internal/viewer"
	"github.com/synaptic-graph/synaptic/core/bigfile"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/safefile"
	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/mcp"
)

const serverInstructions = `synaptic serves a code knowledge graph of one repository: files, packages,
types, functions and methods, with calls, imports, containment, inheritance and
type references. Start with query_graph for "how does X work" questions, then
get_node / get_neighbors / find_callers / find_callees / affected to follow
edges, and get_source to read a symbol's code. Names resolve by id, label,
bare name or unique substring; pin duplicates with name@file. Edges say how
they are known: EXTRACTED (from the syntax tree or proven by an import),
INFERRED (a unique-name guess).`

type serveFlags struct {
	graph, httpAddr, apiKey, sourceRoot, expectSHA, readyFile string
	allowExec, concise, watch, immutable                      bool
	catalog                                                   tools.CatalogMode
}

func runServe(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "serve", "[flags]", `
Serve a graph.json to AI assistants over the Model Context Protocol: on
stdio by default (for an assistant that starts synaptic as a subprocess), or
over Streamable HTTP with --http. Both protocol eras are spoken: 2026-07-28
(stateless) and 2025-11-25 / 2025-06-18 / 2025-03-26 / 2024-11-05
(initialize + sessions). The graph hot-reloads when graph.json changes.`)
	var f serveFlags
	fs.StringVar(&f.graph, "graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to serve")
	fs.StringVar(&f.httpAddr, "http", "", "serve HTTP on host:port (e.g. 127.0.0.1:8765) instead of stdio")
	fs.StringVar(&f.apiKey, "api-key", "", "require this key on HTTP requests (default $SYNAPTIC_API_KEY; unset or empty: no key; only whitespace: refused)")
	fs.StringVar(&f.sourceRoot, "source-root", "", "trusted root for get_source (default: the directory above synaptic-out/, else the current directory)")
	fs.BoolVar(&f.allowExec, "allow-exec", false, "expose speculate, which runs the project's tests in a throwaway worktree (the server is then not read-only)")
	fs.BoolVar(&f.concise, "concise", os.Getenv("SYNAPTIC_CONCISE") != "" && os.Getenv("SYNAPTIC_CONCISE") != "0", "token-lean defaults (also $SYNAPTIC_CONCISE)")
	fs.BoolVar(&f.watch, "watch", os.Getenv("SYNAPTIC_SERVE_WATCH") == "1", "watch the source tree so auto-freshen catches up on file events and a query when nothing changed skips the staleness walk (also $SYNAPTIC_SERVE_WATCH=1; if the watcher cannot start, the debounced check is used)")
	fs.BoolVar(&f.immutable, "immutable-graph", false, "pin the graph loaded at startup: no hot reload")
	fs.StringVar(&f.expectSHA, "expected-graph-sha256", "", "refuse to start unless graph.json has this SHA-256 (requires --immutable-graph)")
	fs.StringVar(&f.readyFile, "ready-file", "", "after binding, atomically write {address, mcp_url} to this new file (requires --http)")
	catalog := fs.String("catalog", envOr("SYNAPTIC_CATALOG", "full"), "tools/list as one tool per operation (full) or a handful of grouped tools with an action argument (compact; also $SYNAPTIC_CATALOG; over HTTP a request may ask with ?catalog=)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q (use --graph PATH)", pos[0])}
	}
	if f.catalog, err = tools.ParseCatalogMode(*catalog); err != nil {
		return usageError{"--catalog: " + err.Error()}
	}
	if f.graph, err = graphFileArg(f.graph); err != nil {
		return err
	}
	if f.httpAddr != "" {
		if f.httpAddr, err = httpAddrArg(f.httpAddr); err != nil {
			return usageError{err.Error()}
		}
	}
	explicitKey := false
	fs.Visit(func(fl *flag.Flag) {
		if fl.Name == "api-key" {
			explicitKey = true
		}
	})
	if !explicitKey {
		f.apiKey = os.Getenv("SYNAPTIC_API_KEY")
	}
	if f.apiKey, err = checkAPIKey(f.apiKey, explicitKey, f.httpAddr != ""); err != nil {
		return err
	}
	if f.watch && f.immutable {
		return usageError{"--watch (or SYNAPTIC_SERVE_WATCH=1) keeps the graph current, --immutable-graph pins it: pass one of them"}
	}
	if f.expectSHA != "" && !f.immutable {
		return usageError{"--expected-graph-sha256 requires --immutable-graph"}
	}
	if f.readyFile != "" && f.httpAddr == "" {
		return usageError{"--ready-file requires --http"}
	}
	if f.readyFile != "" {
		if err := checkReadyFile(f.readyFile); err != nil {
			return err
		}
	}

	explicitRoot := f.sourceRoot != ""
	if f.sourceRoot == "" {
		f.sourceRoot = defaultSourceRoot(f.graph)
	}
	var fresh *freshener // set before serving starts
	opts := tools.Options{SourceRoot: f.sourceRoot, Concise: f.concise, AllowExec: f.allowExec, GraphPath: f.graph, RenderReport: f.immutable,
		Rules: newLazyRules(f.sourceRoot, "")}
	if !f.immutable {
		opts.Freshen = func(ctx context.Context) string {
			if fresh == nil {
				return ""
			}
			return fresh.check(ctx)
		}
		opts.Freshness = func() *tools.Freshness {
			if fresh == nil {
				return nil
			}
			return fresh.freshness()
		}
	}
	cat := tools.New(withRevisionExtraction(opts, envOr("SYNAPTIC_PLUGINS", "")))
	notifier := newResourceNotifier(cat)
	mc := mcpCatalog(cat, f.catalog)
	mc.Subscribed = notifier.subscribed
	srv := mcp.NewServer(mcp.Implementation{Name: "synaptic", Version: Version}, &mcp.ServerOptions{
		Instructions: serverInstructions,
		Catalog:      mc,
	})
	notifier.srv = srv
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var group run.Group
	group.Add(func() error { <-ctx.Done(); return nil }, func(error) { cancel() })

	w := &graphWatcher{path: f.graph, cat: cat, notify: notifier, log: stdio.Err}
	if f.expectSHA != "" {
		// A pinned snapshot is verified before anything is served.
		g, sum, err := loadGraph(f.graph, f.expectSHA, stdio.Err)
		if err != nil {
			return err
		}
		cat.SetGraph(g)
		w.sum = sum
	} else {
		// The handshake is answered at once; data requests wait for the
		// load, which happens beside it. A file that is plainly not a
		// graph is still refused before anything is announced.
		if err := preflightGraph(f.graph); err != nil {
			return err
		}
		cat.BeginLoad()
		loaded := make(chan struct{})
		w.ready = loaded
		group.Add(func() error {
			g, sum, err := loadGraph(f.graph, "", stdio.Err)
			if err != nil {
				cat.EndLoad(err)
				return err
			}
			cat.SetGraph(g)
			cat.EndLoad(nil)
			notifier.baseline()
			w.sum = sum
			close(loaded)
			if fresh != nil {
				if f.watch {
					fresh.startWatching(ctx)
				}
				// Catch up with edits made since the extraction (and load
				// the plugins) now, not in the first question's time.
				fresh.check(ctx)
			}
			<-ctx.Done()
			return nil
		}, func(error) { cancel() })
	}
	if !f.immutable {
		group.Add(func() error { return w.run(ctx) }, func(error) { cancel() })
		var why string
		fresh, why = newFreshener(f, explicitRoot, cat, srv, w, stdio.Err)
		switch {
		case fresh != nil:
			defer fresh.close(context.Background())
		case f.watch:
			return usageError{"--watch (or SYNAPTIC_SERVE_WATCH=1) drives auto-freshen, which is off here (" + why + "): build the graph with 'synaptic extract', or drop --watch"}
		case why != autofreshOff:
			fmt.Fprintf(stdio.Err, "[synaptic] auto-freshen off (%s): rerun synaptic extract after edits\n", why)
		}
	}
	if f.httpAddr == "" {
		group.Add(func() error {
			fmt.Fprintln(stdio.Err, "[synaptic] MCP server ready on stdio")
			err := srv.ServeStdio(ctx, stdio.In, stdio.Out)
			return err
		}, func(error) { cancel() })
		return ignoreCanceled(group.Run())
	}
	return serveHTTP(ctx, cancel, &group, f, srv, cat, stdio)
}

func serveHTTP(ctx context.Context, cancel context.CancelFunc, group *run.Group, f serveFlags, srv *mcp.Server, cat *tools.Catalog, stdio IO) error {
	ln, err := net.Listen("tcp", f.httpAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", f.httpAddr, err)
	}
	addr := ln.Addr().String()
	guards := mcp.Guards{APIKey: f.apiKey, Addr: addr}
	h := mcp.NewHTTPHandler(srv, &mcp.HTTPOptions{Guards: guards})
	mountREST(h, cat)
	viewer.Mount(h, cat)
	hs := mcp.NewHTTPServer(h, mcp.HTTPLimits{}) // h itself, so its event streams get the stream write timeout
	hs.Handler = catalogFromQuery(h)
	mcpURL := "http://" + addr + "/mcp"
	if guards.Exposed() {
		fmt.Fprintf(stdio.Err, "[synaptic] warning: listening on all interfaces (%s) without --api-key: anyone who can reach this port can read the graph and the source under %s\n", addr, f.sourceRoot)
	}
	// The warning precedes the ready file, so whoever waits for the file
	// has been warned; the banner follows it, so a server that could not
	// publish the file never claims to be ready.
	if f.readyFile != "" {
		if err := publishReadyFile(f.readyFile, addr, mcpURL); err != nil {
			ln.Close()
			return err
		}
	}
	fmt.Fprintf(stdio.Err, "[synaptic] MCP server ready on %s\n", mcpURL)
	if viewer.HasLib() {
		fmt.Fprintf(stdio.Err, "[synaptic] viewer on http://%s/\n", addr)
	}
	group.Add(func() error {
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	}, func(error) {
		srv.Close() // end event streams so Shutdown can finish
		sctx, c := context.WithTimeout(context.Background(), 5*time.Second)
		defer c()
		hs.Shutdown(sctx)
	})
	group.Add(func() error { return h.RunReaper(ctx) }, func(error) { cancel() })
	return ignoreCanceled(group.Run())
}

// graphFileArg accepts a repository or its synaptic-out/ for --graph when
// it holds graph.json, and otherwise says what to pass.
func graphFileArg(p string) (string, error) {
	st, err := os.Stat(p)
	if err != nil || !st.IsDir() {
		return p, nil // loadGraphFile reports a missing file
	}
	for _, cand := range []string{filepath.Join(p, "graph.json"), filepath.Join(p, "synaptic-out", "graph.json")} {
		if fi, err := os.Stat(cand); err == nil && fi.Mode().IsRegular() {
			return cand, nil
		}
	}
	return "", fmt.Errorf("--graph %s is a directory without graph.json or synaptic-out/graph.json: pass the graph.json file, or run 'synaptic extract %s' first", p, p)
}

// httpAddrArg checks --http: host:port, with a bare port ("8765") read as
// a mistake to explain rather than guess (binding every interface would
// expose the graph and the source).
func httpAddrArg(addr string) (string, error) {
	_, port, err := net.SplitHostPort(addr) // ":8765" is a wildcard bind, warned about later
	if err != nil {
		if _, perr := strconv.Atoi(strings.TrimPrefix(addr, ":")); perr == nil {
			return "", fmt.Errorf("--http %s needs a host: use --http 127.0.0.1:%s (this machine only) or --http 0.0.0.0:%s with --api-key (every interface)", addr, strings.TrimPrefix(addr, ":"), strings.TrimPrefix(addr, ":"))
		}
		return "", fmt.Errorf("--http %q is not host:port (e.g. 127.0.0.1:8765): %v", addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("--http %s: port %q is not a number from 0 to 65535", addr, port)
	}
	return addr, nil
}

func ignoreCanceled(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// loadGraph is loadGraphFile with the collector paused: loading allocates
// the graph and its index, which all stay live, so collections while the
// heap grows from nothing find almost nothing to free (GOROOT graph:
// 1.4–1.8 s startup with them, 1.15 s without, same peak RSS). A
// GOMEMLIMIT the user set still bounds the heap.
// A sidecar beside graph.json that could not be used is said on log.
func loadGraph(path, expectSHA string, log io.Writer) (*graph.Graph, [32]byte, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	g, sum, note, err := loadGraphNoted(path, expectSHA)
	if note != "" {
		fmt.Fprintf(log, "[synaptic] %s\n", note)
	}
	return g, sum, err
}

// preflightGraph refuses, before serve announces itself, a graph path that
// cannot be a graph.json: missing, not a regular file, empty, or not a
// JSON object from its first to its last byte (a truncated write). The
// full parse runs after the handshake.
func preflightGraph(path string) error {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s not found: run 'synaptic extract' in the repository first, or pass --graph PATH", path)
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s); pass the graph.json that synaptic extract wrote", path, st.Mode().Type())
	}
	f, st, err := safefile.OpenPath(path) // the file checked is the file read
	if err != nil {
		return err
	}
	defer f.Close()
	first, last := make([]byte, 1), make([]byte, 1)
	if st.Size() < 2 {
		return fmt.Errorf("%s: empty or truncated graph.json (re-run 'synaptic extract')", path)
	}
	if _, err := f.ReadAt(first, 0); err != nil {
		return err
	}
	// The writer ends the file with "}\n".
	end := st.Size() - 1
	for ; end > 0; end-- {
		if _, err := f.ReadAt(last, end); err != nil {
			return err
		}
		if last[0] != '\n' && last[0] != ' ' && last[0] != '\r' && last[0] != '\t' {
			break
		}
	}
	if first[0] != '{' || last[0] != '}' {
		return fmt.Errorf("%s: not a complete graph.json (it must be one JSON object; re-run 'synaptic extract')", path)
	}
	return nil
}

// parseGraph is graph.Parse with the collector paused. Nearly everything
// the decoder allocates is the graph itself, which stays live, so the
// collections a growing heap triggers (about log2(graph/4 MB) of them, each
// marking all that was decoded so far) find almost nothing to free: on the
// GOROOT graph they cost 0.3–0.6 s of a 1.4–1.8 s startup and left the peak
// RSS where it was. A GOMEMLIMIT the user set still bounds the heap.
func parseGraph(data []byte) (*graph.Graph, error) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	return graph.Parse(data)
}

// defaultSourceRoot is the directory above synaptic-out/, or the current
// directory when the graph does not live in one.
func defaultSourceRoot(graphPath string) string {
	abs, err := filepath.Abs(graphPath)
	if err == nil && filepath.Base(filepath.Dir(abs)) == "synaptic-out" {
		return filepath.Dir(filepath.Dir(abs))
	}
	wd, _ := os.Getwd()
	return wd
}

// graphWatcher swaps in a changed graph.json between requests. A file that
// does not parse (half-written, corrupted) never replaces the serving graph.
type graphWatcher struct {
	mu     sync.Mutex // seen and sum: the watcher and auto-freshen both set them
	path   string
	sum    [32]byte
	cat    *tools.Catalog
	notify *resourceNotifier
	log    io.Writer
	seen   fileStamp
	// ready, when set, closes once the first graph is loaded (and sum
	// set): the watcher starts comparing only then.
	ready <-chan struct{}
	// reloaded is set when a graph.json written from outside replaced the
	// served graph: auto-freshen's in-memory view of the last run is then
	// not the served graph's, and is read again.
	reloaded atomic.Bool
}

func (w *graphWatcher) run(ctx context.Context) error {
	if w.ready != nil {
		select {
		case <-w.ready:
		case <-ctx.Done():
			return nil
		}
	}
	w.adopt()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
			w.check()
		}
	}
}

// adopt records graph.json as it is now as already served: auto-freshen
// wrote it and published the same graph, so the watcher must not load it a
// second time.
func (w *graphWatcher) adopt() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.adoptLocked()
}

// adoptLocked is adopt with w.mu held.
func (w *graphWatcher) adoptLocked() {
	if st, err := os.Stat(w.path); err == nil {
		w.seen = stampOf(st)
	}
}

// adoptWritten is adoptLocked for the graph.json a run of this process
// just wrote (info: stat'ed before its rename, sum: its digest; info is
// nil when the run kept the file). The digest is the served graph's from
// now on, so an outside write of the bytes the watcher loaded last is
// still loaded. A file put in its place since (another writer) is not adopted,
// so the next check loads it rather than leave it unseen behind ours; nor
// is a kept file, which may be another process's graph not loaded yet
// (the check's digest skips it when it is the one served).
func (w *graphWatcher) adoptWritten(info fs.FileInfo, sum [32]byte) {
	if info == nil {
		return
	}
	w.sum = sum
	st, err := os.Stat(w.path)
	if err == nil && os.SameFile(st, info) && st.Size() == info.Size() && st.ModTime().Equal(info.ModTime()) {
		w.seen = stampOf(st)
		return
	}
	fmt.Fprintf(w.log, "[synaptic] %s was replaced from outside while auto-freshen wrote it; loading the replacement\n", w.path)
}

func (w *graphWatcher) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	st, err := os.Stat(w.path)
	if err != nil || stampOf(st) == w.seen {
		return
	}
	w.seen = stampOf(st)
	buf, err := bigfile.Read(w.path)
	if err != nil {
		fmt.Fprintf(w.log, "[synaptic] graph reload: %v; still serving the previous graph\n", err)
		return
	}
	sum := sha256.Sum256(buf.Bytes())
	if sum == w.sum {
		buf.Release()
		return
	}
	// A stale sidecar is expected here (extract renames graph.json first)
	// and is not worth a line: graph.json is parsed instead.
	g, _ := sidecarGraph(w.path, int64(len(buf.Bytes())), func() [32]byte { return sum })
	if g == nil {
		g, err = parseGraph(buf.Bytes())
	}
	buf.Release()
	if err != nil {
		fmt.Fprintf(w.log, "[synaptic] graph reload: %s: %v; still serving the previous graph\n", w.path, err)
		return
	}
	w.cat.SetGraph(g)
	w.sum = sum
	w.reloaded.Store(true)
	fmt.Fprintf(w.log, "[synaptic] graph reloaded: %d nodes, %d edges\n", len(g.Nodes), len(g.Edges))
	w.notify.graphChanged()
}

// mountREST adds the read-only REST routes, behind the same guards as /mcp.
// Each answers {"text": …} from the same catalog tools as MCP.
func mountREST(h *mcp.HTTPHandler, cat *tools.Catalog) {
	route := func(pattern, tool string, args func(r *http.Request) (map[string]any, string)) {
		h.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			a, bad := args(r)
			if bad != "" {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": bad})
				return
			}
			raw, _ := json.Marshal(a)
			res, err := cat.Call(r.Context(), tool, raw)
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
				return
			}
			status := http.StatusOK
			if res.IsError {
				status = http.StatusNotFound
			}
			writeJSON(w, status, map[string]string{"text": res.Text})
		}))
	}
	intArg := func(r *http.Request, name string, a map[string]any) string {
		if v := r.URL.Query().Get(name); v != "" {
			var n int
			if _, err := fmt.Sscanf(v, "%d", &n); err != nil {
				return fmt.Sprintf("%s must be an integer", name)
			}
			a[name] = n
		}
		return ""
	}
	route("GET /api/stats", "graph_stats", func(*http.Request) (map[string]any, string) { return map[string]any{}, "" })
	route("GET /api/god-nodes", "god_nodes", func(r *http.Request) (map[string]any, string) {
		a := map[string]any{}
		return a, intArg(r, "top_n", a)
	})
	route("GET /api/node/{label...}", "get_node", func(r *http.Request) (map[string]any, string) {
		return map[string]any{"label": r.PathValue("label")}, ""
	})
	route("GET /api/query", "query_graph", func(r *http.Request) (map[string]any, string) {
		q := r.URL.Query().Get("q")
		if strings.TrimSpace(q) == "" {
			return nil, "missing q (the question)"
		}
		a := map[string]any{"question": q}
		return a, intArg(r, "token_budget", a)
	})
	h.Handle("GET /api/repos", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tool, args := "list_repos", json.RawMessage(`{}`)
		if repo := r.URL.Query().Get("repo"); repo != "" {
			tool = "repo_stats"
			args, _ = json.Marshal(map[string]string{"repo": repo})
		}
		res, err := cat.Call(r.Context(), tool, args)
		switch {
		case err != nil:
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		case res.IsError:
			writeJSON(w, http.StatusNotFound, map[string]string{"text": res.Text})
		default:
			writeJSON(w, http.StatusOK, map[string]string{"text": res.Text})
		}
	}))
}

// catalogFromQuery lets one HTTP client ask for the other catalog with
// ?catalog=compact (or full) on its MCP URL, whatever --catalog says.
func catalogFromQuery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q := r.URL.Query(); q.Has("catalog") {
			m, err := tools.ParseCatalogMode(q.Get("catalog"))
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "?catalog=: " + err.Error()})
				return
			}
			r = r.WithContext(withCatalogMode(r.Context(), m))
		}
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
