package query

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// recencyBoost is the relevance added to a node of the most-churned file
// (the original's RECENCY_BOOST); other changed files get less, by churn.
const recencyBoost = 4.0

// gitTimeout bounds all git calls of one query.
const gitTimeout = 5 * time.Second

// recency is what `since` resolved to: which files changed on this branch
// (merge-base..working tree, uncommitted edits included) and by how much.
type recency struct {
	files   map[int32]float64 // file id → churn weight (0.1..1)
	bonus   map[int32]float64 // node → relevance bonus
	nodes   []int32           // changed nodes, most churned first, then id
	summary string
}

func (r *recency) changed(e *Engine, i int32) bool {
	f := e.nodeFile[i]
	if f < 0 {
		return false
	}
	_, ok := r.files[f]
	return ok
}

// recency resolves since in the engine's root with the real git CLI. It
// returns nil — recency silently off — outside a git work tree, when since
// does not resolve, or when git is missing.
func (e *Engine) recency(ctx context.Context, since string) *recency {
	root := e.opts.root
	since = strings.TrimSpace(since)
	if root == "" || since == "" || strings.HasPrefix(since, "-") {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	git := func(args ...string) (string, bool) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C")
		var out bytes.Buffer
		cmd.Stdout = &out
		if cmd.Run() != nil {
			return "", false
		}
		return strings.TrimSpace(out.String()), true
	}
	if inside, ok := git("rev-parse", "--is-inside-work-tree"); !ok || inside != "true" {
		return nil
	}
	base, ok := resolveBase(since, git)
	if !ok {
		return nil
	}
	mb, ok := git("merge-base", base, "HEAD")
	if !ok || mb == "" {
		return nil
	}
	churn := map[string]int{}
	numstat, ok := git("diff", "--numstat", "--relative", "--no-renames", mb, "--")
	if !ok {
		return nil
	}
	for _, line := range strings.Split(numstat, "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			continue
		}
		a, _ := strconv.Atoi(f[0]) // "-" for binary files counts as 0
		d, _ := strconv.Atoi(f[1])
		churn[filepath.ToSlash(f[2])] += max(a+d, 1)
	}
	if others, ok := git("ls-files", "--others", "--exclude-standard"); ok && others != "" {
		for _, f := range strings.Split(others, "\n") {
			churn[filepath.ToSlash(f)] += max(countLines(filepath.Join(root, f)), 1)
		}
	}
	return e.newRecency(churn, fmt.Sprintf("since %s (merge-base %s)", since, mb[:min(len(mb), 12)]))
}

// resolveBase turns since into a commit: "auto" is the default branch, then
// a ref, then a date (the last commit on HEAD before it).
func resolveBase(since string, git func(...string) (string, bool)) (string, bool) {
	if strings.EqualFold(since, "auto") {
		if ref, ok := git("symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); ok && ref != "" {
			return ref, true
		}
		for _, b := range []string{"main", "master", "origin/main", "origin/master", "trunk", "develop"} {
			if _, ok := git("rev-parse", "--verify", "--quiet", b+"^{commit}"); ok {
				return b, true
			}
		}
		return "", false
	}
	if c, ok := git("rev-parse", "--verify", "--quiet", since+"^{commit}"); ok && c != "" {
		return c, true
	}
	if !looksLikeDate(since) {
		return "", false
	}
	if c, ok := git("rev-list", "-1", "--before="+since, "HEAD"); ok && c != "" {
		return c, true
	}
	return "", false
}

// looksLikeDate guards the date fallback: git's approxidate reads any
// garbage as "now", so a mistyped branch name would silently mean HEAD.
func looksLikeDate(s string) bool {
	if strings.ContainsAny(s, "0123456789") {
		return true
	}
	l := strings.ToLower(s)
	for _, w := range []string{"yesterday", "today", "now", "noon", "midnight", "last", "ago"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// newRecency weights each changed file by ln(1+lines)/ln(1+max lines),
// floored at 0.1, and maps files to graph nodes.
func (e *Engine) newRecency(churn map[string]int, summary string) *recency {
	r := &recency{files: map[int32]float64{}, bonus: map[int32]float64{}}
	maxLines := 0
	for _, l := range churn {
		maxLines = max(maxLines, l)
	}
	for path, lines := range churn {
		f, ok := e.fileID[path]
		if !ok {
			continue
		}
		w := 1.0
		if maxLines > 0 {
			w = math.Max(math.Log1p(float64(lines))/math.Log1p(float64(maxLines)), 0.1)
		}
		r.files[f] = w
		for _, i := range e.fileNodes[f] {
			r.bonus[i] = recencyBoost * w
			r.nodes = append(r.nodes, i)
		}
	}
	slices.SortFunc(r.nodes, func(a, b int32) int {
		if r.bonus[a] != r.bonus[b] {
			if r.bonus[a] > r.bonus[b] {
				return -1
			}
			return 1
		}
		return e.cmpID(a, b)
	})
	r.summary = fmt.Sprintf("%s: %d changed files in the graph (%d changed in git), %d nodes boosted", summary, len(r.files), len(churn), len(r.nodes))
	return r
}

// countLines counts a new file's lines (bounded read), its churn.
func countLines(path string) int {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n, _ := f.Read(buf)
	return bytes.Count(buf[:n], []byte{'\n'})
}
