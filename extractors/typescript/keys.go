package main

import (
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// ABI v2 file facts. Every file answers to its own repository path as its
// module key; an import's keys are the paths its specifier may name, in
// the order Node and TypeScript probe them, so the resolver takes the
// first file that exists without knowing any extension:
//
//	"./x" from a/b.ts   a/x, a/x.ts, a/x.tsx, …, a/x/index.ts, …
//	"./x.js"            a/x.js, …, then a/x.ts, … (written for x.ts)
//	"zod/v4/core"       the targets of "./v4/core" in zod's "exports",
//	                    each probed as above (a package of the tree, or
//	                    the one enclosing the root)
//	"@/util"            a tsconfig "paths" pattern's targets, then baseUrl

// probeExts are the extensions a specifier without one may stand for, in
// the order they are tried.
var probeExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// fileFacts sets f's v2 facts: its module key, its test marker, the
// keys and kind of its imports, and the project parts those keys were
// read from (parts.go).
func fileFacts(f *extract.File) {
	p := currentProject()
	dir := path.Dir(f.Path)
	var deps []string
	for i := range f.Imports() {
		im := &f.Imports()[i]
		im.Keys = p.importKeys(dir, im.Path)
		if isBare(im.Path) {
			deps = importDeps(deps, dir, im.Path)
		}
		im.Kind = abi.ImportSymbols
		if im.Alias == "" && len(im.Names) == 0 {
			im.Kind = abi.ImportSideEffect // import "./polyfill", require("x") for its effects
		}
		for j := range im.Names {
			if n := &im.Names[j]; n.Name == "default" && n.Alias != "" {
				// A default export is usually defined under the name it
				// is imported as.
				n.Name, n.Alias = n.Alias, ""
			}
		}
	}
	f.SetFile(abi.FileFacts{Modules: []string{f.Path}, Test: extract.ConventionalTestPath(f.Path), ProjectDeps: fileDeps(deps)})
}

// importKeys are the candidate keys of specifier spec imported from the
// repository folder dir.
func (p *project) importKeys(dir, spec string) []string {
	if spec == "" {
		return nil
	}
	if spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
		target := path.Join(dir, spec)
		if target == ".." || strings.HasPrefix(target, "../") {
			return nil // outside the tree
		}
		return probe(nil, target)
	}
	var keys []string
	if c := p.configFor(dir); c != nil {
		keys = c.keys(keys, spec, p.Root)
	}
	return p.packageKeys(keys, spec)
}

// probe appends the paths specifier path target may name, in Node's and
// TypeScript's order: the path itself, then with each extension, then its
// index file with each, then (for "./x.js" written for x.ts) its
// extension swapped for each. A target that already ends in one of those
// extensions is a file name: "x.js.ts" and "x.js/index.ts" are not tried,
// which keeps an import's keys well under the host's bound of 64.
func probe(keys []string, target string) []string {
	keys = addKey(keys, target)
	ext := path.Ext(target)
	if !slices.Contains(probeExts, ext) {
		for _, e := range probeExts {
			keys = addKey(keys, target+e)
		}
		for _, e := range probeExts {
			keys = addKey(keys, target+"/index"+e)
		}
	}
	if trimmed := strings.TrimSuffix(target, ext); trimmed != target {
		for _, e := range probeExts {
			keys = addKey(keys, trimmed+e)
		}
	}
	return keys
}

func addKey(keys []string, k string) []string {
	k = strings.TrimPrefix(k, "./")
	for _, x := range keys {
		if x == k {
			return keys
		}
	}
	return append(keys, k)
}

// configFor is the tsconfig that applies to files of dir: the nearest
// one of the tree at or above it, else the nearest above the root.
func (p *project) configFor(dir string) *tsConfig {
	var best *tsConfig
	for i := range p.Configs {
		c := &p.Configs[i]
		if c.Inside != "" {
			continue
		}
		if (c.Dir == "." || dir == c.Dir || strings.HasPrefix(dir, c.Dir+"/")) && (best == nil || len(c.Dir) > len(best.Dir)) {
			best = c
		}
	}
	if best != nil {
		return best
	}
	for i := range p.Configs {
		c := &p.Configs[i]
		if c.Inside != "" && (best == nil || strings.Count(c.Inside, "/") < strings.Count(best.Inside, "/")) {
			best = c
		}
	}
	return best
}

