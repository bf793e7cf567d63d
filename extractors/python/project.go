package main

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Where Python's import system starts for the extraction root. A folder of
// a project (src/shop/billing) is the package shop.billing, and its files'
// absolute imports of each other (import shop.billing.invoice) must reach
// them as they do in the whole project's graph. The project entry point
// works that out once per extraction from the project files above the
// root (pyproject.toml, setup.cfg, setup.py) and the root's own path.

// projectFiles mark the directory of a Python project (plugin.toml
// [project] lists the same names).
var projectFiles = []string{"pyproject.toml", "setup.cfg", "setup.py"}

// maxGuessedLevels bounds the root package guessed from the root's path
// when no project file above the root says where its source root is.
const maxGuessedLevels = 4

// projectInfo is the entry point. Its answer is "root\t<dotted package of
// the extraction root>" when a project file says it, "guess\t…" when only
// the root's folder names do; nothing when the root is its own source
// root (or its path is not made of importable names). It also says, in
// the run's summary, where it placed the root.
func projectInfo(in *abi.ProjectInput) ([]byte, error) {
	pkg, exact := rootPackage(in)
	switch {
	case pkg == "":
		return nil, nil
	case exact:
		levels, _ := nearestProjectAbove(in.Files)
		extract.ProjectSummary("root imported as %q (project file %d level(s) above the root)", pkg, levels)
		return fmt.Appendf(nil, "root\t%s", pkg), nil
	}
	extract.ProjectSummary("absolute imports may also start at %q (the root's folder names; no pyproject.toml, setup.cfg or setup.py above it)", pkg)
	return fmt.Appendf(nil, "guess\t%s", pkg), nil
}

// rootPackage is the dotted package of the extraction root. With a
// project file above the root, the source root is that project's
// directory, or the package directory it declares (package-dir "" =
// "src", a src/ layout): exactly what an installed project imports. With
// none, and no project file at the root itself, the root's trailing
// importable folder names (at most maxGuessedLevels) stand in, as an
// __init__.py chain would say: each file then also answers to the longer
// keys, which only a real import of that package spells.
func rootPackage(in *abi.ProjectInput) (pkg string, exact bool) {
	parts := strings.Split(strings.Trim(in.Root, "/"), "/")
	levels, data := nearestProjectAbove(in.Files)
	if levels > 0 {
		if levels > len(parts) {
			return "", false
		}
		rel := parts[len(parts)-levels:]
		if dir := packageDir(data); dir != "" {
			if d := strings.Split(dir, "/"); len(d) <= len(rel) && strings.Join(rel[:len(d)], "/") == dir {
				rel = rel[len(d):]
			}
		} else if rel[0] == "src" {
			rel = rel[1:]
		}
		for _, p := range rel {
			if !isIdentifier(p) {
				return "", false
			}
		}
		return strings.Join(rel, "."), true
	}
	for _, f := range in.Files {
		if !strings.Contains(f.Path, "/") {
			return "", false // the root is a project's own directory: its source root (or its src/)
		}
	}
	var guess []string
	for i := len(parts) - 1; i >= 0 && len(guess) < maxGuessedLevels && isIdentifier(parts[i]); i-- {
		guess = append([]string{parts[i]}, guess...)
	}
	return strings.Join(guess, "."), false
}

// nearestProjectAbove is how many levels above the root the nearest
// project file is (0: none), and the files of that directory.
func nearestProjectAbove(files []abi.ProjectFile) (int, map[string][]byte) {
	best := 0
	var data map[string][]byte
	for _, f := range files {
		levels := strings.Count(f.Path, "../")
		if levels == 0 || best > 0 && levels > best {
			continue
		}
		if levels < best || best == 0 {
			best, data = levels, map[string][]byte{}
		}
		data[path.Base(f.Path)] = f.Data
	}
	return best, data
}

