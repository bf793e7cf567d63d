package manifest

import (
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Project is the [project] table of an ABI v2 extractor: the metadata
// files the plugin's project entry point reads (see docs/abi-v2.md).
type Project struct {
	// Files are base names ("go.mod", "package.json"); the host finds
	// them in the tree and in the directories above the root.
	Files []string
}

// MaxProjectNames bounds [project] files.
const MaxProjectNames = 32

// Unqualified says where a bare name (a call or type without receiver or
// import) may resolve.
type Unqualified string

// The unqualified-name rules.
const (
	// UnqualifiedScope: the file's own scope and its imports only (Go).
	UnqualifiedScope Unqualified = "scope"
	// UnqualifiedScopeThenUnique: then a definition unique in the family.
	UnqualifiedScopeThenUnique Unqualified = "scope_then_unique"
)

// ReceiverFallback says what a call on a receiver of unknown type links to.
type ReceiverFallback string

// The receiver fallbacks.
const (
	ReceiverFallbackNone         ReceiverFallback = "none"          // nothing (the default)
	ReceiverFallbackUniqueMethod ReceiverFallback = "unique_method" // the method of that name when one type of the family declares it
)

// TypeCall says what calling a type's name means.
type TypeCall string

// The type-call rules.
const (
	TypeCallNone        TypeCall = "none"        // not a call (Go conversions are not modelled as calls)
	TypeCallConstructor TypeCall = "constructor" // constructs: links to the type (Python Foo(), Kotlin Foo(), new Foo())
)

// ImportStub is the node kind of an import that names nothing in the tree.
type ImportStub string

// The import stub kinds.
const (
	ImportStubModule  ImportStub = "module"  // the default
	ImportStubPackage ImportStub = "package" // Go: an import names a package
)

// Semantics is the [semantics] table: call semantics the resolver
// applies to the plugin's languages instead of branches on their names.
// Each field's zero value is the v1 behaviour.
type Semantics struct {
	Unqualified      Unqualified      // default scope_then_unique
	ReceiverFallback ReceiverFallback // default none
	TypeCall         TypeCall         // default constructor
	ImplicitThis     bool             // a plain call in a class may name its methods (Java, C#, Kotlin, C++)
	FilePrivate      bool             // a file-level private definition is visible in its own file only (C static)
	ImportStub       ImportStub       // default module
	SelfNames        []string         // receiver names meaning "this object" ("self", "this")
	// SubmoduleSeparator joins a module key and an imported name into the
	// key of a submodule (Python "." for `from pkg import mod`, Rust "::"
	// for `use a::{b}`); "" = none. The old key import_submodules = true
	// is read as "::".
	SubmoduleSeparator string
	// Reexports: a module's own imports are importable from it (Python
	// __init__.py re-exporting its submodules' names).
	Reexports bool
}

type rawProject struct {
	Files []string `toml:"files"`
}

type rawSemantics struct {
	Unqualified      string   `toml:"unqualified"`
	ReceiverFallback string   `toml:"receiver_fallback"`
	TypeCall         string   `toml:"type_call"`
	ImplicitThis     bool     `toml:"implicit_this"`
	FilePrivate      bool     `toml:"file_private"`
	ImportStub       string   `toml:"import_stub"`
	SelfNames        []string `toml:"self_names"`
	ImportSubmodules bool     `toml:"import_submodules"` // old spelling of submodule_separator = "::"
	SubmoduleSep     string   `toml:"submodule_separator"`
	Reexports        bool     `toml:"reexports"`
}

// abiVersion checks abi = N against what this host speaks.
func (v *validator) abiVersion(n int64) {
	switch {
	case n == 0:
		v.add([]string{"abi"}, "missing abi; add abi = %d", abi.Version)
	case n > abi.Version:
		v.add([]string{"abi"}, "the plugin needs extractor ABI %d; this synaptic speaks %d–%d; upgrade synaptic", n, abi.MinVersion, abi.Version)
	case n < abi.MinVersion:
		v.add([]string{"abi"}, "abi = %d is not an ABI; use abi = %d", n, abi.Version)
	}
}

func (v *validator) project(r *rawProject, m *Manifest) *Project {
	if r == nil {
		return nil
	}
	key := []string{"project", "files"}
	if m.ABI < 2 {
		v.add([]string{"project"}, "[project] needs abi = 2 (the project entry point is ABI v2); set abi = 2 or remove [project]")
	}
	if m.Kind != KindExtractor {
		v.add([]string{"project"}, "[project] is only allowed with kind = \"extractor\"")
	}
	if len(r.Files) == 0 || len(r.Files) > MaxProjectNames {
		v.add(key, "[project] files must list 1 to %d file names, e.g. files = [\"go.mod\"]", MaxProjectNames)
	}
	seen := map[string]bool{}
	for _, f := range r.Files {
		switch {
		case f == "" || f == "." || f == ".." || strings.ContainsAny(f, `/\*?[`) || strings.ContainsFunc(f, isControl):
			v.add(key, "project file %q must be a plain base name (no \"/\", no wildcard), e.g. \"go.mod\"", f)
		case seen[f]:
			v.add(key, "project file %q is listed twice", f)
		}
		seen[f] = true
	}
	return &Project{Files: r.Files}
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

func (v *validator) semantics(r *rawSemantics, m *Manifest) Semantics {
	s := Semantics{Unqualified: UnqualifiedScopeThenUnique, ReceiverFallback: ReceiverFallbackNone, TypeCall: TypeCallConstructor, ImportStub: ImportStubModule}
	if r == nil {
		return s
	}
	if m.ABI < 2 {
		v.add([]string{"semantics"}, "[semantics] needs abi = 2; set abi = 2 or remove [semantics]")
	}
	if m.Kind != KindExtractor {
		v.add([]string{"semantics"}, "[semantics] is only allowed with kind = \"extractor\"")
	}
	s.Unqualified = oneOf(v, "unqualified", r.Unqualified, s.Unqualified, UnqualifiedScope, UnqualifiedScopeThenUnique)
	s.ReceiverFallback = oneOf(v, "receiver_fallback", r.ReceiverFallback, s.ReceiverFallback, ReceiverFallbackNone, ReceiverFallbackUniqueMethod)
	s.TypeCall = oneOf(v, "type_call", r.TypeCall, s.TypeCall, TypeCallNone, TypeCallConstructor)
	s.ImportStub = oneOf(v, "import_stub", r.ImportStub, s.ImportStub, ImportStubModule, ImportStubPackage)
	for _, n := range r.SelfNames {
		if n == "" || len(n) > 64 || strings.ContainsFunc(n, func(c rune) bool { return c <= ' ' || c == 0x7f }) {
			v.add([]string{"semantics", "self_names"}, "self name %q must be a non-empty identifier", n)
		}
	}
	if sep := r.SubmoduleSep; sep != "" && (len(sep) > 4 || strings.ContainsFunc(sep, func(c rune) bool { return c <= ' ' || c == 0x7f })) {
		v.add([]string{"semantics", "submodule_separator"}, "submodule separator %q must be 1 to 4 printable characters, e.g. \".\"", sep)
	}
	s.SubmoduleSeparator = r.submoduleSeparator(v)
	s.Reexports = r.Reexports
	s.ImplicitThis = r.ImplicitThis
	s.FilePrivate = r.FilePrivate
	s.SelfNames = r.SelfNames
	return s
}

// legacySubmoduleSeparator is what the old key import_submodules = true
// stands for: module keys whose elements are joined by "::".
const legacySubmoduleSeparator = "::"

// submoduleSeparator is the separator submodule_separator or its old
// spelling import_submodules = true declares; both at once must agree.
func (r *rawSemantics) submoduleSeparator(v *validator) string {
	if !r.ImportSubmodules {
		return r.SubmoduleSep
	}
	if r.SubmoduleSep != "" && r.SubmoduleSep != legacySubmoduleSeparator {
		v.add([]string{"semantics", "import_submodules"}, "import_submodules = true is the old spelling of submodule_separator = %q, which contradicts submodule_separator = %q; keep submodule_separator only", legacySubmoduleSeparator, r.SubmoduleSep)
	}
	return legacySubmoduleSeparator
}

// oneOf validates a typed enumeration key: "" keeps def.
func oneOf[T ~string](v *validator, key, got string, def T, allowed ...T) T {
	if got == "" {
		return def
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		if string(a) == got {
			return a
		}
		names[i] = fmt.Sprintf("%q", a)
	}
	v.add([]string{"semantics", key}, "%s = %q is not known; use one of %s", key, got, strings.Join(names, ", "))
	return def
}
