package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ABI v2 facts: what the language-neutral resolver needs to link C# files
// without knowing C#.

// fileFacts are the file-level facts: the namespace is the scope every
// file of it shares and the module key usings name; a test file is one
// under a test project or folder, named like a test class, or holding a
// test marker.
func (w *walker) fileFacts() abi.FileFacts {
	ff := abi.FileFacts{Scope: w.pkg, Test: testPath(w.f.Path)}
	if w.pkg != "" {
		ff.Modules = []string{w.pkg}
	}
	for _, s := range w.f.Symbols() {
		ff.Test = ff.Test || s.Test
	}
	return ff
}

// testPath reports the .NET test conventions: a tests folder or a test
// project (App.Tests/, App.UnitTests/), or a file named like a test class
// (OrderTests.cs).
func testPath(p string) bool {
	dir, base := path.Split(p)
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		low := strings.ToLower(seg)
		if low == "test" || low == "tests" || strings.HasSuffix(low, ".tests") || strings.HasSuffix(low, ".test") ||
			strings.HasSuffix(low, "unittests") || strings.HasSuffix(low, "integrationtests") {
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, suf := range []string{"Tests", "Test"} {
		if len(stem) > len(suf) && strings.HasSuffix(stem, suf) {
			return true
		}
	}
	return false
}

// importKeys fills an import's v2 fields. `using N;` is a wildcard over
// namespace N; `using static N.T;` a wildcard over T's members (key N.T,
// which names a type, not a module: the resolver finds no module and
// links nothing rather than the whole namespace); `using A = N.T;` binds
// T of N as A (an alias of a namespace reads the same way: the syntax does
// not tell them apart).
func importKeys(im *abi.Import) {
	switch {
	case im.Alias != "":
		ns, name := splitLast(im.Path)
		im.Kind, im.Keys = abi.ImportSymbols, []string{ns}
		im.Names = []abi.ImportName{{Name: name, Alias: im.Alias}}
		im.Alias = ""
	default:
		im.Kind, im.Keys = abi.ImportWildcard, []string{im.Path}
	}
}

// splitLast splits "A.B.C" into "A.B" and "C".
func splitLast(s string) (string, string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// typeRef is the structured form of a receiver-type string this extractor
// writes ("T", "T#f", "T#M()"), parsed by the sdk's one parser; nil for
// none.
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
