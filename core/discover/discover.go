// Package discover walks a repository and lists the files extraction should
// consider, together with every file it skipped and why.
//
// Walk decides what to skip from names and metadata only; it never reads a
// file's content (apart from ignore files), so a walk of a large tree costs
// one directory read per directory and one lstat per candidate file. Content
// checks that need the bytes, such as IsBinary, are left to the reader in
// the pipeline, which reports them with the Reason constants defined here so
// that a report groups all skips the same way.
//
// # What is skipped, in order
//
//  1. Noise directories (dependency trees, virtual environments, build
//     output, caches, VCS metadata) are pruned by name, whatever .gitignore
//     says, and counted in Result.PrunedDirs. A .synapticignore negation
//     naming one ("!go/build/") walks it anyway; .git and .synaptic never.
//     Any directory holding pyvenv.cfg or conda-meta is a virtual
//     environment and is pruned whatever its name.
//  2. Paths matched by .gitignore files (at every level), .git/info/exclude
//     and .synapticignore files (same syntax, higher precedence) are
//     counted in Result.IgnoredCount, not listed: they are usually many and
//     the user asked for them to be left out. An ignored directory counts
//     once and is not entered. As in git, the git rules never leave out a
//     file git tracks (committed before the rule, or added with -f): the
//     index of the work tree holding the root is read for those, and an
//     ignored directory holding one is entered for its tracked files only.
//     A .synapticignore match still leaves a tracked file out.
//  3. Sensitive files (keys, credentials, dotenv files) are listed with
//     SkipSensitive even when Options.Match would not want them, so a
//     report can say they were seen and left alone.
//  4. Files Options.Match rejects are dropped silently: they are not for
//     any extractor.
//  5. Lock files, files over the size cap, unreadable files, special files
//     and symlinks that leave the root or loop are listed with a Reason.
//
// # Symlinks
//
// A symlink is followed only when its fully resolved target lies inside the
// root. Every directory is walked at most once: real directories first,
// then symlinked directories whose target was not already walked (in path
// order), so a file is listed under its real path when it has one and the
// walk always terminates. File.Abs is always the resolved path, so reading
// it never leaves the root even if a link is retargeted later to a place
// Walk did not vet (short of a race on the resolved path itself).
//
// # Limits
//
// Ignore files above the root are not read: the root is treated as the
// repository's top even when it is a subdirectory of one, and the user's
// global excludes file (core.excludesFile) is not read either, so what is
// ignored depends only on the tree. The one thing read from above the root
// is the enclosing work tree's index, and it only takes tracked files back.
// A split index (core.splitIndex) is not read: ignore rules then apply to
// tracked files too.
package discover

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// DefaultMaxFileSize is the size cap when Options.MaxFileSize is 0: 2 MiB
// is far above hand-written source (Go's largest non-generated file is
// ~300 KiB) and below the generated bundles and data dumps that would
// dominate parse time without adding anything a reader navigates by.
const DefaultMaxFileSize = 2 << 20

// Options tunes a walk. The zero value walks everything with the default
// size cap.
type Options struct {
	// MaxFileSize is the largest file size, in bytes, listed in Files;
	// larger files are skipped with SkipTooLarge. 0 means
	// DefaultMaxFileSize; a negative value means no limit.
	MaxFileSize int64

	// Match, when set, says which files are wanted, by their slash
	// separated path relative to the root (for example by the extensions
	// and globs the loaded plugins declare). Files it rejects are neither
	// listed nor reported. nil wants every file.
	Match func(rel string) bool
}

// File is a file extraction should consider.
type File struct {
	Rel     string    // slash-separated path relative to the root; the file's identity
	Abs     string    // resolved absolute path to read (symlinks already followed, inside the root)
	Real    string    // Abs relative to the root, slash-separated: open it relative to a held root (see package doc)
	Size    int64     // bytes, from the walk's lstat/stat
	ModTime time.Time // from the same stat, for incremental extraction
}

