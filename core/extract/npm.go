package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/discover"
	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/core/safefile"
)

// packageJSON is the file naming an npm package.
const packageJSON = "package.json"

// pnpmWorkspace marks a pnpm workspace root.
const pnpmWorkspace = "pnpm-workspace.yaml"

// packageJSONMaxBytes caps a package.json read (real ones are a few KB).
const packageJSONMaxBytes = 1 << 20

// maxExportDepth bounds the nesting of "exports" conditions followed.
const maxExportDepth = 8

// ProjectNPMPackage: the nearest package.json above the root names the
// package the root's files belong to.
const ProjectNPMPackage ProjectSource = "package.json above the root"

// JSProject is the npm context of an extraction root inside a package:
// the package it belongs to and, when there is one, its workspace root.
type JSProject struct {
	Source    ProjectSource
	Dir       string // absolute folder of the package.json
	Name      string // the package's name
	Inside    string // the root's folder inside the package ("src/v4")
	Workspace string // absolute folder of the workspace root, "" if none
}

func (p JSProject) String() string {
	s := fmt.Sprintf("npm: package %q (%s: %s), root is its %s", p.Name, p.Source, filepath.Join(p.Dir, packageJSON), p.Inside)
	if p.Workspace != "" {
		s += fmt.Sprintf("; workspace root %s", p.Workspace)
	}
	return s
}

// parsedPackage is what extraction reads from a package.json.
type parsedPackage struct {
	pkg       resolve.JSPackage // Dir and Inside unset
	workspace bool              // declares "workspaces"
}

// parsePackageJSON reads the name, "exports" (in file order), the entry
// fields and whether it declares workspaces. A file that is not a JSON
// object is an error; fields of an unexpected type are ignored.
func parsePackageJSON(data []byte) (parsedPackage, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return parsedPackage{}, err
	}
	var out parsedPackage
	_ = json.Unmarshal(raw["name"], &out.pkg.Name)
	for _, field := range []string{"module", "main", "types", "typings"} {
		var s string
		if json.Unmarshal(raw[field], &s) == nil && s != "" {
			out.pkg.Main = append(out.pkg.Main, s)
		}
	}
	if ex, ok := raw["exports"]; ok && !bytes.Equal(bytes.TrimSpace(ex), []byte("null")) {
		exports, err := parseExports(ex)
		if err != nil {
			return parsedPackage{}, fmt.Errorf("exports: %w", err)
		}
		out.pkg.Exports = exports
	}
	_, out.workspace = raw["workspaces"]
	return out, nil
}

// parseExports reads an "exports" value: a target string, an array of
// fallbacks, a map of subpaths ("./v3") or a map of conditions (the "."
// subpath). Never nil on success: a package with "exports" exposes only
// what they list.
func parseExports(data json.RawMessage) ([]JSExport, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	exports := []JSExport{}
	if tok != json.Delim('{') {
		targets, err := exportValue(dec, tok, 0)
		if err != nil {
			return nil, err
		}
		return append(exports, JSExport{Subpath: ".", Targets: targets}), nil
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
			exports = append(exports, JSExport{Subpath: key, Targets: targets})
		} else {
			conds = append(conds, targets...)
		}
	}
	if len(conds) > 0 {
		exports = append(exports, JSExport{Subpath: ".", Targets: conds})
	}
	return exports, nil
}

// JSExport is resolve's export entry, named here for the parser.
type JSExport = resolve.JSExport

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

// jsPackagesOf reads every package.json the walk found and the one
// enclosing root, for the resolver, and returns the enclosing package's
// context for the summary. A package.json that cannot be read or parsed
// is a warning: its package is then not resolved by name.
func jsPackagesOf(repo *os.Root, root string, found []discover.File, sum *Summary) ([]resolve.JSPackage, *JSProject) {
	var pkgs []resolve.JSPackage
	for _, f := range found {
		data, err := safefile.ReadFile(repo, filepath.FromSlash(f.Real), packageJSONMaxBytes, nil)
		if err == nil {
			var p parsedPackage
			if p, err = parsePackageJSON(data); err == nil && p.pkg.Name != "" {
				p.pkg.Dir = path.Dir(f.Rel)
				pkgs = append(pkgs, p.pkg)
			}
		}
		if err != nil {
			sum.Warnings = append(sum.Warnings, fmt.Sprintf("%s: %v; its package name does not resolve imports (fix the file)", f.Rel, err))
		}
	}
	proj, enclosing := findJSProject(root)
	if enclosing != nil {
		pkgs = append(pkgs, *enclosing)
	}
	return pkgs, proj
}

// findJSProject finds the nearest package.json with a name above root (as
// Node resolves a package's self-reference) and the workspace root at or
// above it (a package.json with "workspaces" or a pnpm-workspace.yaml).
func findJSProject(root string) (*JSProject, *resolve.JSPackage) {
	var proj *JSProject
	var pkg *resolve.JSPackage
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		p, err := readPackageJSONAt(dir)
		if err == nil && proj == nil && p.pkg.Name != "" {
			rel, rerr := filepath.Rel(dir, root)
			if rerr == nil {
				p.pkg.Inside = filepath.ToSlash(rel)
				pkg = &p.pkg
				proj = &JSProject{Source: ProjectNPMPackage, Dir: dir, Name: p.pkg.Name, Inside: p.pkg.Inside}
			}
		}
		if proj != nil && (err == nil && p.workspace || isRegular(filepath.Join(dir, pnpmWorkspace))) {
			proj.Workspace = dir
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return proj, pkg
}

func readPackageJSONAt(dir string) (parsedPackage, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return parsedPackage{}, err
	}
	defer r.Close()
	data, err := safefile.ReadFile(r, packageJSON, packageJSONMaxBytes, nil)
	if err != nil {
		return parsedPackage{}, err
	}
	return parsePackageJSON(data)
}

// hasFamily says whether any routed file is of the language family.
func hasFamily(routed []*job, family string) bool {
	return slices.ContainsFunc(routed, func(j *job) bool { return j.lang.Family == family })
}

// ecmaFamily is the language family of JavaScript and TypeScript files.
const ecmaFamily = "ecmascript"
