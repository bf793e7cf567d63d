package main

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// tsconfig "extends": a config inherits compilerOptions.baseUrl and
// compilerOptions.paths from the configs it extends (a relative file, or
// one of a package of the tree: "@org/tsconfig/base.json"), in order,
// later ones and then its own overriding; a base's baseUrl stays relative
// to the base's folder, and its paths (without a baseUrl) to the folder
// of the config declaring them, as tsc reads them. Only the files the
// host hands over can be followed (plugin.toml [project]: tsconfig.json,
// jsconfig.json, tsconfig.base.json, in the tree and above it; not
// node_modules); any other target, a cycle or a base that does not parse
// is a warning and inherits nothing.

// maxExtendsDepth bounds a chain of "extends".
const maxExtendsDepth = 16

// configSet is every config file of the project input, by absolute path.
type configSet struct {
	root  string
	p     *project
	files map[string]abi.ProjectFile
	// parsed memoises each file's own values; warned, the files whose
	// problem was already said.
	parsed map[string]tsConfig
	failed map[string]bool
	warned map[string]bool
}

func newConfigSet(in *abi.ProjectInput, p *project) *configSet {
	s := &configSet{root: in.Root, p: p, files: map[string]abi.ProjectFile{},
		parsed: map[string]tsConfig{}, failed: map[string]bool{}, warned: map[string]bool{}}
	for _, f := range in.Files {
		switch path.Base(f.Path) {
		case tsconfigJSON, jsconfigJSON, tsconfigBase:
			s.files[s.abs(f.Path)] = f
		}
	}
	return s
}

// abs is the absolute path of a project file path (relative to the root,
// possibly "../x").
func (s *configSet) abs(rel string) string { return path.Join(s.root, rel) }

// own is the config at abs as written, parsed once; false when it does
// not parse (said once).
func (s *configSet) own(abs string) (tsConfig, bool) {
	if c, ok := s.parsed[abs]; ok {
		return c, true
	}
	if s.failed[abs] {
		return tsConfig{}, false
	}
	f := s.files[abs]
	c, err := parseTSConfig(f.Data)
	if err != nil {
		s.failed[abs] = true
		s.p.Warnings = append(s.p.Warnings, fmt.Sprintf("%s: %v; its \"paths\" do not resolve imports (fix the file)", f.Path, err))
		return tsConfig{}, false
	}
	s.parsed[abs] = c
	return c, true
}

// resolved is the config at abs with what it inherits, its BaseURL and
// PathsBase relative to its own folder. chain holds the configs being
// resolved (a cycle ends there).
func (s *configSet) resolved(abs string, chain []string) (tsConfig, bool) {
	c, ok := s.own(abs)
	if !ok {
		return tsConfig{}, false
	}
	name := s.files[abs].Path
	if len(chain) >= maxExtendsDepth {
		s.warnOnce(abs, fmt.Sprintf("%s: \"extends\" chain longer than %d; the rest is not followed", name, maxExtendsDepth))
		return c, true
	}
	dir := path.Dir(abs)
	var inherited tsConfig
	for _, spec := range c.extends {
		target, found := s.extendsTarget(dir, spec)
		if !found {
			s.warnOnce(abs+"\x00"+spec, fmt.Sprintf("%s: \"extends\": %q names no file synaptic reads (tsconfig.json, jsconfig.json or tsconfig.base.json of the tree or above it; not node_modules); its \"paths\" and \"baseUrl\" are not inherited", name, spec))
			continue
		}
		if target == abs || slices.Contains(chain, target) {
			s.warnOnce(abs+"\x00"+spec, fmt.Sprintf("%s: \"extends\": %q closes a cycle; it is not followed", name, spec))
			continue
		}
		base, ok := s.resolved(target, append(chain, abs))
		if !ok {
			continue
		}
		inherited = override(inherited, rebase(base, path.Dir(target), dir))
	}
	own := tsConfig{BaseURL: c.BaseURL, Paths: c.Paths, pathsSet: c.pathsSet}
	return override(inherited, own), true
}

// override is base with what over declares taking its place.
func override(base, over tsConfig) tsConfig {
	if over.BaseURL != "" {
		base.BaseURL = over.BaseURL
	}
	if over.pathsSet {
		base.Paths, base.PathsBase, base.pathsSet = over.Paths, over.PathsBase, true
	}
	return base
}

// rebase makes a resolved config of folder from relative to folder to.
func rebase(c tsConfig, from, to string) tsConfig {
	if c.BaseURL != "" {
		c.BaseURL = relPath(to, path.Join(from, c.BaseURL))
	}
	if c.pathsSet {
		c.PathsBase = relPath(to, path.Join(from, c.PathsBase))
		if c.PathsBase == "." {
			c.PathsBase = ""
		}
	}
	return c
}

// extendsTarget is the absolute path of the config an "extends" entry
// of a config in folder dir names, when the project input holds it.
func (s *configSet) extendsTarget(dir, spec string) (string, bool) {
	var cands []string
	switch {
	case spec == "":
		return "", false
	case strings.HasPrefix(spec, "/"):
		cands = jsonCandidates(path.Clean(spec))
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		cands = jsonCandidates(path.Join(dir, spec))
	default:
		pkgDir, sub, ok := s.packageDir(spec)
		if !ok {
			return "", false
		}
		if sub == "" {
			cands = []string{path.Join(pkgDir, tsconfigJSON)}
		} else {
			cands = append(jsonCandidates(path.Join(pkgDir, sub)), path.Join(pkgDir, sub, tsconfigJSON))
		}
	}
	for _, c := range cands {
		if _, ok := s.files[c]; ok {
			return c, true
		}
	}
	return "", false
}

// jsonCandidates are the files an extends path may be: itself, then with
// ".json" added, as tsc tries them.
func jsonCandidates(p string) []string {
	if strings.HasSuffix(p, ".json") {
		return []string{p}
	}
	return []string{p, p + ".json"}
}

// packageDir is the absolute folder of the package of the tree a bare
// extends specifier names ("@org/tsconfig/base.json": the package
// "@org/tsconfig", sub "base.json"), found by its package.json name as
// a workspace link in node_modules would.
func (s *configSet) packageDir(spec string) (dir, sub string, ok bool) {
	pkg := s.p.packageOf(spec)
	if pkg == nil {
		return "", "", false
	}
	sub = strings.TrimPrefix(spec[len(pkg.Name):], "/")
	if pkg.Inside != "" {
		return strings.TrimSuffix(s.root, "/"+pkg.Inside), sub, true
	}
	return path.Join(s.root, pkg.Dir), sub, true
}

func (s *configSet) warnOnce(key, msg string) {
	if s.warned[key] {
		return
	}
	s.warned[key] = true
	s.p.Warnings = append(s.p.Warnings, msg)
}

// relPath is the slash path of to relative to folder from (both
// absolute and clean).
func relPath(from, to string) string {
	f, t := splitAbs(from), splitAbs(to)
	n := 0
	for n < len(f) && n < len(t) && f[n] == t[n] {
		n++
	}
	parts := make([]string, 0, len(f)-n+len(t)-n)
	for range f[n:] {
		parts = append(parts, "..")
	}
	parts = append(parts, t[n:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func splitAbs(p string) []string {
	p = strings.Trim(path.Clean(p), "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// parseExtends reads "extends": a string or (TypeScript 5) an array of
// them; anything else is none.
func parseExtends(raw json.RawMessage) []string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one == "" {
			return nil
		}
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) == nil {
		return many
	}
	return nil
}
