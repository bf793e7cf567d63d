//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestRootPackage: the dotted package of an extraction root below its
// source root, from the project file above it (src/ layout, a declared
// package-dir, or none) or, with no project file, from its folder names.
func TestRootPackage(t *testing.T) {
	file := func(p, data string) abi.ProjectFile { return abi.ProjectFile{Path: p, Data: []byte(data)} }
	tests := []struct {
		name  string
		root  string
		files []abi.ProjectFile
		want  string
		exact bool
	}{
		{"src layout", "/w/shop/src/shop/billing", []abi.ProjectFile{file("../../../pyproject.toml", "[project]\nname='shop'\n")}, "shop.billing", true},
		{"src layout, the source root itself", "/w/shop/src", []abi.ProjectFile{file("../pyproject.toml", "")}, "", false},
		{"flat layout", "/w/flat/shop/billing", []abi.ProjectFile{file("../../setup.py", "")}, "shop.billing", true},
		{"the project root", "/w/shop", []abi.ProjectFile{file("pyproject.toml", ""), file("src/x/setup.py", "")}, "", false},
		{"nearest project wins", "/w/a/b/c", []abi.ProjectFile{file("../../../pyproject.toml", ""), file("../setup.cfg", "")}, "c", true},
		{"pyproject package-dir inline", "/w/p/lib/pkg/sub", []abi.ProjectFile{file("../../../pyproject.toml", "[tool.setuptools]\npackage-dir = {\"\" = \"lib\"}\n")}, "pkg.sub", true},
		{"pyproject package-dir table", "/w/p/code/pkg", []abi.ProjectFile{file("../../pyproject.toml", "[tool.setuptools.package-dir]\n\"\" = \"code\"\n")}, "pkg", true},
		{"setup.cfg package_dir", "/w/p/source/pkg", []abi.ProjectFile{file("../../setup.cfg", "[metadata]\nname = p\n[options]\npackage_dir =\n    =source\npackages = find:\n")}, "pkg", true},
		{"setup.py package_dir", "/w/p/lib/pkg", []abi.ProjectFile{file("../../setup.py", "setup(name='p', package_dir={'': 'lib'})\n")}, "pkg", true},
		{"not importable", "/w/dash/my-app/x", []abi.ProjectFile{file("../../pyproject.toml", "")}, "", false},
		{"no project file: folder names", "/home/u/corpora/python/email/mime", nil, "corpora.python.email.mime", false},
		{"no project file: up to a non-identifier", "/root/.cache/synaptic-eval/json", nil, "json", false},
		{"file system root", "/", nil, "", false},
	}
	for _, tt := range tests {
		info, err := extract.RunProject(projectInfo, &abi.ProjectInput{Root: tt.root, Files: tt.files})
		if err != nil {
			t.Fatal(err)
		}
		extract.SetProject(info)
		if got := currentRoot(); !slices.Equal(got.parts, splitDots(tt.want)) || got.exact != tt.exact {
			t.Errorf("%s: root package %+v (info %q), want %q (exact %v)", tt.name, got, info, tt.want, tt.exact)
		}
	}
	extract.SetProject(nil)
	if currentRoot().parts != nil {
		t.Error("no project info still gives a root package")
	}
}

