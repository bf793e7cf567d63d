package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	"strings"
	"time"

	"github.com/oklog/run"

	"github.com/synaptic-graph/synaptic/core/bigfile"
	"github.com/synaptic-graph/synaptic/core/graph"
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
	fs.StringVar(&f.apiKey, "api-key", "", "require this key on HTTP requests (default $SYNAPTIC_API_KEY; blank disables)")
	fs.StringVar(&f.sourceRoot, "source-root", "", "trusted root for get_source (default: the directory above synaptic-out/, else the current directory)")
	fs.BoolVar(&f.allowExec, "allow-exec", false, "expose speculate, which runs the project's tests in a throwaway worktree (the server is then not read-only)")
	fs.BoolVar(&f.concise, "concise", os.Getenv("SYNAPTIC_CONCISE") != "" && os.Getenv("SYNAPTIC_CONCISE") != "0", "token-lean defaults (also $SYNAPTIC_CONCISE)")
	fs.BoolVar(&f.watch, "watch", os.Getenv("SYNAPTIC_SERVE_WATCH") == "1", "watch the source tree (accepted; the graph file itself is always watched unless --immutable-graph)")
	fs.BoolVar(&f.immutable, "immutable-graph", false, "pin the graph loaded at startup: no hot reload")
	fs.StringVar(&f.expectSHA, "expected-graph-sha256", "", "refuse to start unless graph.json has this SHA-256 (requires --immutable-graph)")
	fs.StringVar(&f.readyFile, "ready-file", "", "after binding, atomically write {address, mcp_url} to this new file (requires --http)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q (use --graph PATH)", pos[0])}
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
	f.apiKey = strings.TrimSpace(f.apiKey)
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

	// Loading allocates the graph and its index, which all stay live:
	// collections while the heap grows from nothing find almost nothing to
	// free (GOROOT graph: 1.4–1.8 s startup with them, 1.15 s without, same
	// peak RSS). A GOMEMLIMIT the user set still bounds the heap.
	gcPercent := debug.SetGCPercent(-1)
	g, sum, err := loadGraphFile(f.graph, f.expectSHA)
	if err != nil {
		debug.SetGCPercent(gcPercent)
		return err
	}
	if f.sourceRoot == "" {
		f.sourceRoot = defaultSourceRoot(f.graph)
	}
	cat := tools.New(withRevisionExtraction(tools.Options{SourceRoot: f.sourceRoot, Concise: f.concise, AllowExec: f.allowExec, GraphPath: f.graph}, envOr("SYNAPTIC_PLUGINS", "")))
	cat.SetGraph(g)
	debug.SetGCPercent(gcPercent)
	srv := mcp.NewServer(mcp.Implementation{Name: "synaptic", Version: Version}, &mcp.ServerOptions{
		Instructions: serverInstructions,
		Catalog:      mcpCatalog(cat),
	})

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var group run.Group
	group.Add(func() error { <-ctx.Done(); return nil }, func(error) { cancel() })
	if !f.immutable {
		w := &graphWatcher{path: f.graph, sum: sum, cat: cat, srv: srv, log: stdio.Err}
		group.Add(func() error { return w.run(ctx) }, func(error) { cancel() })
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
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	mcpURL := "http://" + addr + "/mcp"
	if f.readyFile != "" {
		if err := publishReadyFile(f.readyFile, addr, mcpURL); err != nil {
			ln.Close()
			return err
		}
	}
	if guards.Exposed() {
		fmt.Fprintf(stdio.Err, "[synaptic] warning: listening on all interfaces (%s) without --api-key: anyone who can reach this port can read the graph and the source under %s\n", addr, f.sourceRoot)
	}
	fmt.Fprintf(stdio.Err, "[synaptic] MCP server ready on %s\n", mcpURL)
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

func ignoreCanceled(err error) error {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// loadGraphFile reads graph.json once into an owned buffer, verifies the
// digest when pinned, and parses that same buffer.
func loadGraphFile(path, expectSHA string) (*graph.Graph, [32]byte, error) {
	buf, err := bigfile.Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, [32]byte{}, fmt.Errorf("%s not found: run 'synaptic extract' in the repository first, or pass --graph PATH", path)
	}
	if err != nil {
		return nil, [32]byte{}, err
	}
	// The graph keeps nothing of data (graph.Parse copies what it keeps),
	// and both readers below are done when this returns.
	defer buf.Release()
	data := buf.Bytes()
	// Hash and parse the same owned buffer at once: the digest is needed to
	// verify a pinned graph and to let the reload watcher skip rewrites of
	// identical bytes, and hashing 200+ MB costs as much as parsing it.
	sumc := make(chan [32]byte, 1)
	go func() { sumc <- sha256.Sum256(data) }()
	g, perr := parseGraph(data)
	sum := <-sumc
	if expectSHA != "" {
		want := strings.ToLower(strings.TrimSpace(expectSHA))
		if len(want) != 64 {
			return nil, sum, fmt.Errorf("--expected-graph-sha256 must be 64 hex characters, got %d", len(want))
		}
		if got := hex.EncodeToString(sum[:]); got != want {
			return nil, sum, fmt.Errorf("%s has sha256 %s, expected %s: refusing to start", path, got, want)
		}
	}
	if perr != nil {
		return nil, sum, fmt.Errorf("%s: %w (re-run 'synaptic extract')", path, perr)
	}
	return g, sum, nil
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
	path string
	sum  [32]byte
	cat  *tools.Catalog
	srv  *mcp.Server
	log  io.Writer
	mod  time.Time
	size int64
}

func (w *graphWatcher) run(ctx context.Context) error {
	if st, err := os.Stat(w.path); err == nil {
		w.mod, w.size = st.ModTime(), st.Size()
	}
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

func (w *graphWatcher) check() {
	st, err := os.Stat(w.path)
	if err != nil || (st.ModTime().Equal(w.mod) && st.Size() == w.size) {
		return
	}
	w.mod, w.size = st.ModTime(), st.Size()
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
	g, err := parseGraph(buf.Bytes())
	buf.Release()
	if err != nil {
		fmt.Fprintf(w.log, "[synaptic] graph reload: %s: %v; still serving the previous graph\n", w.path, err)
		return
	}
	w.cat.SetGraph(g)
	w.sum = sum
	fmt.Fprintf(w.log, "[synaptic] graph reloaded: %d nodes, %d edges\n", len(g.Nodes), len(g.Edges))
	for _, r := range w.cat.Resources() {
		w.srv.NotifyResourceUpdated(r.URI)
	}
}

// checkReadyFile fails early, before loading anything, if the ready file
// cannot be published later.
func checkReadyFile(p string) error {
	if _, err := os.Lstat(p); err == nil {
		return fmt.Errorf("--ready-file %s already exists: it is never overwritten; remove it or pick a new path", p)
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
		return fmt.Errorf("--ready-file %s: parent directory %s must already exist", p, filepath.Dir(p))
	}
	return nil
}

// publishReadyFile writes {address, mcp_url} to a temporary file (mode
// 0600) and hard-links it into place, which fails if the path exists: the
// file appears whole, once, and never replaces anything.
func publishReadyFile(p, addr, mcpURL string) error {
	data, _ := json.Marshal(map[string]string{"address": addr, "mcp_url": mcpURL})
	tmp, err := os.CreateTemp(filepath.Dir(p), ".ready-*")
	if err != nil {
		return fmt.Errorf("--ready-file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), p); err != nil {
		return fmt.Errorf("--ready-file %s: %w (it is never overwritten)", p, err)
	}
	return nil
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

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
