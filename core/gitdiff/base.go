package gitdiff

import (
	"context"
	"fmt"
	"strings"
)

// BaseSource says how a diff base was chosen, so an answer can name it
// instead of guessing silently.
type BaseSource string

// How a base was chosen.
const (
	BaseGiven       BaseSource = "given"        // the caller named it
	BaseOriginHead  BaseSource = "origin/HEAD"  // the remote's default branch
	BaseBranch      BaseSource = "local branch" // a main/master/trunk/develop branch
	BaseFirstCommit BaseSource = "first commit" // no default branch: the root commit
)

// Base is a resolved diff base.
type Base struct {
	Ref    string     // as named or detected: "main", "origin/main", a SHA
	Commit string     // Ref's commit
	Merge  string     // merge-base(Ref, HEAD): where the branch forked; the diff starts here
	Source BaseSource // how Ref was chosen
}

// String names the base for output: "main (detected: local branch)".
func (b Base) String() string {
	if b.Source == BaseGiven {
		return b.Ref
	}
	return fmt.Sprintf("%s (detected: %s)", b.Ref, b.Source)
}

// defaultBranches are tried in order after origin/HEAD.
var defaultBranches = []string{"main", "master", "origin/main", "origin/master", "trunk", "develop"}

// ResolveBase resolves ref ("" detects the default branch: origin/HEAD,
// then main/master/trunk/develop, then the first commit) and the merge
// base with HEAD. A repository without commits is an error that says so.
func (r Repo) ResolveBase(ctx context.Context, ref string) (Base, error) {
	if err := r.Check(ctx); err != nil {
		return Base{}, err
	}
	head, err := r.line(ctx, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
	if err != nil || head == "" {
		return Base{}, fmt.Errorf("the repository has no commits yet: commit once, or pass files explicitly")
	}
	b := Base{Ref: strings.TrimSpace(ref), Source: BaseGiven}
	if b.Ref == "" {
		b, err = r.detect(ctx)
		if err != nil {
			return Base{}, err
		}
	}
	if b.Commit, err = r.Commit(ctx, b.Ref); err != nil {
		return Base{}, err
	}
	mb, err := r.line(ctx, "merge-base", b.Commit, head)
	if err != nil || mb == "" {
		// Unrelated histories or a shallow clone cut below the fork:
		// diff against the base itself, and say nothing is assumed.
		if shallow, _ := r.line(ctx, "rev-parse", "--is-shallow-repository"); shallow == "true" {
			return Base{}, fmt.Errorf("no merge base of %s and HEAD in this shallow clone: run git fetch --unshallow, or pass a base inside the fetched history", b.Ref)
		}
		return Base{}, fmt.Errorf("%s and HEAD share no history (no merge base): pass a base on this branch's history", b.Ref)
	}
	b.Merge = mb
	return b, nil
}

func (r Repo) detect(ctx context.Context) (Base, error) {
	if ref, err := r.line(ctx, "symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"); err == nil && ref != "" {
		return Base{Ref: ref, Source: BaseOriginHead}, nil
	}
	for _, br := range defaultBranches {
		if _, err := r.Commit(ctx, br); err == nil {
			return Base{Ref: br, Source: BaseBranch}, nil
		}
	}
	roots, err := r.line(ctx, "rev-list", "--max-parents=0", "HEAD")
	if err != nil || roots == "" {
		return Base{}, fmt.Errorf("cannot detect a default branch (no origin/HEAD, main or master, no root commit): pass base")
	}
	// Several roots (merged histories): the last listed is the oldest.
	fields := strings.Fields(roots)
	return Base{Ref: fields[len(fields)-1], Source: BaseFirstCommit}, nil
}
