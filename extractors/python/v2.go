package main

import (
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// ABI v2 facts (docs/abi-v2.md): what a Python file's module names and
// imports mean, so the host links them without knowing Python.
//
// Every file answers to two kinds of module key:
//   - anchored keys, exact, the module's name from the extraction root:
//     "@.a.b" for a/b.py, "@pyi.a.b" for a/b.pyi, "@pkg.a.b" for
//     a/b/__init__.py, "@pkgi.a.b" for a/b/__init__.pyi ("@pkg" alone is
//     the root's __init__.py). An import tries them in that order, as
//     Python finds a.b: a relative import only these; an absolute one
//     these first, as the root is (or is in) a source root. Anchors
//     cannot clash with dotted names, which have no '@'.
//   - dotted keys, for absolute imports whatever folder the source root
//     is: every dotted suffix of the module's name below the root,
//     prefixed with the root's own package (project.go), longest first:
//     a/b/c.py is "root.a.b.c", "a.b.c", "b.c" and "c". A key several
//     files answer to names none of them.
//
// `from m import x` may import the submodule m.x: plugin.toml's
// [semantics] submodule_separator = "." has the host try each key of m
// followed by ".x" before looking x up in m.

// The anchors of the anchored keys, in the order a relative import tries them.
const (
	anchorModule      = "@"
	anchorStub        = "@pyi"
	anchorPackage     = "@pkg"
	anchorPackageStub = "@pkgi"
)

var anchors = []string{anchorModule, anchorStub, anchorPackage, anchorPackageStub}

// v2Facts completes the file's facts for ABI v2: its module keys and
// test marker, its imports' keys and kinds, and the types the resolver
// follows (callables' results and fields' types).
func v2Facts(f *extract.File) {
	parts, anchor := moduleOf(f.Path)
	root := currentRoot()
	f.SetFile(abi.FileFacts{Modules: moduleKeys(parts, anchor, root.parts), Test: extract.ConventionalTestPath(f.Path)})
	dir := dirParts(f.Path)
	for i := range f.Imports() {
		im := &f.Imports()[i]
		im.Keys = importKeys(im.Path, dir, root)
		switch {
		case len(im.Names) == 0:
			im.Kind = abi.ImportModule // bound as written: import a.b.c binds "a.b.c"
		case len(im.Names) == 1 && im.Names[0].Name == "*":
			im.Kind = abi.ImportWildcard
		default:
			im.Kind = abi.ImportSymbols
		}
	}
	returnRefs(f.Symbols())
}

// moduleOf is the dotted parts of the module file p is, below the root
// (a/b/__init__.py is the package a.b), and the anchor of its kind.
func moduleOf(p string) ([]string, string) {
	ext := path.Ext(p)
	stem := strings.TrimSuffix(p, ext)
	anchor := anchorModule
	if ext == ".pyi" {
		anchor = anchorStub
	}
	if stem == "__init__" || strings.HasSuffix(stem, "/__init__") {
		stem = strings.TrimSuffix(strings.TrimSuffix(stem, "__init__"), "/")
		anchor = anchorPackage
		if ext == ".pyi" {
			anchor = anchorPackageStub
		}
	}
	if stem == "" {
		return nil, anchor
	}
	return strings.Split(stem, "/"), anchor
}

// moduleKeys are the keys of module parts: its anchored key, then every
// dotted suffix of root + parts, longest first.
func moduleKeys(parts []string, anchor string, root []string) []string {
	keys := []string{anchored(anchor, parts)}
	full := append(append([]string(nil), root...), parts...)
	for i := range full {
		keys = append(keys, strings.Join(full[i:], "."))
	}
	return keys
}

// anchoredKeys appends the anchored keys of module parts, in the order
// Python looks for it: a.py, a.pyi, a/__init__.py, a/__init__.pyi.
func anchoredKeys(keys []string, parts []string) []string {
	for _, a := range anchors {
		keys = append(keys, anchored(a, parts))
	}
	return keys
}

func anchored(anchor string, parts []string) string {
	if len(parts) == 0 {
		return anchor
	}
	return anchor + "." + strings.Join(parts, ".")
}

// dirParts is the package a file's relative imports start from: its
// folder's parts below the root.
func dirParts(p string) []string {
	d := path.Dir(p)
	if d == "." {
		return nil
	}
	return strings.Split(d, "/")
}

// importKeys are the keys of the module an import statement names.
// An absolute import (a.b) is first the module of that name in the
// source root: below the root's package when it starts with it, else at
// the extraction root itself unless a project file places the root
// inside a package; then any module whose name ends so. A relative one
// (".", "..a.b") is the package it reaches from dir, or, when it climbs
// above the root, the dotted name it has in the root's package.
func importKeys(mod string, dir []string, root rootPkg) []string {
	rest := strings.TrimLeft(mod, ".")
	dots := len(mod) - len(rest)
	if dots == 0 {
		var keys []string
		parts := strings.Split(mod, ".")
		if n := len(root.parts); n > 0 && len(parts) >= n && slices.Equal(parts[:n], root.parts) {
			keys = anchoredKeys(keys, parts[n:])
		}
		if !root.exact {
			keys = anchoredKeys(keys, parts)
		}
		return append(keys, mod)
	}
	var tail []string
	if rest != "" {
		tail = strings.Split(rest, ".")
	}
	up := dots - 1
	if up <= len(dir) {
		return anchoredKeys(nil, append(append([]string(nil), dir[:len(dir)-up]...), tail...))
	}
	full := append(append([]string(nil), root.parts...), dir...)
	if up > len(full) {
		return nil // above every package this extraction knows of
	}
	if abs := strings.Join(append(full[:len(full)-up:len(full)-up], tail...), "."); abs != "" {
		return []string{abs}
	}
	return nil
}

// returnRefs gives callables the named type of their first result, and
// fields their declared (or constructed) type, for the host to follow
// x = make(); x.m() and self.repo.m().
func returnRefs(syms []abi.Symbol) {
	for i := range syms {
		sig := syms[i].Signature
		if sig == nil || sig.Return == "" {
			continue
		}
		name := sig.Return
		if syms[i].Kind != abi.KindField {
			name = resultTypeName(sig.Return)
			if ref := sig.ReturnRef; ref != nil && len(ref.Steps) == 1 {
				name = ref.Steps[0].Name // the walk read the annotation (signature)
			}
			if name == "typing.Self" || name == "typing_extensions.Self" {
				name = abi.SelfResult // the receiver's type (with.go)
			}
		}
		if name != "" {
			sig.ReturnRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: name}}}
		}
	}
}

// resultTypeName is the class a return annotation names: "Repo",
// "models.Repo", "Repo[int]" -> "Repo"; "" for unions, calls and strings
// it cannot name alone ("Repo | None", "'Repo'").
func resultTypeName(ret string) string {
	ret = strings.TrimSpace(ret)
	if i := strings.IndexAny(ret, "[<"); i >= 0 {
		ret = ret[:i]
	}
	if ret == "" || strings.ContainsAny(ret, " ()*{}&,'\"|") {
		return ""
	}
	return ret
}

// receiverRef is the structured form of a receiver type the walk spelt
// in the v1 mini-language ("C", "C#repo", "make_repo()"), nil when none.
func receiverRef(typ string) *abi.TypeRef {
	if typ == "" {
		return nil
	}
	ref, err := abi.ParseTypeRef(typ)
	if err != nil {
		return nil
	}
	return ref
}
