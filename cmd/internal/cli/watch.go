package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/synaptic-graph/synaptic/core/discover"
)

// barrierTimeout bounds how long a clean query waits for the watcher to
// confirm it has read every event queued before the query; past it the
// tree is treated as dirty (a walk is safe, a missed edit is not).
const barrierTimeout = 200 * time.Millisecond

// sourceWatcher is serve --watch: it watches every directory extraction
// walks and flips a dirty flag on any event under them, so auto-freshen
// skips its walk while nothing changed. New directories are watched as
// they appear; an event-queue overflow counts as a change (and the
// directories are rescanned); a watcher that fails stops and says so once,
// and the freshener falls back to its debounced check.
type sourceWatcher struct {
	fs   *fsnotify.Watcher
	root string
	out  string // the output directory: its writes are ours, not edits
	log  io.Writer

	dirty atomic.Bool
	dead  atomic.Bool
	dirs  atomic.Int64 // directories watched, for the startup line
	// maxDirs caps the directories watched (0: only the kernel's limit),
	// so serve leaves inotify watches to the user's other tools; past it
	// the watcher stops and the debounced check takes over.
	maxDirs int64
	// watched are the directories added, so a new tree is listed until
	// nothing in it is new (the loop's goroutine only, once it runs).
	watched map[string]bool

	// The paths events named since the last takeDirty, so the catch-up
	// stats only those; all when that is not enough (events were lost,
	// or too many to be worth naming).
	pmu   sync.Mutex
	paths map[string]struct{}
	all   bool

	// The barrier: a file in a private directory on the same watcher.
	// inotify queues events of one watcher in order, so once its event
	// comes back, every event from before the query has been handled.
	barrier string
	bmu     sync.Mutex // one barrier at a time
	// probe, when the platform has one, lets a clean query skip the
	// barrier: see queueProbe. nil: every query takes the barrier.
	probe atomic.Pointer[queueProbe]
	ack   atomic.Pointer[chan struct{}]
	once  sync.Once
}

// startSourceWatcher watches root's tracked directories. It fails, and
// the caller falls back to the debounced check, when the platform has no
// watcher or a limit (inotify watches, descriptors) is hit.
func startSourceWatcher(ctx context.Context, root, out string, log io.Writer) (*sourceWatcher, error) {
	dirs, err := discover.Dirs(root)
	if err != nil {
		return nil, err
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	sw := &sourceWatcher{fs: fw, root: root, out: realPath(out), log: log, maxDirs: watchMaxDirs(), paths: map[string]struct{}{}, watched: map[string]bool{}}
	sw.dirty.Store(true) // nothing is known about edits made before the watch
	sw.all = true
	bdir, err := os.MkdirTemp("", "synaptic-watch-")
	if err != nil {
		fw.Close()
		return nil, err
	}
	sw.barrier = filepath.Join(bdir, "barrier")
	if err := os.WriteFile(sw.barrier, nil, 0o600); err != nil {
		fw.Close()
		os.RemoveAll(bdir)
		return nil, err
	}
	if err := fw.Add(bdir); err != nil {
		fw.Close()
		os.RemoveAll(bdir)
		return nil, err
	}
	if q, err := newQueueProbe(); err == nil {
		sw.probe.Store(q)
	}
	if _, err := sw.addAll(dirs); err != nil {
		fw.Close()
		sw.dropProbe()
		os.RemoveAll(bdir)
		return nil, err
	}
	go sw.loop(ctx)
	return sw, nil
}

// watchMaxDirsEnv caps the directories serve --watch watches.
const watchMaxDirsEnv = "SYNAPTIC_SERVE_WATCH_MAX_DIRS"

func watchMaxDirs() int64 {
	n, err := strconv.ParseInt(os.Getenv(watchMaxDirsEnv), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// addAll watches dirs, except the output directory and what lies below
// it, and reports how many it had never watched before. Only the loop's
// goroutine calls it once the loop runs.
func (sw *sourceWatcher) addAll(dirs []string) (int, error) {
	added := 0
	for _, d := range dirs {
		if d == sw.out || strings.HasPrefix(d, sw.out+string(filepath.Separator)) {
			continue
		}
		if sw.watched[d] {
			continue // a rescan lists it again
		}
		if sw.maxDirs > 0 && int64(len(sw.watched)) >= sw.maxDirs {
			return added, fmt.Errorf("more than %d directories to watch ($%s)", sw.maxDirs, watchMaxDirsEnv)
		}
		if err := sw.fs.Add(d); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue // gone since it was listed: its parent's event says so
			}
			return added, fmt.Errorf("watch %s: %w", d, err)
		}
		if q := sw.probe.Load(); q != nil && q.add(d) != nil {
			sw.dropProbe() // (a watch limit): queries take the barrier
		}
		if !sw.watched[d] { // (added again anyway: a directory removed and made again lost its watch)
			sw.watched[d] = true
			added++
			sw.dirs.Add(1)
		}
	}
	return added, nil
}

func (sw *sourceWatcher) loop(ctx context.Context) {
	defer os.RemoveAll(filepath.Dir(sw.barrier))
	for {
		select {
		case <-ctx.Done():
			sw.fs.Close()
			sw.dropProbe()
			return
		case ev, ok := <-sw.fs.Events:
			if !ok {
				sw.stop("the event stream closed")
				return
			}
			sw.handle(ev)
		case err, ok := <-sw.fs.Errors:
			if !ok {
				sw.stop("the event stream closed")
				return
			}
			if !sw.handleError(err) {
				return
			}
		}
	}
}

// handleError reports whether watching goes on after err.
func (sw *sourceWatcher) handleError(err error) bool {
	if !errors.Is(err, fsnotify.ErrEventOverflow) {
		sw.stop(err.Error())
		return false
	}
	// Events were lost: whatever they were, the tree changed, and
	// directories made meanwhile are not watched yet.
	sw.markAll()
	if err := sw.rescan(); err != nil {
		sw.stop(err.Error())
		return false
	}
	return true
}

func (sw *sourceWatcher) handle(ev fsnotify.Event) {
	if ev.Name == sw.barrier {
		if ack := sw.ack.Swap(nil); ack != nil {
			close(*ack)
		}
		return
	}
	if editorScratch(filepath.Base(ev.Name)) {
		return
	}
	sw.name(ev.Name)
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		delete(sw.watched, ev.Name) // a watched directory gone: its watch is too
		sw.dirs.Store(int64(len(sw.watched)))
	}
	if !ev.Has(fsnotify.Create) {
		return
	}
	st, err := os.Lstat(ev.Name)
	if err != nil || !st.IsDir() || discover.IsNoiseDir(filepath.Base(ev.Name)) {
		return
	}
	// A new directory (made, or moved in): watch it and what is already
	// below it. Files written before the watch took are caught by the
	// catch-up this event already asked for. A subdirectory made after
	// the listing but before its parent's watch took has no event of its
	// own, so the tree is listed again until a listing finds nothing new.
	for {
		dirs, err := discover.Dirs(ev.Name)
		if err != nil {
			return // vanished again
		}
		added, err := sw.addAll(dirs)
		if err != nil {
			sw.stop(err.Error())
			return
		}
		if added == 0 {
			return
		}
	}
}

