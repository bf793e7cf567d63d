//go:build !wasip1

package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

func TestProjectInfo(t *testing.T) {
	mod := func(p, m string) abi.ProjectFile {
		return abi.ProjectFile{Path: p, Data: []byte("// c\nmodule " + m + " // x\n\ngo 1.22\n")}
	}
	tests := []struct {
		name string
		in   abi.ProjectInput
		dirs map[string]string // directory -> import path ("?" = unknown: the directory stands in)
	}{
		{"go.mod at the root", abi.ProjectInput{Root: "/w/m", Files: []abi.ProjectFile{mod("go.mod", "example.com/m"), mod("tools/go.mod", "example.com/tools")}},
			map[string]string{".": "example.com/m", "a/b": "example.com/m/a/b", "tools/x": "example.com/tools/x", "vendor/golang.org/x/net": "golang.org/x/net"}},
		{"GOROOT/src", abi.ProjectInput{Root: "/usr/local/go/src", Files: []abi.ProjectFile{mod("go.mod", "std"), mod("cmd/go.mod", "cmd")}},
			map[string]string{"net/http": "net/http", "cmd/go": "cmd/go", "cmd/vendor/golang.org/x/mod": "golang.org/x/mod"}},
		{"go.mod above the root", abi.ProjectInput{Root: "/c/net/http", Files: []abi.ProjectFile{mod("../go.mod", "net"), mod("../../../go.mod", "far")}},
			map[string]string{".": "net/http", "httptest": "net/http/httptest"}},
		{"GOPATH layout", abi.ProjectInput{Root: "/go/src/net/http"}, map[string]string{".": "net/http", "pprof": "net/http/pprof"}},
		{"nothing says", abi.ProjectInput{Root: "/tmp/x"}, map[string]string{".": "?", "a": "?"}},
	}
	for _, tt := range tests {
		info, err := extract.RunProject(projectInfo, &tt.in)
		if err != nil {
			t.Fatal(err)
		}
		extract.SetProject(info)
		p := currentProject()
		for dir, want := range tt.dirs {
			got, known := p.dirImportPath(dir)
			if !known {
				got = "?"
			}
			if got != want {
				t.Errorf("%s: import path of %s = %q, want %q (info %q)", tt.name, dir, got, want, info)
			}
		}
	}
	extract.SetProject(nil)
}

// TestProjectSummary: the summary line says which module (or GOPATH
// path) the root was resolved in: its own go.mod, else the nearest above
// it (nested modules shadow outer ones, std has no prefix, vendor/
// packages drop it), else a GOPATH-style path; a go.mod above without a
// module line is a warning, not a guess.
func TestProjectSummary(t *testing.T) {
	mod := func(p, m string) abi.ProjectFile {
		return abi.ProjectFile{Path: p, Data: []byte("// the shop\nmodule " + m + " // trailing comment\n\ngo 1.22\n")}
	}
	tests := []struct {
		name     string
		in       abi.ProjectInput
		summary  string
		warning  string
		rootPath string // import path of "."; "?" = unknown
	}{
		{"go.mod at the root", abi.ProjectInput{Root: "/b/shop", Files: []abi.ProjectFile{mod("go.mod", "example.com/shop")}},
			`module "example.com/shop" (go.mod at the root: /b/shop/go.mod), root imported as "example.com/shop"`, "", "example.com/shop"},
		{"go.mod one level up", abi.ProjectInput{Root: "/b/shop/services", Files: []abi.ProjectFile{mod("../go.mod", "example.com/shop")}},
			`module "example.com/shop" (go.mod above the root: /b/shop/go.mod), root imported as "example.com/shop/services"`, "", "example.com/shop/services"},
		{"go.mod three levels up", abi.ProjectInput{Root: "/b/shop/services/billing/invoice", Files: []abi.ProjectFile{mod("../../../go.mod", "example.com/shop")}},
			`module "example.com/shop" (go.mod above the root: /b/shop/go.mod), root imported as "example.com/shop/services/billing/invoice"`, "", "example.com/shop/services/billing/invoice"},
		{"nested go.mod wins", abi.ProjectInput{Root: "/b/shop/tools/gen", Files: []abi.ProjectFile{mod("../../go.mod", "example.com/shop"), mod("../go.mod", `"example.com/shop/tools"`)}},
			`module "example.com/shop/tools" (go.mod above the root: /b/shop/tools/go.mod), root imported as "example.com/shop/tools/gen"`, "", "example.com/shop/tools/gen"},
		{"vendored package", abi.ProjectInput{Root: "/b/shop/vendor/golang.org/x/text", Files: []abi.ProjectFile{mod("../../../../go.mod", "example.com/shop")}},
			`module "example.com/shop" (go.mod above the root: /b/shop/go.mod), root imported as "golang.org/x/text"`, "", "golang.org/x/text"},
		{"std module at the root", abi.ProjectInput{Root: "/goroot/src", Files: []abi.ProjectFile{mod("go.mod", "std")}},
			`module "std" (go.mod at the root: /goroot/src/go.mod), its folders are the import paths`, "", "."},
		{"std module", abi.ProjectInput{Root: "/goroot/src/net/http", Files: []abi.ProjectFile{mod("../../go.mod", "std")}},
			`module "std" (go.mod above the root: /goroot/src/go.mod), root imported as "net/http"`, "", "net/http"},
		{"GOPATH layout", abi.ProjectInput{Root: "/gopath/src/github.com/a/b"},
			`root imported as "github.com/a/b" (GOPATH layout, no go.mod)`, "", "github.com/a/b"},
		{"none", abi.ProjectInput{Root: "/plain/dir"}, "", "", "?"},
		{"go.mod without module line", abi.ProjectInput{Root: "/nomod/pkg", Files: []abi.ProjectFile{{Path: "../go.mod", Data: []byte("go 1.22\n")}}},
			"", "/nomod/go.mod declares no module path", "?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := extract.RunProjectOutput(projectInfo, &tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(out.Summary, "\n"); got != tt.summary {
				t.Errorf("summary = %q, want %q", got, tt.summary)
			}
			if got := strings.Join(out.Warnings, "\n"); (got == "") != (tt.warning == "") || !strings.Contains(got, tt.warning) {
				t.Errorf("warnings = %q, want one containing %q", got, tt.warning)
			}
			extract.SetProject(out.Info)
			defer extract.SetProject(nil)
			got, known := currentProject().dirImportPath(".")
			if !known {
				got = "?"
			}
			if got != tt.rootPath {
				t.Errorf("import path of the root = %q, want %q (info %q)", got, tt.rootPath, out.Info)
			}
		})
	}
}

