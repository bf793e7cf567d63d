package search

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Glob matches slash-separated paths relative to a repository root.
// Segments use path.Match syntax (* ? [...] and \ escapes, none crossing a
// slash); a "**" segment matches any number of segments, zero included,
// so "**/*.ts" matches "a.ts" and "web/src/a.ts", and "src/**" everything
// below src. A pattern without a slash matches a file name at any depth
// ("*.go" is "**/*.go"), as in .gitignore.
type Glob struct {
	segs []string
}

// ParseGlob validates a glob. It refuses patterns that could only name
// paths outside the root: absolute ones and ".." segments.
func ParseGlob(pattern string) (*Glob, error) {
	p := strings.TrimPrefix(pattern, "./")
	switch {
	case p == "":
		return nil, errors.New("path_glob is empty")
	case strings.HasPrefix(p, "/") || strings.Contains(p, "\\\\") || len(p) > 1 && p[1] == ':':
		return nil, fmt.Errorf("path_glob %q is absolute: globs are relative to the repository root (e.g. src/**/*.go)", pattern)
	}
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
	for _, s := range segs {
		switch s {
		case "..":
			return nil, fmt.Errorf("path_glob %q has a \"..\" segment: globs cannot leave the repository root", pattern)
		case "", ".":
			return nil, fmt.Errorf("path_glob %q has an empty or \".\" segment", pattern)
		case "**":
			continue
		}
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("path_glob %q: segment %q is not a valid glob (%v)", pattern, s, err)
		}
	}
	if len(segs) == 1 && segs[0] != "**" {
		segs = []string{"**", segs[0]}
	}
	return &Glob{segs: segs}, nil
}

// Match reports whether rel (slash-separated, relative to the root)
// matches. A nil Glob matches everything.
func (g *Glob) Match(rel string) bool {
	if g == nil {
		return true
	}
	return matchSegs(g.segs, strings.Split(rel, "/"))
}

// matchSegs matches segment lists by dynamic programming over (segment,
// part) pairs, so any number of "**" costs len(segs)*len(parts) steps.
func matchSegs(segs, parts []string) bool {
	// reach[j]: segs[:i] can match parts[:j], for the current i.
	reach := make([]bool, len(parts)+1)
	reach[0] = true
	for _, s := range segs {
		next := make([]bool, len(parts)+1)
		if s == "**" {
			seen := false
			for j := range reach {
				seen = seen || reach[j]
				next[j] = seen
			}
		} else {
			for j := 0; j < len(parts); j++ {
				if reach[j] {
					next[j+1], _ = path.Match(s, parts[j])
				}
			}
		}
		reach = next
	}
	return reach[len(parts)]
}
