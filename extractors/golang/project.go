package main

import (
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// What the go command knows about where packages live: the go.mod files
// of the tree and above it, or a GOPATH-style root. The project entry
// point reads them once per extraction; each file then gets its package's
// import path as its scope and its imports that path as their key.

// stdModule is the module path of $GOROOT/src: its packages are imported
// without a prefix ("net/http", not "std/net/http").
const stdModule = "std"

// goModule is one go.mod of the tree: the directory holding it
// (repository-relative) and its module path.
type goModule struct{ dir, path string }

// project is the project info, decoded.
type project struct {
	mods   []goModule // go.mod files inside the tree
	rootIP string     // import path of the root ("" = unknown, or its folders are the paths)
	known  bool       // rootIP says where the root is imported from
}

// projectInfo is the entry point: the lines "root\t<ip>" (when known) and
// "mod\t<dir>\t<module>" per go.mod in the tree, sorted.
func projectInfo(in *abi.ProjectInput) ([]byte, error) {
	var lines []string
	nearest := -1 // levels above the root of the nearest go.mod there
	var above string
	for _, f := range in.Files {
		if path.Base(f.Path) != "go.mod" {
			continue
		}
		mod := moduleLine(f.Data)
		levels := strings.Count(f.Path, "../")
		switch {
		case levels == 0 && mod != "":
			lines = append(lines, "mod\t"+path.Dir(f.Path)+"\t"+mod)
		case levels > 0 && (nearest < 0 || levels < nearest):
			nearest, above = levels, mod
		}
	}
	switch {
	case slices.Contains(lines, "mod\t.\t"+stdModule) || hasRootModule(lines):
		// the root's own go.mod says it
	case nearest > 0 && above != "":
		parts := strings.Split(strings.Trim(in.Root, "/"), "/")
		if nearest <= len(parts) {
			rel := strings.Join(parts[len(parts)-nearest:], "/")
			lines = append(lines, "root\t"+importPath(above, rel))
		}
	case nearest < 0:
		if i := strings.LastIndex(in.Root, "/src/"); i >= 0 {
			lines = append(lines, "root\t"+in.Root[i+len("/src/"):]) // GOPATH layout
		}
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n")), nil
}

func hasRootModule(lines []string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "mod\t.\t") })
}

// moduleLine returns the module path a go.mod declares, "" if none.
func moduleLine(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest, _, _ = strings.Cut(rest, "//")
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// importPath is the import path of directory rel below the go.mod of
// module mod: the standard library's module has no prefix, and a package
// under a vendor directory is imported by the path after "vendor/".
func importPath(mod, rel string) string {
	if i := strings.LastIndex("/"+rel, "/vendor/"); i >= 0 {
		return rel[i+len("vendor/"):]
	}
	if mod == stdModule {
		if rel == "." {
			return ""
		}
		return rel
	}
	return path.Join(mod, rel)
}

// projectCache decodes extract.Project() once per distinct info.
var projectCache struct {
	raw string
	p   project
}

func currentProject() *project {
	raw := string(extract.Project())
	if raw == projectCache.raw && (raw != "" || projectCache.p.mods != nil || !projectCache.p.known) {
		return &projectCache.p
	}
	p := project{}
	for _, line := range strings.Split(raw, "\n") {
		f := strings.Split(line, "\t")
		switch {
		case len(f) == 3 && f[0] == "mod":
			p.mods = append(p.mods, goModule{dir: f[1], path: f[2]})
		case len(f) == 2 && f[0] == "root":
			p.rootIP, p.known = f[1], true
		}
	}
	projectCache.raw, projectCache.p = raw, p
	return &projectCache.p
}

// dirImportPath is the import path of repository directory dir, and
// whether it is known: the innermost go.mod of the tree at or above dir,
// else the root's import path. Unknown, the directory itself stands in
// (a package's files share it; nothing outside imports it by that).
func (p *project) dirImportPath(dir string) (string, bool) {
	best := -1
	for i, m := range p.mods {
		if (m.dir == "." || dir == m.dir || strings.HasPrefix(dir, m.dir+"/")) && (best < 0 || len(m.dir) > len(p.mods[best].dir)) {
			best = i
		}
	}
	if best >= 0 {
		m := p.mods[best]
		rel := "."
		if m.dir != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(dir, m.dir), "/")
			if rel == "" {
				rel = "."
			}
		} else {
			rel = dir
		}
		ip := importPath(m.path, rel)
		if ip == "" {
			return dir, true
		}
		return ip, true
	}
	if p.known {
		if i := strings.LastIndex("/"+dir, "/vendor/"); i >= 0 {
			return dir[i+len("vendor/"):], true
		}
		return path.Join(p.rootIP, dir), true
	}
	return dir, false
}

// fileFacts gives a Go file its v2 facts: the scope of its package (the
// import path; a _test package and a main program get their own), the
// keys of its imports, its test marker and build variants.
func (w *walker) fileFacts(f *extract.File) {
	p := currentProject()
	ip, known := p.dirImportPath(path.Dir(f.Path))
	pkg := w.pkgName
	scope := ip
	switch {
	case pkg == "main":
		scope = ip + ":main" // a program is never imported
	case strings.HasSuffix(pkg, "_test"):
		scope = ip + "_test"
	}
	f.SetFile(abi.FileFacts{Scope: scope, Test: w.isTest, Variants: variants(f.Path, w.src)})
	under := strings.TrimSuffix(pkg, "_test")
	for i := range f.Imports() {
		im := &f.Imports()[i]
		im.Keys = []string{im.Path}
		if !known && under != pkg && path.Base(im.Path) == under && countBase(f.Imports(), under) == 1 {
			// An external test package beside an unplaced package: the
			// go command requires foo_test to sit next to foo.
			im.Keys = append(im.Keys, ip)
		}
		switch im.Alias {
		case ".":
			im.Kind = abi.ImportWildcard
		case "_":
			im.Kind = abi.ImportSideEffect
		default:
			im.Kind = abi.ImportModule // bound as the package's own name when it is here
		}
	}
}

func countBase(ims []abi.Import, base string) int {
	n := 0
	for _, im := range ims {
		if path.Base(im.Path) == base {
			n++
		}
	}
	return n
}
