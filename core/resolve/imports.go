package resolve

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// importIndex maps module names to files, built once per resolution.
type importIndex struct {
	paths    map[string]int32   // exact repo path -> file
	pyMods   map[string][]int32 // dotted module suffix -> python files
	goDirs   map[string][]*pkgInfo
	goModule map[string]string  // directory -> Go module path (from go.mod)
	modules  map[string][]int32 // v2 module key -> files declaring it (FileFacts.Modules)
	scopes   map[string]*pkgInfo
}

func (r *resolver) buildImportIndex() *importIndex {
	ix := &importIndex{
		paths:    make(map[string]int32, len(r.files)),
		pyMods:   make(map[string][]int32),
		goDirs:   make(map[string][]*pkgInfo),
		goModule: r.goModules,
		modules:  make(map[string][]int32),
		scopes:   make(map[string]*pkgInfo),
	}
	for i := range r.files {
		f := &r.files[i]
		ix.paths[f.Path] = int32(i)
		if f.v2() {
			for _, m := range f.Facts.File.Modules {
				ix.modules[m] = append(ix.modules[m], int32(i))
			}
		}
		if f.Family == "python" {
			mod := strings.TrimSuffix(f.Path, path.Ext(f.Path))
			if r.pyRoot != "" {
				mod = r.pyRoot + "/" + mod // "shop/billing/x": also "shop.billing.x"
			}
			mod = strings.TrimSuffix(mod, "/__init__")
			parts := strings.Split(mod, "/")
			for k := range parts {
				key := strings.Join(parts[k:], ".")
				ix.pyMods[key] = append(ix.pyMods[key], int32(i))
			}
		}
	}
	for _, pk := range r.pkgs {
		f := &r.files[pk.files[0]]
		if pk.scope != "" {
			ix.scopes[f.Family+"\x00"+pk.scope] = pk
		}
		if f.Family == "go" && !strings.HasSuffix(pk.name, "_test") {
			ix.goDirs[f.dir] = append(ix.goDirs[f.dir], pk)
		}
	}
	return ix
}

func (r *resolver) resolveImports() {
	ix := r.buildImportIndex()
	for fi := range r.files {
		f := &r.files[fi]
		f.bindings = make(map[string][]binding)
		for i := range f.Facts.Imports {
			im := &f.Facts.Imports[i]
			if f.v2() && (len(im.Keys) > 0 || im.Kind != "") {
				r.importByKeys(ix, f, im)
				continue
			}
			switch f.Family {
			case "go":
				r.importGo(ix, f, im)
			case "python":
				r.importPython(ix, f, im)
			default:
				r.importByPath(ix, f, im)
			}
		}
	}
}

func (f *fileInfo) bind(name string, b binding) {
	if name == "" || name == "_" {
		return
	}
	f.bindings[name] = append(f.bindings[name], b)
}

func (r *resolver) importGo(ix *importIndex, f *fileInfo, im *abi.Import) {
	pk := r.goPackage(ix, im.Path)
	conf := graph.Extracted
	if pk == nil {
		if pk = r.packageUnderTest(ix, f, im.Path); pk != nil {
			conf = graph.Inferred
		}
	}
	if pk == nil {
		r.edge(f.id, r.stub(im.Path, "package"), "imports", graph.Extracted, 0, f.Path, im.Line)
		name := im.Alias
		if name == "" {
			name = path.Base(im.Path)
		}
		f.bind(name, binding{file: -1, sym: -1})
		return
	}
	r.edge(f.id, pk.id, "imports_from", conf, score(conf), f.Path, im.Line)
	switch im.Alias {
	case "":
		f.bind(pk.name, binding{pkg: pk, file: -1, sym: -1})
	case ".":
		f.bind("*", binding{pkg: pk, file: -1, sym: -1})
	default:
		f.bind(im.Alias, binding{pkg: pk, file: -1, sym: -1})
	}
}

