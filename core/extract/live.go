package extract

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/synaptic-graph/synaptic/core/discover"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/resolve"
)

// Live holds a finished extraction's inputs in memory (every file's
// stat and facts) so serve can follow edits in a fraction of a second:
// Changes finds what was edited by one walk, Patch re-extracts only that
// and resolves it together with its directory. The result is provisional
// (links that need the whole graph wait for the next Run); Run stays the
// one source of exact graphs and of everything written to disk. Live
// never writes.
type Live struct {
	opts    Options
	repo    *os.Root
	langs   map[string]*Language
	seen    map[string]stamp // source files as last extracted
	project map[string]stamp // go.mod and package.json files, and every plugin's project files
	// projects is the project step of the last open: the plugins' entry
	// points have run, so patched files extract with the same project
	// info (and cache keys) as a Run.
	projects *projectRun
	facts    map[string]cachedFile // by path; failed files hold their Skip
	// walk is the last walk, while stat'ing its inputs and files is known
	// to find every change (nil: the next Changes walks).
	walk *walkState
}

// stamp is what the walk's stat says about a file.
type stamp struct {
	size  int64
	mtime float64
}

// Changes are the files edited since the last Patch (or OpenLive).
type Changes struct {
	Changed []string // added or modified source files, sorted
	Removed []string // deleted source files, sorted
	// Project: a go.mod or package.json changed, which can move every
	// import; only a full Run is right then.
	Project bool
	// Walked: found by a walk, because stat'ing the last one could not
	// vouch for the tree (for the log).
	Walked bool
	jobs   []*job
}

// Len is the number of changed source files.
func (c Changes) Len() int { return len(c.Changed) + len(c.Removed) }

// OpenLive reads the manifest and facts cache a Run left in opts.OutDir.
// Call it right after a Run, so what it holds is what that Run graphed.
func OpenLive(opts Options) (*Live, error) {
	if opts.Route == nil {
		return nil, errors.New("extract: no Route function")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, err
	}
	repo, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	l, err := openLive(opts, root, repo)
	if err != nil {
		repo.Close()
		return nil, err
	}
	return l, nil
}

func openLive(opts Options, root string, repo *os.Root) (*Live, error) {
	out, err := openOutDir(repo, root, opts.OutDir)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	key, err := loadKey()
	if err != nil {
		return nil, err
	}
	m, err := readManifest(out.root, key)
	if err != nil {
		return nil, err
	}
	dir, err := out.cacheDir(false)
	if err != nil {
		return nil, err
	}
	facts, err := readFacts(dir, key)
	dir.Close()
	if err != nil {
		return nil, err
	}
	opts.Root = root
	if opts.Workers <= 0 {
		opts.Workers = defaultWorkers()
	}
	if opts.ParseTimeout == 0 {
		opts.ParseTimeout = 10 * time.Second
	}
	l := &Live{opts: opts, repo: repo, langs: map[string]*Language{}, facts: facts, seen: map[string]stamp{}, project: map[string]stamp{}}
	for i := range opts.Languages {
		l.langs[opts.Languages[i].Name] = &opts.Languages[i]
	}
	l.projects = newProjectRun(opts.Languages)
	walked, err := walkInputs(root, opts.Route, l.projects)
	if err != nil {
		return nil, err
	}
	var sum Summary
	l.projects.collect(repo, root, walked.Files, &sum)
	routed := routeFiles(walked.Files, opts.Route, &sum, l.projects)
	l.projects.run(context.Background(), routed, &sum)
	for _, f := range walked.Files {
		if l.isProjectFile(f.Rel) {
			l.project[f.Rel] = stampOf(f)
		}
	}
	// What the Run graphed is what its manifest says, not what the tree
	// holds now: an edit, a new or a deleted file since then shows as a
	// change. Files it could not extract are in the facts cache only.
	for rel, e := range m.Files {
		l.seen[rel] = stamp{e.Size, e.MTime}
	}
	current := true
	for _, j := range routed {
		if _, ok := l.seen[j.file.Rel]; !ok {
			if c, ok := facts[j.file.Rel]; ok && c.Skip != "" {
				l.seen[j.file.Rel] = stampOf(j.file)
			} else {
				current = false // a file the Run did not see: the first Changes walks
			}
		}
	}
	// Every routed file known, and no other: stat'ing the walk finds
	// what changed since.
	if current && len(l.seen) == len(routed) {
		l.walk = newWalkState(l.opts.Root, walked)
	}
	return l, nil
}

