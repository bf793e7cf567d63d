//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestFileFacts: the package is the file's scope and module key; test
// files are told by source set, by name and by markers.
func TestFileFacts(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      abi.FileFacts
	}{
		{"src/main/kotlin/app/Order.kt", "package app.models\nclass Order\n", abi.FileFacts{Scope: "app.models", Modules: []string{"app.models"}}},
		{"Main.kt", "fun main() {}\n", abi.FileFacts{}},
		{"src/test/kotlin/app/Checks.kt", "package app\nclass C\n", abi.FileFacts{Scope: "app", Modules: []string{"app"}, Test: true}},
		{"src/androidTest/java/app/Ui.kt", "class C\n", abi.FileFacts{Test: true}},
		{"src/main/kotlin/OrderSpec.kt", "class C\n", abi.FileFacts{Test: true}},
		{"src/main/kotlin/Checks.kt", "class C { @Test fun saves() {} }\n", abi.FileFacts{Test: true}},
		{"src/main/kotlin/Latest.kt", "class C\n", abi.FileFacts{}}, // "Latest" is no "Test" suffix
	} {
		f := plugintest.ExtractSource(t, Extractor{}, tc.path, []byte(tc.src))
		if got := f.File; got.Scope != tc.want.Scope || !slices.Equal(got.Modules, tc.want.Modules) || got.Test != tc.want.Test {
			t.Errorf("%s %q: file facts %+v, want %+v", tc.path, tc.src, got, tc.want)
		}
	}
}

// TestImportKeys: imports carry their v2 kind and module keys.
func TestImportKeys(t *testing.T) {
	src := "import a.b.*\nimport a.b.Order\nimport a.util.Helper as H\nimport a.b.topLevel\n"
	f := plugintest.ExtractSource(t, Extractor{}, "A.kt", []byte(src))
	want := []abi.Import{
		{Path: "a.b", Kind: abi.ImportWildcard, Keys: []string{"a.b"}, Names: []abi.ImportName{{Name: "*"}}},
		{Path: "a.b.Order", Kind: abi.ImportSymbols, Keys: []string{"a.b"}, Names: []abi.ImportName{{Name: "Order"}}},
		{Path: "a.util.Helper", Kind: abi.ImportSymbols, Keys: []string{"a.util"}, Names: []abi.ImportName{{Name: "Helper", Alias: "H"}}},
		{Path: "a.b.topLevel", Kind: abi.ImportSymbols, Keys: []string{"a.b"}, Names: []abi.ImportName{{Name: "topLevel"}}},
	}
	if len(f.Imports) != len(want) {
		t.Fatalf("got %d imports, want %d", len(f.Imports), len(want))
	}
	for i, w := range want {
		g := f.Imports[i]
		if g.Path != w.Path || g.Kind != w.Kind || !slices.Equal(g.Keys, w.Keys) || g.Alias != "" || !slices.Equal(g.Names, w.Names) {
			t.Errorf("import %d = %+v, want %+v", i, g, w)
		}
	}
}

// TestTypeRefs: receiver, return and parameter types travel as structured
// references too, the same chains as the v1 strings.
func TestTypeRefs(t *testing.T) {
	src := "class S(val repo: Repo) {\n  fun get(r: Request): Order? { repo.find().ship(); r.send(); return null }\n}\n"
	f := plugintest.ExtractSource(t, Extractor{}, "S.kt", []byte(src))
	refs := map[string]string{}
	for _, c := range f.Calls {
		if c.ReceiverRef != nil {
			refs[c.Name] = c.ReceiverRef.String()
			if c.ReceiverRef.String() != c.ReceiverType {
				t.Errorf("call %s: ReceiverRef %s differs from ReceiverType %s", c.Name, c.ReceiverRef, c.ReceiverType)
			}
		}
	}
	for name, want := range map[string]string{"ship": "Repo#find()", "find": "Repo", "send": "Request"} {
		if refs[name] != want {
			t.Errorf("call %s: receiver ref %q, want %q", name, refs[name], want)
		}
	}
	for _, s := range f.Symbols {
		switch s.Name {
		case "get":
			if s.Signature.ReturnRef.String() != "Order" || s.Signature.Params[0].TypeRef.String() != "Request" {
				t.Errorf("get: return ref %v, param ref %v", s.Signature.ReturnRef, s.Signature.Params[0].TypeRef)
			}
		case "repo":
			if s.Signature == nil || s.Signature.ReturnRef.String() != "Repo" {
				t.Errorf("field repo: type ref %+v", s.Signature)
			}
		}
	}
}