// TestFileFacts: a file's scope is its package's import path (own scopes
// for _test packages and programs), its imports are keyed by their path,
// and "." and "_" imports say what they bind.
func TestFileFacts(t *testing.T) {
	info, _ := projectInfo(&abi.ProjectInput{Root: "/w", Files: []abi.ProjectFile{{Path: "go.mod", Data: []byte("module example.com/m")}}})
	extract.SetProject(info)
	defer extract.SetProject(nil)
	tests := []struct {
		path, src, scope string
		modules          []string
	}{
		{"srv/server.go", "package srv\nimport (\n\t\"net/http\"\n\t. \"strings\"\n\t_ \"embed\"\n)\n", "srv:srv", []string{"example.com/m/srv"}},
		{"srv/server_test.go", "package srv_test\nimport \"example.com/m/srv\"\n", "srv:srv_test", nil},
		{"cmd/tool/main.go", "//go:build linux\n\npackage main\n", "cmd/tool:main", []string{"example.com/m/cmd/tool:main"}},
		{"vendor/golang.org/x/net/route/route.go", "package route\n", "vendor/golang.org/x/net/route:route", []string{"vendor:vendor:golang.org/x/net/route"}},
	}
	for _, tt := range tests {
		facts := extractGo(t, tt.path, tt.src)
		if facts.File.Scope != tt.scope || facts.File.Test != strings.HasSuffix(tt.path, "_test.go") || !slices.Equal(facts.File.Modules, tt.modules) {
			t.Errorf("%s: file facts %+v, want scope %q, modules %v", tt.path, facts.File, tt.scope, tt.modules)
		}
		for _, im := range facts.Imports {
			want := abi.ImportModule
			switch im.Alias {
			case ".":
				want = abi.ImportWildcard
			case "_":
				want = abi.ImportSideEffect
			}
			keys := []string{"vendor:vendor:" + im.Path, im.Path, im.Path + ":main"} // the module's vendored copy, the package, a program
			if !slices.Equal(im.Keys, keys) || im.Kind != want {
				t.Errorf("%s: import %q has keys %v, kind %q; want %v, %q", tt.path, im.Path, im.Keys, im.Kind, keys, want)
			}
		}
	}
	if v := extractGo(t, "cmd/tool/main.go", "//go:build linux\n\npackage main\n").File.Variants; len(v) != 1 || v[0].Axis != axisOS {
		t.Errorf("variants = %+v", v)
	}
}

func TestReturnRefs(t *testing.T) {
	facts := extractGo(t, "a.go", "package a\n\ntype T struct{ c *Conn }\n\nfunc New() (*T, error) { return nil, nil }\n\nvar Default = &T{}\n")
	refs := map[string]string{}
	for _, s := range facts.Symbols {
		if s.Signature != nil && s.Signature.ReturnRef != nil {
			refs[s.Name] = s.Signature.ReturnRef.String()
		}
	}
	if refs["New"] != "T" || refs["c"] != "Conn" {
		t.Errorf("return refs = %v, want New: T, c: Conn", refs)
	}
}

func extractGo(t *testing.T, name, src string) *abi.Facts {
	t.Helper()
	return plugintest.ExtractSource(t, Extractor{}, name, []byte(src))
}
