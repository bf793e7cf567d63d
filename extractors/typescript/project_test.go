//go:build !wasip1

package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// workspace is an npm workspace extracted from one of its package's
// folders: the project input the host would hand over.
func workspace() *abi.ProjectInput {
	return &abi.ProjectInput{Root: "/ws/packages/zod/src/v4", Files: []abi.ProjectFile{
		{Path: "../../../../package.json", Data: []byte(`{"name":"mono","private":true,"workspaces":["packages/*"]}`)},
		{Path: "../../package.json", Data: []byte(`{"name":"zod","exports":{".":"./index.js","./v4/core":{"@zod/source":"./src/v4/core/index.ts","import":"./v4/core/index.js"},"./dist/*":"./src/v4/*/index.js"}}`)},
		{Path: "../../tsconfig.json", Data: []byte("{\n  // paths of the package\n  \"compilerOptions\": {\"baseUrl\": \".\", \"paths\": {\"@core/*\": [\"src/v4/core/*\"],},},\n}")},
		{Path: "classic/package.json", Data: []byte(`{"name":"@zod/classic","main":"./lib/index.js"}`)},
		{Path: "mini/package.json", Data: []byte(`{"name":`)},
	}}
}

func TestProjectInfo(t *testing.T) {
	p := readProject(workspace())
	want := []string{
		`package "zod" (package.json above the root: /ws/packages/zod/package.json), root is its src/v4; workspace root /ws`,
		`tsconfig.json above the root: /ws/packages/zod/tsconfig.json (paths, baseUrl)`,
	}
	if !reflect.DeepEqual(p.Summary, want) {
		t.Errorf("summary = %q, want %q", p.Summary, want)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "mini/package.json") {
		t.Errorf("warnings = %q, want one naming mini/package.json", p.Warnings)
	}
	names := []string{}
	for _, pkg := range p.Packages {
		names = append(names, pkg.Name+"@"+pkg.Dir+pkg.Inside)
	}
	if want := []string{"@zod/classic@classic", "zod@src/v4"}; !reflect.DeepEqual(names, want) {
		t.Errorf("packages = %q, want %q", names, want)
	}
	if len(p.Configs) != 1 || p.Configs[0].Inside != "src/v4" || p.Configs[0].BaseURL != "." {
		t.Errorf("configs = %+v, want the tsconfig two levels up", p.Configs)
	}
	// The info is what instances decode, and it is deterministic.
	info, err := extract.RunProject(projectInfo, workspace())
	if err != nil {
		t.Fatal(err)
	}
	again, _ := extract.RunProject(projectInfo, workspace())
	if string(info) != string(again) {
		t.Error("project info differs between two runs")
	}
	var back project
	p.Summary, p.Warnings = nil, nil // for the run's summary, not the instances
	if err := json.Unmarshal(info, &back); err != nil || !reflect.DeepEqual(&back, p) {
		t.Errorf("info does not decode to the project: %v", err)
	}
	// The lines reach the host in the project output.
	out, err := extract.RunProjectOutput(projectInfo, workspace())
	if err != nil || !reflect.DeepEqual(out.Summary, want) || len(out.Warnings) != 1 {
		t.Errorf("project output = %+v, %v; want the summary lines and one warning", out, err)
	}
}

