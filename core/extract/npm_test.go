package extract

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/discover"
	"github.com/synaptic-graph/synaptic/core/resolve"
)

func ex(sub string, targets ...string) JSExport { return JSExport{Subpath: sub, Targets: targets} }

func TestParsePackageJSON(t *testing.T) {
	tests := []struct {
		name, in  string
		want      resolve.JSPackage
		workspace bool
		err       bool
	}{
		{"name and main", `{"name":"a","main":"./lib/index.js","types":"./lib/index.d.ts"}`,
			resolve.JSPackage{Name: "a", Main: []string{"./lib/index.js", "./lib/index.d.ts"}}, false, false},
		{"exports string", `{"name":"a","exports":"./index.js"}`,
			resolve.JSPackage{Name: "a", Exports: []JSExport{ex(".", "./index.js")}}, false, false},
		{"exports conditions of .", `{"name":"a","exports":{"types":"./a.d.ts","import":"./a.mjs"}}`,
			resolve.JSPackage{Name: "a", Exports: []JSExport{ex(".", "./a.d.ts", "./a.mjs")}}, false, false},
		{"exports subpaths in file order, nested conditions", `{"name":"zod","exports":{"./v3":{"@zod/source":"./src/v3/index.ts","import":{"types":"./v3/index.d.ts","default":"./v3/index.js"}},".":"./index.js","./package.json":"./package.json","./x":null,"./*":["./src/*.ts"]}}`,
			resolve.JSPackage{Name: "zod", Exports: []JSExport{
				ex("./v3", "./src/v3/index.ts", "./v3/index.d.ts", "./v3/index.js"),
				ex(".", "./index.js"),
				ex("./package.json", "./package.json"),
				ex("./x"),
				ex("./*", "./src/*.ts"),
			}}, false, false},
		{"exports null", `{"name":"a","exports":null}`, resolve.JSPackage{Name: "a"}, false, false},
		{"workspaces", `{"name":"root","private":true,"workspaces":["packages/*"]}`, resolve.JSPackage{Name: "root"}, true, false},
		{"fields of other types ignored", `{"name":7,"main":["x"],"exports":{"./a":5}}`, resolve.JSPackage{Exports: []JSExport{ex("./a")}}, false, false},
		{"not an object", `["a"]`, resolve.JSPackage{}, false, true},
		{"not JSON", `{"name":`, resolve.JSPackage{}, false, true},
		{"too deep", `{"exports":{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":"./x"}}}}}}}}}}`, resolve.JSPackage{}, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePackageJSON([]byte(tt.in))
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if !reflect.DeepEqual(got.pkg, tt.want) || got.workspace != tt.workspace {
				t.Errorf("got %+v (workspace %v), want %+v (workspace %v)", got.pkg, got.workspace, tt.want, tt.workspace)
			}
		})
	}
}

// FuzzParsePackageJSON: any bytes give a package or an error, never a
// panic or a hang.
func FuzzParsePackageJSON(f *testing.F) {
	f.Add([]byte(`{"name":"zod","exports":{"./v3":{"@zod/source":"./src/v3/index.ts"},".":["./a.js",{"import":"./b.mjs"}]}}`))
	f.Add([]byte(`{"exports":"./x.js","workspaces":{"packages":["a/*"]}}`))
	f.Add([]byte(`{"exports":[[[[[[[[[[["x"]]]]]]]]]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePackageJSON(data)
		if err == nil && p.pkg.Exports != nil {
			for _, e := range p.pkg.Exports {
				if e.Subpath == "" {
					t.Fatalf("an export without subpath: %+v", p.pkg.Exports)
				}
			}
		}
	})
}

// TestFindJSProject: the nearest named package.json above the root, the
// root's folder inside it, and the workspace root above (npm workspaces or
// pnpm-workspace.yaml).
func TestFindJSProject(t *testing.T) {
	base := t.TempDir()
	if p, _ := findJSProject(filepath.Join(base, "x")); p != nil {
		t.Skipf("%s already sits in an npm package (%v)", base, p)
	}
	for f, body := range map[string]string{
		"npmws/package.json":                      `{"name":"mono","private":true,"workspaces":["packages/*"]}`,
		"npmws/packages/zod/package.json":         `{"name":"zod","exports":{"./v4/core":"./src/v4/core/index.ts"}}`,
		"npmws/packages/zod/src/v4/core/index.ts": "",
		"pnpm/pnpm-workspace.yaml":                "packages:\n  - 'apps/*'\n",
		"pnpm/apps/web/package.json":              `{"name":"@acme/web"}`,
		"pnpm/apps/web/src/a.ts":                  "",
		"unnamed/package.json":                    `{"private":true}`,
		"unnamed/lib/a.js":                        "",
		"alone/lib/a.js":                          "",
	} {
		p := filepath.Join(base, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, root string
		want       *JSProject // Dir and Workspace relative to base
	}{
		{"npm workspace member, folder inside", "npmws/packages/zod/src/v4", &JSProject{ProjectNPMPackage, "npmws/packages/zod", "zod", "src/v4", "npmws"}},
		{"pnpm workspace member", "pnpm/apps/web/src", &JSProject{ProjectNPMPackage, "pnpm/apps/web", "@acme/web", "src", "pnpm"}},
		{"the package itself is not above its root", "npmws/packages/zod", &JSProject{ProjectNPMPackage, "npmws", "mono", "packages/zod", "npmws"}},
		{"unnamed package.json", "unnamed/lib", nil},
		{"none", "alone/lib", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, pkg := findJSProject(filepath.Join(base, tt.root))
			if tt.want != nil {
				tt.want.Dir = filepath.Join(base, tt.want.Dir)
				tt.want.Workspace = filepath.Join(base, tt.want.Workspace)
			}
			switch {
			case (got == nil) != (tt.want == nil):
				t.Fatalf("findJSProject(%s) = %+v, want %+v", tt.root, got, tt.want)
			case got != nil && *got != *tt.want:
				t.Errorf("findJSProject(%s) = %+v, want %+v", tt.root, *got, *tt.want)
			case got != nil && (pkg == nil || pkg.Name != got.Name || pkg.Inside != got.Inside):
				t.Errorf("package for the resolver = %+v, want %s inside %s", pkg, got.Name, got.Inside)
			}
		})
	}
}

// TestJSPackagesOfBadFile: a package.json that is not JSON is named in a
// warning and left out; the others still count.
func TestJSPackagesOfBadFile(t *testing.T) {
	dir := t.TempDir()
	for f, body := range map[string]string{"bad/package.json": `{"name":`, "good/package.json": `{"name":"good"}`} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	sum := &Summary{}
	found := []discover.File{{Rel: "bad/package.json", Real: "bad/package.json"}, {Rel: "good/package.json", Real: "good/package.json"}}
	pkgs, _ := jsPackagesOf(repo, dir, found, sum)
	if len(pkgs) != 1 || pkgs[0].Name != "good" || pkgs[0].Dir != "good" {
		t.Errorf("packages = %+v, want only good", pkgs)
	}
	if len(sum.Warnings) != 1 || !strings.Contains(sum.Warnings[0], "bad/package.json") || !strings.Contains(sum.Warnings[0], "fix the file") {
		t.Errorf("warnings = %q, want one naming bad/package.json and the fix", sum.Warnings)
	}
}
