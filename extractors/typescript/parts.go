package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Project parts (docs/abi-v2.md "Project parts"): the project info cut
// into what one file's import keys can read, so an edit of a package.json
// or tsconfig.json re-extracts only the files whose keys it can move.
//
//	cfg:<dir>   the tsconfig/jsconfig of the tree in dir (with what it
//	            extends); a file reads those of its folder and above
//	cfg:^       the configs above the root
//	pkg:<name>  the packages called name; a bare specifier reads every
//	            name it starts with ("a/b/c": a, a/b, a/b/c)
//	*           everything: a file with more dependencies than a file
//	            may name
//
// A relative specifier reads no part: its keys depend on the file's own
// path alone.

const (
	partConfig      = "cfg:"
	partConfigAbove = "cfg:^"
	partPackage     = "pkg:"
	partAll         = "*"
)

// parts are p's parts with their digests.
func (p *project) parts(info []byte) []abi.ProjectPart {
	parts := []abi.ProjectPart{{Name: partAll, Digest: digestOf(info)}}
	var above []tsConfig
	for _, c := range p.Configs {
		if c.Inside != "" {
			above = append(above, c)
			continue
		}
		parts = append(parts, abi.ProjectPart{Name: partConfig + c.Dir, Digest: jsonDigest(c)})
	}
	if len(above) > 0 {
		parts = append(parts, abi.ProjectPart{Name: partConfigAbove, Digest: jsonDigest(above)})
	}
	byName := map[string][]npmPackage{}
	var names []string
	for _, pkg := range p.Packages {
		if _, seen := byName[pkg.Name]; !seen {
			names = append(names, pkg.Name)
		}
		byName[pkg.Name] = append(byName[pkg.Name], pkg)
	}
	for _, n := range names {
		parts = append(parts, abi.ProjectPart{Name: partPackage + n, Digest: jsonDigest(byName[n])})
	}
	return abi.SortProjectParts(parts)
}

// importDeps appends the parts the keys of bare specifier spec imported
// from folder dir are read from: the configs that may apply to dir and
// the packages spec may name.
func importDeps(deps []string, dir, spec string) []string {
	deps = append(deps, partConfigAbove)
	for d := dir; ; d = path.Dir(d) {
		deps = append(deps, partConfig+d)
		if d == "." || d == "/" || d == "" {
			break
		}
	}
	for i := 0; i <= len(spec); i++ {
		if i == len(spec) || spec[i] == '/' {
			deps = append(deps, partPackage+spec[:i])
		}
	}
	return deps
}

// fileDeps is the sorted form of deps, or everything when there are more
// than a file may name.
func fileDeps(deps []string) []string {
	deps = abi.SortedDeps(deps)
	if len(deps) > abi.MaxProjectDeps {
		return []string{partAll}
	}
	for _, d := range deps {
		if len(d) > abi.MaxProjectPartName {
			return []string{partAll}
		}
	}
	return deps
}

// isBare reports a specifier that is not relative: the project's
// configs and packages may map it.
func isBare(spec string) bool {
	return spec != "" && spec != "." && spec != ".." && !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../")
}

func jsonDigest(v any) string {
	b, _ := json.Marshal(v) // plain structs and slices: never fails
	return digestOf(b)
}

func digestOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:16])
}