// Skip is a file (or directory, for SkipUnreadable and the symlink
// reasons) that was seen and deliberately left out.
type Skip struct {
	Rel    string // slash-separated path relative to the root
	Reason Reason
	Detail string // human-readable specifics: the matched rule, the size, the error
}

// Reason says why a path was skipped. The values are stable lower-case
// words, suitable as report keys.
type Reason string

// The reasons a path is skipped. Gitignored paths have no Reason: they are
// only counted (Result.IgnoredCount).
const (
	SkipSensitive        Reason = "sensitive"         // looks like keys or credentials (see Sensitive)
	SkipLockfile         Reason = "lockfile"          // dependency lock file (see IsLockfile)
	SkipTooLarge         Reason = "too-large"         // over Options.MaxFileSize
	SkipUnreadable       Reason = "unreadable"        // stat, open or directory read failed
	SkipSpecial          Reason = "special"           // device, FIFO or socket: reading could block
	SkipSymlinkOutside   Reason = "symlink-outside"   // target resolves outside the root
	SkipSymlinkLoop      Reason = "symlink-loop"      // target is an ancestor of the link, or a link cycle
	SkipSymlinkBroken    Reason = "symlink-broken"    // target does not exist
	SkipSymlinkDuplicate Reason = "symlink-duplicate" // target directory already walked under another path
	SkipBinary           Reason = "binary"            // not set by Walk: for the reader, after IsBinary
)

// Result is the outcome of a walk. The same tree always gives the same
// Result.
type Result struct {
	Files        []File // sorted by Rel
	Skipped      []Skip // sorted by Rel, then Reason
	IgnoredCount int    // paths excluded by ignore files; an ignored directory counts once
	PrunedDirs   int    // noise directories not entered
	// Inputs are the directories the walk read and the ignore files it
	// applied, each stat'ed before it was read, sorted by Abs: while none
	// of them changes, a new walk would list the same paths (a name can
	// only appear or vanish by changing its directory), so a caller
	// following edits can stat these and its files instead of walking.
	Inputs []Input
}

// Input is one directory or ignore file a walk read, as stat'ed just
// before reading it: a later stat that differs means the walk is stale.
// Size is -1 for an ignore file that was absent.
type Input struct {
	Abs     string
	Size    int64
	ModTime time.Time
}

// Walk lists the files under root that extraction should consider. It
// fails only when root itself cannot be resolved or read; every problem
// below the root becomes a Skip and the walk goes on. Directories are read
// concurrently (the walk is bound by system calls), but the Result is
// sorted and symlinked directories are resolved in a fixed order, so it is
// the same on every run.
func Walk(root string, opts Options) (*Result, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("discover: root %s: not a directory", root)
	}
	w := &walker{
		rootReal: real,
		opts:     opts,
		maxSize:  opts.MaxFileSize,
		res:      &Result{},
		visited:  map[string]string{},
		// Walking is syscall-bound: a few more walkers than cores keep the
		// cores busy while others wait in the kernel.
		sem: make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
	}
	if w.maxSize == 0 {
		w.maxSize = DefaultMaxFileSize
	}
	w.exclude = w.readExclude()
	w.readTracked()
	err = w.walkDir(real, "", nil, true)
	w.wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("discover: root %s: %w", root, err)
	}
	w.followLinks()

	slices.SortFunc(w.res.Inputs, func(a, b Input) int { return strings.Compare(a.Abs, b.Abs) })
	slices.SortFunc(w.res.Files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	slices.SortFunc(w.res.Skipped, func(a, b Skip) int {
		return cmp.Or(strings.Compare(a.Rel, b.Rel), strings.Compare(string(a.Reason), string(b.Reason)))
	})
	return w.res, nil
}

// maxIgnoreBytes caps an ignore file (and git's small files next to it):
// far above any real one, and it bounds what a swapped-in /dev/zero costs.
const maxIgnoreBytes = 16 << 20

