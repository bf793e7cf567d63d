// Package ghpr reads pull requests through the GitHub CLI (`gh`, JSON
// output). A missing or unauthenticated gh is ErrUnavailable, so the PR
// tools can answer with the spec's fixed message while the rest of the
// server keeps working; other gh failures (rate limits, unknown PRs) keep
// gh's own first line.
package ghpr

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Unavailable is the spec's message for a missing or logged-out gh.
const Unavailable = "gh CLI not found or not authenticated (run: gh auth login). PR data is skipped; graph audit continues offline."

// ErrUnavailable is returned when gh is missing or not authenticated.
var ErrUnavailable = errors.New(Unavailable)

// timeout bounds one gh call; maxOutput caps what it may print.
const (
	timeout   = 30 * time.Second
	maxOutput = 32 << 20
)

// Client runs gh in Dir (the repository gh infers the remote from), for
// Repo ("owner/name", "" = infer).
type Client struct {
	Dir, Repo string
}

// authHints are stderr fragments gh prints when it has no credentials.
var authHints = []string{"gh auth login", "not logged in", "authentication", "GH_TOKEN", "401"}

func (c Client) run(ctx context.Context, args ...string) ([]byte, error) {
	if c.Repo != "" {
		if strings.HasPrefix(c.Repo, "-") || strings.Count(c.Repo, "/") != 1 {
			return nil, fmt.Errorf("repo %q is not owner/name", c.Repo)
		}
		args = append(args, "--repo", c.Repo)
	}
	if _, err := exec.LookPath("gh"); err != nil {
		return nil, ErrUnavailable
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "gh", args...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "GH_PROMPT_DISABLED=1", "GH_NO_UPDATE_NOTIFIER=1", "NO_COLOR=1", "GH_PAGER=cat")
	cmd.WaitDelay = time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return nil, fmt.Errorf("gh %s timed out after %s", args[0], timeout)
	case err != nil:
		msg := strings.TrimSpace(errOut.String())
		for _, h := range authHints {
			if strings.Contains(msg, h) {
				return nil, ErrUnavailable
			}
		}
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("gh %s %s failed: %s", args[0], args[1], msg)
	case out.Len() > maxOutput:
		return nil, fmt.Errorf("gh %s printed more than %d MiB", args[0], maxOutput>>20)
	}
	return out.Bytes(), nil
}

// PR is one pull request as the tools show it.
type PR struct {
	Number         int      `json:"number"`
	Title          string   `json:"title"`
	Author         string   `json:"author"`
	URL            string   `json:"url"`
	Base           string   `json:"base"`
	Head           string   `json:"head"`
	Draft          bool     `json:"draft"`
	ReviewDecision string   `json:"review_decision"` // APPROVED, CHANGES_REQUESTED, REVIEW_REQUIRED, ""
	Checks         Checks   `json:"checks"`
	Additions      int      `json:"additions"`
	Deletions      int      `json:"deletions"`
	Files          []string `json:"files,omitempty"`
}

// Checks tallies a PR's CI status.
type Checks struct {
	Passed, Failed, Pending int
}

// State is the CI verdict: failing, pending, passing or none.
func (c Checks) State() string {
	switch {
	case c.Failed > 0:
		return "failing"
	case c.Pending > 0:
		return "pending"
	case c.Passed > 0:
		return "passing"
	}
	return "none"
}

// raw is gh's JSON for a PR.
type raw struct {
	Number         int    `json:"number"`
	Title          string `json:"title"`
	URL            string `json:"url"`
	BaseRefName    string `json:"baseRefName"`
	HeadRefName    string `json:"headRefName"`
	IsDraft        bool   `json:"isDraft"`
	ReviewDecision string `json:"reviewDecision"`
	Additions      int    `json:"additions"`
	Deletions      int    `json:"deletions"`
	Author         struct {
		Login string `json:"login"`
	} `json:"author"`
	StatusCheckRollup []struct {
		Status, Conclusion, State string
	} `json:"statusCheckRollup"`
	Files []struct {
		Path string `json:"path"`
	} `json:"files"`
}

func (r raw) pr() PR {
	p := PR{Number: r.Number, Title: r.Title, Author: r.Author.Login, URL: r.URL, Base: r.BaseRefName, Head: r.HeadRefName,
		Draft: r.IsDraft, ReviewDecision: r.ReviewDecision, Additions: r.Additions, Deletions: r.Deletions}
	for _, c := range r.StatusCheckRollup {
		v := strings.ToUpper(c.Conclusion + c.State)
		switch {
		case strings.Contains(v, "FAIL"), strings.Contains(v, "ERROR"), strings.Contains(v, "CANCEL"), strings.Contains(v, "TIMED_OUT"):
			p.Checks.Failed++
		case strings.Contains(v, "SUCCESS"), strings.Contains(v, "NEUTRAL"), strings.Contains(v, "SKIPPED"):
			p.Checks.Passed++
		default:
			p.Checks.Pending++
		}
	}
	for _, f := range r.Files {
		p.Files = append(p.Files, f.Path)
	}
	return p
}

const listFields = "number,title,author,url,baseRefName,headRefName,isDraft,reviewDecision,statusCheckRollup,additions,deletions"

// List returns open PRs targeting base ("" = any base), at most limit.
func (c Client) List(ctx context.Context, base string, limit int) ([]PR, error) {
	args := []string{"pr", "list", "--state", "open", "--json", listFields, "--limit", strconv.Itoa(limit)}
	if base != "" {
		if strings.HasPrefix(base, "-") {
			return nil, fmt.Errorf("base %q is not a branch name", base)
		}
		args = append(args, "--base", base)
	}
	out, err := c.run(ctx, args...)
	if err != nil {
		return nil, err
	}
	var rs []raw
	if err := json.Unmarshal(out, &rs); err != nil {
		return nil, fmt.Errorf("gh pr list printed invalid JSON: %v", err)
	}
	prs := make([]PR, len(rs))
	for i, r := range rs {
		prs[i] = r.pr()
	}
	return prs, nil
}

// View returns one PR with its changed files.
func (c Client) View(ctx context.Context, number int) (PR, error) {
	out, err := c.run(ctx, "pr", "view", strconv.Itoa(number), "--json", listFields+",files")
	if err != nil {
		return PR{}, err
	}
	var r raw
	if err := json.Unmarshal(out, &r); err != nil {
		return PR{}, fmt.Errorf("gh pr view printed invalid JSON: %v", err)
	}
	return r.pr(), nil
}

// Diff returns a PR's unified diff (for line-level mapping).
func (c Client) Diff(ctx context.Context, number int) ([]byte, error) {
	return c.run(ctx, "pr", "diff", strconv.Itoa(number))
}
