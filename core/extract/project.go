package extract

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// ProjectSource says how the import path of an extraction root was found.
type ProjectSource string

const (
	// ProjectGoModRoot: the root holds its own go.mod.
	ProjectGoModRoot ProjectSource = "go.mod at the root"
	// ProjectGoModAbove: the nearest go.mod above the root, as the go
	// command finds it (module path + the root's directory below it).
	ProjectGoModAbove ProjectSource = "go.mod above the root"
	// ProjectGOPATH: no go.mod; the root sits in a GOPATH-style tree
	// (…/src/net/http is "net/http").
	ProjectGOPATH ProjectSource = "GOPATH layout"
)

// stdModule is the module path of $GOROOT/src: its packages are imported
// without a prefix ("net/http", not "std/net/http").
const stdModule = "std"

// goModMaxBytes caps a go.mod read above the root (a go.mod is a few KB).
const goModMaxBytes = 1 << 20

// GoProject is the Go context of an extraction root: the import path of
// the root directory, so imports of the root's own packages (external test
// packages, dot imports, packages below it) resolve to its folders.
type GoProject struct {
	Source     ProjectSource
	Dir        string // absolute directory of the go.mod ("" for GOPATH)
	Module     string // module path from that go.mod ("" for GOPATH)
	ImportPath string // import path of the root itself
}

// String is the summary's line: which project root and module path were used.
func (p GoProject) String() string {
	if p.Source == ProjectGOPATH {
		return fmt.Sprintf("go: root imported as %q (%s, no go.mod)", p.ImportPath, p.Source)
	}
	where := fmt.Sprintf("root imported as %q", p.ImportPath)
	if p.ImportPath == "" {
		where = "its folders are the import paths"
	}
	return fmt.Sprintf("go: module %q (%s: %s), %s", p.Module, p.Source, filepath.Join(p.Dir, "go.mod"), where)
}

// findGoProject finds the Go context of root (absolute) the way the go
// command does: root's own go.mod, else the nearest go.mod in a parent
// directory, else a GOPATH-style path. It returns nil when none applies,
// and a warning when a go.mod on the way cannot be used.
func findGoProject(root string) (*GoProject, string) {
	if mod, err := goModuleAt(root); err == nil && mod != "" {
		return &GoProject{Source: ProjectGoModRoot, Dir: root, Module: mod, ImportPath: goImportPath(mod, ".")}, ""
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		mod, err := goModuleAt(dir)
		switch {
		case err == nil && mod == "":
			return nil, fmt.Sprintf("%s declares no module path: the root's Go import path is unknown (add a 'module' line)", filepath.Join(dir, "go.mod"))
		case err == nil:
			rel, rerr := filepath.Rel(dir, root)
			if rerr != nil {
				return nil, ""
			}
			return &GoProject{Source: ProjectGoModAbove, Dir: dir, Module: mod, ImportPath: goImportPath(mod, filepath.ToSlash(rel))}, ""
		}
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	if ip := gopathImportPath(root); ip != "" {
		return &GoProject{Source: ProjectGOPATH, ImportPath: ip}, ""
	}
	return nil, ""
}

// goImportPath is the import path of directory rel below the go.mod of
// module mod: the standard library's module has no prefix, and a package
// under a vendor directory is imported by the path after "vendor/".
func goImportPath(mod, rel string) string {
	if i := strings.LastIndex("/"+rel, "/vendor/"); i >= 0 {
		return rel[i+len("vendor/"):]
	}
	if mod == stdModule {
		if rel == "." {
			return "" // $GOROOT/src itself: its folders are the import paths
		}
		return rel
	}
	return path.Join(mod, rel)
}

// goModuleAt reads the module path of dir/go.mod through a root held on
// dir, so a FIFO, a device or a huge file there is refused, not read. An
// error means there is no usable go.mod file in dir.
func goModuleAt(dir string) (string, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return "", err
	}
	defer r.Close()
	data, err := safefile.ReadFile(r, "go.mod", goModMaxBytes, nil)
	if err != nil {
		return "", err
	}
	return parseGoModule(data), nil
}

