package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/mcp"
)

// defaultFreshenDebounce is how long after one staleness check the next
// request trusts it: long enough that a burst of calls pays for one stat
// pass, short enough that an edit is seen by the next question an
// assistant asks after making it. The promise: a request that comes more
// than this after the previous check stats every tracked file (and the
// directories and ignore files that decide which files are tracked)
// after it arrived, so it sees every edit saved before it. A background
// poller could not keep that promise (an edit saved just after its pass
// and just before a request is missed), which is why a clean query pays
// for the stat pass here and only --watch gets it down to one ioctl.
//
// What that pass costs is system calls, not Go: on GOROOT/src it is
// about 9.1k stats (7.8k listed files, 1.3k directories and ignore
// files), and the CPU profile of BenchmarkFreshenCheck puts nearly all
// of it in fstatat. Measured on 2 shared cores: the clean check took
// 27 ms at load 8 and 74–117 ms at load 13–15; one goroutine stat'ing
// the 7.7k .go files took 12 µs a file at load 16, and stat'ing them
// relative to an open directory was no faster. Even at 1 µs a stat the
// pass is 9 ms of CPU, 4.5 ms on 2 idle cores, so the 1 ms target is
// --watch's (0.02 ms), not this check's.
const defaultFreshenDebounce = 250 * time.Millisecond

// autofreshOff is newFreshener's reason when the user switched it off.
const autofreshOff = "SYNAPTIC_SERVE_AUTOFRESH=0"

// defaultPatchMaxFiles is the most changed files serve patches into the
// served graph before answering; above it (a branch switch) the answer
// comes from the current graph, says how many files are pending, and
// the catch-up runs in the background.
const defaultPatchMaxFiles = 200

// exactQuiet is how long the background exact run waits after the last
// patch: an assistant editing and asking in a burst gets its answers
// without a full resolution competing for the same cores, and the burst
// costs one exact run, not one per edit.
const exactQuiet = time.Second

// freshener keeps the served graph current with the source tree (serve's
// auto-freshen). Before a data request, debounced, it stats the tree
// against what was last extracted (extract.Live; serve --watch: only the
// paths events named) and patches the changed files into the served
// graph in memory: their nodes and edges replaced,
// resolved with the rest of their directory. Links only the whole graph
// can settle (other packages' calls into them, unique-name guesses) and
// communities come from the exact incremental extraction that then runs
// in the background, the same extract.Run as `synaptic extract`: it
// writes graph.json, the manifest and the facts cache back, byte-identical
// to a full extraction, and its graph replaces the provisional one.
type freshener struct {
	root, out, pluginDirs string
	debounce              time.Duration
	patchMax              int
	cat                   *tools.Catalog
	srv                   *mcp.Server
	watch                 *graphWatcher
	log                   io.Writer
	bg                    sync.WaitGroup // the exact run in flight

	mu      sync.Mutex
	last    time.Time // when the last check started (the debounce runs from there)
	plugins *loadedPlugins
	live    *extract.Live  // nil until the first exact run, or when it cannot be read
	failed  string         // the last failure, said once on stderr
	src     *sourceWatcher // serve --watch, once started; nil or dead: the debounced check
	// gen counts patches: an exact run started before the latest one
	// lacks it, so its graph is not served and it runs again.
	gen         uint64
	running     bool            // an exact run is in flight
	stopExact   func()          // interrupts the exact run in flight (a newer edit makes it stale)
	again       bool            // ... and another must follow it
	provisional map[string]bool // files patched in since the last exact graph (an edit saved twice counts once)
	pending     int             // changed files left to the background run (over patchMax)
	walked      time.Duration   // the last Changes, for the log
	walkedTree  bool            // ... and whether it had to walk the tree
	lastPatch   time.Time
	servedAt    time.Time                       // when the served graph was made
	state       atomic.Pointer[tools.Freshness] // what answers' _meta say, read without the lock
	// Write-back trouble (writeback.go): the output directory cannot be
	// written, or another process holds it.
	noPersist, othersWriting, busySaid bool
	closing                            atomic.Bool // close is waiting: stop waiting for another writer
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
	if why := rootMismatch(out, f.sourceRoot); why != "" {
		return nil, why
	}
	debounce := defaultFreshenDebounce
	if ms, err := strconv.Atoi(os.Getenv("SYNAPTIC_SERVE_AUTOFRESH_DEBOUNCE_MS")); err == nil && ms >= 0 {
		debounce = time.Duration(ms) * time.Millisecond
	}
	patchMax := defaultPatchMaxFiles
	if n, err := strconv.Atoi(os.Getenv("SYNAPTIC_SERVE_PATCH_MAX_FILES")); err == nil && n >= 0 {
		patchMax = n
	}
	fr := &freshener{
		root: f.sourceRoot, out: out, pluginDirs: os.Getenv("SYNAPTIC_PLUGINS"), debounce: debounce, patchMax: patchMax,
		cat: cat, srv: srv, watch: w, log: log,
	}
	if st, err := os.Stat(f.graph); err == nil {
		fr.servedAt = st.ModTime()
	}
	fr.publish()
	return fr, ""
}