// maxNamedPaths is how many changed paths a catch-up stats one by one;
// past it (a checkout, a generator) it rescans the tree.
const maxNamedPaths = 1000

// name records an event's path and flips the dirty flag, in that order:
// a takeDirty that sees the flag also sees the path.
func (sw *sourceWatcher) name(p string) {
	sw.pmu.Lock()
	if len(sw.paths) < maxNamedPaths {
		sw.paths[p] = struct{}{}
	} else {
		sw.all = true
	}
	sw.pmu.Unlock()
	sw.dirty.Store(true)
}

// markAll asks the next catch-up to rescan everything.
func (sw *sourceWatcher) markAll() {
	sw.pmu.Lock()
	sw.all = true
	sw.pmu.Unlock()
	sw.dirty.Store(true)
}

func (sw *sourceWatcher) rescan() error {
	dirs, err := discover.Dirs(sw.root)
	if err != nil {
		return err
	}
	_, err = sw.addAll(dirs)
	return err
}

// stop ends watching for good and says so once; the freshener then uses
// its debounced check.
func (sw *sourceWatcher) stop(why string) {
	sw.markAll()
	sw.dead.Store(true)
	sw.once.Do(func() {
		fmt.Fprintf(sw.log, "[synaptic] --watch: the file watcher stopped (%s); falling back to the debounced check\n", why)
	})
	sw.fs.Close()
	sw.dropProbe()
}

func (sw *sourceWatcher) dropProbe() {
	if q := sw.probe.Swap(nil); q != nil {
		q.close()
	}
}

func (sw *sourceWatcher) live() bool { return sw != nil && !sw.dead.Load() }

// takeDirty reports whether anything changed since the last call, with
// the paths the events named (all: rescan instead), and clears both,
// after making sure every event queued before now has been read.
// Clearing comes before the catch-up stats, so an edit made during it
// is seen by the next call.
//
// A clean query costs one ioctl: an event queued before it is on the
// probe's queue too, unless a drain took it, and every drain is followed
// by the barrier and the flag's swap below, which hand that event's path
// to the catch-up. So an empty probe queue with the flag down proves
// there is nothing to catch up with.
func (sw *sourceWatcher) takeDirty() (dirty bool, paths []string, all bool) {
	if !sw.live() {
		return true, nil, true
	}
	q := sw.probe.Load()
	if q != nil && !sw.dirty.Load() && q.quiet() {
		return false, nil, false
	}
	if q != nil {
		q.drain()
	}
	if !sw.sync() {
		return true, nil, true
	}
	if !sw.dirty.Swap(false) {
		return false, nil, false
	}
	sw.pmu.Lock()
	defer sw.pmu.Unlock()
	for p := range sw.paths {
		paths = append(paths, p)
	}
	all = sw.all
	clear(sw.paths)
	sw.all = false
	return true, paths, all
}

// markDirty asks for another catch-up of everything (the last one failed).
func (sw *sourceWatcher) markDirty() { sw.markAll() }

// sync touches the barrier file and waits for its event.
func (sw *sourceWatcher) sync() bool {
	sw.bmu.Lock()
	defer sw.bmu.Unlock()
	ack := make(chan struct{})
	sw.ack.Store(&ack)
	now := time.Now()
	if err := os.Chtimes(sw.barrier, now, now); err != nil {
		sw.ack.Store(nil)
		return false
	}
	t := time.NewTimer(barrierTimeout)
	defer t.Stop()
	select {
	case <-ack:
		return true
	case <-t.C:
		sw.ack.Store(nil)
		return false
	}
}

// editorScratch reports names editors write beside the file being edited
// (vim's swap files and write probe, backup~ files, emacs lock and
// autosave files): never source, and written every few seconds while a
// file is open, so they must not cost a catch-up each.
func editorScratch(name string) bool {
	switch {
	case name == "4913", strings.HasSuffix(name, "~"), strings.HasPrefix(name, ".#"):
		return true
	case strings.HasPrefix(name, "#") && strings.HasSuffix(name, "#"):
		return true
	case strings.HasPrefix(name, ".") && (strings.HasSuffix(name, ".swp") || strings.HasSuffix(name, ".swx") || strings.HasSuffix(name, ".swo")):
		return true
	}
	return false
}
