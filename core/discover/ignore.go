package discover

import (
	"bytes"
	"strings"
)

// pattern is one parsed line of a gitignore-syntax file.
type pattern struct {
	glob     string // what is matched: no leading "!", no trailing "/", no leading "/"
	negate   bool   // "!pat": re-include
	dirOnly  bool   // "pat/": matches directories only
	basename bool   // no slash in glob: matched against the last path element
	kind     patKind
	lit      string // literal (kindLiteral) or suffix (kindSuffix)
}

type patKind uint8

const (
	kindGlob    patKind = iota // general wildmatch
	kindLiteral                // no glob characters: plain comparison
	kindSuffix                 // "*literal" on a basename: suffix test
)

// parsePattern parses one line of a gitignore-syntax file, following git's
// dir.c: the caller has already split lines (and dropped a CR before LF).
// ok is false for blank lines and comments. Trailing spaces are removed
// unless escaped with a backslash; "\#" and "\!" make a literal first
// character (the backslash stays in the glob, where wildmatch treats it as
// an escape).
func parsePattern(line string) (p pattern, ok bool) {
	if line == "" || line[0] == '#' {
		return p, false
	}
	line = trimTrailingSpaces(line)
	if line == "" {
		return p, false
	}
	if line[0] == '!' {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	if line == "" {
		return p, false // "/" or "!" or "!/": matches nothing in git either
	}
	p.basename = strings.IndexByte(line, '/') < 0
	// A leading slash only anchors; a slash anywhere else anchors too, and
	// the glob is matched against the whole path below the ignore file.
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return p, false
	}
	p.glob = line
	switch i := strings.IndexAny(line, `*?[\`); {
	case i < 0:
		p.kind, p.lit = kindLiteral, line
	case p.basename && i == 0 && line[0] == '*' && strings.IndexAny(line[1:], `*?[\`) < 0:
		p.kind, p.lit = kindSuffix, line[1:]
	}
	return p, true
}

// trimTrailingSpaces follows git's trim_trailing_spaces: trailing ' '
// characters go unless the first of them is escaped by a backslash (which
// then stays, as the escape). Tabs are not trimmed.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i >= len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// match reports whether p matches rel, a slash-separated path relative to
// the directory holding the pattern's file, whose last element is name.
func (p *pattern) match(rel, name string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	target := rel
	if p.basename {
		target = name
	}
	switch p.kind {
	case kindLiteral:
		return target == p.lit
	case kindSuffix:
		return strings.HasSuffix(target, p.lit)
	}
	return wildmatch(p.glob, target)
}

// ignoreFile is the parsed patterns of one ignore file.
type ignoreFile struct {
	patterns []pattern
}

// parseIgnoreFile parses the content of a gitignore-syntax file. It never
// fails: unparseable lines cannot exist in this syntax, a malformed class
// simply never matches (as in git).
func parseIgnoreFile(data []byte) *ignoreFile {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	f := &ignoreFile{}
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if p, ok := parsePattern(string(line)); ok {
			f.patterns = append(f.patterns, p)
		}
	}
	if len(f.patterns) == 0 {
		return nil
	}
	return f
}

// decide returns whether the last pattern matching rel is a positive one
// (ignored) and whether any pattern matched at all. Later lines win, as in
// git, so the scan runs backwards and stops at the first hit.
func (f *ignoreFile) decide(rel, name string, isDir bool) (ignored, matched bool) {
	for i := len(f.patterns) - 1; i >= 0; i-- {
		p := &f.patterns[i]
		if p.match(rel, name, isDir) {
			return !p.negate, true
		}
	}
	return false, false
}

// scope is the ignore state in force for one directory: the ignore files of
// that directory chained to those of its ancestors. Directories without
// ignore files share their parent's scope, so a walk allocates one scope
// per directory that has an ignore file, not one per directory.
type scope struct {
	parent *scope
	base   string // directory of the files below, relative to the root; "" = root
	git    *ignoreFile
	syn    *ignoreFile
	// onlyTracked: the files below are in a directory the git rules
	// ignore, entered because git tracks files in it; only those count.
	onlyTracked bool
}

// tracking reports whether s is below a git-ignored directory (see
// scope.onlyTracked); the nil scope is not.
func (s *scope) tracking() bool { return s != nil && s.onlyTracked }

// trackedOnly is the scope below the git-ignored directory base that is
// entered for the files git tracks in it.
func (s *scope) trackedOnly(base string) *scope {
	return &scope{parent: s, base: base, onlyTracked: true}
}

// child is the scope of the directory base below s, with its ignore files.
func (s *scope) child(base string, git, syn *ignoreFile) *scope {
	return &scope{parent: s, base: base, git: git, syn: syn, onlyTracked: s.tracking()}
}

// layer selects which ignore files of a scope chain are consulted.
type layer uint8

const (
	layerSynaptic layer = iota
	layerGit
)

// decide walks the scope chain deepest first (a nested ignore file overrides
// its ancestors, as in git) and returns the verdict of the first file with a
// matching pattern.
func (s *scope) decide(l layer, rel, name string, isDir bool) (ignored, matched bool) {
	for sc := s; sc != nil; sc = sc.parent {
		f := sc.git
		if l == layerSynaptic {
			f = sc.syn
		}
		if f == nil {
			continue
		}
		sub := rel
		if sc.base != "" {
			sub = rel[len(sc.base)+1:]
		}
		if ig, ok := f.decide(sub, name, isDir); ok {
			return ig, true
		}
	}
	return false, false
}

// ignored decides a path: .synapticignore files first (any match there is
// final, so "!x" re-includes what .gitignore excludes and "x" excludes what
// it does not), then .gitignore files, then .git/info/exclude (git's lowest
// precedence source, held in exclude). Parent directories are not consulted
// here: the walk never enters an ignored directory, which is how git makes a
// file below an excluded directory impossible to re-include.
func (s *scope) ignored(exclude *ignoreFile, rel, name string, isDir bool) bool {
	if ig, ok := s.decide(layerSynaptic, rel, name, isDir); ok {
		return ig
	}
	return s.gitIgnored(exclude, rel, name, isDir)
}

// gitIgnored is git's own verdict: .gitignore files, then exclude.
func (s *scope) gitIgnored(exclude *ignoreFile, rel, name string, isDir bool) bool {
	if ig, ok := s.decide(layerGit, rel, name, isDir); ok {
		return ig
	}
	if exclude != nil {
		ig, _ := exclude.decide(rel, name, isDir)
		return ig
	}
	return false
}

// ignoredTracked is ignored with git's exception: git never ignores a
// file it tracks, so neither does the walk. A directory the git rules
// ignore is still entered when git tracks a file in it, and only tracked
// files count below it (onlyTracked: the caller gives that directory a
// scope saying so). A .synapticignore match that ignores is final; one
// that re-includes does not reopen a git-ignored directory to untracked
// files, as git itself never does.
func (s *scope) ignoredTracked(exclude *ignoreFile, t tracked, rel, name string, isDir bool) (ignored, onlyTracked bool) {
	if ig, ok := s.decide(layerSynaptic, rel, name, isDir); ok && (ig || !s.tracking()) {
		return ig, false
	}
	if !s.tracking() && !s.gitIgnored(exclude, rel, name, isDir) {
		return false, false
	}
	if isDir {
		return !t.under(rel), !s.tracking()
	}
	return !t.has(rel), false
}
