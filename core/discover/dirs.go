package discover

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// Dirs lists, as resolved absolute paths in sorted order, the directories
// Walk enters under root (root included): what a file watcher must watch
// to see every change a walk would find. Noise and ignored directories
// are left out by the same rules; a virtual environment found only by its
// marker file is still listed (its entries are read before it is pruned).
// No file is stat'ed, so this costs one directory read per directory.
func Dirs(root string) ([]string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("discover: root %s: not a directory", root)
	}
	w := &walker{
		rootReal: real,
		opts:     Options{Match: func(string) bool { return false }},
		maxSize:  DefaultMaxFileSize,
		res:      &Result{},
		visited:  map[string]string{},
		sem:      make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
	}
	w.exclude = w.readExclude()
	w.readTracked()
	err = w.walkDir(real, "", nil, true)
	w.wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	w.followLinks()
	dirs := make([]string, 0, len(w.visited))
	for d := range w.visited {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return dirs, nil
}

// IsNoiseDir reports whether Walk prunes a directory by its name alone
// (dependency trees, build output, VCS metadata, synaptic-out): a watcher
// seeing such a directory appear need not watch it.
func IsNoiseDir(name string) bool { return isNoiseDir(name, false) }