// useStatAt is haveStatAt, a variable so tests can compare both paths.
var useStatAt = haveStatAt

type walker struct {
	rootReal string
	opts     Options
	maxSize  int64
	exclude  *ignoreFile
	tracked  tracked       // what git tracks below the root: never ignored
	sem      chan struct{} // free slots for concurrent directory walks; nil = sequential

	wg      sync.WaitGroup
	mu      sync.Mutex // guards everything below
	res     *Result
	visited map[string]string // real directory path -> Rel it was walked as
	pending []linkDir         // symlinked directories, walked after the real tree
}

// linkDir is a symlinked directory waiting to be walked under the link's
// path, with the ignore scope in force where the link is.
type linkDir struct {
	rel    string
	target string
	sc     *scope
}

// acc gathers one directory's findings so the shared Result is locked
// once per directory rather than once per file.
type acc struct {
	files   []File
	skips   []Skip
	inputs  []Input
	ignored int
	pruned  int
	pending []linkDir
}

func (a *acc) skip(rel string, r Reason, detail string) {
	a.skips = append(a.skips, Skip{Rel: rel, Reason: r, Detail: detail})
}

func (w *walker) merge(a *acc) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.res.Files = append(w.res.Files, a.files...)
	w.res.Skipped = append(w.res.Skipped, a.skips...)
	w.res.Inputs = append(w.res.Inputs, a.inputs...)
	w.res.IgnoredCount += a.ignored
	w.res.PrunedDirs += a.pruned
	w.pending = append(w.pending, a.pending...)
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// readExclude reads .git/info/exclude, following a ".git" file
// ("gitdir: ...", as in worktrees and submodules) and a worktree's
// commondir, where git keeps info/exclude for all worktrees.
func (w *walker) readExclude() *ignoreFile {
	gitDir, ok := gitDirAt(w.rootReal)
	if !ok {
		gitDir = filepath.Join(w.rootReal, ".git") // its exclude may appear: still an input
	}
	if c, err := safefile.ReadPath(filepath.Join(gitDir, "commondir"), maxIgnoreBytes); err == nil {
		common := strings.TrimSpace(string(c))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		gitDir = common
	}
	p := filepath.Join(gitDir, "info", "exclude")
	in := Input{Abs: p, Size: -1} // absent: its appearing changes the walk too
	if fi, err := os.Stat(p); err == nil {
		in.Size, in.ModTime = fi.Size(), fi.ModTime()
	}
	w.res.Inputs = append(w.res.Inputs, in)
	data, err := safefile.ReadPath(p, maxIgnoreBytes)
	if err != nil {
		return nil
	}
	return parseIgnoreFile(data)
}

// readTracked reads what git tracks below the root, with the index as an
// input of the walk.
func (w *walker) readTracked() {
	var in *Input
	w.tracked, in = trackedFiles(w.rootReal)
	if in != nil {
		w.res.Inputs = append(w.res.Inputs, *in)
	}
}

