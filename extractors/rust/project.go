package main

import (
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// What cargo knows about where modules live: the Cargo.toml files of the
// tree and above it. The project entry point reads them once per
// extraction; each file then gets its module path (crate::a::b, spelled
// with the crate's name) as its module key, and its `use` paths the keys
// of the modules they may name.

// crate is one package's Cargo.toml: where it sits, what it is called in
// `use` paths, and the dependencies it renames.
type crate struct {
	dir     string            // repository-relative directory of the Cargo.toml ("." for the root or above it)
	prefix  string            // for a Cargo.toml above the root: the root's path below its directory
	name    string            // the library's name in paths: [lib] name, else [package] name with - as _
	lib     string            // [lib] path relative to dir (default src/lib.rs)
	renames map[string]string // dependency key -> crate name ([dependencies] x = { package = "y" })
}

// projectInfo is the entry point: one line per crate,
// "crate\t<dir>\t<prefix>\t<name>\t<lib>", then "rename\t<dir>\t<as>\t<crate>"
// per renamed dependency, sorted. A Cargo.toml without [package] (a
// workspace root) names no crate: its members have Cargo.toml files of
// their own, which the host hands in too.
func projectInfo(in *abi.ProjectInput) ([]byte, error) {
	var lines []string
	nearest, above := -1, (*manifest)(nil)
	rootHasCrate := false
	for _, f := range in.Files {
		if path.Base(f.Path) != "Cargo.toml" {
			continue
		}
		m := parseManifest(string(f.Data))
		if m.name == "" {
			continue
		}
		levels := strings.Count(f.Path, "../")
		switch {
		case levels == 0:
			dir := path.Dir(f.Path)
			rootHasCrate = rootHasCrate || dir == "."
			lines = append(lines, m.lines(dir, "")...)
		case nearest < 0 || levels < nearest:
			nearest, above = levels, &m
		}
	}
	if above != nil && !rootHasCrate {
		parts := strings.Split(strings.Trim(in.Root, "/"), "/")
		if nearest <= len(parts) {
			lines = append(lines, above.lines(".", strings.Join(parts[len(parts)-nearest:], "/"))...)
		}
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n")), nil
}

// manifest is what the plugin reads of a Cargo.toml.
type manifest struct {
	name, lib string
	renames   map[string]string
}

func (m *manifest) lines(dir, prefix string) []string {
	out := []string{"crate\t" + dir + "\t" + prefix + "\t" + m.name + "\t" + m.lib}
	for as, name := range m.renames {
		out = append(out, "rename\t"+dir+"\t"+as+"\t"+name)
	}
	return out
}

// parseManifest reads the few keys resolution needs from a Cargo.toml:
// [package] name, [lib] name and path, and dependencies renamed with
// `package = "…"` (inline tables and [dependencies.x] tables, in every
// dependency section). It is no full TOML parser: a key it cannot read is
// left at its default, which can only make fewer links.
func parseManifest(src string) manifest {
	m := manifest{lib: "src/lib.rs"}
	var pkgName, libName, section, depKey string
	for _, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(stripComment(raw))
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(strings.TrimSpace(strings.Trim(line, "[]")), " ")
			depKey = ""
			if dep, ok := depTable(section); ok {
				depKey = dep
			}
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		key, val = strings.Trim(strings.TrimSpace(key), `"'`), strings.TrimSpace(val)
		switch {
		case section == "package" && key == "name":
			pkgName = unquote(val)
		case section == "lib" && key == "name":
			libName = unquote(val)
		case section == "lib" && key == "path":
			if p := path.Clean(unquote(val)); p != "." && !strings.HasPrefix(p, "../") && !path.IsAbs(p) {
				m.lib = p
			}
		case depKey != "" && key == "package":
			m.rename(depKey, unquote(val))
		case isDepSection(section) && strings.HasPrefix(val, "{"):
			if p := inlineValue(val, "package"); p != "" {
				m.rename(key, p)
			}
		}
	}
	switch {
	case libName != "":
		m.name = libName
	case pkgName != "":
		m.name = crateName(pkgName)
	}
	return m
}

func (m *manifest) rename(as, pkg string) {
	if as == "" || pkg == "" {
		return
	}
	if m.renames == nil {
		m.renames = map[string]string{}
	}
	m.renames[crateName(as)] = crateName(pkg)
}

// crateName is a package name as paths spell it: cargo turns - into _.
func crateName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// isDepSection reports a dependency table: [dependencies],
// [dev-dependencies], [build-dependencies] and their
// [target.'cfg(…)'.dependencies] forms.
func isDepSection(s string) bool {
	last := s
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		last = s[i+1:]
	}
	return last == "dependencies" || last == "dev-dependencies" || last == "build-dependencies"
}

// depTable is the dependency a [dependencies.x] table describes.
func depTable(s string) (string, bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 || !isDepSection(s[:i]) {
		return "", false
	}
	return strings.Trim(s[i+1:], `"'`), true
}

// inlineValue is the string value of key in an inline table
// `{ version = "1", package = "x" }`, or "".
func inlineValue(table, key string) string {
	body := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(table), "{"), "}")
	for _, kv := range strings.Split(body, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.TrimSpace(k) == key {
			return unquote(strings.TrimSpace(v))
		}
	}
	return ""
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			return v[1 : 1+end]
		}
	}
	return ""
}

// stripComment cuts a # comment that is not inside a string.
func stripComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0 && c == '\\' && quote == '"':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\''):
			quote = c
		case quote == 0 && c == '#':
			return line[:i]
		}
	}
	return line
}

// project is the project info, decoded.
type project struct{ crates []crate }

// projectCache decodes extract.Project() once per distinct info.
var projectCache struct {
	raw string
	ok  bool
	p   project
}

func currentProject() *project {
	raw := string(extract.Project())
	if projectCache.ok && raw == projectCache.raw {
		return &projectCache.p
	}
	p := project{}
	for _, line := range strings.Split(raw, "\n") {
		f := strings.Split(line, "\t")
		switch {
		case len(f) == 5 && f[0] == "crate":
			p.crates = append(p.crates, crate{dir: f[1], prefix: f[2], name: f[3], lib: f[4]})
		case len(f) == 4 && f[0] == "rename":
			for i := range p.crates {
				if c := &p.crates[i]; c.dir == f[1] {
					if c.renames == nil {
						c.renames = map[string]string{}
					}
					c.renames[f[2]] = f[3]
				}
			}
		}
	}
	projectCache.raw, projectCache.ok, projectCache.p = raw, true, p
	return &projectCache.p
}

// crateOf is the innermost crate holding the repository path p and p's
// path relative to that crate's directory; nil when no Cargo.toml says.
func (p *project) crateOf(file string) (*crate, string) {
	var best *crate
	for i := range p.crates {
		c := &p.crates[i]
		if (c.dir == "." || strings.HasPrefix(file, c.dir+"/")) && (best == nil || len(c.dir) > len(best.dir)) {
			best = c
		}
	}
	if best == nil {
		return nil, ""
	}
	rel := file
	if best.dir != "." {
		rel = strings.TrimPrefix(file, best.dir+"/")
	}
	if best.prefix != "" {
		rel = path.Join(best.prefix, rel)
	}
	return best, rel
}
