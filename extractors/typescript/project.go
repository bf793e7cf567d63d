package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// What Node and TypeScript know about where modules live, read once per
// extraction by the project entry point: the package.json files of the
// tree and the nearest named one above the root (a package's
// self-references, "zod/v4/core" inside zod, and the imports between the
// packages of a workspace go through their "exports" or "main"), and the
// tsconfig.json/jsconfig.json "paths" and "baseUrl". Each import then
// gets, as its keys, the repository paths it may name, in the order Node
// and TypeScript probe them (see keys.go).

// The metadata files of plugin.toml's [project].
const (
	packageJSON   = "package.json"
	pnpmWorkspace = "pnpm-workspace.yaml"
	tsconfigJSON  = "tsconfig.json"
	jsconfigJSON  = "jsconfig.json"
	// tsconfigBase is read only as the target of an "extends" (the
	// convention of Nx and most monorepos); tsc applies no such file.
	tsconfigBase = "tsconfig.base.json"
)

// maxExportDepth bounds the nesting of "exports" conditions followed.
const maxExportDepth = 8

// place says where a metadata file is: Dir, its folder relative to the
// root, when it is inside the tree; else Inside, the root's folder
// relative to the file's folder ("src/v4" for a package.json two levels
// above the root).
type place struct {
	Dir    string `json:"dir,omitempty"`
	Inside string `json:"inside,omitempty"`
}

// toRoot maps a path relative to the file's folder to one relative to
// root (the absolute extraction root); false when it lies outside it.
// The path may leave the folder and come back ("../../app/x" from
// app/a): it is read as the absolute path it names.
func (p place) toRoot(root, rel string) (string, bool) {
	dir := path.Join(root, p.Dir)
	if p.Inside != "" {
		dir = strings.TrimSuffix(root, "/"+p.Inside)
	}
	abs := path.Join(dir, rel)
	if abs == path.Clean(root) {
		return ".", true
	}
	r, ok := strings.CutPrefix(abs, strings.TrimSuffix(root, "/")+"/")
	return r, ok
}

// npmPackage is a package whose files may be in the graph: a bare
// specifier naming it resolves to the file its "exports" map (else
// "module"/"main"/"types") names, as Node and TypeScript do.
type npmPackage struct {
	place
	Name       string      `json:"name"`
	HasExports bool        `json:"has_exports,omitempty"` // exports only what Exports lists
	Exports    []npmExport `json:"exports,omitempty"`
	Main       []string    `json:"main,omitempty"` // "module", "main", "types", "typings" targets
}

// npmExport is one "exports" entry: a subpath (".", "./v3", "./*") and
// the targets of all its conditions in file order.
type npmExport struct {
	Subpath string   `json:"s"`
	Targets []string `json:"t"`
}

// tsConfig is a tsconfig.json or jsconfig.json: its module "paths"
// patterns and "baseUrl", which apply to the files at or below it.
type tsConfig struct {
	place
	BaseURL string   `json:"base_url,omitempty"` // relative to the config's folder; "" none
	Paths   []tsPath `json:"paths,omitempty"`    // in file order
	// PathsBase is the folder "paths" targets are relative to when there
	// is no baseUrl, relative to the config's folder: "" is the config's
	// own, another for paths inherited through "extends" (TypeScript
	// reads them from the folder of the config that declares them).
	PathsBase string `json:"paths_base,omitempty"`

	extends  []string // the "extends" entries, in order
	pathsSet bool     // "paths" is declared (possibly empty): it replaces inherited ones
}

// tsPath is one "paths" pattern ("@/*") and its targets ("src/*").
type tsPath struct {
	Pattern string   `json:"p"`
	Targets []string `json:"t"`
}

// project is the project info the entry point answers.
type project struct {
	Root     string       `json:"root"` // the extraction root, absolute
	Packages []npmPackage `json:"packages,omitempty"`
	Configs  []tsConfig   `json:"configs,omitempty"`
	// Summary says which package and configs above the root the root was
	// resolved in; Warnings name the metadata that could not be read.
	// Both go to the run's summary, not to the instances.
	Summary  []string `json:"-"`
	Warnings []string `json:"-"`
}

