package main

import (
	"path"
	"strings"
	"unicode"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// ABI v2 facts: what the language-neutral resolver needs to link Java
// files without knowing Java.

// fileFacts are the file-level facts. The package is the scope every file
// of it shares (same-package names need no import; Kotlin files of the
// package join it too). The module keys are pkg.Type for each top-level
// type, then the package itself, so `import a.b.C` names the file of C and
// `import a.b.*` the package. A test file is one in a test source tree,
// named like a test class, or holding a JUnit test method.
func fileFacts(f *extract.File, pkg string) abi.FileFacts {
	ff := abi.FileFacts{Scope: pkg, Test: testPath(f.Path)}
	for _, s := range f.Symbols() {
		ff.Test = ff.Test || s.Test
		if s.Parent == -1 && isTypeKind(s.Kind) {
			ff.Modules = append(ff.Modules, qualify(pkg, s.Name))
		}
	}
	if pkg != "" {
		ff.Modules = append(ff.Modules, pkg)
	}
	return ff
}

func isTypeKind(k abi.SymbolKind) bool {
	return k == abi.KindClass || k == abi.KindInterface || k == abi.KindEnum
}

func qualify(pkg, name string) string {
	if pkg == "" {
		return name
	}
	return pkg + "." + name
}

// testPath reports the Maven/Gradle test conventions: a test source tree
// (src/test/java, src/androidTest, a test or tests folder) or a file named
// like a test class (OrderTest.java, OrderTests.java, OrderIT.java).
func testPath(p string) bool {
	dir, base := path.Split(p)
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		switch seg {
		case "test", "tests", "testing", "testFixtures":
			return true
		}
		if len(seg) > 4 && strings.HasSuffix(seg, "Test") && seg[0] >= 'a' && seg[0] <= 'z' { // androidTest, integrationTest
			return true
		}
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	for _, suf := range []string{"Test", "Tests", "TestCase", "Spec"} {
		if len(stem) > len(suf) && strings.HasSuffix(stem, suf) {
			return true
		}
	}
	// FooIT: Maven failsafe's integration tests; the letter before IT is
	// lower case so that an acronym (GIT, BIT) is no test.
	if n := len(stem); n > 2 && strings.HasSuffix(stem, "IT") && unicode.IsLower(rune(stem[n-3])) {
		return true
	}
	return strings.HasPrefix(stem, "Test") && len(stem) > 4 && unicode.IsUpper(rune(stem[4]))
}

// importKeys fills an import's v2 fields from the import as written. Java
// spells packages in lower case and types capitalised, which is how the
// plugin tells `a.b.C` (type C of package a.b) from `a.b.C.D` (nested type
// D of C) and a static member from a type:
//
//   - import a.b.*;            wildcard over package a.b
//   - import a.b.C;            C, from the file declaring a.b.C (else package a.b)
//   - import a.b.C.D;          D, a member of C (Names "C.D")
//   - import static a.b.C.m;   m, a member of C (the extractor's Path a.b.C, Names m)
//   - import static a.b.C.*;   every member of C
func importKeys(im *abi.Import, static bool) {
	segs := strings.Split(im.Path, ".")
	top := topType(segs, static)
	switch {
	case top < 0: // a package path: on-demand import, or a lower-case class
		if len(im.Names) == 1 && im.Names[0].Name == "*" {
			im.Kind, im.Keys = abi.ImportWildcard, []string{im.Path}
			return
		}
		pkg, name := splitLast(im.Path)
		im.Kind, im.Keys = abi.ImportSymbols, keys(pkg, name)
		im.Names = []abi.ImportName{{Name: name}}
		return
	}
	pkg, typ := strings.Join(segs[:top], "."), segs[top]
	member := strings.Join(segs[top:], ".") // "C", or "C.D" for a nested type
	im.Kind, im.Keys = abi.ImportSymbols, keys(pkg, typ)
	switch {
	case len(im.Names) == 1 && static || len(im.Names) == 1 && im.Names[0].Name == "*":
		n := im.Names[0].Name
		im.Names = []abi.ImportName{{Name: member + "." + n}}
	case member != typ:
		im.Names = []abi.ImportName{{Name: member, Alias: segs[len(segs)-1]}}
	default:
		im.Names = []abi.ImportName{{Name: typ}}
	}
}

// topType is the index of the first capitalised segment of an imported
// path (the top-level type), or -1. A static import's Path is a type even
// when its name is not capitalised.
func topType(segs []string, static bool) int {
	for i, s := range segs {
		if s != "" && unicode.IsUpper(rune(s[0])) {
			return i
		}
	}
	if static && len(segs) > 1 {
		return len(segs) - 1
	}
	return -1
}

// keys are the module keys of type typ of package pkg: the file declaring
// the type, then the package (a type of a Kotlin file, or of a file that
// declares it under another name).
func keys(pkg, typ string) []string {
	if pkg == "" {
		return []string{typ}
	}
	return []string{pkg + "." + typ, pkg}
}

// splitLast splits "A.B.C" into "A.B" and "C".
func splitLast(s string) (string, string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// typeRef is the structured form of a receiver-type string this extractor
// writes ("T", "T#f", "T#m()"), parsed by the sdk's one parser; nil for
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
