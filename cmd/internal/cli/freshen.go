package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/mcp"
)

// defaultFreshenDebounce is how long after one staleness check the next
// request trusts it: long enough that a burst of calls pays for one walk,
// short enough that an edit is seen by the next question an assistant
// asks after making it.
const defaultFreshenDebounce = 250 * time.Millisecond

// autofreshOff is newFreshener's reason when the user switched it off.
const autofreshOff = "SYNAPTIC_SERVE_AUTOFRESH=0"

// freshener keeps the served graph current with the source tree (serve's
// auto-freshen): before a data request it runs the same incremental
// extraction as `synaptic extract` over the tree the graph was built from,
// debounced, and serves the rebuilt graph. The run writes graph.json, the
// manifest and the facts cache back, so the next serve or extract starts
// from them, and its output is byte-identical to a full extraction.
type freshener struct {
	root, out, pluginDirs string
	debounce              time.Duration
	cat                   *tools.Catalog
	srv                   *mcp.Server
	watch                 *graphWatcher
	log                   io.Writer

	mu      sync.Mutex
	last    time.Time
	plugins *loadedPlugins
	failed  string         // the last failure, said once on stderr
	src     *sourceWatcher // serve --watch, once started; nil or dead: the debounced check
}

// newFreshener returns nil, with the reason, when the graph cannot be
// kept current: auto-freshen is switched off, or the graph was not written
// by synaptic extract for a known root (no .manifest.json beside it).
func newFreshener(f serveFlags, explicitRoot bool, cat *tools.Catalog, srv *mcp.Server, w *graphWatcher, log io.Writer) (*freshener, string) {
	if v := os.Getenv("SYNAPTIC_SERVE_AUTOFRESH"); v == "0" || v == "false" {
		return nil, autofreshOff
	}
	out := filepath.Dir(f.graph)
	if _, err := os.Stat(filepath.Join(out, ".manifest.json")); err != nil {
		return nil, "no .manifest.json beside " + f.graph
	}
	if filepath.Base(out) != "synaptic-out" && !explicitRoot {
		return nil, "the graph is not in <repo>/synaptic-out and no --source-root names its repository"
	}
	debounce := defaultFreshenDebounce
	if ms, err := strconv.Atoi(os.Getenv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS")); err == nil && ms >= 0 {
		debounce = time.Duration(ms) * time.Millisecond
	}
	return &freshener{
		root: f.sourceRoot, out: out, pluginDirs: os.Getenv("SYNAPTIC_PLUGINS"), debounce: debounce,
		cat: cat, srv: srv, watch: w, log: log,
	}, ""
}

// check brings the graph up to date unless a check finished within the
// debounce window. Concurrent requests wait for the one check in flight
// (they want the fresh answer too). The note, when not empty, goes in
// front of the answer: the graph could not be refreshed.
func (fr *freshener) check(ctx context.Context) string {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	watching := fr.src.live()
	switch {
	case watching && fr.failed != "" && time.Since(fr.last) < fr.debounce:
		return fr.staleNote() // a failing catch-up is retried at the debounced pace
	case watching:
		if !fr.src.takeDirty() {
			return "" // no event since the last catch-up: nothing to walk
		}
	case time.Since(fr.last) < fr.debounce:
		return fr.staleNote()
	}
	defer func() { fr.last = time.Now() }()
	if err := fr.refresh(ctx); err != nil {
		if watching {
			fr.src.markDirty()
		}
		if msg := err.Error(); msg != fr.failed {
			fr.failed = msg
			fmt.Fprintf(fr.log, "[synaptic] auto-freshen: %s; answering from the last graph\n", msg)
		}
		return fr.staleNote()
	}
	fr.failed = ""
	return ""
}

// startWatching starts serve --watch's file watcher, or says once why it
// cannot and leaves the debounced check in charge. Requests wait for it
// (they hold the same lock), so none is answered from an unwatched tree
// as if it were watched.
func (fr *freshener) startWatching(ctx context.Context) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	sw, err := startSourceWatcher(ctx, fr.root, fr.out, fr.log)
	if err != nil {
		fmt.Fprintf(fr.log, "[synaptic] --watch: cannot watch %s (%v); falling back to the debounced check\n", fr.root, err)
		return
	}
	fr.src = sw
	fmt.Fprintf(fr.log, "[synaptic] --watch: watching %d directories under %s\n", sw.dirs.Load(), fr.root)
}

func (fr *freshener) staleNote() string {
	if fr.failed == "" {
		return ""
	}
	return "(the graph may be stale: refreshing it from the source failed: " + fr.failed + ")"
}

// refresh runs one incremental extraction and swaps in its graph when it
// rebuilt one.
func (fr *freshener) refresh(ctx context.Context) error {
	if fr.plugins == nil {
		loaded, err := loadPlugins(ctx, fr.root, fr.pluginDirs, repoPluginsWanted(false), io.Discard)
		if err != nil {
			return err
		}
		fr.plugins = loaded
	}
	// Hold the graph watcher off while graph.json is rewritten: it would
	// load the same graph a second time.
	fr.watch.mu.Lock()
	defer fr.watch.mu.Unlock()
	sum, err := extract.Run(ctx, extract.Options{
		Root: fr.root, OutDir: fr.out, Languages: fr.plugins.languages, Route: fr.plugins.route,
	})
	if err != nil {
		return err
	}
	if sum.Graph == nil || (sum.Extracted == 0 && sum.Removed == 0 && !sum.FullRebuild) {
		return nil // nothing changed, or the graph on disk was kept
	}
	fr.cat.SetGraph(sum.Graph)
	fr.watch.adoptLocked()
	fmt.Fprintf(fr.log, "[synaptic] auto-freshen: %d file(s) re-extracted, %d removed: %d nodes, %d edges\n",
		sum.Extracted, sum.Removed, sum.Nodes, sum.Edges)
	for _, r := range fr.cat.Resources() {
		fr.srv.NotifyResourceUpdated(r.URI)
	}
	return nil
}

func (fr *freshener) close(ctx context.Context) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	if fr.plugins != nil {
		fr.plugins.close(ctx)
	}
}
