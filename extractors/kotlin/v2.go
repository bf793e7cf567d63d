package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ABI v2 facts: what the language-neutral resolver needs to link Kotlin
// files without knowing Kotlin.

// fileFacts are the file-level facts: the package is the scope every
// file of it shares and the module key imports name; a test file is one
// in a test source set (src/test, src/androidTest, …), named like a test
// class, or holding a test marker.
func (w *walker) fileFacts(pkg string) abi.FileFacts {
	ff := abi.FileFacts{Scope: pkg, Test: testPath(w.f.Path)}
	if pkg != "" {
		ff.Modules = []string{pkg}
	}
	for _, s := range w.f.Symbols() {
		ff.Test = ff.Test || s.Test
	}
	return ff
}

// testPath reports the Gradle/Kotlin test conventions: a test source set
// (src/test, src/androidTest, src/jvmTest, src/testFixtures) or a tests
// folder, or a file named like a test class (OrderTest.kt, OrderSpec.kt).
func testPath(p string) bool {
	dir, base := path.Split(p)
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		if seg == "test" || seg == "tests" || seg == "testFixtures" || len(seg) > 4 && strings.HasSuffix(seg, "Test") {
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, suf := range []string{"Tests", "Test", "Spec"} {
		if len(stem) > len(suf) && strings.HasSuffix(stem, suf) {
			return true
		}
	}
	return false
}

// importKeys fills an import's v2 fields: `import a.b.*` is a wildcard
// over package a.b, `import a.b.C` and `import a.b.C as D` bind C of
// package a.b (a class, an object, a top-level function or property).
func importKeys(im *abi.Import) {
	if len(im.Names) == 1 && im.Names[0].Name == "*" {
		im.Kind, im.Keys = abi.ImportWildcard, []string{im.Path}
		return
	}
	pkg, name := splitLast(im.Path)
	im.Kind, im.Keys = abi.ImportSymbols, []string{pkg}
	im.Names = []abi.ImportName{{Name: name, Alias: im.Alias}}
	im.Alias = ""
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