// walkDir lists the directory at abs (a resolved path) known as rel. sc is
// the ignore scope of its parent. Subdirectories are walked concurrently
// while w.sem has room, inline otherwise; the caller waits on w.wg. Only
// the root's read error is returned.
func (w *walker) walkDir(abs, rel string, sc *scope, isRoot bool) error {
	w.mu.Lock()
	w.visited[abs] = rel
	w.mu.Unlock()
	a := &acc{}
	f, err := openDir(abs)
	if err != nil {
		if isRoot {
			return err
		}
		a.skip(rel, SkipUnreadable, err.Error())
		w.merge(a)
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		a.inputs = append(a.inputs, Input{Abs: abs, Size: fi.Size(), ModTime: fi.ModTime()})
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		if isRoot {
			return err
		}
		// Keep what was read; report the rest.
		a.skip(rel, SkipUnreadable, err.Error())
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })

	var gitFile, synFile *ignoreFile
	var badIgnore []string // ignore files already reported unreadable
	for _, e := range entries {
		var ok bool
		switch e.Name() {
		case ".gitignore":
			if gitFile, ok = w.readIgnore(a, abs, rel, e); !ok {
				badIgnore = append(badIgnore, e.Name())
			}
		case ".synapticignore":
			if synFile, ok = w.readIgnore(a, abs, rel, e); !ok {
				badIgnore = append(badIgnore, e.Name())
			}
		case "pyvenv.cfg", "conda-meta":
			// A virtual environment, whatever its name: found only now,
			// after reading it, but before anything in it is listed.
			if !isRoot {
				w.merge(&acc{pruned: 1})
				return nil
			}
		}
	}
	if gitFile != nil || synFile != nil {
		sc = sc.child(rel, gitFile, synFile)
	}

	// Stat files relative to the open directory where the platform allows
	// (see haveStatAt). The descriptor stays valid until f.Close above.
	dirfd := -1
	if useStatAt {
		if rc, err := f.SyscallConn(); err == nil {
			rc.Control(func(fd uintptr) { dirfd = int(fd) })
		}
	}

	// The directory rules of Sensitive hold for every file here; below a
	// symlinked directory the real path counts too (a link to .ssh/ holds
	// keys whatever the link is called).
	dirWhy, _ := sensitiveDir(rel)
	if realRel := w.relOf(abs); dirWhy == "" && realRel != rel {
		if why, ok := sensitiveDir(realRel); ok {
			dirWhy = why + " (resolves to " + realRel + ")"
		}
	}

	var subdirs []subdir
	for _, e := range entries {
		name := e.Name()
		childRel := joinRel(rel, name)
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			w.symlink(a, abs, joinAbs(abs, name), childRel, name, sc)
		case t.IsDir():
			if sub, ok := w.enter(a, sc, childRel, name); ok {
				subdirs = append(subdirs, subdir{name, sub})
			}
		case t.IsRegular():
			if slices.Contains(badIgnore, name) || !w.admit(a, sc, childRel, name, dirWhy) {
				continue
			}
			var fi fs.FileInfo
			var err error
			if dirfd >= 0 {
				fi, err = statAt(dirfd, name)
			} else {
				fi, err = e.Info()
			}
			w.keep(a, childRel, joinAbs(abs, name), fi, err)
		default:
			if w.ignored(sc, childRel, name, false) {
				a.ignored++
				continue
			}
			a.skip(childRel, SkipSpecial, t.String())
		}
	}
	w.merge(a)

	for _, d := range subdirs {
		childAbs, childRel := joinAbs(abs, d.name), joinRel(rel, d.name)
		select {
		case w.sem <- struct{}{}:
			w.wg.Go(func() {
				defer func() { <-w.sem }()
				w.walkDir(childAbs, childRel, d.sc, false)
			})
		default:
			w.walkDir(childAbs, childRel, d.sc, false)
		}
	}
	return nil
}

// subdir is a directory to walk and the ignore scope it is walked in.
type subdir struct {
	name string
	sc   *scope
}

// ignored decides a path by the ignore files, keeping what git tracks
// (scope.ignoredTracked).
func (w *walker) ignored(sc *scope, rel, name string, isDir bool) bool {
	ig, _ := sc.ignoredTracked(w.exclude, w.tracked, rel, name, isDir)
	return ig
}

// enter reports whether the directory rel is walked, and in which scope;
// one left out is counted.
func (w *walker) enter(a *acc, sc *scope, rel, name string) (*scope, bool) {
	if w.noise(a, sc, rel, name) {
		return nil, false
	}
	ig, onlyTracked := sc.ignoredTracked(w.exclude, w.tracked, rel, name, true)
	switch {
	case ig:
		a.ignored++
		return nil, false
	case onlyTracked:
		return sc.trackedOnly(rel), true
	}
	return sc, true
}

