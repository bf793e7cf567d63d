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
	rsSuffix map[string][]int32 // "/a/b.rs" style path suffixes -> rust files
	modules  map[string][]int32 // v2 module key -> files declaring it (FileFacts.Modules)
	scopes   map[string]*pkgInfo
}

func (r *resolver) buildImportIndex() *importIndex {
	ix := &importIndex{
		paths:    make(map[string]int32, len(r.files)),
		pyMods:   make(map[string][]int32),
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
			case "python":
				r.importPython(ix, f, im)
			case "java":
				r.importJava(f, im)
			case "rust":
				r.importRust(ix, f, im)
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

// importByPath resolves a v1 plugin's relative specifier ("./x.lua",
// "../lib/y") to the file at exactly that path; anything else is an
// external module. An ABI v2 plugin says itself which files an import
// may name (Import.Keys).
func (r *resolver) importByPath(ix *importIndex, f *fileInfo, im *abi.Import) {
	target := int32(-1)
	if strings.HasPrefix(im.Path, "./") || strings.HasPrefix(im.Path, "../") {
		if fi, ok := ix.paths[path.Join(f.dir, im.Path)]; ok {
			target = fi
		}
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
		b := binding{file: target, name: n.Name, sym: -1}
		if target >= 0 {
			b.sym = r.lookupIn(binding{file: target}, n.Name, anyKind)
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
