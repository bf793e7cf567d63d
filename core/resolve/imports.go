package resolve

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// importIndex maps module names to files, built once per resolution.
type importIndex struct {
	paths   map[string]int32   // exact repo path -> file
	modules map[string][]int32 // v2 module key -> files declaring it (FileFacts.Modules)
	scopes  map[string]*pkgInfo
}

func (r *resolver) buildImportIndex() *importIndex {
	ix := &importIndex{
		paths:   make(map[string]int32, len(r.files)),
		modules: make(map[string][]int32),
		scopes:  make(map[string]*pkgInfo),
	}
	for i := range r.files {
		f := &r.files[i]
		ix.paths[f.Path] = int32(i)
		if f.v2() {
			for _, m := range f.Facts.File.Modules {
				ix.modules[m] = append(ix.modules[m], int32(i))
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
	r.modIndex = ix
	for fi := range r.files {
		f := &r.files[fi]
		f.bindings = make(map[string][]binding)
		for i := range f.Facts.Imports {
			im := &f.Facts.Imports[i]
			if f.v2() && (len(im.Keys) > 0 || im.Kind != "") {
				r.importByKeys(ix, f, im)
				continue
			}
			r.importByPath(ix, f, im)
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