// readIgnore reads one ignore file, reporting it if unreadable (ok false).
func (w *walker) readIgnore(a *acc, dirAbs, dirRel string, e fs.DirEntry) (f *ignoreFile, ok bool) {
	rel := joinRel(dirRel, e.Name())
	if !e.Type().IsRegular() {
		return nil, true // a directory or link by that name: just walked as such
	}
	p := filepath.Join(dirAbs, e.Name())
	if fi, err := e.Info(); err == nil {
		a.inputs = append(a.inputs, Input{Abs: p, Size: fi.Size(), ModTime: fi.ModTime()})
	}
	data, err := safefile.ReadPath(p, maxIgnoreBytes)
	if err != nil {
		a.skip(rel, SkipUnreadable, "ignore file not applied: "+err.Error())
		return nil, false
	}
	return parseIgnoreFile(data), true
}

// noise reports whether the directory rel is a noise directory left
// out, counting it.
func (w *walker) noise(a *acc, sc *scope, rel, name string) bool {
	if !isNoiseDir(name, false) {
		return false
	}
	if mandatoryNoise[name] {
		a.pruned++
		return true
	}
	// An explicit .synapticignore negation walks a noise directory.
	if ig, ok := sc.decide(layerSynaptic, rel, name, true); !ok || ig {
		a.pruned++
		return true
	}
	return false
}

// admit applies the name rules to a file at rel: ignore files, sensitive
// names (dirWhy, when set, is why every file of its directory is
// sensitive), Options.Match and lock files. It reports false, having
// counted or reported the file, when the file is left out.
func (w *walker) admit(a *acc, sc *scope, rel, name, dirWhy string) bool {
	if w.ignored(sc, rel, name, false) {
		a.ignored++
		return false
	}
	if dirWhy != "" {
		a.skip(rel, SkipSensitive, dirWhy)
		return false
	}
	if why, ok := sensitiveName(name); ok {
		a.skip(rel, SkipSensitive, why)
		return false
	}
	if w.opts.Match != nil && !w.opts.Match(rel) {
		return false
	}
	if IsLockfile(name) {
		a.skip(rel, SkipLockfile, name)
		return false
	}
	return true
}

// keep applies the metadata rules to an admitted file and lists it. abs is
// its resolved path; fi and err are its stat result.
func (w *walker) keep(a *acc, rel, abs string, fi fs.FileInfo, err error) {
	if err != nil {
		a.skip(rel, SkipUnreadable, err.Error())
		return
	}
	if !fi.Mode().IsRegular() {
		a.skip(rel, SkipSpecial, fi.Mode().Type().String())
		return
	}
	if w.maxSize > 0 && fi.Size() > w.maxSize {
		a.skip(rel, SkipTooLarge, fmt.Sprintf("%d bytes, over the %d byte limit", fi.Size(), w.maxSize))
		return
	}
	if !readable(fi) {
		a.skip(rel, SkipUnreadable, "no read permission")
		return
	}
	a.files = append(a.files, File{Rel: rel, Abs: abs, Real: w.relOf(abs), Size: fi.Size(), ModTime: fi.ModTime()})
}

