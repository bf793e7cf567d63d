package extract

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ProjectSource says how the import path of an extraction root was found.
type ProjectSource string

// ProjectLines says, one line per language, which enclosing project the
// run resolved the root in (empty when none).
func (s *Summary) ProjectLines() []string {
	lines := slices.Clone(s.Projects)
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