// keys appends what "paths" (the matching pattern with the longest
// prefix) and then "baseUrl" make of spec.
func (c *tsConfig) keys(keys []string, spec, root string) []string {
	base := c.BaseURL
	if base == "" {
		base = c.PathsBase // paths inherited from a config in another folder
	}
	if base == "" {
		base = "."
	}
	if targets, star, ok := matchPaths(c.Paths, spec); ok {
		for _, t := range targets {
			if r, ok := c.toRoot(root, path.Join(base, strings.ReplaceAll(t, "*", star))); ok {
				keys = probe(keys, r)
			}
		}
	}
	if c.BaseURL != "" {
		if r, ok := c.toRoot(root, path.Join(c.BaseURL, spec)); ok {
			keys = probe(keys, r)
		}
	}
	return keys
}

// matchPaths finds spec's "paths" entry: an exact pattern, else the one
// "*" pattern with the longest prefix, and what its "*" matched.
func matchPaths(paths []tsPath, spec string) (targets []string, star string, ok bool) {
	best := -1
	for i, p := range paths {
		if p.Pattern == spec {
			return p.Targets, "", true
		}
		pre, post, wild := strings.Cut(p.Pattern, "*")
		if !wild || len(spec) < len(pre)+len(post) || !strings.HasPrefix(spec, pre) || !strings.HasSuffix(spec, post) {
			continue
		}
		if best < 0 || len(pre) > strings.Index(paths[best].Pattern, "*") {
			best, star = i, spec[len(pre):len(spec)-len(post)]
		}
	}
	if best < 0 {
		return nil, "", false
	}
	return paths[best].Targets, star, true
}

// packageKeys appends the paths a bare specifier naming a package of the
// tree (or the one enclosing the root) resolves to.
func (p *project) packageKeys(keys []string, spec string) []string {
	pkg := p.packageOf(spec)
	if pkg == nil {
		return keys
	}
	sub := "." + spec[len(pkg.Name):]
	var targets []string
	switch {
	case pkg.HasExports:
		targets = exportTargets(pkg.Exports, sub)
	case sub == ".":
		targets = append(append(targets, pkg.Main...), "./index")
	default:
		targets = []string{sub}
	}
	for _, t := range targets {
		clean := path.Clean(t)
		if clean == ".." || strings.HasPrefix(clean, "../") {
			continue // outside the package: never a file of it
		}
		if r, ok := pkg.toRoot(p.Root, clean); ok {
			keys = probe(keys, r)
		}
	}
	return keys
}

// packageOf is the package named by spec's leading name: the longest
// name that matches, nil if none or if two packages share it.
func (p *project) packageOf(spec string) *npmPackage {
	var best *npmPackage
	tie := false
	for i := range p.Packages {
		pkg := &p.Packages[i]
		if pkg.Name == "" || spec != pkg.Name && !strings.HasPrefix(spec, pkg.Name+"/") {
			continue
		}
		switch {
		case best == nil || len(pkg.Name) > len(best.Name):
			best, tie = pkg, false
		case len(pkg.Name) == len(best.Name):
			tie = true
		}
	}
	if tie {
		return nil
	}
	return best
}

// exportTargets are the targets of subpath sub: its exact entry, else the
// pattern entry ("./*", "./utils/*.js") with the longest prefix, its "*"
// replaced by what the pattern matched.
func exportTargets(exports []npmExport, sub string) []string {
	for _, e := range exports {
		if e.Subpath == sub {
			return e.Targets
		}
	}
	var best *npmExport
	var star string
	for i := range exports {
		e := &exports[i]
		pre, post, ok := strings.Cut(e.Subpath, "*")
		if !ok || !strings.HasPrefix(sub, pre) || !strings.HasSuffix(sub[len(pre):], post) || len(sub) < len(pre)+len(post) {
			continue
		}
		if best == nil || len(pre) > len(strings.SplitN(best.Subpath, "*", 2)[0]) {
			best, star = e, sub[len(pre):len(sub)-len(post)]
		}
	}
	if best == nil {
		return nil
	}
	out := make([]string, len(best.Targets))
	for i, t := range best.Targets {
		out[i] = strings.ReplaceAll(t, "*", star)
	}
	return out
}