// joinAbs joins a clean absolute directory and a name without the
// cleaning filepath.Join would redo for every file.
func joinAbs(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// relOf turns a resolved path inside the root into a slash-separated Rel.
func (w *walker) relOf(abs string) string {
	if abs == w.rootReal {
		return ""
	}
	if strings.HasSuffix(w.rootReal, string(filepath.Separator)) { // a root of "/"
		return filepath.ToSlash(abs[len(w.rootReal):])
	}
	return filepath.ToSlash(abs[len(w.rootReal)+1:])
}

// inside reports whether the resolved path p is the root or below it.
func (w *walker) inside(p string) bool {
	return p == w.rootReal || strings.HasPrefix(p, w.rootReal+string(filepath.Separator)) ||
		// A root of "/" ends in the separator already.
		(strings.HasSuffix(w.rootReal, string(filepath.Separator)) && strings.HasPrefix(p, w.rootReal))
}

// symlink handles the link at linkAbs (inside the resolved directory
// dirAbs), known as rel.
func (w *walker) symlink(a *acc, dirAbs, linkAbs, rel, name string, sc *scope) {
	target, err := filepath.EvalSymlinks(linkAbs)
	if err != nil {
		if w.ignored(sc, rel, name, false) {
			a.ignored++
			return
		}
		switch {
		case strings.Contains(err.Error(), "too many links"):
			a.skip(rel, SkipSymlinkLoop, "link cycle")
		case errors.Is(err, fs.ErrNotExist):
			dest, _ := os.Readlink(linkAbs)
			a.skip(rel, SkipSymlinkBroken, "target "+dest+" does not exist")
		default:
			a.skip(rel, SkipUnreadable, err.Error())
		}
		return
	}
	fi, err := os.Stat(target)
	if err != nil {
		a.skip(rel, SkipUnreadable, err.Error())
		return
	}
	isDir := fi.IsDir()
	if isDir && w.noise(a, sc, rel, name) {
		return
	}
	// git tracks a link as the link, whatever it points to.
	if w.ignored(sc, rel, name, isDir) && !w.tracked.has(rel) {
		a.ignored++
		return
	}
	if !w.inside(target) {
		a.skip(rel, SkipSymlinkOutside, "target "+target+" is outside the root")
		return
	}
	if !isDir {
		// The target's own path may tell more than the link's name.
		if tr := w.relOf(target); tr != rel {
			if why, ok := Sensitive(tr); ok {
				a.skip(rel, SkipSensitive, why+" (resolves to "+tr+")")
				return
			}
		}
		dirWhy, _ := sensitiveDir(rel[:max(strings.LastIndexByte(rel, '/'), 0)])
		if w.admit(a, sc, rel, name, dirWhy) {
			w.keep(a, rel, target, fi, nil)
		}
		return
	}
	if target == dirAbs || strings.HasPrefix(dirAbs, target+string(filepath.Separator)) || target == w.rootReal {
		a.skip(rel, SkipSymlinkLoop, "target "+w.display(target)+" is an ancestor of the link")
		return
	}
	a.pending = append(a.pending, linkDir{rel: rel, target: target, sc: sc})
}

// display names a resolved path inside the root for a Detail.
func (w *walker) display(p string) string {
	if r := w.relOf(p); r != "" {
		return r
	}
	return "the root"
}

// followLinks walks the symlinked directories found so far, in the order
// found (itself deterministic), including those found while doing so. A
// target already walked is reported instead of walked again, which is what
// bounds the walk.
func (w *walker) followLinks() {
	slices.SortFunc(w.pending, func(a, b linkDir) int { return strings.Compare(a.rel, b.rel) })
	w.sem = nil // sequential from here, so links found below are queued in a fixed order
	for i := 0; i < len(w.pending); i++ {
		l := w.pending[i]
		if prev, ok := w.visited[l.target]; ok {
			w.merge(&acc{skips: []Skip{{Rel: l.rel, Reason: SkipSymlinkDuplicate, Detail: "same directory as " + displayRel(prev)}}})
			continue
		}
		// A target inside a noise directory stays pruned.
		if tr := w.relOf(l.target); tr != "" {
			noise := false
			for d := range strings.SplitSeq(tr, "/") {
				if isNoiseDir(d, false) {
					noise = true
					break
				}
			}
			if noise {
				w.merge(&acc{pruned: 1})
				continue
			}
		}
		w.walkDir(l.target, l.rel, l.sc, false)
	}
}

func displayRel(rel string) string {
	if rel == "" {
		return "the root"
	}
	return rel
}
