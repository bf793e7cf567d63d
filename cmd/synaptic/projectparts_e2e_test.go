package main_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectEditReextractsOnlyDependents: editing a package.json or a
// tsconfig.json re-extracts only the TypeScript files whose import keys
// read what changed (the plugin's project parts), and the incremental
// graph is the one a --full run makes, byte for byte.
func TestProjectEditReextractsOnlyDependents(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"package.json":              `{"name":"mono","private":true,"workspaces":["packages/*"]}`,
		"packages/a/package.json":   `{"name":"a","exports":{".":"./src/index.ts"}}`,
		"packages/a/src/index.ts":   "export function alpha() {}\n",
		"packages/a/src/other.ts":   "export function alpha() {}\n",
		"packages/b/package.json":   `{"name":"b"}`,
		"packages/b/src/index.ts":   "import { alpha } from \"a\";\nexport function beta() { alpha(); }\n",
		"packages/b/src/local.ts":   "import { helper } from \"./util\";\nexport function local() { helper(); }\n",
		"packages/b/src/util.ts":    "export function helper() {}\n",
		"app/tsconfig.json":         `{"extends": "./tsconfig.base.json"}`,
		"app/tsconfig.base.json":    `{"compilerOptions":{"baseUrl":".","paths":{"@b/*":["../packages/b/src/*"]}}}`,
		"app/src/main.ts":           "import { local } from \"@b/local\";\nexport function main() { local(); }\n",
		"app/src/plain.ts":          "export function plain() {}\n",
		"packages/a/src/unused.ts":  "export const x = 1;\n",
		"packages/b/src/more.ts":    "import { helper } from \"./util\";\nexport function more() { helper(); }\n",
		"packages/b/src/another.ts": "export function another() {}\n",
	})
	extract := func(args ...string) string {
		t.Helper()
		return run(t, root, false, append([]string{"extract", "-v"}, append(args, ".")...)...)
	}
	runLine := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, " run: ") {
				return strings.TrimSpace(l)
			}
		}
		t.Fatalf("no run line in:\n%s", out)
		return ""
	}
	extract()
	steps := []struct {
		name, file, data, want string
	}{
		{"a field no import reads", "packages/a/package.json", `{"name":"a","description":"x","exports":{".":"./src/index.ts"}}`, "0 extracted, 10 unchanged"},
		{"the exports of a", "packages/a/package.json", `{"name":"a","exports":{".":"./src/other.ts"}}`, "1 extracted, 9 unchanged"},
		{"paths of an extended config", "app/tsconfig.base.json", `{"compilerOptions":{"baseUrl":".","paths":{"@b/*":["../packages/b/src/*","x/*"]}}}`, "1 extracted, 9 unchanged"},
	}
	for _, s := range steps {
		if err := os.WriteFile(filepath.Join(root, s.file), []byte(s.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := runLine(extract()); !strings.Contains(got, s.want) {
			t.Errorf("%s: %q, want %q", s.name, got, s.want)
		}
	}
	incremental := read(t, filepath.Join(root, "synaptic-out", "graph.json"))
	extract("-full")
	if full := read(t, filepath.Join(root, "synaptic-out", "graph.json")); !bytes.Equal(incremental, full) {
		t.Error("the incremental graph differs from the --full one")
	}
	g := parseGraph(t, filepath.Join(root, "synaptic-out", "graph.json"))
	var beta, other, main, local string
	for _, n := range g.Nodes {
		switch {
		case n.SourceFile == "packages/b/src/index.ts" && n.Label == "beta()":
			beta = n.ID
		case n.SourceFile == "packages/a/src/other.ts" && n.Label == "alpha()":
			other = n.ID
		case n.SourceFile == "app/src/main.ts" && n.Label == "main()":
			main = n.ID
		case n.SourceFile == "packages/b/src/local.ts" && n.Label == "local()":
			local = n.ID
		}
	}
	if !hasEdge(g, beta, "calls", other) {
		t.Error("beta() does not call the alpha() that the edited exports name")
	}
	if !hasEdge(g, main, "calls", local) {
		t.Error("main() does not call local() through the paths app/tsconfig.json extends")
	}
}