// check brings the graph up to date unless a check finished within the
// debounce window. Concurrent requests wait for the one check in flight
// (they want the fresh answer too). The note, when not empty, goes in
// front of the answer: the graph is partly updated, or could not be.
func (fr *freshener) check(ctx context.Context) string {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	watching := fr.src.live()
	var named *namedPaths // nil: stat (or walk) everything
	switch {
	case watching && fr.failed != "" && time.Since(fr.last) < fr.debounce:
		return fr.note() // a failing catch-up is retried at the debounced pace
	case watching:
		dirty, paths, all := fr.src.takeDirty()
		if !dirty {
			return fr.note() // no event since the last catch-up: nothing to stat
		}
		named = &namedPaths{paths, all}
	case time.Since(fr.last) < fr.debounce:
		return fr.note()
	}
	// The debounce runs from the check's start: its walk saw the tree as
	// of then, so an edit made while it ran is caught by the next request
	// past the window, not served stale (serve's startup check finishing
	// late hid a file added meanwhile).
	started := time.Now()
	defer func() { fr.last = started; fr.publish() }()
	if err := fr.catchUp(ctx, named); err != nil {
		if watching {
			fr.src.markDirty()
		}
		fr.fail(err)
		return fr.note()
	}
	fr.failed = ""
	return fr.note()
}

// fail says a failure on stderr, once until it changes.
func (fr *freshener) fail(err error) {
	if msg := err.Error(); msg != fr.failed {
		fr.failed = msg
		fmt.Fprintf(fr.log, "[synaptic] auto-freshen: %s; answering from the last graph\n", msg)
	}
}

// namedPaths are the paths serve --watch's events named since the last
// catch-up; all when it lost track (overflow, too many).
type namedPaths struct {
	paths []string
	all   bool
}

