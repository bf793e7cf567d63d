package main

import (
	"path"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ABI v2 facts: what the language-neutral resolver needs to link Rust
// files without knowing Rust. A module is a file; its key is its path in
// the crate's module tree, spelled with the crate's name
// (regex_syntax::ast::parse); `use` paths are turned into such keys here.

// binSuffix marks the key of a binary crate's root (src/main.rs): the
// library, when there is one, answers to the crate's name.
const binSuffix = "#bin"

// modLoc is where a file sits in its crate's module tree.
type modLoc struct {
	crate   string            // the crate's key: its name in paths
	segs    []string          // the module path below the crate root; nil for a root
	key     string            // the file's own module key ("" when no module tree holds it)
	renames map[string]string // dependency renames of the crate
}

// rootDir is a directory whose .rs files are crate roots or their
// modules: src (the library and src/main.rs), src/bin, tests, examples
// and benches (each file directly in them a crate of its own).
type rootDir struct{ dir, suffix string }

// locate places repository path file in its crate (by the project's
// Cargo.toml files) or, without one, below the nearest src folder (or the
// root) of a crate called "crate".
func locate(file string) modLoc {
	c, rel := currentProject().crateOf(file)
	if c == nil {
		dir, name := ".", "crate"
		if i := strings.LastIndex("/"+file, "/src/"); i >= 0 {
			dir = path.Join(file[:i], "src")
		}
		return place(name, rel0(file, dir), []rootDir{{dir: ".", suffix: ""}}, "lib.rs", nil)
	}
	src := path.Dir(c.lib)
	dirs := []rootDir{{path.Join(src, "bin"), "#bin"}, {src, ""}, {"tests", "#tests"}, {"examples", "#examples"}, {"benches", "#benches"}}
	if loc := place(c.name, rel, dirs, path.Base(c.lib), c.renames); loc.key != "" {
		return loc
	}
	// Outside the crate's own folders (a vendored crate without its
	// Cargo.toml, code included by #[path]): a module tree of its own
	// below its nearest src folder, so self:: and super:: still work.
	if i := strings.LastIndex("/"+rel, "/src/"); i >= 0 {
		dir := path.Join(rel[:i], "src")
		return place(c.name+"#"+path.Dir(dir), rel0(rel, dir), []rootDir{{dir: ".", suffix: ""}}, "lib.rs", c.renames)
	}
	return modLoc{crate: c.name, renames: c.renames}
}

// rel0 is file relative to dir, or "" when it is not below it.
func rel0(file, dir string) string {
	if dir == "." {
		return file
	}
	if r, ok := strings.CutPrefix(file, dir+"/"); ok {
		return r
	}
	return ""
}

// place finds the first root directory holding rel (crate-relative) and
// the module path of rel below it.
func place(name, rel string, dirs []rootDir, libBase string, renames map[string]string) modLoc {
	loc := modLoc{crate: name, renames: renames}
	for _, d := range dirs {
		r := rel0(rel, d.dir)
		if r == "" || !strings.HasSuffix(r, ".rs") {
			continue
		}
		switch {
		case d.suffix == "" && r == libBase:
			loc.key = name
		case d.suffix == "" && r == "main.rs":
			loc.key = name + binSuffix
		case d.suffix != "" && !strings.Contains(r, "/"):
			loc.crate = name + d.suffix
			loc.key = loc.crate + "::" + strings.TrimSuffix(r, ".rs") // one crate per file; nothing imports it
		default:
			if d.suffix != "" {
				loc.crate = name + d.suffix
			}
			segs := strings.Split(strings.TrimSuffix(r, ".rs"), "/")
			if segs[len(segs)-1] == "mod" {
				segs = segs[:len(segs)-1]
			}
			loc.segs = segs
			loc.key = keyJoin(loc.crate, strings.Join(segs, "::"))
		}
		return loc
	}
	return loc
}

// self is the key `self::` names: the file's module (a root's children
// sit below the crate key).
func (l *modLoc) self() string { return keyJoin(l.crate, strings.Join(l.segs, "::")) }

// keys are the module keys a `use` path may name, in preference order:
// crate::, self:: and super:: are relative to this file's module; ::x is
// crate x; a bare first segment is a module declared here (2018 uniform
// paths), then a crate of that name (renamed by Cargo.toml), then a
// module of the crate root (2015 paths). A path into this crate or a crate
// named falls back to the modules above it (withParents).
func (l *modLoc) keys(p string) []string {
	segs := strings.Split(p, "::")
	rest := func(from int) string { return strings.Join(segs[from:], "::") }
	switch segs[0] {
	case "":
		if len(segs) < 2 {
			return nil
		}
		return []string{keyJoin(l.extern(segs[1]), rest(2))}
	case "crate", "$crate":
		if len(segs) == 1 {
			return []string{l.crate, l.crate + binSuffix}
		}
		return withParents(keyJoin(l.crate, rest(1)), l.crate)
	case "self":
		return withParents(keyJoin(l.self(), rest(1)), l.crate)
	case "super":
		up := 0
		for up < len(segs) && segs[up] == "super" {
			up++
		}
		if up > len(l.segs) {
			return nil // above the crate root
		}
		base := keyJoin(l.crate, strings.Join(l.segs[:len(l.segs)-up], "::"))
		return withParents(keyJoin(base, rest(up)), l.crate)
	}
	out := []string{keyJoin(l.self(), p)}
	ext := l.extern(segs[0])
	parents := withParents(keyJoin(ext, rest(1)), ext) // exact keys first, then the crate's parents
	for _, k := range append([]string{parents[0], keyJoin(l.crate, p)}, parents[1:]...) {
		if !contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// withParents is key, then the modules above it down to the crate root:
// a path of this crate that names no file names an inline module (`mod
// hash_map { … }` in lib.rs) of the nearest file above it, never
// something outside.
func withParents(key, crate string) []string {
	out := []string{key}
	for k := key; len(k) > len(crate); {
		i := strings.LastIndex(k, "::")
		if i < len(crate) {
			break
		}
		k = k[:i]
		out = append(out, k)
	}
	return out
}

// extern is the crate a path's first segment names, after Cargo.toml
// renames (`foo = { package = "bar" }`).
func (l *modLoc) extern(name string) string {
	if c, ok := l.renames[name]; ok {
		return c
	}
	return name
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fileFacts gives the file its v2 facts: its module key, its test marker
// (cargo's tests folder, test-named files and a file-level #![cfg(test)];
// #[test] functions and #[cfg(test)] modules are marked on their symbols,
// not on the file) and its build variants.
func (w *walker) fileFacts() {
	ff := abi.FileFacts{Test: w.cfgTest || testPath(w.f.Path), Variants: w.variants}
	if w.loc.key != "" {
		ff.Modules = []string{w.loc.key}
	}
	w.f.SetFile(ff)
}

// keyed gives an import its v2 keys and kind, seen from the module the
// walk is in: the file's, or an inline `mod tests { … }` in it, whose
// self:: and super:: are one module deeper.
func (w *walker) keyed(im abi.Import) abi.Import {
	loc := w.loc
	for _, fr := range w.frames {
		if fr.kind == frameMod && fr.sym >= 0 {
			loc.segs = append(slices.Clip(loc.segs), w.f.Symbols()[fr.sym].Name)
		}
	}
	im.Keys = loc.keys(im.Path)
	im.Kind = abi.ImportModule
	if len(im.Names) > 0 {
		im.Kind = abi.ImportSymbols
	}
	return im
}

// testPath reports the test-file conventions cargo and Rust code use: a
// tests (or test, testing) folder, or a file named test_x.rs, x_test.rs
// or x_tests.rs.
func testPath(p string) bool {
	dir, base := path.Split(p)
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		switch seg {
		case "test", "tests", "testing":
			return true
		}
	}
	stem := strings.TrimSuffix(base, ".rs")
	return strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests")
}

// typeRef is the structured form of a receiver-type string this extractor
// writes ("T", "a::T", "T#f", "T#m()"), parsed by the sdk's one parser;
// nil for none.
func typeRef(s string) *abi.TypeRef {
	if s == "" {
		return nil
	}
	r, err := abi.ParseTypeRef(s)
	if err != nil {
		return nil
	}
	return r
}

// namedRef is a type name as a one-step v2 reference; nil for "".
func namedRef(name string) *abi.TypeRef {
	if name == "" {
		return nil
	}
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: name}}}
}

