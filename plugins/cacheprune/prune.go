// Package cacheprune keeps synaptic's user cache from growing without
// bound: every new binary unpacks its ~50 MB plugin set into a
// plugins-<digest> folder and wazero compiles each new module into
// wazero/<version>/<hash>, and nothing else ever removes the old ones.
package cacheprune

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxAge is how long an entry may go unused before it is removed. An
// entry pruned too early only costs one unpack or compile.
const MaxAge = 30 * 24 * time.Hour

// interval is how often a prune runs at most (a stamp file records the
// last one), so a run pays for the cache's directory listing once a day.
const interval = 24 * time.Hour

const stampFile = ".pruned"

// Prune removes, under root, the plugins-* folders and the wazero cache
// entries neither used nor modified within maxAge, except the paths in
// keep. It runs at most once a day per root and returns what it removed.
// Use is the access time where the file system keeps one (relatime
// updates it at least daily), else the modification time.
func Prune(root string, now time.Time, maxAge time.Duration, keep ...string) ([]string, error) {
	stamp := filepath.Join(root, stampFile)
	if info, err := os.Stat(stamp); err == nil && now.Sub(info.ModTime()) < interval {
		return nil, nil
	}
	if err := os.WriteFile(stamp, nil, 0o644); err != nil {
		return nil, err
	}
	os.Chtimes(stamp, now, now)
	p := pruner{now: now, maxAge: maxAge, keep: map[string]bool{}}
	for _, k := range keep {
		p.keep[filepath.Clean(k)] = true
	}
	p.pluginSets(root)
	p.compiled(filepath.Join(root, "wazero"))
	return p.removed, errors.Join(p.errs...)
}

type pruner struct {
	now     time.Time
	maxAge  time.Duration
	keep    map[string]bool
	removed []string
	errs    []error
}

// pluginSets removes stale unpacked plugin sets, judged by their newest
// file: a set in use has its modules read (and their atime kept) by
// every run.
func (p *pruner) pluginSets(root string) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "plugins-") || p.keep[dir] {
			continue
		}
		if p.stale(newestUse(dir)) {
			p.remove(dir)
		}
	}
}

// compiled removes stale compiled modules, one file per module in one
// folder per wazero version and platform, and the folders left empty.
func (p *pruner) compiled(dir string) {
	versions, _ := os.ReadDir(dir)
	for _, v := range versions {
		if !v.IsDir() {
			continue
		}
		vdir := filepath.Join(dir, v.Name())
		entries, _ := os.ReadDir(vdir)
		left := len(entries)
		for _, e := range entries {
			path := filepath.Join(vdir, e.Name())
			info, err := e.Info()
			if err != nil || !info.Mode().IsRegular() || p.keep[path] {
				continue
			}
			if p.stale(lastUse(info)) {
				p.remove(path)
				left--
			}
		}
		if left == 0 {
			os.Remove(vdir)
		}
	}
}

func (p *pruner) stale(used time.Time) bool {
	return !used.IsZero() && p.now.Sub(used) > p.maxAge
}

func (p *pruner) remove(path string) {
	if err := os.RemoveAll(path); err != nil {
		p.errs = append(p.errs, err)
		return
	}
	p.removed = append(p.removed, path)
}

// newestUse is the latest use of any regular file under dir (zero when
// the walk finds none, so an unreadable folder is left alone). Folder
// times are left out: they change when an entry is added, not when the
// set is used.
func newestUse(dir string) time.Time {
	var newest time.Time
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if t := lastUse(info); t.After(newest) {
				newest = t
			}
		}
		return nil
	})
	return newest
}
