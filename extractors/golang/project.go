package main

import (
	"fmt"
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
// "mod\t<dir>\t<module>" per go.mod in the tree, sorted. It also tells
// the extraction summary which module (or GOPATH path) the root was
// resolved in, and warns of a go.mod above the root without a module line.
func projectInfo(in *abi.ProjectInput) ([]byte, error) {
	var lines []string
	nearest := -1 // levels above the root of the nearest go.mod there
	var above, rootMod string
	for _, f := range in.Files {
		if path.Base(f.Path) != "go.mod" {
			continue
		}
		mod := moduleLine(f.Data)
		levels := strings.Count(f.Path, "../")
		switch {
		case levels == 0 && mod != "":
			lines = append(lines, "mod\t"+path.Dir(f.Path)+"\t"+mod)
			if f.Path == "go.mod" {
				rootMod = mod
			}
		case levels > 0 && (nearest < 0 || levels < nearest):
			nearest, above = levels, mod
		}
	}
	gomodAbove := path.Join(in.Root, strings.Repeat("../", max(nearest, 0)), "go.mod")
	switch {
	case rootMod != "":
		// the root's own go.mod says it
		summarize(rootMod, "go.mod at the root", path.Join(in.Root, "go.mod"), importPath(rootMod, "."))
	case nearest > 0 && above != "":
		parts := strings.Split(strings.Trim(in.Root, "/"), "/")
		if nearest <= len(parts) {
			rel := strings.Join(parts[len(parts)-nearest:], "/")
			ip := importPath(above, rel)
			lines = append(lines, "root\t"+ip)
			summarize(above, "go.mod above the root", gomodAbove, ip)
		}
	case nearest > 0:
		extract.ProjectWarning("%s declares no module path: the root's Go import path is unknown (add a 'module' line)", gomodAbove)
	case nearest < 0:
		if i := strings.LastIndex(in.Root, "/src/"); i >= 0 {
			ip := in.Root[i+len("/src/"):]
			lines = append(lines, "root\t"+ip) // GOPATH layout
			extract.ProjectSummary("root imported as %q (GOPATH layout, no go.mod)", ip)
		}
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n")), nil
}

// summarize tells the extraction summary the module the root is in.
func summarize(mod, where, gomod, ip string) {
	root := fmt.Sprintf("root imported as %q", ip)
	if ip == "" {
		root = "its folders are the import paths"
	}
	extract.ProjectSummary("module %q (%s: %s), %s", mod, where, gomod, root)
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
	info := extract.Project()
	// Compared as string(info) without a copy: every file asks, and the
	// info is the same for the whole run.
	if string(info) == projectCache.raw && (len(info) > 0 || projectCache.p.mods != nil || !projectCache.p.known) {
		return &projectCache.p
	}
	raw := string(info)
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

// fileFacts gives a Go file its v2 facts: the scope of its package
// (directory and package name), the import path as its module key when
// the package is importable, the keys of its imports, its test marker and
// build variants.
func (w *walker) fileFacts(f *extract.File) {
	p := currentProject()
	ip, known := p.dirImportPath(path.Dir(f.Path))
	pkg := w.pkgName
	dir := path.Dir(f.Path)
	// A package is a directory and a package clause: two vendored copies
	// of one import path, or a testdata folder of one-file packages, stay
	// apart. A file without a clause is its own scope.
	ff := abi.FileFacts{Test: w.isTest, Variants: variants(f.Path, w.src)}
	if pkg != "" {
		ff.Scope = dir + ":" + pkg
	}
	// Importable packages, not a program or an external test package,
	// answer to their import path.
	switch {
	case pkg == "":
	case strings.HasSuffix(pkg, "_test"): // an external test package is never imported
	case pkg == "main":
		ff.Modules = []string{ip + mainSuffix} // only when nothing else answers (a test of the program)
	case vendorRoot(dir) != "":
		ff.Modules = []string{vendorKey(vendorRoot(dir), ip)} // visible to its own module only
	default:
		ff.Modules = []string{ip}
	}
	f.SetFile(ff)
	own := ""
	if root, ok := p.moduleRoot(dir); ok {
		own = path.Join(root, "vendor")
	}
	under := strings.TrimSuffix(pkg, "_test")
	for i := range f.Imports() {
		im := &f.Imports()[i]
		im.Keys = im.Keys[:0]
		if own != "" {
			im.Keys = append(im.Keys, vendorKey(own, im.Path))
		}
		im.Keys = append(im.Keys, im.Path, im.Path+mainSuffix)
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

// mainSuffix marks the key of a program: imported only by its own tests,
// when no importable package answers to the path.
const mainSuffix = ":main"

// vendorRoot is the vendor directory dir is in ("cmd/vendor"), or "".
func vendorRoot(dir string) string {
	if i := strings.LastIndex("/"+dir+"/", "/vendor/"); i >= 0 {
		return dir[:i+len("vendor")]
	}
	return ""
}

// vendorKey is the key of a vendored package as its module sees it.
func vendorKey(root, ip string) string { return "vendor:" + root + ":" + ip }

// moduleRoot is the directory of the innermost go.mod of the tree at or
// above dir.
func (p *project) moduleRoot(dir string) (string, bool) {
	best := ""
	found := false
	for _, m := range p.mods {
		if (m.dir == "." || dir == m.dir || strings.HasPrefix(dir, m.dir+"/")) && (!found || len(m.dir) > len(best)) {
			best, found = m.dir, true
		}
	}
	return best, found
}