// catchUp brings the served graph up to the tree: the first time by an
// exact run (which also loads the plugins and the in-memory inputs),
// then by patches, with the exact run behind them in the background.
// named, when set, are the only paths that may have changed.
func (fr *freshener) catchUp(ctx context.Context, named *namedPaths) error {
	if fr.plugins == nil {
		loaded, err := loadPlugins(ctx, fr.root, fr.pluginDirs, repoPluginsWanted(false), io.Discard)
		if err != nil {
			return err
		}
		fr.plugins = loaded
	}
	if fr.watch.reloaded.Swap(false) {
		fr.setLive(nil) // a graph from outside is served: start again from it
	}
	if fr.live == nil && !fr.noPersist {
		sum, err := fr.firstExact(ctx)
		switch {
		case isBusy(err):
			fr.otherWriter()
			return nil
		case cannotPersist(err):
			fr.persistOff(err)
		case err != nil:
			return err
		default:
			fr.othersWriting = false
			fr.adopt(sum)
			fr.openLive()
			return nil
		}
	}
	if fr.live == nil { // read-only: patch in memory from the last run's inputs
		if fr.openLive(); fr.live == nil {
			return errors.New("cannot read the last extraction's inputs in " + fr.out)
		}
	}
	if fr.pending > 0 && fr.running {
		return nil // the background run catches up with everything; its end is seen next
	}
	t0 := time.Now()
	var ch extract.Changes
	var err error
	if named != nil {
		ch, err = fr.live.ChangesAt(ctx, named.paths, named.all)
	} else {
		ch, err = fr.live.Changes(ctx)
	}
	if err != nil {
		return err
	}
	fr.walked, fr.walkedTree = time.Since(t0), ch.Walked
	switch {
	case ch.Len() == 0 && !ch.Project:
		return nil
	case ch.Project || ch.Len() > fr.patchMax:
		fr.pending = max(ch.Len(), 1)
		fr.startExact(ctx)
		return nil
	}
	return fr.patch(ctx, ch)
}