// projectInfo is the entry point (abi.ProjectInput, docs/abi-v2.md).
func projectInfo(in *abi.ProjectInput) ([]byte, error) {
	p := readProject(in)
	for _, l := range p.Summary {
		extract.ProjectSummary("%s", l)
	}
	for _, w := range p.Warnings {
		extract.ProjectWarning("%s", w)
	}
	info, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	extract.ProjectParts(p.parts(info))
	return info, nil
}

// appliedConfig is a tsconfig.json or jsconfig.json that applies to the
// files at or below it (above is its absolute path when it lies above
// the root, for the summary).
type appliedConfig struct {
	file  abi.ProjectFile
	at    place
	above string
}

func readProject(in *abi.ProjectInput) *project {
	p := &project{Root: in.Root}
	var applied []appliedConfig
	// Above the root: the nearest package.json is the root's package
	// scope, as Node's lookup has it, unless the root has one of its own;
	// when it has a name, it encloses the root (self-references resolve
	// through it). The workspace root is at or above that one.
	var enclosing *npmPackage
	enclosingLevels := 0
	scoped := hasFile(in.Files, packageJSON) // the nearest package.json is found
	var workspaces []int                     // levels above the root of workspace roots, nearest first
	for _, f := range aboveNearestFirst(in.Files) {
		levels, base := levelsAbove(f.Path)
		switch base {
		case packageJSON:
			pkg, ws, err := parsePackageJSON(f.Data)
			if err != nil {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s: %v; its package name does not resolve imports (fix the file)", f.Path, err))
				continue
			}
			if !scoped {
				scoped = true
				if inside, ok := rootInside(in.Root, levels); ok && pkg.Name != "" {
					pkg.Inside = inside
					enclosing, enclosingLevels = &pkg, levels
				}
			}
			if ws {
				workspaces = append(workspaces, levels)
			}
		case pnpmWorkspace:
			workspaces = append(workspaces, levels)
		case tsconfigJSON, jsconfigJSON:
			if inside, ok := rootInside(in.Root, levels); ok {
				applied = append(applied, appliedConfig{f, place{Inside: inside}, path.Join(ancestor(in.Root, levels), base)})
			}
		}
	}
	for _, f := range in.Files {
		if strings.HasPrefix(f.Path, "../") {
			continue
		}
		switch path.Base(f.Path) {
		case packageJSON:
			pkg, _, err := parsePackageJSON(f.Data)
			if err != nil {
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s: %v; its package name does not resolve imports (fix the file)", f.Path, err))
				continue
			}
			if pkg.Name != "" {
				pkg.Dir = path.Dir(f.Path)
				p.Packages = append(p.Packages, pkg)
			}
		case tsconfigJSON, jsconfigJSON:
			applied = append(applied, appliedConfig{f, place{Dir: path.Dir(f.Path)}, ""})
		}
	}
	if enclosing != nil {
		p.Packages = append(p.Packages, *enclosing)
	}
	cfgs := newConfigSet(in, p)
	for _, a := range applied {
		if p.addConfig(cfgs, a.file, a.at) && a.above != "" {
			p.Summary = append(p.Summary, fmt.Sprintf("%s above the root: %s (paths, baseUrl)", path.Base(a.file.Path), a.above))
		}
	}
	if line := p.rootLine(enclosing, enclosingLevels, workspaces); line != "" {
		p.Summary = append([]string{line}, p.Summary...)
	}
	return p
}

// rootLine says which package the root was resolved as, and in which
// workspace: the enclosing package above the root, else the root's own
// package.json; the workspace root is the nearest one at or above that
// package. "" when nothing at or above the root names a package or a
// workspace.
func (p *project) rootLine(enclosing *npmPackage, enclosingLevels int, workspaces []int) string {
	workspace := ""
	for _, levels := range workspaces {
		if levels >= enclosingLevels {
			workspace = ancestor(p.Root, levels)
			break
		}
	}
	var line string
	switch own := p.rootPackage(); {
	case enclosing != nil:
		line = fmt.Sprintf("package %q (package.json above the root: %s), root is its %s",
			enclosing.Name, path.Join(ancestor(p.Root, enclosingLevels), packageJSON), enclosing.Inside)
	case own != "":
		line = fmt.Sprintf("package %q (package.json at the root)", own)
	case workspace != "":
		return "no package.json at or above the root names a package; workspace root " + workspace
	default:
		return ""
	}
	if workspace != "" {
		line += "; workspace root " + workspace
	}
	return line
}

