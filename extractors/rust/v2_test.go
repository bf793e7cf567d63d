//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

func TestParseManifest(t *testing.T) {
	tests := []struct {
		name, src string
		want      manifest
	}{
		{"package", "[package]\nname = \"regex-syntax\" # the parser\nversion = \"0.6\"\n", manifest{name: "regex_syntax", lib: "src/lib.rs"}},
		{"lib name and path", "[package]\nname = 'foo'\n[lib]\nname = \"foo_core\"\npath = \"lib/core.rs\"\n", manifest{name: "foo_core", lib: "lib/core.rs"}},
		{"lib path escaping the crate", "[package]\nname = \"x\"\n[lib]\npath = \"../elsewhere.rs\"\n", manifest{name: "x", lib: "src/lib.rs"}},
		{"renames", "[package]\nname = \"app\"\n[dependencies]\nre = { version = \"1\", package = \"regex\" }\nserde = \"1\"\n" +
			"[target.'cfg(unix)'.dev-dependencies]\nnix2 = { package = \"nix\" }\n[dependencies.fmt-x]\npackage = \"my-fmt\"\n",
			manifest{name: "app", lib: "src/lib.rs", renames: map[string]string{"re": "regex", "nix2": "nix", "fmt_x": "my_fmt"}}},
		{"workspace root: no crate", "[workspace]\nmembers = [\"a\", \"b/*\"]\n", manifest{lib: "src/lib.rs"}},
		{"hash inside a string", "[package]\nname = \"a#b\"\n", manifest{name: "a#b", lib: "src/lib.rs"}},
		{"not toml", "\x00\x01[[[\n= = =\n\"", manifest{lib: "src/lib.rs"}},
	}
	for _, tt := range tests {
		got := parseManifest(tt.src)
		if got.name != tt.want.name || got.lib != tt.want.lib || len(got.renames) != len(tt.want.renames) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
			continue
		}
		for k, v := range tt.want.renames {
			if got.renames[k] != v {
				t.Errorf("%s: rename %s = %q, want %q", tt.name, k, got.renames[k], v)
			}
		}
	}
}

