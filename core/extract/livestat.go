package extract

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/synaptic-graph/synaptic/core/discover"
)

// statWorkers is how many goroutines stat in parallel: stat is bound by
// system calls, so a few more than the cores keep them busy.
const statWorkers = 4

// walkState is what the last walk saw, so that the next check can stat
// instead of walking. The argument that this finds every change a walk
// would: a walk's listing of a directory can only differ when an entry
// was added, removed or renamed there, which updates that directory's
// mtime (POSIX), or when an ignore file it applied was edited; both are
// in inputs, stat'ed before they were read. A listed file's own edits
// show in its size and mtime, the same stamp a Run's manifest trusts.
// So while every input stats as it did, the walk would list the same
// files, and only the listed files need a stat.
type walkState struct {
	root   string // the walked root, symlinks resolved (files' Abs are under it)
	inputs []discover.Input
	files  []discover.File // as walked; their stamps are compared with seen/project
	byAbs  map[string]int  // files by Abs, for the paths a watcher names
}

func newWalkState(root string, walked *discover.Result) *walkState {
	if real, err := filepath.EvalSymlinks(root); err == nil {
		root = real
	}
	ws := &walkState{root: root, inputs: walked.Inputs, files: walked.Files, byAbs: make(map[string]int, len(walked.Files))}
	for i, f := range walked.Files {
		ws.byAbs[f.Abs] = i
	}
	return ws
}

// Changes finds the files edited since the last Patch (or OpenLive): by
// a stat of the last walk's directories, ignore files and files when
// that walk is known to be current (see walkState), else by a walk with
// the same discovery rules as Run.
func (l *Live) Changes(ctx context.Context) (Changes, error) {
	if l.walk != nil {
		if ch, ok := l.statChanges(ctx, nil); ok {
			return ch, nil
		}
	}
	return l.walkChanges(ctx)
}

// ChangesAt is Changes when a file watcher names the paths (absolute)
// that changed: only those are stat'ed. A new file is taken or left out
// by the walk's rules applied to its path; a new directory, a changed
// ignore file, or all (the watcher lost events) walk instead. A listed
// file that is gone is removed.
func (l *Live) ChangesAt(ctx context.Context, paths []string, all bool) (Changes, error) {
	if all || l.walk == nil {
		return l.walkChanges(ctx)
	}
	idx := make([]int, 0, len(paths))
	var gone []string
	for _, p := range paths {
		if i, ok := l.walk.byAbs[p]; ok {
			idx = append(idx, i)
			continue
		}
		if l.walk.isInput(p) {
			return l.walkChanges(ctx) // an ignore file or a directory itself changed
		}
		if fi, err := os.Lstat(p); err == nil {
			i, ok := l.admit(p, fi)
			if !ok {
				return l.walkChanges(ctx) // a new directory, or a file only a walk can place
			}
			if i >= 0 {
				idx = append(idx, i)
			}
			continue
		}
		if rel, ok := l.walk.relOf(p); ok {
			if _, known := l.seen[rel]; known {
				gone = append(gone, rel) // listed by an older walk, patched in since
			}
		}
		// Otherwise gone and never listed (an editor's temporary file).
	}
	slices.Sort(idx)
	ch, ok := l.statChanges(ctx, slices.Compact(idx))
	if !ok {
		return l.walkChanges(ctx)
	}
	ch.Removed = append(ch.Removed, gone...)
	slices.Sort(ch.Removed)
	ch.Removed = slices.Compact(ch.Removed)
	return ch, nil
}

// admit decides on a file the last walk did not list, by the walk's
// rules applied to its path (discover.Admit): ok false when only a walk
// can (a directory, a link on the way); else i is its place in the walk
// state, where it is added, or -1 when the walk would leave it out.
func (l *Live) admit(p string, fi os.FileInfo) (i int, ok bool) {
	rel, inside := l.walk.relOf(p)
	if !inside || !fi.Mode().IsRegular() {
		return 0, false
	}
	f, listed, sure := discover.Admit(l.repo, l.walk.root, rel, discover.Options{Match: l.wants})
	switch {
	case !sure:
		return 0, false
	case !listed:
		return -1, true
	}
	ws := l.walk
	ws.byAbs[f.Abs] = len(ws.files)
	ws.files = append(ws.files, f)
	return len(ws.files) - 1, true
}