// hasFile reports whether files holds path.
func hasFile(files []abi.ProjectFile, path string) bool {
	return slices.ContainsFunc(files, func(f abi.ProjectFile) bool { return f.Path == path })
}

// rootPackage is the name of the package whose package.json is at the
// root, "" when there is none.
func (p *project) rootPackage() string {
	for _, pkg := range p.Packages {
		if pkg.Dir == "." {
			return pkg.Name
		}
	}
	return ""
}

// addConfig reads a tsconfig.json, with what it inherits through
// "extends", and reports whether it maps specifiers; one that does not
// parse is a warning.
func (p *project) addConfig(cfgs *configSet, f abi.ProjectFile, at place) bool {
	c, ok := cfgs.resolved(cfgs.abs(f.Path), nil)
	if !ok || c.BaseURL == "" && len(c.Paths) == 0 {
		return false
	}
	c.place, c.extends, c.pathsSet = at, nil, false // the rest was for resolving
	p.Configs = append(p.Configs, c)
	return true
}

// aboveNearestFirst are the files above the root, the nearest first (by
// path within one level, as the host sorted them).
func aboveNearestFirst(files []abi.ProjectFile) []abi.ProjectFile {
	var out []abi.ProjectFile
	for _, f := range files {
		if strings.HasPrefix(f.Path, "../") {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b abi.ProjectFile) int {
		la, _ := levelsAbove(a.Path)
		lb, _ := levelsAbove(b.Path)
		return la - lb
	})
	return out
}

// levelsAbove splits "../../package.json" into 2 and "package.json".
func levelsAbove(p string) (int, string) {
	n := 0
	for strings.HasPrefix(p, "../") {
		p, n = p[3:], n+1
	}
	return n, p
}

// rootInside is the root's path relative to its ancestor levels up
// ("src/v4" for two levels above /x/pkg/src/v4).
func rootInside(root string, levels int) (string, bool) {
	parts := strings.Split(strings.Trim(root, "/"), "/")
	if levels < 1 || levels > len(parts) {
		return "", false
	}
	return strings.Join(parts[len(parts)-levels:], "/"), true
}

// ancestor is the absolute folder levels above root.
func ancestor(root string, levels int) string {
	d := root
	for range levels {
		d = path.Dir(d)
	}
	return d
}

// parsePackageJSON reads the name, "exports" (in file order), the entry
// fields and whether it declares workspaces. A file that is not a JSON
// object is an error; fields of an unexpected type are ignored.
func parsePackageJSON(data []byte) (npmPackage, bool, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return npmPackage{}, false, err
	}
	var out npmPackage
	_ = json.Unmarshal(raw["name"], &out.Name)
	for _, field := range []string{"module", "main", "types", "typings"} {
		var s string
		if json.Unmarshal(raw[field], &s) == nil && s != "" {
			out.Main = append(out.Main, s)
		}
	}
	if ex, ok := raw["exports"]; ok && !bytes.Equal(bytes.TrimSpace(ex), []byte("null")) {
		exports, err := parseExports(ex)
		if err != nil {
			return npmPackage{}, false, fmt.Errorf("exports: %w", err)
		}
		out.Exports, out.HasExports = exports, true
	}
	_, workspace := raw["workspaces"]
	return out, workspace, nil
}

// parseExports reads an "exports" value: a target string, an array of
// fallbacks, a map of subpaths ("./v3") or a map of conditions (the "."
// subpath).
func parseExports(data json.RawMessage) ([]npmExport, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	var exports []npmExport
	if tok != json.Delim('{') {
		targets, err := exportValue(dec, tok, 0)
		if err != nil {
			return nil, err
		}
		return append(exports, npmExport{Subpath: ".", Targets: targets}), nil
	}
	var conds []string // a conditions map: all of it is "."
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := k.(string)
		v, err := dec.Token()
		if err != nil {
			return nil, err
		}
		targets, err := exportValue(dec, v, 1)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(key, ".") {
			exports = append(exports, npmExport{Subpath: key, Targets: targets})
		} else {
			conds = append(conds, targets...)
		}
	}
	if len(conds) > 0 {
		exports = append(exports, npmExport{Subpath: ".", Targets: conds})
	}
	return exports, nil
}