func splitDots(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '.' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

// TestFileFacts: module keys (anchored and dotted, with the root's
// package), import keys and kinds, and the test marker.
func TestFileFacts(t *testing.T) {
	info, _ := projectInfo(&abi.ProjectInput{Root: "/w/proj/src/shop", Files: []abi.ProjectFile{{Path: "../../pyproject.toml"}}})
	extract.SetProject(info)
	defer extract.SetProject(nil)
	src := "import os.path as osp\nimport billing.invoice\nfrom . import models\nfrom ..util import helper as h\nfrom .models import *\nfrom ... import top\n"
	facts := plugintest.ExtractSource(t, Extractor{}, "billing/api/views.py", []byte(src))
	if want := []string{"@.billing.api.views", "shop.billing.api.views", "billing.api.views", "api.views", "views"}; !slices.Equal(facts.File.Modules, want) || facts.File.Test {
		t.Errorf("file facts %+v, want modules %v, not a test", facts.File, want)
	}
	want := []struct {
		path string
		keys []string
		kind abi.ImportKind
	}{
		{"os.path", []string{"os.path"}, abi.ImportModule},
		{"billing.invoice", []string{"billing.invoice"}, abi.ImportModule},
		{".", []string{"@.billing.api", "@pyi.billing.api", "@pkg.billing.api", "@pkgi.billing.api"}, abi.ImportSymbols},
		{"..util", []string{"@.billing.util", "@pyi.billing.util", "@pkg.billing.util", "@pkgi.billing.util"}, abi.ImportSymbols},
		{".models", []string{"@.billing.api.models", "@pyi.billing.api.models", "@pkg.billing.api.models", "@pkgi.billing.api.models"}, abi.ImportWildcard},
		{"...", []string{"@", "@pyi", "@pkg", "@pkgi"}, abi.ImportSymbols},
	}
	if len(facts.Imports) != len(want) {
		t.Fatalf("imports %+v, want %d", facts.Imports, len(want))
	}
	for i, w := range want {
		im := facts.Imports[i]
		if im.Path != w.path || !slices.Equal(im.Keys, w.keys) || im.Kind != w.kind {
			t.Errorf("import %q: keys %v, kind %q; want %q %v %q", im.Path, im.Keys, im.Kind, w.path, w.keys, w.kind)
		}
	}

	// A package's __init__.py is the package; an empty one too.
	for _, tt := range []struct {
		path string
		want []string
	}{
		{"billing/__init__.py", []string{"@pkg.billing", "shop.billing", "billing"}},
		{"__init__.py", []string{"@pkg", "shop"}},
		{"billing/models.pyi", []string{"@pyi.billing.models", "shop.billing.models", "billing.models", "models"}},
		{"billing/sub/__init__.pyi", []string{"@pkgi.billing.sub", "shop.billing.sub", "billing.sub", "sub"}},
	} {
		if got := plugintest.ExtractSource(t, Extractor{}, tt.path, nil).File.Modules; !slices.Equal(got, tt.want) {
			t.Errorf("%s: modules %v, want %v", tt.path, got, tt.want)
		}
	}
}

// TestImportKeys: an absolute import is first the module of that name
// in the source root (below the root's package, or at the root itself
// unless a project file places the root in a package), then any module
// whose name ends so; a relative import climbing above the extraction
// root names the module by its dotted name in the root's package, as the
// whole project's graph resolves it.
func TestImportKeys(t *testing.T) {
	anch := func(m string) []string {
		if m == "" {
			return []string{"@", "@pyi", "@pkg", "@pkgi"}
		}
		return []string{"@." + m, "@pyi." + m, "@pkg." + m, "@pkgi." + m}
	}
	guess := func(p ...string) rootPkg { return rootPkg{parts: p} }
	exact := func(p ...string) rootPkg { return rootPkg{parts: p, exact: true} }
	tests := []struct {
		mod  string
		dir  []string
		root rootPkg
		want []string
	}{
		{"subprocess", []string{"asyncio"}, rootPkg{}, append(anch("subprocess"), "subprocess")},
		{"json.decoder", nil, guess("python", "json"), append(anch("json.decoder"), "json.decoder")},
		{"python.json.decoder", nil, guess("python", "json"), append(append(anch("decoder"), anch("python.json.decoder")...), "python.json.decoder")},
		{"shop.billing.invoice", nil, exact("shop", "billing"), append(anch("invoice"), "shop.billing.invoice")},
		{"shop.billing", nil, exact("shop", "billing"), append(anch(""), "shop.billing")},
		{"os", nil, exact("shop", "billing"), []string{"os"}},
		{"..utils", nil, exact("email", "mime"), []string{"email.utils"}},
		{"...x", []string{"a"}, guess("p", "q"), []string{"p.x"}},
		{"..", nil, exact("email", "mime"), []string{"email"}},
		{"..x", nil, rootPkg{}, nil},
		{"...", nil, exact("one"), nil},
		{"..x", []string{"a", "b"}, rootPkg{}, anch("a.x")},
	}
	for _, tt := range tests {
		if got := importKeys(tt.mod, tt.dir, tt.root); !slices.Equal(got, tt.want) {
			t.Errorf("importKeys(%q, %v, %v) = %v, want %v", tt.mod, tt.dir, tt.root, got, tt.want)
		}
	}
}

func TestTestPaths(t *testing.T) {
	for p, want := range map[string]bool{
		"test_api.py": true, "api_test.py": true, "conftest.py": true, "tests/helpers.py": true,
		"pkg/testing/util.py": true, "api_tests.py": true, "ApiTest.py": true,
		"api.py": false, "contest.py": false, "testament/x.py": false, "latest.py": false,
	} {
		if got := extract.ConventionalTestPath(p); got != want {
			t.Errorf("ConventionalTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestReturnRefs: callables carry their result's named type, fields their
// declared or constructed type, receivers their parsed type.
func TestReturnRefs(t *testing.T) {
	src := "class Repo:\n    pass\n\nclass S:\n    def __init__(self, db):\n        self.repo = Repo(db)\n        self.n: int = 0\n\n    def make(self) -> 'Repo':\n        return Repo(1)\n\n    def get(self) -> Repo:\n        return self.repo\n\n    def opt(self) -> Repo | None:\n        return None\n\n    def run(self, r: Repo):\n        self.repo.save()\n        r.save()\n"
	facts := plugintest.ExtractSource(t, Extractor{}, "s.py", []byte(src))
	refs := map[string]string{}
	for _, s := range facts.Symbols {
		if s.Signature != nil && s.Signature.ReturnRef != nil {
			refs[s.Name] = s.Signature.ReturnRef.String()
		}
		if s.Name == "run" && (len(s.Signature.Params) != 2 || s.Signature.Params[1].TypeRef.String() != "Repo") {
			t.Errorf("run's parameters %+v: want r typed Repo", s.Signature.Params)
		}
	}
	if want := map[string]string{"repo": "Repo", "n": "int", "get": "Repo", "make": "Repo", "opt": "Repo"}; !equalMaps(refs, want) {
		t.Errorf("return refs %v, want %v", refs, want)
	}
	var recv []string
	for _, c := range facts.Calls {
		if c.Name == "save" {
			recv = append(recv, c.ReceiverRef.String())
		}
	}
	if want := []string{"S#repo", "Repo"}; !slices.Equal(recv, want) {
		t.Errorf("receiver refs of save() = %v, want %v", recv, want)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// FuzzProjectInfo: the project files are the user's, possibly hostile;
// the entry point never fails or panics on them, answers within
// abi.MaxProjectInfo, and its root package is made of identifiers.
func FuzzProjectInfo(f *testing.F) {
	f.Add("/w/p/src/pkg", "../../pyproject.toml", "[tool.setuptools]\npackage-dir = {\"\" = \"src\"}\n")
	f.Add("/w/p/lib/pkg", "../../setup.cfg", "[options]\npackage_dir =\n    =lib\n")
	f.Add("/w/p/x", "../setup.py", "setup(package_dir={'': '../..'})")
	f.Add("/", "pyproject.toml", "")
	f.Fuzz(func(t *testing.T, root, name, data string) {
		info, err := extract.RunProject(projectInfo, &abi.ProjectInput{Root: root, Files: []abi.ProjectFile{{Path: name, Data: []byte(data)}}})
		if err != nil || len(info) > abi.MaxProjectInfo {
			t.Fatalf("entry point: %v (%d bytes)", err, len(info))
		}
		extract.SetProject(info)
		defer extract.SetProject(nil)
		for _, p := range currentRoot().parts {
			if !isIdentifier(p) {
				t.Fatalf("root package part %q of %q is no identifier", p, info)
			}
		}
	})
}
