package resolve

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// importIndex maps module names to files, built once per resolution.
type importIndex struct {
	paths    map[string]int32 // exact repo path -> file
	goDirs   map[string][]*pkgInfo
	goModule map[string]string  // directory -> Go module path (from go.mod)
	rsSuffix map[string][]int32 // "/a/b.rs" style path suffixes -> rust files
	modules  map[string][]int32 // v2 module key -> files declaring it (FileFacts.Modules)
	scopes   map[string]*pkgInfo
}

func (r *resolver) buildImportIndex() *importIndex {
	ix := &importIndex{
		paths:    make(map[string]int32, len(r.files)),
		goDirs:   make(map[string][]*pkgInfo),
		goModule: r.goModules,
		rsSuffix: make(map[string][]int32),
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
		if f.Family == "rust" {
			parts := strings.Split(f.Path, "/")
			for k := range parts {
				key := "/" + strings.Join(parts[k:], "/")
				ix.rsSuffix[key] = append(ix.rsSuffix[key], int32(i))
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
			case "java":
				r.importJava(f, im)
			case "rust":
				r.importRust(ix, f, im)
			default:
				r.importByPath(ix, f, im)
			}
		}
	}
	r.followReexports()
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

func (r *resolver) importJava(f *fileInfo, im *abi.Import) {
	wildcard := len(im.Names) == 1 && im.Names[0].Name == "*"
	if wildcard {
		if pk := r.pkgs["java:"+im.Path]; pk != nil {
			r.edge(f.id, pk.id, "imports_from", graph.Extracted, 0, f.Path, im.Line)
			f.bind("*", binding{pkg: pk, file: -1, sym: -1})
			return
		}
		if t := r.javaClass(im.Path); t >= 0 { // static wildcard: import static a.B.*
			r.edge(f.id, r.syms[t].id, "imports", graph.Extracted, 0, f.Path, im.Line)
			f.bind("*", binding{file: -1, sym: t})
			return
		}
		r.edge(f.id, r.stub(im.Path, "package"), "imports", graph.Extracted, 0, f.Path, im.Line)
		return
	}
	name := im.Path[strings.LastIndexByte(im.Path, '.')+1:]
	if t := r.javaClass(im.Path); t >= 0 {
		r.edge(f.id, r.syms[t].id, "imports", graph.Extracted, 0, f.Path, im.Line)
		f.bind(name, binding{file: -1, sym: t})
		return
	}
	// import static a.b.C.member
	if i := strings.LastIndexByte(im.Path, '.'); i > 0 {
		if t := r.javaClass(im.Path[:i]); t >= 0 {
			if ms := r.methods[t][name]; len(ms) > 0 {
				r.edge(f.id, r.syms[t].id, "imports", graph.Extracted, 0, f.Path, im.Line)
				f.bind(name, binding{file: -1, sym: ms[0]})
				return
			}
		}
	}
	r.edge(f.id, r.stub(im.Path, "class"), "imports", graph.Extracted, 0, f.Path, im.Line)
	f.bind(name, binding{file: -1, sym: -1})
}

// javaClass finds the top-level type "a.b.C" (package a.b, class C).
func (r *resolver) javaClass(q string) int32 {
	i := strings.LastIndexByte(q, '.')
	if i <= 0 {
		return -1
	}
	pk := r.pkgs["java:"+q[:i]]
	if pk == nil {
		return -1
	}
	return pick(r, pk.top[q[i+1:]], isType)
}

// importRust resolves `use` paths to module files by their path suffix:
// crate::a::b -> .../a/b.rs or .../a/b/mod.rs; self:: and super:: are
// relative to the current module file.
func (r *resolver) importRust(ix *importIndex, f *fileInfo, im *abi.Import) {
	segs := strings.Split(im.Path, "::")
	target := r.rustModule(ix, f, segs)
	if target < 0 && len(im.Names) == 0 && len(segs) > 1 {
		// use a::b::Item; -> module a::b, item Item
		if t := r.rustModule(ix, f, segs[:len(segs)-1]); t >= 0 {
			r.edge(f.id, r.files[t].id, "imports_from", graph.Extracted, 0, f.Path, im.Line)
			item := segs[len(segs)-1]
			local := im.Alias
			if local == "" {
				local = item
			}
			f.bind(local, binding{file: t, name: item, sym: r.lookupIn(binding{file: t}, item, anyKind)})
			return
		}
	}
	if target < 0 {
		r.edge(f.id, r.stub(im.Path, "module"), "imports", graph.Extracted, 0, f.Path, im.Line)
		return
	}
	r.edge(f.id, r.files[target].id, "imports_from", graph.Extracted, 0, f.Path, im.Line)
	if len(im.Names) == 0 {
		local := im.Alias
		if local == "" {
			local = segs[len(segs)-1]
		}
		f.bind(local, binding{file: target, sym: -1})
		return
	}
	for _, n := range im.Names {
		local := n.Alias
		if local == "" {
			local = n.Name
		}
		switch n.Name {
		case "*":
			f.bind("*", binding{file: target, sym: -1})
			continue
		case "self":
			f.bind(segs[len(segs)-1], binding{file: target, sym: -1})
			continue
		}
		if sub := r.rustModule(ix, f, append(segs[:len(segs):len(segs)], n.Name)); sub >= 0 {
			f.bind(local, binding{file: sub, sym: -1})
			continue
		}
		f.bind(local, binding{file: target, name: n.Name, sym: r.lookupIn(binding{file: target}, n.Name, anyKind)})
	}
}

func (r *resolver) rustModule(ix *importIndex, f *fileInfo, segs []string) int32 {
	if len(segs) == 0 {
		return -1
	}
	var base string
	switch segs[0] {
	case "self":
		base = rustModDir(f.Path)
		segs = segs[1:]
	case "super":
		base = rustModDir(f.Path)
		for len(segs) > 0 && segs[0] == "super" {
			base = path.Dir(base)
			segs = segs[1:]
		}
	case "crate":
		segs = segs[1:]
	}
	if len(segs) == 0 {
		return -1
	}
	rel := strings.Join(segs, "/")
	if base != "" {
		p := path.Join(base, rel)
		for _, c := range []string{p + ".rs", p + "/mod.rs"} {
			if fi, ok := ix.paths[c]; ok {
				return fi
			}
		}
		return -1
	}
	// crate:: or bare paths: unique file whose path ends with the module path.
	cands := append(ix.rsSuffix["/"+rel+".rs"], ix.rsSuffix["/"+rel+"/mod.rs"]...)
	if len(cands) == 1 {
		return cands[0]
	}
	return -1
}

// rustModDir is the directory holding a module's children: foo.rs -> foo/,
// foo/mod.rs, lib.rs and main.rs -> their own directory.
func rustModDir(p string) string {
	base := path.Base(p)
	switch base {
	case "mod.rs", "lib.rs", "main.rs":
		return path.Dir(p)
	}
	return strings.TrimSuffix(p, ".rs")
}