// TestProjectRootLine: the summary names the package the root was
// resolved as (above the root, else its own package.json) and the
// workspace it belongs to.
func TestProjectRootLine(t *testing.T) {
	ws := abi.ProjectFile{Path: "../../pnpm-workspace.yaml", Data: []byte("packages:\n  - packages/*\n")}
	own := abi.ProjectFile{Path: "package.json", Data: []byte(`{"name":"zod"}`)}
	tests := []struct {
		name  string
		files []abi.ProjectFile
		want  string // the first summary line; "" none
	}{
		{"own package in a pnpm workspace", []abi.ProjectFile{own, ws}, `package "zod" (package.json at the root); workspace root /ws`},
		{"own package, no workspace", []abi.ProjectFile{own}, `package "zod" (package.json at the root)`},
		{"npm workspaces field", []abi.ProjectFile{own, {Path: "../../package.json", Data: []byte(`{"name":"mono","workspaces":["packages/*"]}`)}},
			`package "zod" (package.json at the root); workspace root /ws`},
		{"workspace only", []abi.ProjectFile{ws}, "no package.json at or above the root names a package; workspace root /ws"},
		{"a workspace below the enclosing package is not its workspace", []abi.ProjectFile{
			{Path: "../pnpm-workspace.yaml", Data: []byte("packages: []\n")},
			{Path: "../../package.json", Data: []byte(`{"name":"mono"}`)},
		}, `package "mono" (package.json above the root: /ws/package.json), root is its packages/zod`},
		{"an unnamed package.json above is the root's scope: no package encloses it", []abi.ProjectFile{
			{Path: "../package.json", Data: []byte(`{"type":"module"}`)},
			{Path: "../../package.json", Data: []byte(`{"name":"mono"}`)},
		}, ""},
		{"nothing", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := readProject(&abi.ProjectInput{Root: "/ws/packages/zod", Files: tt.files})
			got := ""
			if len(p.Summary) > 0 {
				got = p.Summary[0]
			}
			if got != tt.want {
				t.Errorf("summary line = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestImportKeys: the candidate paths of each kind of specifier, in the
// order Node and TypeScript probe them.
func TestImportKeys(t *testing.T) {
	p := readProject(workspace())
	tests := []struct {
		name, dir, spec string
		want            []string // a prefix of the keys
		none            bool
	}{
		{"relative", "classic", "./schemas", []string{"classic/schemas", "classic/schemas.ts", "classic/schemas.tsx", "classic/schemas.d.ts", "classic/schemas.js"}, false},
		{"folder index", "classic", "../core", []string{"core", "core.ts", "core.tsx", "core.d.ts", "core.js", "core.jsx", "core.mjs", "core.cjs", "core.mts", "core.cts", "core/index.ts"}, false},
		{".js written for .ts", ".", "./util.js", []string{"util.js", "util.ts", "util.tsx"}, false},
		{"another extension", ".", "./jquery.min", []string{"jquery.min", "jquery.min.ts"}, false},
		{"outside the tree", ".", "../x", nil, true},
		{"self-reference through exports", "classic", "zod/v4/core", []string{"core/index.ts"}, false},
		{"exports pattern", "classic", "zod/dist/core", []string{"core/index.js", "core/index.ts"}, false},
		{"not exported", "classic", "zod/src/v4/core", nil, true},
		{"package of the tree by main", ".", "@zod/classic", []string{"classic/lib/index.js"}, false},
		{"tsconfig paths", ".", "@core/util", []string{"core/util", "core/util.ts"}, false},
		{"a dependency", ".", "react", nil, true},
		{"empty", ".", "", nil, true},
	}
	for _, tt := range tests {
		got := p.importKeys(tt.dir, tt.spec)
		if tt.none {
			if len(got) != 0 {
				t.Errorf("%s: keys = %q, want none", tt.name, got)
			}
			continue
		}
		if len(got) < len(tt.want) || !reflect.DeepEqual(got[:len(tt.want)], tt.want) {
			t.Errorf("%s: keys = %q, want them to start with %q", tt.name, got, tt.want)
		}
	}
	// Trimmed-extension candidates follow the exact ones.
	if got := probe(nil, "a/x"); indexOf(got, "a/x/index.ts") < indexOf(got, "a/x.cts") || len(got) != 19 {
		t.Errorf("probe(a/x) = %q: want the 9 extensions, then the 9 index files", got)
	}
	if got := probe(nil, "a/x.js"); len(got) != 9 || indexOf(got, "a/x.ts") != 1 {
		t.Errorf("probe(a/x.js) = %q: want the file, then its extension swapped", got)
	}
}

func contains(s []string, x string) bool { return indexOf(s, x) >= 0 }

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func TestParseTSConfig(t *testing.T) {
	tests := []struct {
		name, in string
		want     tsConfig
		err      bool
	}{
		{"comments and trailing commas", "{/* c */\"compilerOptions\": {\"baseUrl\": \"src\", // here\n\"paths\": {\"@/*\": [\"./*\",],\"x\":[\"y\"]},},}", tsConfig{BaseURL: "src", Paths: []tsPath{{"@/*", []string{"./*"}}, {"x", []string{"y"}}}, pathsSet: true}, false},
		{"a comment marker inside a string", `{"compilerOptions": {"baseUrl": "//x/*y*/"}}`, tsConfig{BaseURL: "//x/*y*/"}, false},
		{"no compilerOptions", `{"extends": "./base.json"}`, tsConfig{extends: []string{"./base.json"}}, false},
		{"extends list", `{"extends": ["a", "./b"], "compilerOptions": {"paths": {}}}`, tsConfig{extends: []string{"a", "./b"}, pathsSet: true}, false},
		{"extends of another type", `{"extends": 3}`, tsConfig{}, false},
		{"paths not an object", `{"compilerOptions": {"paths": ["a"]}}`, tsConfig{}, true},
		{"not JSON", `{"compilerOptions": `, tsConfig{}, true},
		{"unterminated comment", `{"a": 1 /*`, tsConfig{}, true},
	}
	for _, tt := range tests {
		got, err := parseTSConfig([]byte(tt.in))
		if (err != nil) != tt.err || !tt.err && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, %v; want %+v (error %v)", tt.name, got, err, tt.want, tt.err)
		}
	}
}

func TestParsePackageJSON(t *testing.T) {
	ex := func(sub string, targets ...string) npmExport { return npmExport{sub, targets} }
	tests := []struct {
		name, in string
		want     npmPackage
		ws, err  bool
	}{
		{"entry fields", `{"name":"a","main":"./lib/index.js","types":"./lib/index.d.ts"}`, npmPackage{Name: "a", Main: []string{"./lib/index.js", "./lib/index.d.ts"}}, false, false},
		{"exports string", `{"name":"a","exports":"./index.js"}`, npmPackage{Name: "a", HasExports: true, Exports: []npmExport{ex(".", "./index.js")}}, false, false},
		{"exports conditions", `{"name":"a","exports":{"types":"./a.d.ts","import":"./a.mjs"}}`, npmPackage{Name: "a", HasExports: true, Exports: []npmExport{ex(".", "./a.d.ts", "./a.mjs")}}, false, false},
		{"exports null", `{"name":"a","exports":null}`, npmPackage{Name: "a"}, false, false},
		{"workspaces", `{"name":"root","workspaces":["packages/*"]}`, npmPackage{Name: "root"}, true, false},
		{"fields of other types ignored", `{"name":7,"main":["x"],"exports":{"./a":5}}`, npmPackage{HasExports: true, Exports: []npmExport{ex("./a")}}, false, false},
		{"not an object", `["a"]`, npmPackage{}, false, true},
		{"too deep", `{"exports":{"a":{"b":{"c":{"d":{"e":{"f":{"g":{"h":{"i":"./x"}}}}}}}}}}`, npmPackage{}, false, true},
	}
	for _, tt := range tests {
		got, ws, err := parsePackageJSON([]byte(tt.in))
		if (err != nil) != tt.err || !tt.err && (!reflect.DeepEqual(got, tt.want) || ws != tt.ws) {
			t.Errorf("%s: got %+v ws=%v err=%v; want %+v ws=%v error=%v", tt.name, got, ws, err, tt.want, tt.ws, tt.err)
		}
	}
}

func TestIsTestPath(t *testing.T) {
	for p, want := range map[string]bool{
		"src/a.test.ts": true, "src/a.spec.js": true, "src/__tests__/a.ts": true, "test/x.js": true,
		"src/a.ts": false, "spec/a.ts": false, "src/testing.ts": false, "src/contest.ts": false,
	} {
		if got := extract.ConventionalTestPath(p); got != want {
			t.Errorf("ConventionalTestPath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCallbackTypes(t *testing.T) {
	tests := []struct {
		typ  string
		want string // callback types joined by ","; "-" for none
	}{
		{"(liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void", "Observable,Subscriber"},
		{"<K>(key: K, cb: (e: Event, n: number) => void, m: Map<K, V>) => R", "K,,Map"},
		{"(value: T, index: number) => O", "T,number"},
		{"(...args: Args[]) => void", "Args"},
		{"(opt?: Options) => void", "Options"},
		{"(x) => void", "-"},
		{"Observable<T>", "-"},
		{"(a: A", "-"},
		{"(a: A) | B", "-"},
		{"(this: Observable<T>, subscriber: Subscriber<T>) => TeardownLogic", "Subscriber"},
		{"(cb: (e: T, i: number) => void, x: X) => R", ",X"},
	}
	for _, tt := range tests {
		refs := callbackTypes(tt.typ)
		got := "-"
		if refs != nil {
			var names []string
			for _, r := range refs {
				if r == nil {
					names = append(names, "")
				} else {
					names = append(names, r.String())
				}
			}
			got = strings.Join(names, ",")
		}
		if got != tt.want {
			t.Errorf("callbackTypes(%q) = %q, want %q", tt.typ, got, tt.want)
		}
	}
}

func TestResultType(t *testing.T) {
	for in, want := range map[string]string{
		"Observable<T>": "Observable", "ns.T": "ns.T", "(T)": "T", "T[]": "T", " Subject ": "Subject",
		"A | B": "", "(a: A) => B": "", "{ a: A }": "", "A & B": "", "": "",
	} {
		if got := resultType(in); got != want {
			t.Errorf("resultType(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzProject: any metadata the host may hand over gives an answer (or
// an error), never a panic, and the same answer twice.
func FuzzProject(f *testing.F) {
	for _, pf := range workspace().Files {
		f.Add(pf.Path, pf.Data)
	}
	f.Add("@x/y", []byte(`{"extends": ["./tsconfig.base.json", "../tsconfig.json", "x"], "compilerOptions": {"baseUrl": ".."}}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		for _, base := range []string{packageJSON, tsconfigJSON, tsconfigBase} {
			in := &abi.ProjectInput{Root: "/r/a/b", Files: []abi.ProjectFile{{Path: "../" + base, Data: data}, {Path: "x/" + base, Data: data},
				{Path: "x/y/tsconfig.json", Data: []byte(`{"extends": ["../tsconfig.base.json", "../tsconfig.json", "../../../tsconfig.json"]}`)}}}
			a, err := extract.RunProjectOutput(projectInfo, in)
			b, _ := extract.RunProjectOutput(projectInfo, in)
			if err != nil || !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: err %v, or two answers differ", base, err)
			}
			p := readProject(in)
			_ = p.importKeys("x", name)
			_ = p.importKeys("x/y", name)
		}
	})
}

// TestTSConfigExtends: baseUrl and paths come through "extends" chains
// (relative, package-based, lists), relative to the config declaring
// them; a missing target, a cycle and a broken base are warnings and
// inherit nothing.
func TestTSConfigExtends(t *testing.T) {
	file := func(p, data string) abi.ProjectFile { return abi.ProjectFile{Path: p, Data: []byte(data)} }
	in := &abi.ProjectInput{Root: "/repo/app", Files: []abi.ProjectFile{
		file("../tsconfig.base.json", `{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["libs/*/src"]}}}`),
		file("config/package.json", `{"name": "@org/tsconfig"}`),
		file("config/strict/tsconfig.json", `{"extends": "../tsconfig.base.json"}`),
		file("config/tsconfig.base.json", `{"compilerOptions": {"paths": {"#cfg/*": ["./shared/*"]}}}`),
		file("a/tsconfig.json", `{"extends": "../../tsconfig.base.json"}`),
		file("b/tsconfig.json", `{"extends": "@org/tsconfig/strict", "compilerOptions": {"baseUrl": "src"}}`),
		file("c/tsconfig.json", `{"extends": ["./missing", "../a/tsconfig"], "compilerOptions": {"paths": {"x": ["app/c/y"]}}}`),
		file("d/tsconfig.json", `{"extends": "../e/tsconfig.json", "compilerOptions": {"baseUrl": "."}}`),
		file("e/tsconfig.json", `{"extends": "../d/tsconfig.json"}`),
		file("f/tsconfig.json", `{"extends": "./tsconfig.base.json", "compilerOptions": {"baseUrl": "."}}`),
		file("f/tsconfig.base.json", `{"compilerOptions": `),
	}}
	p := readProject(in)
	got := map[string]*tsConfig{}
	for i := range p.Configs {
		got[p.Configs[i].Dir] = &p.Configs[i]
	}
	tests := []struct {
		dir, spec string
		want      string // the first key
	}{
		{"a", "@lib/util", ""},            // base above the root: /repo/libs is outside, see below
		{"b", "#cfg/x", "b/src/shared/x"}, // inherited paths, relative to the child's own baseUrl
		{"b", "lib/y", "b/src/lib/y"},     // the child's own baseUrl
		{"c", "x", "c/y"},                 // own paths, relative to the baseUrl inherited from above the root (/repo)
		{"c", "app/pkg", "pkg"},           // that baseUrl
		{"f", "z", "f/z"},                 // a broken base inherits nothing, own baseUrl stays
	}
	for _, tt := range tests {
		keys := got[tt.dir].keys(nil, tt.spec, in.Root)
		if tt.dir == "a" {
			// /repo/tsconfig.base.json maps @lib/* to /repo/libs/*/src,
			// outside the root /repo/app: no key, but baseUrl /repo makes
			// "app/x" the root's x.
			if len(keys) != 0 {
				t.Errorf("a: keys(%q) = %q, want none (outside the root)", tt.spec, keys)
			}
			if k := got["a"].keys(nil, "app/x", in.Root); len(k) == 0 || k[0] != "x" {
				t.Errorf("a: keys(app/x) = %q, want x first (baseUrl of the base above the root)", k)
			}
			continue
		}
		if len(keys) == 0 || keys[0] != tt.want {
			t.Errorf("%s: keys(%q) = %q, want %q first", tt.dir, tt.spec, keys, tt.want)
		}
	}
	wantWarn := []string{
		`c/tsconfig.json: "extends": "./missing" names no file synaptic reads`,
		`"extends": "../d/tsconfig.json" closes a cycle`,
		`f/tsconfig.base.json: unexpected end of JSON input`,
	}
	for _, w := range wantWarn {
		found := false
		for _, g := range p.Warnings {
			found = found || strings.Contains(g, w)
		}
		if !found {
			t.Errorf("warnings %q lack %q", p.Warnings, w)
		}
	}
	if again := readProject(in); !reflect.DeepEqual(again.Warnings, p.Warnings) || !reflect.DeepEqual(again.Configs, p.Configs) {
		t.Error("reading the project twice differs")
	}
}

func TestRelPath(t *testing.T) {
	for _, tt := range []struct{ from, to, want string }{
		{"/a/b", "/a/b", "."}, {"/a/b", "/a/b/c", "c"}, {"/a/b", "/a", ".."}, {"/a/b", "/x/y", "../../x/y"}, {"/", "/a", "a"},
	} {
		if got := relPath(tt.from, tt.to); got != tt.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", tt.from, tt.to, got, tt.want)
		}
	}
}

// TestProjectParts: the entry point cuts its info into parts whose
// digests move only with what they hold.
func TestProjectParts(t *testing.T) {
	out, err := extract.RunProjectOutput(projectInfo, workspace())
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, p := range out.Parts {
		names = append(names, p.Name)
	}
	if want := []string{"*", "cfg:^", "pkg:@zod/classic", "pkg:zod"}; !reflect.DeepEqual(names, want) {
		t.Errorf("parts %q, want %q", names, want)
	}
	// An edit of classic/package.json moves its part and the whole, not
	// zod's nor the configs'.
	in := workspace()
	for i := range in.Files {
		if in.Files[i].Path == "classic/package.json" {
			in.Files[i].Data = []byte(`{"name":"@zod/classic","main":"./lib/other.js"}`)
		}
	}
	edited, err := extract.RunProjectOutput(projectInfo, in)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"*", "cfg:^", "pkg:@zod/classic", "pkg:zod"} {
		moved := abi.PartsDigestOf(out.Parts, name) != abi.PartsDigestOf(edited.Parts, name)
		if want := name == "*" || name == "pkg:@zod/classic"; moved != want {
			t.Errorf("part %s moved %v, want %v", name, moved, want)
		}
	}
}