// packageDir is the folder the project's top-level packages live in, as
// its metadata declares it ("" when it says nothing): pyproject.toml's
// [tool.setuptools] package-dir = {"" = "src"} (or the
// [tool.setuptools.package-dir] table), setup.cfg's [options] package_dir
// = =src, setup.py's package_dir={"": "src"}.
func packageDir(files map[string][]byte) string {
	if d := tomlPackageDir(string(files["pyproject.toml"])); d != "" {
		return d
	}
	if d := cfgPackageDir(string(files["setup.cfg"])); d != "" {
		return d
	}
	if m := setupPyPackageDir.FindStringSubmatch(string(files["setup.py"])); m != nil {
		return cleanDir(m[1])
	}
	return ""
}

var (
	setupPyPackageDir = regexp.MustCompile(`package_dir\s*=\s*\{\s*(?:''|"")\s*:\s*['"]([^'"]+)['"]`)
	tomlRootEntry     = regexp.MustCompile(`(?:^|[{,]\s*)(?:""|'')\s*=\s*["']([^"']+)["']`)
)

// tomlPackageDir reads the root entry of setuptools' package-dir from
// pyproject.toml: the inline table under [tool.setuptools], or the
// [tool.setuptools.package-dir] table.
func tomlPackageDir(src string) string {
	table := ""
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			table = strings.Trim(strings.ReplaceAll(line, " ", ""), "[]")
			continue
		}
		var entry string
		switch table {
		case "tool.setuptools":
			if rest, ok := strings.CutPrefix(line, "package-dir"); ok {
				entry = rest
				if _, v, ok := strings.Cut(rest, "="); ok {
					entry = strings.TrimSpace(v)
				}
			}
		case "tool.setuptools.package-dir":
			entry = line
		}
		if m := tomlRootEntry.FindStringSubmatch(strings.TrimPrefix(entry, "{")); entry != "" && m != nil {
			return cleanDir(m[1])
		}
	}
	return ""
}

// cfgPackageDir reads [options] package_dir from setup.cfg: "=src" on the
// key's line or on an indented continuation line.
func cfgPackageDir(src string) string {
	section, inKey := "", false
	for _, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case strings.HasPrefix(line, "["):
			section, inKey = strings.Trim(line, "[]"), false
			continue
		case section != "options":
			continue
		case inKey && raw != "" && (raw[0] == ' ' || raw[0] == '\t'):
		case strings.HasPrefix(line, "package_dir"):
			_, line, _ = strings.Cut(line, "=")
			inKey = true
		default:
			inKey = false
			continue
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "="); ok && strings.TrimSpace(rest) != "" {
			return cleanDir(strings.TrimSpace(rest))
		}
	}
	return ""
}

// cleanDir makes a declared package directory a plain relative path ("./src/" -> "src").
func cleanDir(d string) string {
	d = path.Clean(strings.TrimSpace(d))
	if d == "." || strings.HasPrefix(d, "../") || d == ".." || strings.HasPrefix(d, "/") {
		return ""
	}
	return d
}

// isIdentifier: an ASCII Python identifier (a folder named "my-app" is not
// importable, so it cannot be a package).
func isIdentifier(s string) bool {
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// projectCache decodes extract.Project() once per distinct info.
var projectCache struct {
	raw     string
	decoded bool
	root    rootPkg
}

// rootPkg is the extraction root's package: its dotted parts (nil: the
// root is a source root), and whether a project file said so (else the
// root's folder names suggest it, and the root may be a source root too).
type rootPkg struct {
	parts []string
	exact bool
}

func currentRoot() rootPkg {
	raw := string(extract.Project())
	if projectCache.decoded && raw == projectCache.raw {
		return projectCache.root
	}
	var root rootPkg
	for _, line := range strings.Split(raw, "\n") {
		kind, pkg, _ := strings.Cut(line, "\t")
		if (kind == "root" || kind == "guess") && pkg != "" {
			root = rootPkg{parts: strings.Split(pkg, "."), exact: kind == "root"}
		}
	}
	projectCache.raw, projectCache.decoded, projectCache.root = raw, true, root
	return root
}