// keyJoin appends a path below a module key; rest "" is the key itself.
func keyJoin(key, rest string) string {
	switch {
	case rest == "":
		return key
	case key == "":
		return rest
	}
	return key + "::" + rest
}

// bindPathRoot lets the resolver walk a call's module path: for a
// receiver rooted at `crate` or `super` (crate::a::f(), super::g(),
// super::super::m::h()), or from a binary, test or example at the
// package's library (shop_core::a::f()), the file reports, once, an
// import of that root
// bound under its own spelling, as `use crate::{self}` would. The
// resolver then follows the rest of the path submodule by submodule
// ([semantics] submodule_separator) and the module's re-exports. The
// root always names a module of this crate, so no stub comes of it; a
// path through an inline module or a type names nothing further and
// links nothing. self:: paths are left alone: "self" is also the
// receiver of method calls.
func (w *walker) bindPathRoot(recv string, line uint32) {
	root := pathRoot(recv, w.libName())
	if root == "" || slices.Contains(w.pathRoots, root) {
		return
	}
	w.pathRoots = append(w.pathRoots, root)
	im := w.keyed(abi.Import{Path: root, Alias: root, Line: line})
	switch {
	case root == w.libName():
		im.Keys = []string{root} // the library, from a binary, test or example
	case root == "crate" && w.loc.key == w.loc.crate+binSuffix:
		im.Keys = []string{w.loc.key} // src/main.rs: crate:: is the binary's own root
	case root == "crate":
		im.Keys = []string{w.loc.crate, w.loc.crate + binSuffix}
	case len(im.Keys) > 1:
		im.Keys = im.Keys[:1] // super: exactly the parent module
	}
	if len(im.Keys) == 0 {
		return // super above the crate root
	}
	w.f.Import(im)
}

// libName is the name of the library a binary, test, example or bench
// crate of this package reaches by name (shop_core::billing::f()), or ""
// for a file of the library itself, which does not name itself so.
func (w *walker) libName() string {
	lib, suffix, ok := strings.Cut(w.loc.crate, "#")
	if ok && suffix != "" || w.loc.key == w.loc.crate+binSuffix {
		return lib
	}
	return ""
}

// pathRoot is the crate/super/library prefix of a module path receiver
// ("crate" of "crate::a", "super::super" of "super::super::m", "super"
// of "super", lib of "lib::a"), or "".
func pathRoot(recv, lib string) string {
	segs := strings.Split(recv, "::")
	n := 0
	switch {
	case segs[0] == "crate" || lib != "" && segs[0] == lib:
		n = 1
	default:
		for n < len(segs) && segs[n] == "super" {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return strings.Join(segs[:n], "::")
}
