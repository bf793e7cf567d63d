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
	modules  map[string][]int32 // v2 module key -> files declaring it (FileFacts.Modules)
	scopes   map[string]*pkgInfo
}

func (r *resolver) buildImportIndex() *importIndex {
	ix := &importIndex{
		paths:    make(map[string]int32, len(r.files)),
		pyMods:   make(map[string][]int32),
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
