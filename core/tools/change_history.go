package tools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/gitdiff"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// revisionTimeout bounds checking out and extracting one revision.
const revisionTimeout = 10 * time.Minute

// revGraph is one side of a time-travel diff.
type revGraph struct {
	name   string // as shown: "HEAD~3 (1a2b3c4d5e6f)" or "working tree"
	commit string // "" for the working tree
	g      *graph.Graph
	cached bool
}

// graphAt returns the graph of commit: from the per-commit cache under the
// user cache dir, else extracted in a throwaway worktree (always removed).
func (c *Catalog) graphAt(ctx context.Context, r gitdiff.Repo, rev string) (revGraph, error) {
	commit, err := r.Commit(ctx, rev)
	if err != nil {
		return revGraph{}, err
	}
	out := revGraph{name: fmt.Sprintf("%s (%s)", sanitize(rev), commit[:12]), commit: commit}
	dir, err := c.revisionCache(ctx, r, commit)
	if err != nil {
		return revGraph{}, err
	}
	path := filepath.Join(dir, "graph.json")
	if g, err := graph.ReadFile(path); err == nil {
		out.g, out.cached = g, true
		return out, nil
	}
	if c.opts.ExtractRevision == nil {
		return revGraph{}, errors.New("this catalog has no extraction pipeline (run time_travel_diff from synaptic serve or synaptic call)")
	}
	ctx, cancel := context.WithTimeout(ctx, revisionTimeout)
	defer cancel()
	wt, err := r.AddWorktree(ctx, commit)
	if err != nil {
		return revGraph{}, err
	}
	defer wt.Remove()
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	if err := c.opts.ExtractRevision(ctx, wt.Dir, tmp); err != nil {
		os.RemoveAll(tmp)
		if ctx.Err() != nil {
			return revGraph{}, fmt.Errorf("extracting %s timed out (the call's deadline, or the %s per-revision limit); the worktree was removed", out.name, revisionTimeout)
		}
		return revGraph{}, fmt.Errorf("extracting %s failed: %v", out.name, err)
	}
	g, err := graph.ReadFile(filepath.Join(tmp, "graph.json"))
	if err != nil {
		os.RemoveAll(tmp)
		return revGraph{}, fmt.Errorf("extracting %s wrote no readable graph: %v", out.name, err)
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
	}
	out.g = g
	return out, nil
}

// revisionCache is where commit's graph is cached: <user cache>/synaptic/
// graphs/<repo>/<commit>-<extraction build>.
func (c *Catalog) revisionCache(ctx context.Context, r gitdiff.Repo, commit string) (string, error) {
	top, err := r.Toplevel(ctx)
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache dir for revision graphs: %w", err)
	}
	repo := sha256.Sum256([]byte(top))
	key := sha256.Sum256([]byte(c.opts.ExtractKey))
	dir := filepath.Join(cache, "synaptic", "graphs", hex.EncodeToString(repo[:8]))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	return filepath.Join(dir, commit+"-"+hex.EncodeToString(key[:6])), nil
}

