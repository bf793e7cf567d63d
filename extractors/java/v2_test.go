//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestFileFacts: the package is the file's scope; each top-level type is
// a module key (pkg.Type), then the package; test files are told by
// source tree, by name and by JUnit markers.
func TestFileFacts(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      abi.FileFacts
	}{
		{"src/main/java/a/Order.java", "package a.b;\npublic class Order {}\ninterface Priced {}\nenum Kind { X }\n",
			abi.FileFacts{Scope: "a.b", Modules: []string{"a.b.Order", "a.b.Priced", "a.b.Kind", "a.b"}}},
		{"Main.java", "class Main { class Inner {} }\n", abi.FileFacts{Modules: []string{"Main"}}},
		{"src/test/java/a/Checks.java", "package a;\nclass C {}\n", abi.FileFacts{Scope: "a", Modules: []string{"a.C", "a"}, Test: true}},
		{"app/src/androidTest/java/Ui.java", "class Ui {}\n", abi.FileFacts{Modules: []string{"Ui"}, Test: true}},
		{"src/main/java/OrderTest.java", "class OrderTest {}\n", abi.FileFacts{Modules: []string{"OrderTest"}, Test: true}},
		{"src/main/java/OrderIT.java", "class OrderIT {}\n", abi.FileFacts{Modules: []string{"OrderIT"}, Test: true}},
		{"src/main/java/GIT.java", "class GIT {}\n", abi.FileFacts{Modules: []string{"GIT"}}}, // an acronym, no test
		{"src/main/java/Latest.java", "class Latest {}\n", abi.FileFacts{Modules: []string{"Latest"}}},
		{"src/main/java/Checks.java", "class Checks { @Test void saves() {} }\n", abi.FileFacts{Modules: []string{"Checks"}, Test: true}},
	} {
		f := plugintest.ExtractSource(t, Extractor{}, tc.path, []byte(tc.src))
		if got := f.File; got.Scope != tc.want.Scope || !slices.Equal(got.Modules, tc.want.Modules) || got.Test != tc.want.Test {
			t.Errorf("%s: file facts %+v, want %+v", tc.path, got, tc.want)
		}
	}
}

// TestImportKeys: every import form gets its v2 kind, keys and bound
// names: types by the file declaring them, then their package; members of
// a type (static imports, nested types) qualified by the type.
func TestImportKeys(t *testing.T) {
	src := "import a.b.*;\nimport a.b.Order;\nimport a.b.Order.Line;\nimport static a.util.Strings.join;\n" +
		"import static org.junit.Assert.*;\nimport a.b.lower;\nimport Top;\n"
	f := plugintest.ExtractSource(t, Extractor{}, "A.java", []byte(src))
	want := []abi.Import{
		{Path: "a.b", Kind: abi.ImportWildcard, Keys: []string{"a.b"}, Names: []abi.ImportName{{Name: "*"}}},
		{Path: "a.b.Order", Kind: abi.ImportSymbols, Keys: []string{"a.b.Order", "a.b"}, Names: []abi.ImportName{{Name: "Order"}}},
		{Path: "a.b.Order.Line", Kind: abi.ImportSymbols, Keys: []string{"a.b.Order", "a.b"}, Names: []abi.ImportName{{Name: "Order.Line", Alias: "Line"}}},
		{Path: "a.util.Strings", Kind: abi.ImportSymbols, Keys: []string{"a.util.Strings", "a.util"}, Names: []abi.ImportName{{Name: "Strings.join"}}},
		{Path: "org.junit.Assert", Kind: abi.ImportSymbols, Keys: []string{"org.junit.Assert", "org.junit"}, Names: []abi.ImportName{{Name: "Assert.*"}}},
		{Path: "a.b.lower", Kind: abi.ImportSymbols, Keys: []string{"a.b.lower", "a.b"}, Names: []abi.ImportName{{Name: "lower"}}},
		{Path: "Top", Kind: abi.ImportSymbols, Keys: []string{"Top"}, Names: []abi.ImportName{{Name: "Top"}}},
	}
	if len(f.Imports) != len(want) {
		t.Fatalf("got %d imports %+v, want %d", len(f.Imports), f.Imports, len(want))
	}
	for i, w := range want {
		g := f.Imports[i]
		if g.Path != w.Path || g.Kind != w.Kind || !slices.Equal(g.Keys, w.Keys) || !slices.Equal(g.Names, w.Names) {
			t.Errorf("import %d = %+v, want %+v", i, g, w)
		}
	}
}

// TestTypeRefs: receivers, method results and field types travel as
// structured references; arrays, primitives and type parameters name no
// type; new T().m() is a call on a T (an anonymous subclass is not).
func TestTypeRefs(t *testing.T) {
	src := "class S {\n  Repo repo;\n  int[] ids;\n  <T> T any() { return null; }\n  List<Order> all() { return null; }\n  Order[] arr() { return null; }\n" +
		"  Client get(Request r) { repo.find().ship(); r.send(); new Repo().save(); new Repo() { }.gone(); return null; }\n}\n"
	f := plugintest.ExtractSource(t, Extractor{}, "S.java", []byte(src))
	ret := map[string]string{}
	for _, s := range f.Symbols {
		if s.Signature != nil && s.Signature.ReturnRef != nil {
			ret[s.Name] = s.Signature.ReturnRef.String()
		}
	}
	for name, want := range map[string]string{"repo": "Repo", "ids": "", "any": "", "all": "List", "arr": "", "get": "Client"} {
		if ret[name] != want {
			t.Errorf("%s: return ref %q, want %q", name, ret[name], want)
		}
	}
	refs := map[string]string{}
	for _, c := range f.Calls {
		if c.ReceiverRef != nil {
			refs[c.Name] = c.ReceiverRef.String()
			if c.ReceiverRef.String() != c.ReceiverType {
				t.Errorf("call %s: ReceiverRef %s differs from ReceiverType %s", c.Name, c.ReceiverRef, c.ReceiverType)
			}
		}
	}
	for name, want := range map[string]string{"ship": "Repo#find()", "find": "Repo", "send": "Request", "save": "Repo", "gone": ""} {
		if refs[name] != want {
			t.Errorf("call %s: receiver ref %q, want %q", name, refs[name], want)
		}
	}
}
