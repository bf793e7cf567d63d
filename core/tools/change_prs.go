package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/ghpr"
	"github.com/synaptic-graph/synaptic/core/gitdiff"
)

// prListLimit bounds list_prs and triage_prs; prWorkers bounds the
// concurrent `gh pr view` calls of triage_prs.
const (
	prListLimit = 50
	prWorkers   = 4
)

func (c *Catalog) gh(repo string) ghpr.Client {
	return ghpr.Client{Dir: c.repo().Dir, Repo: strings.TrimSpace(repo)}
}

// prFailure maps a gh error to the answer: the spec's fixed message for
// a missing or unauthenticated gh, gh's own words otherwise.
func prFailure(err error) Result {
	if errors.Is(err, ghpr.ErrUnavailable) {
		return errorf("%s", ghpr.Unavailable)
	}
	return errorf("%s. PR data is skipped; graph audit continues offline.", sanitize(err.Error()))
}

// prBase is the base branch to filter by: the given one, else the
// detected default branch ("" when there is none: any base).
func (c *Catalog) prBase(ctx context.Context, base string) (string, string) {
	if base = strings.TrimSpace(base); base != "" {
		return base, base
	}
	b, err := c.repo().ResolveBase(ctx, "")
	if err != nil || b.Source == gitdiff.BaseFirstCommit {
		return "", "any base (no default branch detected)"
	}
	name := strings.TrimPrefix(b.Ref, "origin/")
	return name, fmt.Sprintf("%s (detected: %s)", name, b.Source)
}

func prLine(p ghpr.PR) string {
	flags := []string{"checks " + p.Checks.State()}
	if p.ReviewDecision != "" {
		flags = append(flags, "review "+strings.ToLower(p.ReviewDecision))
	}
	if p.Draft {
		flags = append(flags, "draft")
	}
	return fmt.Sprintf("#%d %s  [%s]  (%s, %s -> %s, +%d -%d)", p.Number, sanitize(p.Title), strings.Join(flags, ", "),
		sanitize(p.Author), sanitize(p.Head), sanitize(p.Base), p.Additions, p.Deletions)
}