func (c *Catalog) timeTravelDiff(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Rev1 string `json:"rev1"`
		Rev2 string `json:"rev2"`
		Top  *int   `json:"top"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	top := 20
	if a.Top != nil {
		top = max(*a.Top, 1)
	}
	r := c.repo()
	if err := r.Check(ctx); err != nil {
		return c.gitFailure(err)
	}
	start := time.Now()
	old, err := c.graphAt(ctx, r, a.Rev1)
	if err != nil {
		return errorf("time_travel_diff: %s", sanitize(err.Error()))
	}
	cur := revGraph{name: "the working tree (the served graph)", g: s.g}
	if strings.TrimSpace(a.Rev2) != "" {
		if cur, err = c.graphAt(ctx, r, a.Rev2); err != nil {
			return errorf("time_travel_diff: %s", sanitize(err.Error()))
		}
	}
	var churn []gitdiff.File
	if cur.commit != "" {
		churn, err = r.Between(ctx, old.commit, cur.commit)
	} else {
		var ch gitdiff.Changes
		ch, err = r.WorkingChanges(ctx, gitdiff.Base{Ref: old.commit, Commit: old.commit, Merge: old.commit, Source: gitdiff.BaseGiven})
		churn = ch.Files
	}
	if err != nil {
		return c.gitFailure(err)
	}
	d := diffGraphs(old.g, cur.g)
	var b strings.Builder
	how := func(g revGraph) string {
		switch {
		case g.commit == "":
			return "served"
		case g.cached:
			return "cached"
		}
		return "extracted in a throwaway worktree"
	}
	fmt.Fprintf(&b, "Time travel %s -> %s (%s / %s, %.1fs)\n", old.name, cur.name, how(old), how(cur), time.Since(start).Seconds())
	fmt.Fprintf(&b, "Summary: %d new nodes, %d removed nodes, %d new edges, %d removed edges, %d files changed\n",
		len(d.addedNodes), len(d.removedNodes), d.addedEdges, d.removedEdges, len(churn))
	list := func(title string, items []string) {
		fmt.Fprintf(&b, "%s (%d):\n", title, len(items))
		for k, it := range items {
			if k == top {
				fmt.Fprintf(&b, "  +%d more (pass a larger top)\n", len(items)-top)
				break
			}
			b.WriteString("  " + it + "\n")
		}
	}
	list("Added module dependencies", d.addedDeps)
	list("Removed module dependencies", d.removedDeps)
	list("Removed APIs", d.removedAPIs)
	fmt.Fprintf(&b, "Architectural drift: %d -> %d communities; cross-community edges %.1f%% -> %.1f%%\n",
		d.commsOld, d.commsNew, 100*d.crossOld, 100*d.crossNew)
	list("New dependency cycles", d.newCycles)
	list("Change hotspots (lines changed, nodes added/removed)", hotspots(churn, d))
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

// graphDiff is what changed between two graphs.
type graphDiff struct {
	addedNodes, removedNodes []int32 // indices into the new / old graph
	addedEdges, removedEdges int
	addedDeps, removedDeps   []string
	removedAPIs              []string
	commsOld, commsNew       int
	crossOld, crossNew       float64
	newCycles                []string
	nodeChurn                map[string]int // file -> nodes added + removed
}

func diffGraphs(old, cur *graph.Graph) graphDiff {
	d := graphDiff{nodeChurn: map[string]int{}}
	oldIDs, curIDs := nodeIDs(old), nodeIDs(cur)
	for i, n := range cur.Nodes {
		if _, ok := oldIDs[n.ID]; !ok {
			d.addedNodes = append(d.addedNodes, int32(i))
			d.nodeChurn[n.SourceFile]++
		}
	}
	for i, n := range old.Nodes {
		if _, ok := curIDs[n.ID]; ok {
			continue
		}
		d.removedNodes = append(d.removedNodes, int32(i))
		d.nodeChurn[n.SourceFile]++
		if isAPI(&n) {
			d.removedAPIs = append(d.removedAPIs, fmt.Sprintf("%s [%s] %s", sanitize(n.Label), sanitize(n.Kind), sanitize(n.SourceFile)))
		}
	}
	oldEdges, curEdges := edgeKeys(old), edgeKeys(cur)
	for k := range curEdges {
		if !oldEdges[k] {
			d.addedEdges++
		}
	}
	for k := range oldEdges {
		if !curEdges[k] {
			d.removedEdges++
		}
	}
	oldDeps, curDeps := moduleDeps(old), moduleDeps(cur)
	d.addedDeps, d.removedDeps = setMinus(curDeps, oldDeps), setMinus(oldDeps, curDeps)
	d.commsOld, d.crossOld = drift(old)
	d.commsNew, d.crossNew = drift(cur)
	oldCycles := cycleKeys(old)
	for k, text := range cycleKeys(cur) {
		if _, ok := oldCycles[k]; !ok {
			d.newCycles = append(d.newCycles, text)
		}
	}
	slices.Sort(d.newCycles)
	slices.Sort(d.removedAPIs)
	return d
}

func nodeIDs(g *graph.Graph) map[string]struct{} {
	m := make(map[string]struct{}, len(g.Nodes))
	for i := range g.Nodes {
		m[g.Nodes[i].ID] = struct{}{}
	}
	return m
}

func edgeKeys(g *graph.Graph) map[graph.Key]bool {
	m := make(map[graph.Key]bool, len(g.Edges))
	for i := range g.Edges {
		m[g.Edges[i].Key()] = true
	}
	return m
}

// isAPI reports an exported callable or type: what other code can use.
func isAPI(n *graph.Node) bool {
	if n.IsTest || n.SourceFile == "" {
		return false
	}
	switch n.Kind {
	case "function", "method", "class", "struct", "interface", "trait", "enum", "type_alias":
	default:
		return false
	}
	return n.Visibility == "public" || n.Visibility == "exported"
}

// moduleDeps lists the modules the code imports: "importer dir -> module".
func moduleDeps(g *graph.Graph) map[string]bool {
	byID := make(map[string]*graph.Node, len(g.Nodes))
	for i := range g.Nodes {
		byID[g.Nodes[i].ID] = &g.Nodes[i]
	}
	out := map[string]bool{}
	for i := range g.Edges {
		e := &g.Edges[i]
		if e.Relation != "imports" && e.Relation != "imports_from" {
			continue
		}
		src, dst := byID[e.Source], byID[e.Target]
		if src == nil || dst == nil || src.IsTest {
			continue
		}
		target := dst.Label
		if dst.SourceFile != "" {
			target = filepath.Dir(dst.SourceFile)
		}
		if from := filepath.Dir(src.SourceFile); from != target {
			out[sanitize(from)+" -> "+sanitize(target)] = true
		}
	}
	return out
}

func setMinus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// drift is the community count and the fraction of non-ownership edges
// that cross communities.
func drift(g *graph.Graph) (int, float64) {
	comm := make(map[string]int, len(g.Nodes))
	ids := map[int]bool{}
	for i := range g.Nodes {
		if c := g.Nodes[i].Community; c != nil {
			comm[g.Nodes[i].ID] = *c
			ids[*c] = true
		}
	}
	cross, total := 0, 0
	for i := range g.Edges {
		e := &g.Edges[i]
		a, ok1 := comm[e.Source]
		b, ok2 := comm[e.Target]
		if !ok1 || !ok2 || ownership(e.Relation) {
			continue
		}
		total++
		if a != b {
			cross++
		}
	}
	if total == 0 {
		return len(ids), 0
	}
	return len(ids), float64(cross) / float64(total)
}

// cycleKeys lists a graph's import cycles (up to 6 long) by their sorted
// node ids, with a readable rendering.
func cycleKeys(g *graph.Graph) map[string]string {
	x := graph.NewIndex(g)
	out := map[string]string{}
	for _, cyc := range analysis.ImportCycles(x, 6) {
		ids := make([]string, len(cyc))
		names := make([]string, len(cyc))
		for k, i := range cyc {
			ids[k] = x.Node(i).ID
			names[k] = sanitize(x.Node(i).SourceFile)
			if names[k] == "" {
				names[k] = sanitize(x.Node(i).Label)
			}
		}
		key := slices.Clone(ids)
		slices.Sort(key)
		out[strings.Join(key, "\x00")] = strings.Join(names, " -> ")
	}
	return out
}

// hotspots ranks changed files by lines changed plus nodes added/removed.
func hotspots(churn []gitdiff.File, d graphDiff) []string {
	type spot struct {
		file         string
		lines, nodes int
	}
	byFile := map[string]*spot{}
	for _, f := range churn {
		byFile[f.Path] = &spot{file: f.Path, lines: f.Added + f.Removed}
	}
	for f, n := range d.nodeChurn {
		if f == "" {
			continue
		}
		if byFile[f] == nil {
			byFile[f] = &spot{file: f}
		}
		byFile[f].nodes = n
	}
	spots := make([]*spot, 0, len(byFile))
	for _, sp := range byFile {
		spots = append(spots, sp)
	}
	slices.SortFunc(spots, func(a, b *spot) int {
		if x, y := a.lines+a.nodes, b.lines+b.nodes; x != y {
			return y - x
		}
		return strings.Compare(a.file, b.file)
	})
	out := make([]string, 0, len(spots))
	for _, sp := range spots {
		out = append(out, fmt.Sprintf("%s  %d lines, %d nodes", sanitize(sp.file), sp.lines, sp.nodes))
	}
	return out
}