// parseGoModule returns the module path declared in a go.mod file, "" if
// it declares none.
func parseGoModule(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if rest, ok := strings.CutPrefix(line, "module"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			rest, _, _ = strings.Cut(rest, "//")
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// goFamily is the language family of Go files (the golang plugin's).
const goFamily = "go"

// goRootImportPath finds the Go project of root, records it (and any
// warning) in sum when Go files are routed, and returns the import path
// the resolver maps to the root directory ("" if unknown).
func goRootImportPath(root string, routed []*job, sum *Summary) string {
	p, warning := findGoProject(root)
	if !slices.ContainsFunc(routed, func(j *job) bool { return j.lang.Family == goFamily }) {
		return importPathOf(p)
	}
	if warning != "" {
		sum.Warnings = append(sum.Warnings, warning)
	}
	sum.Go = p
	return importPathOf(p)
}

func importPathOf(p *GoProject) string {
	if p == nil {
		return ""
	}
	return p.ImportPath
}

// ProjectLines says, one line per language, which enclosing project the
// run resolved the root in (empty when none).
func (s *Summary) ProjectLines() []string {
	var lines []string
	if s.Go != nil {
		lines = append(lines, s.Go.String())
	}
	lines = append(lines, s.Projects...)
	if s.Python != nil {
		lines = append(lines, s.Python.String())
	}
	return lines
}

// ProjectPyPackageChain and the others say how a root's Python package
// was found.
const (
	// ProjectPyPackageChain: the root and its parents hold __init__.py
	// up to the source root (the first parent without one).
	ProjectPyPackageChain ProjectSource = "__init__.py up to the source root"
	// ProjectPyProject: a pyproject.toml, setup.py or setup.cfg above
	// the root; the source root is its src/ when the root is below it.
	ProjectPyProject ProjectSource = "Python project file above the root"
)

// pythonFamily is the language family of Python files.
const pythonFamily = "python"

// pyProjectFiles mark the directory of a Python project.
var pyProjectFiles = []string{"pyproject.toml", "setup.py", "setup.cfg"}

// PyProject is the Python context of an extraction root below its source
// root: the dotted package the root is, so absolute imports of the
// project's own modules ("shop.billing.invoice") reach the root's files.
type PyProject struct {
	Source  ProjectSource
	Dir     string // absolute source root (where "import shop" starts)
	Package string // dotted package of the extraction root ("shop.billing")
}

func (p PyProject) String() string {
	return fmt.Sprintf("python: root imported as %q (source root %s: %s)", p.Package, p.Dir, p.Source)
}

// findPyProject finds the source root above root the way Python's import
// system sees a package: through __init__.py files, else a project file
// (pyproject.toml, setup.py, setup.cfg) with or without a src/ layout. It
// returns nil when root is its own source root or the path between them
// is not made of importable names.
func findPyProject(root string) *PyProject {
	d := root
	for isRegular(filepath.Join(d, "__init__.py")) && filepath.Dir(d) != d {
		d = filepath.Dir(d)
	}
	if d != root {
		return pyProjectAt(ProjectPyPackageChain, d, root)
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		if slices.ContainsFunc(pyProjectFiles, func(name string) bool { return isRegular(filepath.Join(dir, name)) }) {
			src := filepath.Join(dir, "src")
			if root == src || strings.HasPrefix(root, src+string(filepath.Separator)) {
				dir = src
			}
			return pyProjectAt(ProjectPyProject, dir, root)
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
}

func pyProjectAt(source ProjectSource, srcRoot, root string) *PyProject {
	rel, err := filepath.Rel(srcRoot, root)
	if err != nil || rel == "." {
		return nil
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts {
		if !isPyIdentifier(p) {
			return nil
		}
	}
	return &PyProject{Source: source, Dir: srcRoot, Package: strings.Join(parts, ".")}
}

// isPyIdentifier: an ASCII Python identifier (a folder named "my-app" is
// not importable, so it cannot be a package).
func isPyIdentifier(s string) bool {
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// pyRootPackage finds the Python package of root and records it in sum
// when Python files are routed; it returns the dotted package ("" if none).
func pyRootPackage(root string, routed []*job, sum *Summary) string {
	if !slices.ContainsFunc(routed, func(j *job) bool { return j.lang.Family == pythonFamily }) {
		return ""
	}
	p := findPyProject(root)
	if p == nil {
		return ""
	}
	sum.Python = p
	return p.Package
}

// rootDigestKey is what the inputs digest records of the root's place in
// its projects; without a Python package it is the Go import path alone,
// as before that was found, so existing caches stay valid. (A plugin's
// project info is in its files' cache keys.)
func rootDigestKey(goRoot, pyPackage string) string {
	key := goRoot
	if pyPackage != "" {
		key += "\x00python=" + pyPackage
	}
	return key
}
