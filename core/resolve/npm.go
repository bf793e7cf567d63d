package resolve

import (
	"path"
	"slices"
	"strings"
)

// JSPackage is an npm package whose files may be in the graph, from its
// package.json: a bare specifier naming it ("zod/v3" inside zod itself,
// "@acme/ui" from another package of a workspace) resolves to the file its
// "exports" map (else "module"/"main") names, as Node and TypeScript do.
type JSPackage struct {
	Name string
	// Dir is the package.json's folder relative to the root ("." or
	// "packages/ui") when it is inside the root. Inside is set instead
	// when the package encloses the root: the root's folder relative to
	// the package ("src/v4" for packages/zod/src/v4 of package zod).
	Dir, Inside string
	Exports     []JSExport // nil: no "exports" field
	Main        []string   // "module", "main", "types" targets, in that order
}

// JSExport is one "exports" entry: a subpath ("." , "./v3", "./*") and
// the targets of all its conditions in file order.
type JSExport struct {
	Subpath string
	Targets []string
}

// jsPackageFile resolves a bare specifier to a file of the graph through
// the package it names; -1 if it names none (an npm dependency) or the
// target is not in the graph.
func (r *resolver) jsPackageFile(ix *importIndex, spec string) int32 {
	pkg := r.jsPackageOf(spec)
	if pkg == nil {
		return -1
	}
	sub := "." + spec[len(pkg.Name):]
	var targets []string
	switch {
	case pkg.Exports != nil:
		targets = exportTargets(pkg.Exports, sub)
	case sub == ".":
		targets = append(slices.Clone(pkg.Main), "./index")
	default:
		targets = []string{sub}
	}
	for _, t := range targets {
		p, ok := pkg.toRoot(t)
		if !ok {
			continue
		}
		if fi := ecmaFile(ix, p); fi >= 0 {
			return fi
		}
	}
	return -1
}

// jsPackageOf is the package named by spec's leading name: the longest
// name that matches, nil if none or if two packages share it.
func (r *resolver) jsPackageOf(spec string) *JSPackage {
	var best *JSPackage
	tie := false
	for i := range r.jsPackages {
		p := &r.jsPackages[i]
		if p.Name == "" || spec != p.Name && !strings.HasPrefix(spec, p.Name+"/") {
			continue
		}
		switch {
		case best == nil || len(p.Name) > len(best.Name):
			best, tie = p, false
		case len(p.Name) == len(best.Name):
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
func exportTargets(exports []JSExport, sub string) []string {
	for _, e := range exports {
		if e.Subpath == sub {
			return e.Targets
		}
	}
	var best *JSExport
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

// toRoot maps a target relative to the package ("./src/v3/index.ts") to
// a path relative to the root; false when it lies outside the root.
func (p *JSPackage) toRoot(target string) (string, bool) {
	clean := path.Clean(target)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false // outside the package: never a file of it
	}
	if p.Inside == "" {
		return path.Join(p.Dir, clean), true
	}
	if clean == p.Inside {
		return ".", true
	}
	rel, ok := strings.CutPrefix(clean, p.Inside+"/")
	return rel, ok
}

// ecmaFile finds the file an ECMAScript specifier path p names: p itself,
// p with an extension, p/index with one, or p's extension swapped ("./x.js"
// written for x.ts). -1 if none.
func ecmaFile(ix *importIndex, p string) int32 {
	trimmed := strings.TrimSuffix(p, path.Ext(p))
	if fi, ok := ix.paths[p]; ok {
		return fi
	}
	for _, e := range ecmaExts {
		if fi, ok := ix.paths[p+e]; ok {
			return fi
		}
	}
	for _, e := range ecmaExts {
		if fi, ok := ix.paths[p+"/index"+e]; ok {
			return fi
		}
	}
	for _, e := range ecmaExts {
		if fi, ok := ix.paths[trimmed+e]; ok {
			return fi
		}
	}
	return -1
}