// goPackage maps an import path to a package directory: std-style paths
// equal to the directory, or module path + directory below the go.mod (the
// longest matching module path wins, so nested modules resolve the same way
// on every run).
func (r *resolver) goPackage(ix *importIndex, ip string) *pkgInfo {
	if pk := pickGoPackage(ix.goDirs[ip], ip); pk != nil {
		return pk
	}
	best, bestLen := "", -1
	for dir, mod := range ix.goModule {
		if ip != mod && !strings.HasPrefix(ip, mod+"/") {
			continue
		}
		if len(mod) > bestLen || len(mod) == bestLen && dir < best {
			best, bestLen = dir, len(mod)
		}
	}
	if bestLen >= 0 {
		rel := strings.TrimPrefix(strings.TrimPrefix(ip, ix.goModule[best]), "/")
		return pickGoPackage(ix.goDirs[path.Join(best, rel)], ip)
	}
	if r.goRoot != "" && (ip == r.goRoot || strings.HasPrefix(ip, r.goRoot+"/")) {
		rel := strings.TrimPrefix(strings.TrimPrefix(ip, r.goRoot), "/")
		return pickGoPackage(ix.goDirs[path.Join(".", rel)], ip)
	}
	return nil
}

// packageUnderTest is the package an external test package (foo_test)
// imports when nothing says where the root's import paths live (no go.mod
// above the file, no import path of the root): the package foo of its own
// folder, when exactly one of the file's imports ends in foo. The go
// command requires foo_test to sit next to foo, so a folder extracted on
// its own still links its tests; with a go.mod the module says it exactly
// (mcp_test may import both this repository's mcp and another one).
func (r *resolver) packageUnderTest(ix *importIndex, f *fileInfo, ip string) *pkgInfo {
	if f.pkg == nil || r.goRoot != "" || inGoModule(ix, f.dir) {
		return nil
	}
	base, ok := strings.CutSuffix(f.pkg.name, "_test")
	if !ok || base == "" || path.Base(ip) != base {
		return nil
	}
	n := 0
	for _, im := range f.Facts.Imports {
		if path.Base(im.Path) == base {
			n++
		}
	}
	if n != 1 {
		return nil
	}
	for _, pk := range ix.goDirs[f.dir] {
		if pk.name == base {
			return pk
		}
	}
	return nil
}

// inGoModule says whether dir is at or below a directory holding a go.mod.
func inGoModule(ix *importIndex, dir string) bool {
	for d := range ix.goModule {
		if d == "." || dir == d || strings.HasPrefix(dir, d+"/") {
			return true
		}
	}
	return false
}

// pickGoPackage chooses the importable package of a directory. A directory
// may also hold a `package main` program behind //go:build ignore (net/http's
// triv.go): main is never importable, and among the others the one named
// like the import path's last element wins.
func pickGoPackage(pks []*pkgInfo, ip string) *pkgInfo {
	var cands []*pkgInfo
	for _, pk := range pks {
		if pk.name != "main" {
			cands = append(cands, pk)
		}
	}
	switch {
	case len(cands) == 1:
		return cands[0]
	case len(cands) == 0 && len(pks) == 1:
		return pks[0]
	}
	base := path.Base(ip)
	for _, pk := range cands {
		if pk.name == base {
			return pk
		}
	}
	return nil
}

// pyModule resolves a dotted (possibly relative) module name from f.
func (r *resolver) pyModule(ix *importIndex, f *fileInfo, mod string) (int32, graph.Confidence) {
	if strings.HasPrefix(mod, ".") {
		dots := len(mod) - len(strings.TrimLeft(mod, "."))
		base := f.dir
		for i := 1; i < dots; i++ {
			base = path.Dir(base)
		}
		rest := strings.ReplaceAll(mod[dots:], ".", "/")
		p := path.Join(base, rest)
		for _, cand := range []string{p + ".py", p + ".pyi", p + "/__init__.py", p + "/__init__.pyi"} {
			if fi, ok := ix.paths[strings.TrimPrefix(cand, "./")]; ok {
				return fi, graph.Extracted
			}
		}
		return -1, ""
	}
	cands := ix.pyMods[mod]
	switch len(cands) {
	case 0:
		return -1, ""
	case 1:
		return cands[0], graph.Extracted
	}
	// Several files end with this module path: prefer the single shallowest
	// one (closest to a source root); otherwise it is ambiguous.
	best, bestDepth, tie := int32(-1), 1<<30, false
	for _, c := range cands {
		d := strings.Count(r.files[c].Path, "/")
		switch {
		case d < bestDepth:
			best, bestDepth, tie = c, d, false
		case d == bestDepth:
			tie = true
		}
	}
	if tie {
		return -1, ""
	}
	return best, graph.Inferred
}

