package resolve

import "github.com/synaptic-graph/synaptic/sdk/abi"

// Semantics are the call semantics a plugin declares for its languages
// (plugin.toml [semantics], ABI v2). The resolver applies them to the
// plugin's files instead of branching on language names. Zero values are
// the defaults.
type Semantics struct {
	Unqualified      Unqualified
	ReceiverFallback ReceiverFallback
	TypeCall         TypeCall
	// ImplicitThis: a plain call inside a class may name a method of the
	// class or its bases (Java, Kotlin, C#, C++).
	ImplicitThis bool
	// FilePrivate: a file-level definition with private visibility is
	// visible in its own file only (C and C++ static functions, an
	// anonymous namespace), so no call of another file links to it, not
	// even as the family's unique definition of the name.
	FilePrivate bool
	// ImportStubKind is the node kind of an import naming nothing in the
	// tree ("" = "module").
	ImportStubKind string
	// SelfNames are receiver names meaning the enclosing type's instance
	// ("self", "this"), typed by the resolver when the plugin did not.
	SelfNames []string
	// SubmoduleSeparator joins an import's module key and an imported
	// name into the key of a submodule, tried before the name is looked
	// up in the module ("." : Python's from pkg import mod; "::" : Rust's
	// use a::{b}); "" = names are never modules.
	SubmoduleSeparator string
	// Reexports: a name imported from a module that does not define it
	// but imports it itself names what that module imported (a Python
	// package's __init__.py, an index file).
	Reexports bool
}

// Unqualified says where a plain name may resolve.
type Unqualified string

// The unqualified-name rules.
const (
	// UnqualifiedScopeThenUnique (default): the file's scope and imports,
	// then a definition unique in the family (INFERRED).
	UnqualifiedScopeThenUnique Unqualified = ""
	// UnqualifiedScope: the file's scope and imports only; a same-named
	// definition elsewhere is never the target.
	UnqualifiedScope Unqualified = "scope"
)

// ReceiverFallback says what a call on a receiver of unknown type links to.
type ReceiverFallback string

// The receiver fallbacks.
const (
	ReceiverFallbackNone ReceiverFallback = "" // nothing (default)
	// ReceiverFallbackUniqueMethod: the method of that name when exactly
	// one type of the family declares one (INFERRED): for dynamic
	// languages, where a receiver's type is rarely written.
	ReceiverFallbackUniqueMethod ReceiverFallback = "unique_method"
)

// TypeCall says what calling a type's name means.
type TypeCall string

// The type-call rules.
const (
	TypeCallConstructor TypeCall = ""     // constructs the type: the call links to it (default)
	TypeCallNone        TypeCall = "none" // a conversion or literal, not a call
)

// v2 reports whether f came from an ABI v2 plugin: its FileFacts, import
// keys, type references and declared semantics are then what resolution
// uses, never a rule keyed on its language.
func (f *fileInfo) v2() bool { return f.ABI >= 2 }

// markImported records which files an import of another file binds.
func (r *resolver) markImported() {
	r.imported = make([]bool, len(r.files))
	for fi := range r.files {
		for _, bs := range r.files[fi].bindings {
			for _, b := range bs {
				if b.file >= 0 && b.file != int32(fi) {
					r.imported[b.file] = true
				}
				if b.sym >= 0 && r.syms[b.sym].file != int32(fi) {
					r.imported[r.syms[b.sym].file] = true
				}
			}
		}
	}
}

// hiddenFrom reports that symbol s is file-private (Semantics.FilePrivate)
// and f cannot see it: f is another file and no file imports s's file.
// A C static in a .c file nobody includes is its file's alone; one in a
// header, or in a .c file a unity build includes, is seen by whatever
// includes it, directly or through other headers, which the resolver
// does not follow: those keep the family-wide guess.
func (r *resolver) hiddenFrom(s int32, f *fileInfo) bool {
	sy := &r.syms[s]
	if sy.file == f.idx || r.imported[sy.file] {
		return false
	}
	def := &r.files[sy.file]
	d := &def.Facts.Symbols[sy.local]
	return def.Semantics.FilePrivate && d.Parent < 0 && d.Visibility == abi.VisPrivate
}

// isSelf reports whether recv names the enclosing instance in f.
func (f *fileInfo) isSelf(recv string) bool {
	for _, s := range f.Semantics.SelfNames {
		if s == recv {
			return true
		}
	}
	return false
}

// The rules below are what a v2 plugin declares; a v1 plugin's files get
// the defaults (no language is special-cased any more).

// typesOnlyThroughImports: a type of another scope is named only through
// an import, never guessed by a unique name.
func (f *fileInfo) typesOnlyThroughImports() bool {
	if f.v2() {
		return f.Semantics.Unqualified == UnqualifiedScope
	}
	return false
}

// namesOnlyInScope: a plain call resolves within the scope and imports
// only.
func (f *fileInfo) namesOnlyInScope() bool {
	if f.v2() {
		return f.Semantics.Unqualified == UnqualifiedScope
	}
	return false
}

// implicitThis: a plain call in a class may name the class's methods.
func (f *fileInfo) implicitThis() bool {
	if f.v2() {
		return f.Semantics.ImplicitThis
	}
	return false
}

// typeCallIsConversion: T(x) and T{...} convert or build a literal; they
// are not calls of T.
func (f *fileInfo) typeCallIsConversion() bool {
	if f.v2() {
		return f.Semantics.TypeCall == TypeCallNone
	}
	return false
}

// enclosingType is the type whose method (or nested function) caller
// is: its parent type, or the type a receiver method is attached to.
func (r *resolver) enclosingType(f *fileInfo, caller int32) int32 {
	if caller < 0 {
		return -1
	}
	for p := f.first + caller; p >= 0; p = r.syms[p].parent {
		if isType(r.syms[p].kind) {
			return p
		}
		if o := r.syms[p].owner; o >= 0 {
			return o
		}
	}
	return -1
}

// uniqueMethod is the one method named name among the family's types, or
// -1 when none or several types declare one.
func (r *resolver) uniqueMethod(family, name string) int32 {
	r.note(name)
	if r.methodsByName == nil {
		r.methodsByName = r.indexMethodsByName()
	}
	if ms := r.methodsByName[family][name]; len(ms) == 1 {
		return ms[0]
	}
	return -1
}
