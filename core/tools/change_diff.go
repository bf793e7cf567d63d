package tools

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/change"
	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// offlineNote ends every git failure: the graph tools keep working.
const offlineNote = "Graph audit continues offline."

// changeFile is one changed file mapped onto the graph.
type changeFile = change.File

// changeSet is what a change-aware tool works on: the changed files
// mapped onto the graph, from explicit files or from git.
type changeSet struct {
	base  *gitdiff.Base // nil when files were given
	files []change.File
	seeds []int32 // touched nodes, sorted, unique
	root  string  // the source root test files are read from ("": none)
}

// repo is the git work tree the change tools diff: the source root (the
// directory above synaptic-out/), else the server's working directory.
func (c *Catalog) repo() gitdiff.Repo {
	dir := c.opts.SourceRoot
	if dir == "" {
		dir = "."
	}
	return gitdiff.Repo{Dir: dir}
}

// gitFailure is the answer when git cannot produce a diff. "Not a git
// repository" and "git missing" keep the wording the spec fixes; other
// failures (bad base, shallow clone) name the cause and the fix.
func (c *Catalog) gitFailure(err error) Result {
	dir := sanitize(c.repo().Dir)
	if errors.Is(err, gitdiff.ErrNotRepo) || errors.Is(err, gitdiff.ErrNoGit) {
		return errorf("git unavailable or not a git repository (%s: %s). %s", dir, sanitize(err.Error()), offlineNote)
	}
	return errorf("git diff failed in %s: %s. %s", dir, sanitize(err.Error()), offlineNote)
}

// collect builds the change set: the given files (every node they
// define), or the working-tree diff against base.
func (c *Catalog) collect(ctx context.Context, s *snapshot, files []string, base string) (changeSet, *Result) {
	if len(files) > 0 {
		var fs []gitdiff.File
		for _, f := range files {
			f = path.Clean(strings.TrimPrefix(strings.TrimSpace(f), "./"))
			if f == "." || f == "" {
				continue
			}
			fs = append(fs, gitdiff.File{Path: f, Status: gitdiff.Modified})
		}
		cs := newChangeSet(s.x, nil, fs)
		cs.root = c.opts.SourceRoot
		return cs, nil
	}
	r := c.repo()
	b, err := r.ResolveBase(ctx, base)
	if err != nil {
		res := c.gitFailure(err)
		return changeSet{}, &res
	}
	ch, err := r.WorkingChanges(ctx, b)
	if err != nil {
		res := c.gitFailure(err)
		return changeSet{}, &res
	}
	cs := newChangeSet(s.x, &ch.Base, ch.Files)
	cs.root = c.opts.SourceRoot
	return cs, nil
}

func newChangeSet(x *graph.Index, base *gitdiff.Base, files []gitdiff.File) changeSet {
	cs := changeSet{base: base, files: change.Map(x, files)}
	for _, f := range cs.files {
		cs.seeds = append(cs.seeds, f.Nodes...)
	}
	slices.Sort(cs.seeds)
	cs.seeds = slices.Compact(cs.seeds)
	return cs
}

// against names what the set was computed from, for headers.
func (cs changeSet) against() string {
	if cs.base == nil {
		return "the given files"
	}
	return sanitize(cs.base.String())
}

// lines sums the changed lines.
func (cs changeSet) lines() int {
	n := 0
	for _, f := range cs.files {
		n += f.Lines()
	}
	return n
}

// fileLine renders one changed file: status, path, nodes touched.
func fileLine(f change.File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %-9s %s", f.Status, sanitize(f.Path))
	if f.OldPath != "" {
		fmt.Fprintf(&b, " (from %s)", sanitize(f.OldPath))
	}
	switch {
	case f.GraphPath == "":
		b.WriteString("  [not in graph]")
	case f.Binary:
		fmt.Fprintf(&b, "  [binary] %d nodes", len(f.Nodes))
	default:
		fmt.Fprintf(&b, "  +%d -%d, %d nodes", f.Added, f.Removed, len(f.Nodes))
	}
	return b.String()
}

// nonCodeExts are files code_only leaves out: docs, manifests, lockfiles.
var nonCodeExts = []string{".md", ".markdown", ".rst", ".txt", ".json", ".lock", ".toml", ".yaml", ".yml", ".xml", ".ini", ".cfg", ".csv", ".svg", ".png"}

// isCodeFile reports a changed file code_only keeps: known to the graph as
// code and not a doc/manifest/lockfile.
func isCodeFile(s *snapshot, f change.File) bool {
	if f.GraphPath == "" {
		return false
	}
	p := strings.ToLower(f.GraphPath)
	for _, ext := range nonCodeExts {
		if strings.HasSuffix(p, ext) {
			return false
		}
	}
	for _, i := range s.x.FileNodes(f.GraphPath) {
		if s.x.Node(i).FileType == "code" {
			return true
		}
	}
	return false
}

// labelSample bounds the members a community label looks at.
const labelSample = 256

// communityLabel names a community by the dominant directory of its best-
// connected members (a bounded sample: communities of a large graph have
// tens of thousands) and its three best-connected symbols.
func (s *snapshot) communityLabel(id int) string {
	comms, _ := s.communities()
	m := comms[id]
	m = m[:min(len(m), labelSample)]
	dirs := map[string]int{}
	var top []string
	for _, i := range m {
		if f := s.x.Node(i).SourceFile; f != "" {
			dirs[path.Dir(f)]++
		}
		if len(top) < 3 && s.x.Node(i).Kind != "file" && s.x.Node(i).Kind != "package" {
			top = append(top, s.label(i))
		}
	}
	best, bestN := "", 0
	for d, n := range dirs {
		if n > bestN || n == bestN && d < best {
			best, bestN = d, n
		}
	}
	return fmt.Sprintf("%s: %s", sanitize(best), strings.Join(top, ", "))
}