// TestModuleKeys: each file's module key comes from its crate (the
// innermost Cargo.toml, one above the root included) and its path in the
// module tree; `use` paths become the keys of the modules they may name.
func TestModuleKeys(t *testing.T) {
	cargo := func(p, src string) abi.ProjectFile { return abi.ProjectFile{Path: p, Data: []byte(src)} }
	tests := []struct {
		name string
		in   abi.ProjectInput
		keys map[string]string // file -> module key ("" = none)
		uses map[[2]string][]string
	}{
		{"workspace in the tree", abi.ProjectInput{Root: "/w", Files: []abi.ProjectFile{
			cargo("Cargo.toml", "[workspace]\nmembers = [\"core\", \"cli\"]\n"),
			cargo("core/Cargo.toml", "[package]\nname = \"my-core\"\n"),
			cargo("cli/Cargo.toml", "[package]\nname = \"cli\"\n[dependencies]\ncore = { path = \"../core\", package = \"my-core\" }\n"),
		}},
			map[string]string{
				"core/src/lib.rs": "my_core", "core/src/ast/mod.rs": "my_core::ast", "core/src/ast/parse.rs": "my_core::ast::parse",
				"cli/src/main.rs": "cli#bin", "cli/src/args.rs": "cli::args", "cli/tests/it.rs": "cli#tests::it",
				"cli/tests/common/mod.rs": "cli#tests::common", "cli/src/bin/tool.rs": "cli#bin::tool", "cli/build.rs": "",
				"core/vendored/src/lib.rs": "my_core#vendored", "core/vendored/src/math/sqrt.rs": "my_core#vendored::math::sqrt",
			},
			map[[2]string][]string{
				{"core/src/ast/parse.rs", "crate::ast"}:           {"my_core::ast", "my_core"},
				{"core/src/ast/parse.rs", "super"}:                {"my_core::ast", "my_core"},
				{"core/src/ast/parse.rs", "super::super"}:         {"my_core"},
				{"core/src/ast/parse.rs", "self::lexer"}:          {"my_core::ast::parse::lexer", "my_core::ast::parse", "my_core::ast", "my_core"},
				{"core/src/ast/mod.rs", "self::parse"}:            {"my_core::ast::parse", "my_core::ast", "my_core"},
				{"core/src/lib.rs", "self::ast"}:                  {"my_core::ast", "my_core"},
				{"core/src/lib.rs", "super::x"}:                   nil,
				{"cli/src/main.rs", "core::ast"}:                  {"cli::core::ast", "my_core::ast", "my_core"},
				{"cli/src/main.rs", "crate"}:                      {"cli", "cli#bin"},
				{"cli/src/args.rs", "::std::fmt"}:                 {"std::fmt"},
				{"cli/tests/it.rs", "self::common"}:               {"cli#tests::common", "cli#tests"},
				{"cli/src/args.rs", "regex_syntax::hir"}:          {"cli::args::regex_syntax::hir", "regex_syntax::hir", "cli::regex_syntax::hir", "regex_syntax"},
				{"core/src/ast/parse.rs", "super::super::x"}:      {"my_core::x", "my_core"},
				{"core/vendored/src/math/acos.rs", "super::sqrt"}: {"my_core#vendored::math::sqrt", "my_core#vendored::math", "my_core#vendored"},
			}},
		{"Cargo.toml above the root", abi.ProjectInput{Root: "/r/regex/src", Files: []abi.ProjectFile{cargo("../Cargo.toml", "[package]\nname = \"regex\"\n")}},
			map[string]string{"lib.rs": "regex", "dfa.rs": "regex::dfa", "literal/mod.rs": "regex::literal"},
			map[[2]string][]string{{"dfa.rs", "crate::literal"}: {"regex::literal", "regex"}}},
		{"no Cargo.toml", abi.ProjectInput{Root: "/tmp/x"},
			map[string]string{"src/lib.rs": "crate", "src/a/b.rs": "crate::a::b", "loose.rs": "crate::loose"},
			map[[2]string][]string{{"src/a/b.rs", "crate::a"}: {"crate::a", "crate"}}},
	}
	defer extract.SetProject(nil)
	for _, tt := range tests {
		info, err := extract.RunProject(projectInfo, &tt.in)
		if err != nil {
			t.Fatal(err)
		}
		extract.SetProject(info)
		for file, want := range tt.keys {
			if got := locate(file); got.key != want {
				t.Errorf("%s: module key of %s = %q, want %q (info %q)", tt.name, file, got.key, want, info)
			}
		}
		for fu, want := range tt.uses {
			loc := locate(fu[0])
			if got := loc.keys(fu[1]); !slices.Equal(got, want) {
				t.Errorf("%s: in %s, use %s keys %q, want %q", tt.name, fu[0], fu[1], got, want)
			}
		}
	}
}

// TestFileFacts: module keys, test files and import kinds as the host
// receives them.
func TestFileFacts(t *testing.T) {
	info, _ := projectInfo(&abi.ProjectInput{Root: "/w", Files: []abi.ProjectFile{{Path: "Cargo.toml", Data: []byte("[package]\nname = \"shop\"\n")}}})
	extract.SetProject(info)
	defer extract.SetProject(nil)
	src := "use crate::billing::{self, Invoice};\nuse std::io;\nmod tax;\n#[cfg(test)]\nmod tests { #[test] fn t() {} }\n"
	f := plugintest.ExtractSource(t, Extractor{}, "src/orders.rs", []byte(src))
	if f.File.Test || !slices.Equal(f.File.Modules, []string{"shop::orders"}) {
		t.Errorf("file facts %+v: want module shop::orders, not a test file (only its tests module is)", f.File)
	}
	want := []abi.Import{
		{Path: "crate::billing", Kind: abi.ImportModule, Keys: []string{"shop::billing", "shop"}},
		{Path: "crate::billing", Kind: abi.ImportSymbols, Keys: []string{"shop::billing", "shop"}, Names: []abi.ImportName{{Name: "Invoice"}}},
		{Path: "std", Kind: abi.ImportSymbols, Keys: []string{"shop::orders::std", "std", "shop::std"}, Names: []abi.ImportName{{Name: "io"}}},
		{Path: "self::tax", Kind: abi.ImportModule, Keys: []string{"shop::orders::tax"}},
	}
	if len(f.Imports) != len(want) {
		t.Fatalf("imports %+v, want %+v", f.Imports, want)
	}
	for i, w := range want {
		g := f.Imports[i]
		if g.Path != w.Path || g.Kind != w.Kind || !slices.Equal(g.Keys, w.Keys) || !slices.Equal(g.Names, w.Names) {
			t.Errorf("import %d = %+v, want %+v", i, g, w)
		}
	}
	// A use inside an inline module is relative to that module.
	f = plugintest.ExtractSource(t, Extractor{}, "src/filter/mod.rs", []byte("pub struct Builder;\n#[cfg(test)]\nmod tests {\n    use super::Builder;\n    use self::deep::X;\n}\n"))
	if len(f.Imports) != 2 || !slices.Equal(f.Imports[0].Keys, []string{"shop::filter", "shop"}) || !slices.Equal(f.Imports[1].Keys[:2], []string{"shop::filter::tests::deep", "shop::filter::tests"}) {
		t.Errorf("imports in an inline module: %+v", f.Imports)
	}
	for p, want := range map[string]bool{"tests/it.rs": true, "src/parse_test.rs": true, "src/test_util.rs": true, "src/contest.rs": false, "src/latest.rs": false} {
		if got := plugintest.ExtractSource(t, Extractor{}, p, []byte("fn f() {}\n")).File.Test; got != want {
			t.Errorf("%s: test file %v, want %v", p, got, want)
		}
	}
}