// patch applies ch to the served graph and starts the exact run. An
// exact run in flight is interrupted first: it lacks this edit, so its
// graph would not be served, and it would take the cores this answer
// needs.
func (fr *freshener) patch(ctx context.Context, ch extract.Changes) error {
	if fr.stopExact != nil {
		fr.stopExact()
	}
	t0 := time.Now()
	p, err := fr.live.Patch(ctx, ch)
	if err != nil {
		return err
	}
	t1 := time.Now()
	st, busy, err := fr.cat.Patch(p)
	if err != nil {
		return errors.New("no graph is being served")
	}
	fr.gen++
	fr.lastPatch = time.Now()
	fr.servedAt = fr.lastPatch
	if fr.provisional == nil {
		fr.provisional = map[string]bool{}
	}
	for _, rel := range slices.Concat(ch.Changed, ch.Removed) {
		fr.provisional[rel] = true
	}
	found := "stat"
	if fr.walkedTree {
		found = "walk"
	}
	how := "in place"
	switch {
	case busy:
		how = "copied: a request was reading"
	case !st.InPlace:
		how = "copied: no spare room yet"
	}
	fmt.Fprintf(fr.log, "[synaptic] auto-freshen: %d file(s) patched in (%d removed): -%d/+%d nodes, -%d/+%d edges; exact links follow (%s %s, extract+resolve %s, patch+index %s, %s)\n",
		len(ch.Changed), len(ch.Removed), st.NodesRemoved, st.NodesAdded, st.EdgesRemoved, st.EdgesAdded,
		found, fr.walked.Round(time.Millisecond), t1.Sub(t0).Round(time.Millisecond), time.Since(t1).Round(time.Millisecond), how)
	fr.notifyAll()
	fr.startExact(ctx)
	return nil
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

// freshness is what every answer's _meta says about the graph.
func (fr *freshener) freshness() *tools.Freshness { return fr.state.Load() }

// publish records the state for freshness; fr.mu is held (or fr is not
// shared yet).
func (fr *freshener) publish() {
	f := tools.FreshnessAt(fr.servedAt)
	if x := fr.cat.Index(); x != nil {
		f.Commit = x.G.BuiltAtCommit
	}
	f.PendingFiles, f.ProvisionalFiles = fr.pending, len(fr.provisional)
	fr.state.Store(&f)
}

// note is the line put in front of an answer while the graph is not
// exactly the tree's: what is pending, or why refreshing it failed.
func (fr *freshener) note() string {
	switch {
	case fr.failed != "":
		return "(the graph may be stale: refreshing it from the source failed: " + fr.failed + ")"
	case fr.pending > 0:
		return fmt.Sprintf("(pending re-extraction: %d changed file(s); this answer is from the graph before them)", fr.pending)
	case len(fr.provisional) > 0 && fr.noPersist:
		return fmt.Sprintf("(provisional: %d changed file(s) patched in memory; %s is read-only, so links from other packages are not re-resolved)", len(fr.provisional), fr.out)
	case len(fr.provisional) > 0:
		return fmt.Sprintf("(provisional: %d changed file(s) patched in; links from other packages are being re-resolved)", len(fr.provisional))
	case fr.othersWriting:
		return "(pending: another synaptic process is re-extracting this repository; this answer is from the graph before it)"
	}
	return ""
}

// firstBusyWait bounds how long the first catch-up waits while another
// process holds the output directory. A serve started beside another one
// (or beside a hook's update) usually finds it only checking a clean
// tree, which takes milliseconds: answering "another process is
// re-extracting" for that would mislead, so wait for it first.
const firstBusyWait = 3 * time.Second

// firstExact is the first catch-up's exact run, retried while another
// process writes, up to firstBusyWait; then its busy error stands.
func (fr *freshener) firstExact(ctx context.Context) (*extract.Summary, error) {
	deadline := time.Now().Add(firstBusyWait)
	for {
		sum, err := fr.runExact(ctx)
		if !isBusy(err) || time.Now().After(deadline) {
			return sum, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// runExact runs one incremental extraction, the same as synaptic extract.
// The graph watcher is held off while graph.json is rewritten (it would
// load the same graph a second time) and told the new file is known.
func (fr *freshener) runExact(ctx context.Context) (*extract.Summary, error) {
	fr.watch.mu.Lock()
	defer fr.watch.mu.Unlock()
	sum, err := extract.Run(ctx, fr.extractOptions())
	if err == nil {
		fr.watch.adoptWritten(sum.GraphInfo, sum.GraphSHA256)
	}
	return sum, err
}

func (fr *freshener) extractOptions() extract.Options {
	return extract.Options{Root: fr.root, OutDir: fr.out, Languages: fr.plugins.languages, Route: fr.plugins.route, KeepMemoryLimit: true}
}

// adopt serves an exact run's graph when it rebuilt one.
func (fr *freshener) adopt(sum *extract.Summary) {
	if sum.Graph == nil {
		return // the graph on disk was kept
	}
	fr.cat.SetGraph(sum.Graph)
	fr.servedAt = time.Now()
	fmt.Fprintf(fr.log, "[synaptic] auto-freshen: %d file(s) re-extracted, %d removed: %d nodes, %d edges\n",
		sum.Extracted, sum.Removed, sum.Nodes, sum.Edges)
	fr.notifyAll()
}

// openLive reads the inputs the last exact run left; without them every
// catch-up is an exact run on the answer path, as slow as extract.
func (fr *freshener) openLive() {
	live, err := extract.OpenLive(fr.extractOptions())
	if err != nil {
		fmt.Fprintf(fr.log, "[synaptic] auto-freshen: cannot hold the extraction's inputs (%v); each catch-up re-extracts\n", err)
		return
	}
	fr.setLive(live)
}

func (fr *freshener) setLive(l *extract.Live) {
	if fr.live != nil {
		fr.live.Close()
	}
	fr.live = l
}

func (fr *freshener) notifyAll() { fr.watch.notify.graphChanged() }

// startExact starts the background exact run, or asks the one in flight
// to run again. fr.mu is held.
func (fr *freshener) startExact(ctx context.Context) {
	if fr.noPersist {
		return // nowhere to write: the patches are all there is
	}
	if fr.running {
		fr.again = true
		return
	}
	fr.running = true
	fr.bg.Add(1)
	go fr.exactLoop(context.WithoutCancel(ctx))
}

// exactLoop runs exact extractions until one has seen every patch, then
// serves its graph and the inputs it left. It is not canceled when the
// server stops (close waits for it): the graph on disk must be the
// tree's, not a half-updated one.
func (fr *freshener) exactLoop(ctx context.Context) {
	defer fr.bg.Done()
	for {
		fr.mu.Lock()
		wait := exactQuiet - time.Since(fr.lastPatch)
		fr.mu.Unlock()
		if wait > 0 {
			time.Sleep(wait)
			continue
		}
		fr.mu.Lock()
		gen := fr.gen
		fr.again = false
		runCtx, stop := context.WithCancel(ctx)
		fr.stopExact = stop
		fr.mu.Unlock()
		sum, err := fr.runExact(runCtx)
		stopped := runCtx.Err() != nil
		stop()
		if isBusy(err) { // another process writes: its graph.json is reloaded when it lands; then this run keeps it
			fr.mu.Lock()
			fr.stopExact = nil
			fr.otherWriter()
			stop := fr.closing.Load() // the other writer has the same tree to write
			if stop {
				fr.running = false
			}
			fr.mu.Unlock()
			if stop {
				return
			}
			time.Sleep(busyRetry)
			continue
		}
		var live *extract.Live
		if err == nil {
			live, _ = extract.OpenLive(fr.extractOptions())
		}
		fr.mu.Lock()
		fr.stopExact = nil
		if err != nil && stopped {
			fr.mu.Unlock()
			continue // interrupted by a newer patch: run again once edits pause
		}
		if cannotPersist(err) {
			fr.persistOff(err)
			fr.running = false
			fr.mu.Unlock()
			return
		}
		if err != nil {
			fr.fail(err)
			fr.running = false
			fr.mu.Unlock()
			return
		}
		fr.othersWriting = false
		if fr.gen == gen && !fr.again {
			g := sum.Graph
			if g == nil { // the graph on disk was kept: it is the tree's
				g, _, err = loadGraphFile(filepath.Join(fr.out, extract.GraphFile), "")
			}
			if err != nil {
				fr.fail(err)
				fr.running = false
				fr.mu.Unlock()
				if live != nil {
					live.Close()
				}
				return
			}
			fr.cat.SetGraph(g)
			fr.failed, fr.provisional, fr.pending, fr.running = "", nil, 0, false
			fr.servedAt = time.Now()
			fr.publish()
			if live != nil {
				fr.setLive(live)
			}
			fmt.Fprintf(fr.log, "[synaptic] auto-freshen: exact graph served: %d nodes, %d edges\n", len(g.Nodes), len(g.Edges))
			fr.notifyAll()
			fr.mu.Unlock()
			return
		}
		fr.mu.Unlock()
		if live != nil {
			live.Close() // a newer patch is served: this run is already behind
		}
	}
}

// close waits for the exact run in flight, so what is on disk is the
// tree's graph, and releases the plugins.
func (fr *freshener) close(ctx context.Context) {
	fr.closing.Store(true)
	fr.bg.Wait()
	fr.mu.Lock()
	defer fr.mu.Unlock()
	fr.setLive(nil)
	if fr.plugins != nil {
		fr.plugins.close(ctx)
	}
}

// rootMismatch says why the graph in out cannot be kept current from
// root: its run recorded another source root, or (a graph from before
// roots were recorded) none of its files is under root. Re-extracting the
// wrong tree would replace a good graph with a wrong or empty one.
func rootMismatch(out, root string) string {
	m, err := extract.ReadManifest(out)
	if err != nil {
		return "the manifest beside the graph is unreadable (" + err.Error() + ")"
	}
	if m.Root != "" {
		if !sameDir(m.Root, root) {
			return fmt.Sprintf("the graph was extracted from %s, not %s; pass --source-root %s to keep it current", m.Root, root, m.Root)
		}
		return ""
	}
	for rel := range m.Files {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			return ""
		}
	}
	if len(m.Files) == 0 {
		return ""
	}
	return fmt.Sprintf("none of the graph's files is under %s; pass --source-root with the directory it was extracted from", root)
}

// sameDir compares two directories after resolving symlinks.
func sameDir(a, b string) bool {
	a, _ = filepath.Abs(a)
	b, _ = filepath.Abs(b)
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return ra == rb
}