func (r *resolver) importPython(ix *importIndex, f *fileInfo, im *abi.Import) {
	target, conf := r.pyModule(ix, f, im.Path)
	if target < 0 {
		if len(im.Names) == 0 || !strings.HasPrefix(im.Path, ".") {
			r.edge(f.id, r.stub(im.Path, "module"), "imports", graph.Extracted, 0, f.Path, im.Line)
		}
	} else if target != f.idx {
		r.edge(f.id, r.files[target].id, "imports_from", conf, score(conf), f.Path, im.Line)
	}
	if len(im.Names) == 0 {
		b := binding{file: target, sym: -1}
		if im.Alias != "" {
			f.bind(im.Alias, b)
		} else {
			f.bind(im.Path, b) // "a.b.c" is used as written: a.b.c.f()
		}
		return
	}
	for _, n := range im.Names {
		local := n.Alias
		if local == "" {
			local = n.Name
		}
		if n.Name == "*" {
			if target >= 0 {
				f.bind("*", binding{file: target, sym: -1})
			}
			continue
		}
		// "from pkg import mod" may name a submodule.
		sub := im.Path + "." + n.Name
		if strings.HasSuffix(im.Path, ".") {
			sub = im.Path + n.Name
		}
		if st, sc := r.pyModule(ix, f, sub); st >= 0 {
			r.edge(f.id, r.files[st].id, "imports_from", sc, score(sc), f.Path, im.Line)
			f.bind(local, binding{file: st, sym: -1})
			continue
		}
		b := binding{file: target, name: n.Name, sym: -1}
		if target >= 0 {
			b.sym = r.lookupIn(b, n.Name, anyKind)
		}
		// Bound even when the module is not in the repository: the name
		// is then known to live there, and nothing here stands in for it.
		f.bind(local, b)
	}
}

func anyKind(string) bool { return true }

func score(c graph.Confidence) float64 {
	if c == graph.Inferred {
		return InferredScore
	}
	return c.DefaultScore()
}

// ecmaFamily is the language family of JavaScript and TypeScript files.
const ecmaFamily = "ecmascript"

var ecmaExts = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}

// importByPath resolves relative file specifiers (JS/TS and any other
// family that imports by path).
func (r *resolver) importByPath(ix *importIndex, f *fileInfo, im *abi.Import) {
	target := int32(-1)
	switch {
	case strings.HasPrefix(im.Path, "./") || strings.HasPrefix(im.Path, "../") || im.Path == "." || im.Path == "..":
		target = ecmaFile(ix, path.Join(f.dir, im.Path))
	case f.Family == ecmaFamily && len(r.jsPackages) > 0:
		target = r.jsPackageFile(ix, im.Path)
	}
	if target < 0 {
		r.edge(f.id, r.stub(im.Path, "module"), "imports", graph.Extracted, 0, f.Path, im.Line)
	} else {
		r.edge(f.id, r.files[target].id, "imports_from", graph.Extracted, 0, f.Path, im.Line)
	}
	if im.Alias != "" {
		f.bind(im.Alias, binding{file: target, sym: -1})
	}
	for _, n := range im.Names {
		local := n.Alias
		if local == "" {
			local = n.Name
		}
		if n.Name == "*" {
			if target >= 0 {
				f.bind("*", binding{file: target, sym: -1})
			}
			continue
		}
		name := n.Name
		if name == "default" {
			name = local // a default export is usually defined under the name it is imported as
		}
		b := binding{file: target, name: name, sym: -1}
		if target >= 0 {
			b.sym = r.lookupIn(binding{file: target}, name, anyKind)
		}
		f.bind(local, b)
	}
}
