package resolve

import (
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// importByKeys resolves an ABI v2 import: the plugin computed the module
// keys the import may name, in preference order, and what it binds. A key
// names a file (its FileFacts.Modules) or a scope (a package of files
// sharing FileFacts.Scope); the first key that names exactly one wins.
func (r *resolver) importByKeys(ix *importIndex, f *fileInfo, im *abi.Import) {
	file, pk := r.moduleByKeys(ix, f, im.Keys)
	switch {
	case pk != nil:
		r.edge(f.id, pk.id, "imports_from", graph.Extracted, 0, f.Path, im.Line)
	case file >= 0 && file != f.idx:
		r.edge(f.id, r.files[file].id, "imports_from", graph.Extracted, 0, f.Path, im.Line)
	case file < 0 && !r.onlySubmodules(ix, f, im):
		kind := f.Semantics.ImportStubKind
		if kind == "" {
			kind = "module"
		}
		r.edge(f.id, r.stub(im.Path, kind), "imports", graph.Extracted, 0, f.Path, im.Line)
	}
	found := pk != nil || file >= 0
	mod := binding{pkg: pk, file: file, sym: -1}
	kind := im.Kind
	if kind == "" { // keys without a kind: as Alias and Names say
		kind = abi.ImportModule
		if len(im.Names) > 0 {
			kind = abi.ImportSymbols
		}
	}
	switch kind {
	case abi.ImportSideEffect:
	case abi.ImportWildcard:
		if found {
			f.bind("*", mod)
		}
	case abi.ImportModule:
		local := im.Alias
		if local == "" && pk != nil {
			local = pk.name
		} else if local == "" {
			local = lastElement(im.Path)
		}
		// Bound even when the module is not here: the name is then
		// known to live outside, and nothing here stands in for it.
		f.bind(local, mod)
	case abi.ImportSymbols:
		if im.Alias != "" {
			f.bind(im.Alias, mod)
		}
		subKeys := r.submoduleKeys(ix, f, im.Keys)
		for _, n := range im.Names {
			if n.Name == "*" {
				if found {
					f.bind("*", mod)
				}
				continue
			}
			if q, m, ok := splitQualified(n.Name); ok {
				r.bindMember(f, mod, found, q, m, n.Alias)
				continue
			}
			local := n.Alias
			if local == "" {
				local = n.Name
			}
			if sub, spk := r.submodule(ix, f, subKeys, n.Name); sub >= 0 || spk != nil {
				r.importEdge(f, sub, spk, im.Line)
				f.bind(local, binding{pkg: spk, file: sub, sym: -1})
				continue
			}
			b := binding{pkg: pk, file: file, name: n.Name, sym: -1}
			if found {
				b.sym = r.lookupIn(mod, n.Name, anyKind)
			}
			f.bind(local, b)
		}
	}
}

// submoduleKeys are the keys of an import a submodule of it may extend:
// all of them up to the one the import itself resolves by. A module
// found by an earlier key has no such child, so a later spelling's child
// is another module's (Rust's use foo::{bar} with a module foo here);
// an earlier key that names nothing may still have one (a Python
// namespace package). None without a submodule separator.
func (r *resolver) submoduleKeys(ix *importIndex, f *fileInfo, keys []string) []string {
	if f.Semantics.SubmoduleSeparator == "" {
		return nil
	}
	for i, k := range keys {
		if file, pk := r.moduleByKeys(ix, f, []string{k}); file >= 0 || pk != nil {
			return keys[:i+1]
		}
	}
	return keys
}

// submodule is the module an imported name names when the plugin
// declares a submodule separator and one of keys (submoduleKeys), joined
// to the name by it, names a module here: Python's from pkg import mod
// ("." : pkg.mod), Rust's use a::{b} ("::" : a::b).
func (r *resolver) submodule(ix *importIndex, f *fileInfo, keys []string, name string) (int32, *pkgInfo) {
	sep := f.Semantics.SubmoduleSeparator
	if sep == "" || len(keys) == 0 {
		return -1, nil
	}
	sub := make([]string, len(keys))
	for i, k := range keys {
		sub[i] = k + sep + name
	}
	return r.moduleByKeys(ix, f, sub)
}

// onlySubmodules reports an import of names that are all submodules
// found here (from . import a, b in a package without __init__.py): the
// module itself then needs no external stub.
func (r *resolver) onlySubmodules(ix *importIndex, f *fileInfo, im *abi.Import) bool {
	if f.Semantics.SubmoduleSeparator == "" || len(im.Names) == 0 {
		return false
	}
	keys := r.submoduleKeys(ix, f, im.Keys)
	for _, n := range im.Names {
		if sub, spk := r.submodule(ix, f, keys, n.Name); sub < 0 && spk == nil {
			return false
		}
	}
	return true
}

// importEdge links f to the module an import names (a scope or a file,
// not f itself).
func (r *resolver) importEdge(f *fileInfo, file int32, pk *pkgInfo, line uint32) {
	switch {
	case pk != nil:
		r.edge(f.id, pk.id, "imports_from", graph.Extracted, 0, f.Path, line)
	case file >= 0 && file != f.idx:
		r.edge(f.id, r.files[file].id, "imports_from", graph.Extracted, 0, f.Path, line)
	}
}

// moduleByKeys finds what the first resolvable key names: the scope all
// of whose files declare the key (a Go package's import path), or the one
// file of the importer's family that does (a PHP require of one file of a
// namespace, a C++ header), else a scope of that name, else one file of any family (a C
// header included from C++).
func (r *resolver) moduleByKeys(ix *importIndex, f *fileInfo, keys []string) (int32, *pkgInfo) {
	for _, k := range keys {
		r.note(k)
		var same, any []int32
		for _, c := range ix.modules[k] {
			if r.files[c].Family == f.Family {
				same = append(same, c)
			}
			any = append(any, c)
		}
		if len(same) > 0 {
			if pk := r.commonPackage(same); pk != nil {
				r.note(pk.key) // how many files the scope has matters
				if len(same) == len(pk.files) {
					return -1, pk // every file of one scope answers to the key: the scope
				}
			}
			if len(same) == 1 {
				return same[0], nil
			}
			continue // ambiguous within the family: try the next key
		}
		if pk := ix.scopes[f.Family+"\x00"+k]; pk != nil {
			return -1, pk
		}
		if len(any) == 1 {
			return any[0], nil
		}
	}
	return -1, nil
}

// commonPackage is the package all of files belong to, or nil.
func (r *resolver) commonPackage(files []int32) *pkgInfo {
	pk := r.files[files[0]].pkg
	for _, f := range files[1:] {
		if r.files[f].pkg != pk {
			return nil
		}
	}
	return pk
}

// bindMember binds member m of type q of an imported module: a name
// written qualified by its type (Java's import static a.b.C.m and nested
// type a.b.C.D; "C.m", "C::m"). m "*" makes every method of the type a
// wildcard the file consults after its own names.
func (r *resolver) bindMember(f *fileInfo, mod binding, found bool, q, m, alias string) {
	t := int32(-1)
	if found {
		t = r.lookupIn(mod, q, isType)
	}
	if m == "*" {
		if t >= 0 {
			f.bind("*", binding{file: -1, sym: t})
		}
		return
	}
	if alias == "" {
		alias = m
	}
	sym := int32(-1)
	if t >= 0 {
		if sym = r.method(t, m); sym < 0 {
			sym = r.memberType(t, m)
		}
	}
	f.bind(alias, binding{file: -1, name: m, sym: sym})
}

// memberType is the type named name declared inside type t, or -1.
func (r *resolver) memberType(t int32, name string) int32 {
	file := &r.files[r.syms[t].file]
	found := int32(-1)
	for i := range file.Facts.Symbols {
		g := file.first + int32(i)
		if r.syms[g].parent == t && r.syms[g].name == name && isType(r.syms[g].kind) {
			if found >= 0 {
				return -1
			}
			found = g
		}
	}
	return found
}

// scopeKey is the package key of a v2 scope of a family.
func scopeKey(family, scope string) string { return family + ":scope:" + scope }

// scopeQualifiedType finds a type written qualified by a whole scope of
// f's family (a fully qualified a.b.C where a.b is a package, N.M.T where
// N.M is a namespace): the type of that scope, for a v2 file; -1 if the
// qualifier is no scope here or the scope has no one type so named.
func (r *resolver) scopeQualifiedType(f *fileInfo, name string) int32 {
	if !f.v2() {
		return -1
	}
	i := strings.LastIndex(name, "::")
	sep := 2
	if i < 0 {
		i, sep = strings.LastIndexByte(name, '.'), 1
	}
	if i <= 0 {
		return -1
	}
	r.note(name[:i])
	r.note(scopeKey(f.Family, name[:i]))
	pk := r.pkgs[scopeKey(f.Family, name[:i])]
	if pk == nil {
		return -1
	}
	return pick(r, pk.top[name[i+sep:]], isType)
}

// modulePath is the module a receiver written as a module path names
// ("a::b" with submodule separator "::", "os.path" with "."), when the
// whole text is not bound: the longest bound prefix, a module, then each
// further element a submodule of it by the import rule (a key of the
// module joined to the element). False when an element names no module
// here (a type, an inline module, something outside).
func (r *resolver) modulePath(f *fileInfo, recv string) (binding, bool) {
	sep := f.Semantics.SubmoduleSeparator
	if sep == "" || !f.v2() || r.modIndex == nil || !strings.Contains(recv, sep) {
		return binding{}, false
	}
	elems := strings.Split(recv, sep)
	for n := len(elems) - 1; n >= 1; n-- {
		r.note(strings.Join(elems[:n], sep))
		bs := f.bindings[strings.Join(elems[:n], sep)]
		if len(bs) == 0 {
			continue
		}
		for _, b := range bs {
			if m, ok := r.walkSubmodules(f, b, elems[n:], sep); ok {
				return m, true
			}
		}
		return binding{}, false
	}
	return binding{}, false
}

// walkSubmodules follows elems down from module binding b.
func (r *resolver) walkSubmodules(f *fileInfo, b binding, elems []string, sep string) (binding, bool) {
	if b.sym >= 0 || b.name != "" || b.pkg != nil || b.file < 0 {
		return binding{}, false // a definition, or a name not bound to a module file
	}
	for _, e := range elems {
		if e == "" {
			return binding{}, false
		}
		keys := r.files[b.file].Facts.File.Modules
		if len(keys) == 0 {
			return binding{}, false
		}
		sub := make([]string, len(keys))
		for i, k := range keys {
			sub[i] = k + sep + e
		}
		file, pk := r.moduleByKeys(r.modIndex, f, sub)
		if file < 0 || pk != nil {
			return binding{}, false
		}
		b = binding{file: file, sym: -1}
	}
	return b, true
}