func stampOf(f discover.File) stamp { return stamp{f.Size, mtime(f.ModTime)} }

// Close releases the repository handle.
func (l *Live) Close() error { return l.repo.Close() }

// walkChanges walks the tree (the same discovery rules as Run) and
// compares each file's size and mtime with what was last extracted.
func (l *Live) walkChanges(ctx context.Context) (Changes, error) {
	walked, err := walkInputs(l.opts.Root, l.opts.Route, l.projects)
	if err != nil {
		return Changes{}, err
	}
	if err := ctx.Err(); err != nil {
		return Changes{}, err
	}
	ch := Changes{Walked: true}
	var sum Summary
	projects := 0
	for _, f := range walked.Files {
		if l.isProjectFile(f.Rel) {
			projects++
			if st, ok := l.project[f.Rel]; !ok || st != stampOf(f) {
				ch.Project = true
			}
		}
	}
	ch.Project = ch.Project || projects != len(l.project)
	routed := routeFiles(walked.Files, l.opts.Route, &sum, l.projects)
	present := make(map[string]bool, len(routed))
	for _, j := range routed {
		present[j.file.Rel] = true
		if st, ok := l.seen[j.file.Rel]; !ok || st != stampOf(j.file) {
			ch.Changed = append(ch.Changed, j.file.Rel)
			ch.jobs = append(ch.jobs, j)
		}
	}
	for p := range l.seen {
		if !present[p] {
			ch.Removed = append(ch.Removed, p)
		}
	}
	slices.Sort(ch.Changed)
	slices.Sort(ch.Removed)
	l.walk = newWalkState(l.opts.Root, walked)
	return ch, nil
}

// Patch re-extracts ch's files through the same plugins as Run and
// resolves them with the other files of their directories (a Go package,
// a module's neighbours), recording them as extracted. Call it with
// Changes that are not Project changes.
func (l *Live) Patch(ctx context.Context, ch Changes) (graph.Patch, error) {
	var times WorkerTime
	if err := runJobs(ctx, l.opts, l.repo, ch.jobs, nil, &times); err != nil {
		return graph.Patch{}, err
	}
	p := graph.Patch{Files: map[string]bool{}}
	dirs := map[string]bool{}
	for _, j := range ch.jobs {
		l.facts[j.file.Rel] = j.result
		l.seen[j.file.Rel] = stampOf(j.file)
		p.Files[j.file.Rel] = true
		dirs[path.Dir(j.file.Rel)] = true
	}
	for _, rel := range ch.Removed {
		delete(l.facts, rel)
		delete(l.seen, rel)
		p.Files[rel] = true
		dirs[path.Dir(rel)] = true
	}
	var files []resolve.File
	for rel, c := range l.facts {
		lang := l.langs[c.Language]
		if !dirs[path.Dir(rel)] || c.Skip != "" || c.Facts == nil || lang == nil {
			continue
		}
		files = append(files, resolve.File{Path: rel, Language: lang.Name, Family: lang.Family, Facts: c.Facts, Generated: c.Generated,
			ABI: lang.ABI, Semantics: lang.Semantics})
	}
	g, _ := resolve.Build(files)
	p.Nodes, p.Edges = g.Nodes, g.Edges
	return p, nil
}

// isProjectFile says whether rel is metadata some import resolution
// reads: a change to it can move every import, so only a Run is right.
func (l *Live) isProjectFile(rel string) bool {
	return l.projects.wants(rel)
}
