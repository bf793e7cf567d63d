package extract

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/resolve"
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
	if s.JS != nil {
		lines = append(lines, s.JS.String())
	}
	return lines
}

func isRegular(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// rootDigestKey is what the inputs digest records of the root's place in
// its projects; without npm packages it is the Go import path alone, as
// before those were found, so existing caches stay valid. (A plugin's
// own project input is in each file's plugin key.)
func rootDigestKey(goRoot string, js []resolve.JSPackage) string {
	key := goRoot
	if len(js) > 0 {
		b, _ := json.Marshal(js) // plain strings and slices: cannot fail
		key += "\x00npm=" + string(b)
	}
	return key
}