// exportValue flattens the value that starts with tok into its string
// targets in file order (conditions and fallbacks alike).
func exportValue(dec *json.Decoder, tok json.Token, depth int) ([]string, error) {
	if depth > maxExportDepth {
		return nil, errors.New("conditions nested too deep")
	}
	switch t := tok.(type) {
	case string:
		return []string{t}, nil
	case json.Delim:
		var out []string
		for dec.More() {
			if t == '{' {
				if _, err := dec.Token(); err != nil { // the condition name
					return nil, err
				}
			}
			v, err := dec.Token()
			if err != nil {
				return nil, err
			}
			sub, err := exportValue(dec, v, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
		}
		if _, err := dec.Token(); err != nil && err != io.EOF { // the closing delimiter
			return nil, err
		}
		return out, nil
	}
	return nil, nil // null, numbers, booleans: no target
}

// parseTSConfig reads compilerOptions.baseUrl and compilerOptions.paths
// (in file order) from a tsconfig.json, which is JSON with comments and
// trailing commas.
func parseTSConfig(data []byte) (tsConfig, error) {
	var raw struct {
		Extends         json.RawMessage `json:"extends"`
		CompilerOptions struct {
			BaseURL string          `json:"baseUrl"`
			Paths   json.RawMessage `json:"paths"`
		} `json:"compilerOptions"`
	}
	if err := json.Unmarshal(stripJSONC(data), &raw); err != nil {
		return tsConfig{}, err
	}
	c := tsConfig{BaseURL: raw.CompilerOptions.BaseURL, extends: parseExtends(raw.Extends)}
	if len(raw.CompilerOptions.Paths) == 0 || bytes.Equal(raw.CompilerOptions.Paths, []byte("null")) {
		return c, nil
	}
	c.pathsSet = true
	dec := json.NewDecoder(bytes.NewReader(raw.CompilerOptions.Paths))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return tsConfig{}, errors.New(`compilerOptions.paths is not an object`)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return tsConfig{}, err
		}
		var targets []string
		if err := dec.Decode(&targets); err != nil {
			return tsConfig{}, fmt.Errorf("compilerOptions.paths[%q]: %v", k, err)
		}
		key, _ := k.(string)
		c.Paths = append(c.Paths, tsPath{Pattern: key, Targets: targets})
	}
	return c, nil
}

// stripJSONC turns JSON with comments and trailing commas into JSON:
// comments become blanks, then commas before a closing bracket go;
// strings are left as they are.
func stripJSONC(data []byte) []byte {
	return dropTrailingCommas(stripComments(data))
}

func stripComments(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '"':
			j := stringEnd(data, i)
			out = append(out, data[i:j]...)
			i = j - 1
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				i++
			}
			out = append(out, '\n')
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := bytes.Index(data[i+2:], []byte("*/"))
			if end < 0 {
				return append(out, ' ')
			}
			i += end + 3
			out = append(out, ' ')
		default:
			out = append(out, c)
		}
	}
	return out
}

func dropTrailingCommas(data []byte) []byte {
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			j := stringEnd(data, i)
			out = append(out, data[i:j]...)
			i = j - 1
		case ',':
			j := i + 1
			for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
				j++
			}
			if j < len(data) && (data[j] == '}' || data[j] == ']') {
				continue
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// stringEnd is the index after the JSON string starting at data[i] (the
// end of data when it is not closed).
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(data)
}

// projectCache decodes extract.Project() once per distinct info.
var projectCache struct {
	raw string
	p   *project
}

// currentProject is this extraction's project info, decoded (empty when
// there is none or it does not decode).
func currentProject() *project {
	raw := extract.Project()
	if projectCache.p != nil && string(raw) == projectCache.raw {
		return projectCache.p
	}
	p := &project{}
	if len(raw) > 0 && json.Unmarshal(raw, p) != nil {
		p = &project{}
	}
	projectCache.raw, projectCache.p = string(raw), p
	return p
}
