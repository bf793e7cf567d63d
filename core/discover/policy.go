package discover

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// ReadPolicy decides which files under a root a reader acting for an
// assistant (get_source, show_sites, search) may open. It applies the rules
// extraction applies, so a file the graph leaves out as sensitive, as VCS
// metadata or as ignored is never served either: a prompt-injected assistant
// must not be able to read .env or .git/config just because they sit inside
// the source root. Allow lists the globs (gitignore syntax, relative to the
// root) the operator opened explicitly; they win over every rule.
type ReadPolicy struct {
	Root  *os.Root
	Allow []string
	cache *ignoreCache // nil: ignore files are read on every Check
}

// ignoreCache keeps the ignore files a policy has read, for a reader that
// checks many files under the same directories. Safe for concurrent use.
type ignoreCache struct {
	mu    sync.Mutex
	files map[string]*ignoreFile
}

// NewReadPolicy is a ReadPolicy that reads each ignore file once: for one
// request reading many files, not for a long-lived reader (edits to the
// ignore files would not be seen).
func NewReadPolicy(root *os.Root, allow []string) ReadPolicy {
	return ReadPolicy{Root: root, Allow: allow, cache: &ignoreCache{files: map[string]*ignoreFile{}}}
}

// Refusal says why a path may not be read, naming the rule.
type Refusal struct {
	Reason Reason
	Rule   string
}

// The refusal reasons beyond the walk's own.
const (
	RefuseVCS     Reason = "vcs-metadata" // under .git/, .hg/, .svn/ or .synaptic/
	RefuseIgnored Reason = "ignored"      // matched by .gitignore, .synapticignore or .git/info/exclude
)

// maxIgnoreFile bounds how much of one ignore file the policy reads.
const maxIgnoreFile = 1 << 20

// Check returns nil when rel (slash-separated, relative to the root, clean)
// may be read, or the rule that refuses it.
func (p ReadPolicy) Check(rel string) *Refusal {
	if p.allowed(rel) {
		return nil
	}
	parts := strings.Split(rel, "/")
	for _, d := range parts[:len(parts)-1] {
		if mandatoryNoise[d] {
			return &Refusal{RefuseVCS, "inside " + d + "/"}
		}
	}
	if why, ok := Sensitive(rel); ok {
		return &Refusal{SkipSensitive, why}
	}
	if rule, ok := p.ignored(parts); ok {
		return &Refusal{RefuseIgnored, rule}
	}
	return nil
}

// MatchGlob reports whether rel matches a gitignore-syntax glob anchored at
// the root ("docs/**", "config/*.env", "**/fixtures/.env").
func MatchGlob(glob, rel string) bool {
	return wildmatch(strings.TrimPrefix(glob, "/"), rel)
}

func (p ReadPolicy) allowed(rel string) bool {
	for _, g := range p.Allow {
		if MatchGlob(g, rel) {
			return true
		}
	}
	return false
}

// ignored applies the ignore files of every directory from the root down to
// the file's own, as the walk would have: an ignored ancestor directory
// excludes everything below it.
func (p ReadPolicy) ignored(parts []string) (rule string, yes bool) {
	exclude := p.readIgnore(".git/info/exclude")
	var sc *scope
	var inIndex tracked // what git tracks, read at the first ignored path
	indexRead := false
	dir := ""
	for i, name := range parts {
		git := p.readIgnore(joinRel(dir, ".gitignore"))
		syn := p.readIgnore(joinRel(dir, ".synapticignore"))
		if git != nil || syn != nil {
			sc = sc.child(dir, git, syn)
		}
		rel := joinRel(dir, name)
		isDir := i < len(parts)-1
		if sc.tracking() || sc.ignored(exclude, rel, name, isDir) {
			// What git tracks is kept, as the walk keeps it; the index is
			// read only for a path the ignore files leave out.
			if !indexRead {
				inIndex, indexRead = p.tracked(), true
			}
			ig, onlyTracked := sc.ignoredTracked(exclude, inIndex, rel, name, isDir)
			switch {
			case ig && isDir:
				return "directory " + rel + "/ is ignored", true
			case ig:
				return "matched by an ignore file", true
			case onlyTracked:
				sc = sc.trackedOnly(rel)
			}
		}
		dir = rel
	}
	return "", false
}

// tracked is what git tracks below the policy's root (see trackedFiles).
func (p ReadPolicy) tracked() tracked {
	if p.Root == nil {
		return nil
	}
	root, err := filepath.Abs(p.Root.Name())
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return nil
	}
	t, _ := trackedFiles(root)
	return t
}

// readIgnore reads one ignore file through the root, if it is a regular
// file; anything else (missing, a FIFO, a directory) contributes nothing.
func (p ReadPolicy) readIgnore(rel string) (f *ignoreFile) {
	if p.Root == nil {
		return nil
	}
	if p.cache != nil {
		p.cache.mu.Lock()
		cached, ok := p.cache.files[rel]
		p.cache.mu.Unlock()
		if ok {
			return cached
		}
		defer func() {
			p.cache.mu.Lock()
			p.cache.files[rel] = f
			p.cache.mu.Unlock()
		}()
	}
	data, err := safefile.ReadFile(p.Root, rel, maxIgnoreFile, nil)
	if err != nil {
		return nil
	}
	f = parseIgnoreFile(data)
	return f
}