func (c *Catalog) listPRs(ctx context.Context, _ *snapshot, args json.RawMessage) Result {
	a := struct{ Base, Repo string }{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	base, shown := c.prBase(ctx, a.Base)
	prs, err := c.gh(a.Repo).List(ctx, base, prListLimit)
	if err != nil {
		return prFailure(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Open PRs targeting %s: %d", sanitize(shown), len(prs))
	if len(prs) == prListLimit {
		fmt.Fprintf(&b, " (the first %d; more may be open)", prListLimit)
	}
	b.WriteString("\n")
	for _, p := range prs {
		b.WriteString("  " + prLine(p) + "\n")
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

// prImpact is one PR's graph blast radius.
type prImpact struct {
	cs          changeSet
	hits        []impactHit
	tests       []testRow
	communities map[int]int
}

func (s *snapshot) prImpact(files []gitdiff.File) prImpact {
	cs := newChangeSet(s.x, nil, files)
	hits := s.impactOf(cs, 3)
	im := prImpact{cs: cs, hits: hits, tests: s.selectTests(cs, 3), communities: map[int]int{}}
	for _, i := range cs.seeds {
		if id := s.communityOf(i); id >= 0 {
			im.communities[id]++
		}
	}
	return im
}

func (c *Catalog) getPRImpact(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		PRNumber int    `json:"pr_number"`
		Repo     string `json:"repo"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	gh := c.gh(a.Repo)
	p, err := gh.View(ctx, a.PRNumber)
	if err != nil {
		return prFailure(err)
	}
	// Line-level mapping from the PR's diff; whole files when the diff is
	// unavailable (the answer says which).
	precision := "changed lines (gh pr diff)"
	var files []gitdiff.File
	if d, err := gh.Diff(ctx, a.PRNumber); err == nil {
		files, err = gitdiff.Parse(d)
		if err != nil {
			files = nil
		}
	}
	if files == nil {
		precision = "whole files (the PR diff could not be read)"
		for _, f := range p.Files {
			files = append(files, gitdiff.File{Path: f, Status: gitdiff.Modified})
		}
	}
	im := s.prImpact(files)
	var b strings.Builder
	fmt.Fprintf(&b, "PR %s\n", prLine(p))
	if p.URL != "" {
		fmt.Fprintf(&b, "  %s\n", sanitize(p.URL))
	}
	fmt.Fprintf(&b, "Blast radius (mapped by %s): %d files, %d changed nodes, %d dependents within 3 hops, %d communities, %d tests at risk\n",
		precision, len(im.cs.files), len(im.cs.seeds), len(im.hits), len(im.communities), len(im.tests))
	for _, f := range im.cs.files {
		b.WriteString(fileLine(f) + "\n")
	}
	shown := topK(slices.Clone(im.hits), 20, s.byDepthThenDegree)
	fmt.Fprintf(&b, "Top dependents (%d of %d):\n", len(shown), len(im.hits))
	for _, h := range shown {
		fmt.Fprintf(&b, "  [%d] %s  %s  (%s)\n", h.depth, sanitize(h.via), s.label(h.node), s.fileOrExternal(h.node))
	}
	ids := make([]int, 0, len(im.communities))
	for id := range im.communities {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	b.WriteString("Communities touched:\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "  [%d] %s  (%d changed nodes)\n", id, s.communityLabel(id), im.communities[id])
	}
	fmt.Fprintf(&b, "Tests at risk (%d):\n", len(im.tests))
	for k, t := range im.tests {
		if k == 20 {
			fmt.Fprintf(&b, "  +%d more (affected_tests lists them all)\n", len(im.tests)-20)
			break
		}
		fmt.Fprintf(&b, "  [%d] %s  %s\n", t.Depth, t.ViaRelation, t.Qualified)
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

// triageRow is one PR in triage_prs' data.
type triageRow struct {
	Number       int    `json:"number"`
	Title        string `json:"title"`
	Author       string `json:"author"`
	URL          string `json:"url"`
	Status       string `json:"status"`
	Checks       string `json:"checks"`
	Review       string `json:"review"`
	Draft        bool   `json:"draft"`
	Files        int    `json:"files"`
	ChangedNodes int    `json:"changed_nodes"`
	BlastRadius  int    `json:"blast_radius"`
	TestsAtRisk  int    `json:"tests_at_risk"`
	Communities  int    `json:"communities"`
	Error        string `json:"error,omitempty"`
}

// statusRank orders triage: what a reviewer can act on first.
var statusRank = map[string]int{"ready to merge": 0, "needs review": 1, "checks failing": 2, "changes requested": 3, "checks pending": 4, "draft": 5}

func triageStatus(p ghpr.PR) string {
	switch {
	case p.Draft:
		return "draft"
	case p.Checks.State() == "failing":
		return "checks failing"
	case p.ReviewDecision == "CHANGES_REQUESTED":
		return "changes requested"
	case p.Checks.State() == "pending":
		return "checks pending"
	case p.ReviewDecision == "APPROVED":
		return "ready to merge"
	}
	return "needs review"
}

func (c *Catalog) triagePRs(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct{ Base, Repo string }{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	base, shown := c.prBase(ctx, a.Base)
	gh := c.gh(a.Repo)
	prs, err := gh.List(ctx, base, prListLimit)
	if err != nil {
		return prFailure(err)
	}
	rows := make([]triageRow, len(prs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, prWorkers)
	for k, p := range prs {
		rows[k] = triageRow{Number: p.Number, Title: sanitize(p.Title), Author: sanitize(p.Author), URL: sanitize(p.URL),
			Status: triageStatus(p), Checks: p.Checks.State(), Review: strings.ToLower(p.ReviewDecision), Draft: p.Draft}
		wg.Add(1)
		go func(k int, n int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			v, err := gh.View(ctx, n)
			if err != nil {
				rows[k].Error = sanitize(err.Error())
				return
			}
			var files []gitdiff.File
			for _, f := range v.Files {
				files = append(files, gitdiff.File{Path: f, Status: gitdiff.Modified})
			}
			im := s.prImpact(files)
			rows[k].Files, rows[k].ChangedNodes, rows[k].BlastRadius = len(files), len(im.cs.seeds), len(im.hits)
			rows[k].TestsAtRisk, rows[k].Communities = len(im.tests), len(im.communities)
		}(k, p.Number)
	}
	wg.Wait()
	slices.SortStableFunc(rows, func(x, y triageRow) int {
		if d := statusRank[x.Status] - statusRank[y.Status]; d != 0 {
			return d
		}
		if x.BlastRadius != y.BlastRadius {
			return y.BlastRadius - x.BlastRadius
		}
		return x.Number - y.Number
	})
	data, _ := json.MarshalIndent(rows, "", "  ")
	var b strings.Builder
	fmt.Fprintf(&b, "Triage: %d open PRs targeting %s, ranked by status (ready, needs review, failing, changes requested, pending, draft), then blast radius (whole changed files, 3 hops).\n", len(rows), sanitize(shown))
	b.WriteString("Instruction: prioritise these PRs for the user: say which to merge, review or unblock first and why, weighing status against blast radius and tests at risk; call get_pr_impact for detail on any of them.\n")
	b.Write(data)
	return Result{Text: b.String()}
}
