//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestFileFacts: the namespace is the file's scope and module key; test
// files are told by path and by markers.
func TestFileFacts(t *testing.T) {
	for _, tc := range []struct {
		path, src string
		want      abi.FileFacts
	}{
		{"App/Order.cs", "namespace App.Models;\nclass Order {}\n", abi.FileFacts{Scope: "App.Models", Modules: []string{"App.Models"}}},
		{"App/Order.cs", "namespace A { namespace B { class X {} } }\n", abi.FileFacts{Scope: "A.B", Modules: []string{"A.B"}}},
		{"Program.cs", "class Program {}\n", abi.FileFacts{}},
		{"App.Tests/OrderChecks.cs", "namespace App;\nclass C {}\n", abi.FileFacts{Scope: "App", Modules: []string{"App"}, Test: true}},
		{"src/OrderTests.cs", "class C {}\n", abi.FileFacts{Test: true}},
		{"src/Checks.cs", "class C { [Fact] void Saves() {} }\n", abi.FileFacts{Test: true}},
		{"src/Tests.cs", "class C {}\n", abi.FileFacts{}}, // a file named just Tests is not a test by name
	} {
		f := plugintest.ExtractSource(t, Extractor{}, tc.path, []byte(tc.src))
		if got := f.File; got.Scope != tc.want.Scope || !slices.Equal(got.Modules, tc.want.Modules) || got.Test != tc.want.Test {
			t.Errorf("%s %q: file facts %+v, want %+v", tc.path, tc.src, got, tc.want)
		}
	}
}

// TestImportKeys: usings carry their v2 kind and module keys.
func TestImportKeys(t *testing.T) {
	src := "using System;\nusing static System.Math;\nusing Json = Newtonsoft.Json.JsonConvert;\n"
	f := plugintest.ExtractSource(t, Extractor{}, "A.cs", []byte(src))
	want := []abi.Import{
		{Path: "System", Kind: abi.ImportWildcard, Keys: []string{"System"}},
		{Path: "System.Math", Kind: abi.ImportWildcard, Keys: []string{"System.Math"}},
		{Path: "Newtonsoft.Json.JsonConvert", Kind: abi.ImportSymbols, Keys: []string{"Newtonsoft.Json"},
			Names: []abi.ImportName{{Name: "JsonConvert", Alias: "Json"}}},
	}
	if len(f.Imports) != len(want) {
		t.Fatalf("got %d imports, want %d", len(f.Imports), len(want))
	}
	for i, w := range want {
		g := f.Imports[i]
		if g.Path != w.Path || g.Kind != w.Kind || !slices.Equal(g.Keys, w.Keys) || g.Alias != "" ||
			w.Names != nil && !slices.Equal(g.Names, w.Names) {
			t.Errorf("import %d = %+v, want %+v", i, g, w)
		}
	}
}

// TestTypeRefs: receiver, return and parameter types travel as structured
// references too, the same chains as the v1 strings.
func TestTypeRefs(t *testing.T) {
	src := "class S {\n  Repo repo;\n  Order Get(Request r) { repo.Find().Ship(); r.Send(); return null; }\n}\n"
	f := plugintest.ExtractSource(t, Extractor{}, "S.cs", []byte(src))
	refs := map[string]string{}
	for _, c := range f.Calls {
		if c.ReceiverRef != nil {
			refs[c.Name] = c.ReceiverRef.String()
			if c.ReceiverRef.String() != c.ReceiverType {
				t.Errorf("call %s: ReceiverRef %s differs from ReceiverType %s", c.Name, c.ReceiverRef, c.ReceiverType)
			}
		}
	}
	for name, want := range map[string]string{"Ship": "Repo#Find()", "Find": "Repo", "Send": "Request"} {
		if refs[name] != want {
			t.Errorf("call %s: receiver ref %q, want %q", name, refs[name], want)
		}
	}
	for _, s := range f.Symbols {
		switch s.Name {
		case "Get":
			if s.Signature.ReturnRef.String() != "Order" || s.Signature.Params[0].TypeRef.String() != "Request" {
				t.Errorf("Get: return ref %v, param ref %v", s.Signature.ReturnRef, s.Signature.Params[0].TypeRef)
			}
		case "repo":
			if s.Signature == nil || s.Signature.ReturnRef.String() != "Repo" {
				t.Errorf("field repo: type ref %+v", s.Signature)
			}
		}
	}
}
