package registry

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/host"
)

// plugin writes a plugin folder dir/name with a fake module and returns it.
func plugin(t *testing.T, dir, folder, toml string, module []byte) string {
	t.Helper()
	d := filepath.Join(dir, folder)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "plugin.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if module != nil {
		if err := os.WriteFile(filepath.Join(d, "p.wasm"), module, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func extractor(name, version, langs string) string {
	return fmt.Sprintf("name = %q\nversion = %q\nkind = \"extractor\"\nabi = 1\nmodule = \"p.wasm\"\n%s", name, version, langs)
}

const (
	goLang = "[[languages]]\nname = \"go\"\nextensions = [\".go\"]\n"
	tsLang = "[[languages]]\nname = \"typescript\"\nextensions = [\".ts\"]\nfamily = \"ecmascript\"\n" +
		"[[languages]]\nname = \"dts\"\ngrammar = \"typescript\"\nextensions = [\".d.ts\"]\nglobs = [\"*.gen.ts\"]\n"
)

func TestDiscover(t *testing.T) {
	builtin, env, repo := t.TempDir(), t.TempDir(), t.TempDir()
	mod := []byte("not really wasm")
	sum := sha256.Sum256(mod)
	plugin(t, builtin, "golang", extractor("go", "1.0.0", goLang), mod)
	plugin(t, builtin, "ts", extractor("typescript", "1.0.0", tsLang), mod)
	plugin(t, builtin, "broken", "name = \"broken\"\nkind = \"extractr\"\n", mod)
	plugin(t, builtin, "nomodule", extractor("nomodule", "1", goLang), nil)
	plugin(t, builtin, "pinned", extractor("pinned", "1", "sha256 = \""+strings.Repeat("0", 64)+"\"\n"+goLang), mod)
	plugin(t, builtin, "rules", "name = \"sql-rules\"\nversion = \"1\"\nkind = \"rules\"\nabi = 1\nmodule = \"p.wasm\"\n[rules]\ntargets = [\"sql\"]\n[[rules.rule]]\nid = \"A-001\"\nseverity = \"low\"\ncategory = \"c\"\ntitle = \"t\"\n", mod)
	os.MkdirAll(filepath.Join(builtin, "not-a-plugin"), 0o755)
	goOverride := plugin(t, env, "mygo", extractor("go", "2.0.0-dev", goLang), mod)
	plugin(t, repo, ".synaptic/plugins/tsplus", extractor("tsplus", "0.1", "[[languages]]\nname = \"ts2\"\nextensions = [\".ts\"]\n"), mod)

	t.Setenv(EnvVar, env+string(os.PathListSeparator)+filepath.Join(env, "missing"))
	r := Discover(Sources(builtin, nil, repo))

	var names []string
	for _, p := range r.Plugins {
		names = append(names, p.Name()+"@"+p.Manifest.Version+"/"+p.Origin)
	}
	if want := []string{"go@2.0.0-dev/env", "sql-rules@1/builtin", "tsplus@0.1/repo", "typescript@1.0.0/builtin"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Plugins = %v, want %v", names, want)
	}
	if p := r.Plugin("go"); p == nil || p.Dir() != goOverride || len(p.Overrides) != 1 || p.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("Plugin(go) = %+v, want the env override with the builtin in Overrides", p)
	}

	var problems []string
	for _, p := range r.Problems {
		problems = append(problems, p.Error())
	}
	for _, want := range []string{
		`broken/plugin.toml:2: kind "extractr" is not valid; did you mean "extractor"?`,
		`nomodule: module p.wasm not found; build the plugin`,
		`pinned: sha256 of p.wasm is ` + hex.EncodeToString(sum[:]) + `, but plugin.toml pins 0000`,
		`missing: plugin directory does not exist (from $SYNAPTIC_PLUGINS)`,
	} {
		if !strings.Contains(strings.Join(problems, "\n"), want) {
			t.Errorf("Problems =\n%s\nwant one containing %q", strings.Join(problems, "\n"), want)
		}
	}
	if len(problems) != 4 {
		t.Errorf("got %d problems, want 4: %q", len(problems), problems)
	}

	if want := []Conflict{{Pattern: ".ts", Winner: "tsplus", Losers: []string{"typescript"}}}; !reflect.DeepEqual(r.Conflicts, want) {
		t.Errorf("Conflicts = %+v, want %+v", r.Conflicts, want)
	}

	for _, tt := range []struct{ file, plugin, lang string }{
		{"a/b/main.go", "go", "go"},
		{"x.ts", "tsplus", "ts2"},
		{"types/x.d.ts", "typescript", "dts"},
		{"src/api.gen.ts", "typescript", "dts"},
		{`dir\win.go`, "go", "go"},
		{".ts", "", ""},
		{"README.md", "", ""},
		{"query.sql", "", ""}, // rule packs do not extract
	} {
		rt, ok := r.Lookup(tt.file)
		got := ""
		if ok {
			got = rt.Plugin.Name() + "/" + rt.Language.Name
		}
		if want := tt.plugin + "/" + tt.lang; (ok || tt.plugin != "") && got != want {
			t.Errorf("Lookup(%q) = %q, want %q", tt.file, got, want)
		}
	}
	var routes []string
	for _, rt := range r.Routes() {
		routes = append(routes, rt.Pattern+"="+rt.Plugin.Name())
	}
	if want := []string{"*.gen.ts=typescript", ".d.ts=typescript", ".go=go", ".ts=tsplus"}; !reflect.DeepEqual(routes, want) {
		t.Errorf("Routes = %v, want %v", routes, want)
	}
}

func TestDuplicateNameInOneDir(t *testing.T) {
	dir := t.TempDir()
	plugin(t, dir, "a", extractor("go", "1", goLang), []byte("x"))
	plugin(t, dir, "b", extractor("go", "2", goLang), []byte("x"))
	r := Discover([]Source{{Dir: dir, Origin: "flag"}})
	if len(r.Plugins) != 1 || r.Plugins[0].Manifest.Version != "1" || len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Error(), "rename one") {
		t.Errorf("Discover = %+v, problems %v; want the first kept and the second reported", r.Plugins, r.Problems)
	}
}

func TestSingleFolderSource(t *testing.T) {
	d := plugin(t, t.TempDir(), "go", extractor("go", "1", goLang), []byte("x"))
	r := Discover([]Source{{Dir: d, Origin: "flag"}})
	if len(r.Plugins) != 1 || len(r.Problems) != 0 {
		t.Errorf("Discover(plugin folder) = %+v, %v", r.Plugins, r.Problems)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	bad := plugin(t, dir, "bad", "name = \"Bad\"\nversion = \"1\"\nkind = \"extractor\"\nabi = 3\nmodule = \"../p.wasm\"\nlanguagez = 1\n", nil)
	errs := Check(t.Context(), bad, nil, nil)
	if len(errs) != 5 { // name, abi, module, unknown key, no languages
		t.Errorf("Check(bad) = %d errors, want 5:\n%v", len(errs), errs)
	}

	notWasm := plugin(t, dir, "notwasm", extractor("go", "1", goLang), []byte("#!/bin/sh\n"))
	if errs := Check(t.Context(), notWasm, nil, nil); errs != nil {
		t.Errorf("Check(static) = %v, want no problems", errs)
	}
	h, err := host.New(context.Background(), host.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	errs = Check(t.Context(), notWasm, h, nil)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "WebAssembly") {
		t.Errorf("Check(with host) = %v, want a compile error", errs)
	}
}