// TestTypeRefs: receivers, results and field types travel as structured
// references; a result's references and pointers are stripped (&mut T is
// T), Self is the impl's type, and impl/dyn Trait results name no type.
func TestTypeRefs(t *testing.T) {
	src := "struct S { repo: Repo }\nimpl S {\n  fn new() -> Self { S { repo: Repo } }\n  fn get(&mut self) -> &mut Client { self.repo.client().send(); Self::new(); todo!() }\n" +
		"  fn it(&self) -> impl Iterator<Item = u8> { todo!() }\n  fn boxed(&self) -> Box<dyn Fn()> { todo!() }\n}\n"
	f := plugintest.ExtractSource(t, Extractor{}, "s.rs", []byte(src))
	ret := map[string]string{}
	for _, s := range f.Symbols {
		if s.Signature != nil {
			ret[s.Name] = refString(s.Signature.ReturnRef)
		}
	}
	for name, want := range map[string]string{"new": "S", "get": "Client", "it": "", "boxed": "Box", "repo": "Repo"} {
		if ret[name] != want {
			t.Errorf("%s: return ref %q, want %q", name, ret[name], want)
		}
	}
	refs := map[string]string{}
	for _, c := range f.Calls {
		refs[c.Name] = refString(c.ReceiverRef)
		if refString(c.ReceiverRef) != c.ReceiverType {
			t.Errorf("call %s: ReceiverRef %s differs from ReceiverType %s", c.Name, c.ReceiverRef, c.ReceiverType)
		}
	}
	for name, want := range map[string]string{"send": "S#repo#client()", "client": "S#repo", "new": "S"} {
		if refs[name] != want {
			t.Errorf("call %s: receiver ref %q, want %q", name, refs[name], want)
		}
	}
}

func refString(r *abi.TypeRef) string {
	if r == nil {
		return ""
	}
	return r.String()
}

// FuzzParseManifest: any Cargo.toml bytes give project info without a
// panic, the same on every run, within the host's size limit.
func FuzzParseManifest(f *testing.F) {
	f.Add("[package]\nname = \"a-b\"\n[lib]\npath = \"x.rs\"\n[dependencies]\nr = { package = \"regex\" }\n")
	f.Add("[workspace]\nmembers = [\"a\"]\n[dependencies.x]\npackage = 'y'\n")
	f.Fuzz(func(t *testing.T, src string) {
		in := &abi.ProjectInput{Root: "/w/x", Files: []abi.ProjectFile{{Path: "Cargo.toml", Data: []byte(src)}, {Path: "../Cargo.toml", Data: []byte(src)}}}
		a, err := extract.RunProject(projectInfo, in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := extract.RunProject(projectInfo, in)
		if string(a) != string(b) {
			t.Fatalf("not deterministic: %q vs %q", a, b)
		}
	})
}

func TestPathRoot(t *testing.T) {
	for _, tt := range []struct{ recv, lib, want string }{
		{"crate::a", "", "crate"},
		{"crate", "", "crate"},
		{"super", "", "super"},
		{"super::super::m", "", "super::super"},
		{"demo::a", "demo", "demo"},
		{"demo::a", "", ""}, // a file of the library does not name itself
		{"self::a", "", ""}, // "self" is also a method receiver
		{"std::mem", "demo", ""},
		{"a::b", "", ""},
		{"Vec", "", ""},
	} {
		if got := pathRoot(tt.recv, tt.lib); got != tt.want {
			t.Errorf("pathRoot(%q, %q) = %q, want %q", tt.recv, tt.lib, got, tt.want)
		}
	}
}