// wants is the walk's Match: the files a plugin takes, and project files.
func (l *Live) wants(rel string) bool {
	return l.opts.Route(rel) != nil || l.projects.wants(rel)
}

// relOf is the slash path under the walked root of an absolute path.
func (ws *walkState) relOf(p string) (string, bool) {
	rel, err := filepath.Rel(ws.root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func (ws *walkState) isInput(p string) bool {
	_, ok := slices.BinarySearchFunc(ws.inputs, p, func(in discover.Input, p string) int {
		switch {
		case in.Abs < p:
			return -1
		case in.Abs > p:
			return 1
		}
		return 0
	})
	return ok
}

// statChanges stats the last walk's inputs (unless only is set: then
// only those files) and files, and reports ok false when a walk is
// needed: an input changed, or a listed file vanished or stopped being
// a file this Live can patch by itself.
func (l *Live) statChanges(ctx context.Context, only []int) (Changes, bool) {
	ws := l.walk
	var stale atomic.Bool
	if only == nil && !statAll(len(ws.inputs), &stale, func(i int) bool { return inputSame(ws.inputs[i]) }) {
		return Changes{}, false
	}
	n := len(ws.files)
	if only != nil {
		n = len(only)
	}
	type stat struct {
		size int64
		mod  time.Time
		ok   bool
	}
	now := make([]stat, n)
	if !statAll(n, &stale, func(k int) bool {
		i := k
		if only != nil {
			i = only[k]
		}
		fi, err := os.Stat(ws.files[i].Abs)
		if only != nil && errors.Is(err, fs.ErrNotExist) {
			return true // a watcher named it: deleted (now[k].gone)
		}
		if err != nil || !fi.Mode().IsRegular() {
			return false
		}
		now[k] = stat{fi.Size(), fi.ModTime(), true}
		return true
	}) {
		return Changes{}, false
	}
	if err := ctx.Err(); err != nil {
		return Changes{}, false
	}
	var ch Changes
	var edited []discover.File
	for k, s := range now {
		i := k
		if only != nil {
			i = only[k]
		}
		f := ws.files[i]
		st := stamp{s.size, mtime(s.mod)}
		seen, known := l.seen[f.Rel]
		switch {
		case l.isProjectFile(f.Rel):
			ch.Project = ch.Project || !s.ok || l.project[f.Rel] != st
			continue
		case !s.ok:
			if known {
				ch.Removed = append(ch.Removed, f.Rel)
			}
			continue
		case known && seen == st:
			continue
		case !known && !l.routable(f.Rel, s.size) && stampOf(f) == st:
			continue // listed but over a plugin's size limit, unchanged
		}
		f.Size, f.ModTime = s.size, s.mod
		edited = append(edited, f)
	}
	var sum Summary
	routed := routeFiles(edited, l.opts.Route, &sum, l.projects)
	if len(routed) != len(edited) {
		return Changes{}, false // a file crossed a plugin's size limit: the walk reports it
	}
	for _, j := range routed {
		ch.Changed = append(ch.Changed, j.file.Rel)
		ch.jobs = append(ch.jobs, j)
	}
	slices.Sort(ch.Changed)
	slices.Sort(ch.Removed)
	return ch, true
}

// routable says whether a file of that size has a plugin to extract it.
func (l *Live) routable(rel string, size int64) bool {
	lang := l.opts.Route(rel)
	return lang != nil && (lang.MaxFileBytes <= 0 || size <= lang.MaxFileBytes)
}

// statAll runs same(i) for i in [0, n) on statWorkers goroutines and
// reports whether every call returned true; the first false stops the
// rest (stale is shared so both passes stop early).
func statAll(n int, stale *atomic.Bool, same func(i int) bool) bool {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(statWorkers, n) {
		wg.Go(func() {
			for !stale.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if !same(i) {
					stale.Store(true)
				}
			}
		})
	}
	wg.Wait()
	return !stale.Load()
}

// inputSame reports whether a walk input stats as it did when walked.
func inputSame(in discover.Input) bool {
	fi, err := os.Stat(in.Abs)
	if err != nil {
		return in.Size < 0 && os.IsNotExist(err)
	}
	return fi.Size() == in.Size && fi.ModTime().Equal(in.ModTime)
}
