package main_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestExtractTSConfigPaths: the TypeScript plugin reads tsconfig.json
// itself (comments and trailing commas included): a "paths" alias and a
// "baseUrl" specifier link like relative imports, a ".js" specifier
// written for a .ts file and a default import link too, and editing the
// tsconfig re-resolves on the next incremental run.
func TestExtractTSConfigPaths(t *testing.T) {
	needBin(t)
	dir := t.TempDir()
	tsconfig := "{\n  // aliases of the app\n  \"compilerOptions\": {\n    \"baseUrl\": \".\",\n    \"paths\": {\"@/*\": [\"src/*\"],},\n  },\n}\n"
	write(t, dir, map[string]string{
		"tsconfig.json":        tsconfig,
		"src/util/format.ts":   "export function format(x: string): string {\n  return x;\n}\n",
		"src/util/clock.ts":    "export default function clock(): number {\n  return 1;\n}\n",
		"lib/math.ts":          "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
		"src/app/main.ts":      "import { format } from \"@/util/format\";\nimport { add } from \"lib/math\";\nimport clock from \"../util/clock.js\";\n\nexport function main(): string {\n  return format(String(add(clock(), 2)));\n}\n",
		"src/app/main.test.ts": "import { main } from \"./main\";\n\nmain();\n",
	})
	out := filepath.Join(t.TempDir(), "out")
	run(t, dir, false, "extract", "--out", out, ".")
	calls := callsUnder(t, filepath.Join(out, "graph.json"), "")
	for _, want := range []string{
		"src/app/main.ts:5 main() -> src/util/format.ts:1 format()",
		"src/app/main.ts:5 main() -> lib/math.ts:1 add()",
		"src/app/main.ts:5 main() -> src/util/clock.ts:1 clock()",
	} {
		if !slices.Contains(calls, want) {
			t.Errorf("graph lacks %q; calls:\n%s", want, strings.Join(calls, "\n"))
		}
	}
	confidence := edgeConfidence(t, filepath.Join(out, "graph.json"), "format()")
	if confidence != "EXTRACTED" {
		t.Errorf("the call through the paths alias is %q, want EXTRACTED (resolved by the import, not by a unique name)", confidence)
	}

	// The alias now points elsewhere: the next run must see it.
	time.Sleep(10 * time.Millisecond)
	write(t, dir, map[string]string{"tsconfig.json": strings.Replace(tsconfig, `"src/*"`, `"lib/*"`, 1)})
	run(t, dir, false, "extract", "--out", out, ".")
	if confidence := edgeConfidence(t, filepath.Join(out, "graph.json"), "format()"); confidence == "EXTRACTED" {
		t.Errorf("after the alias moved, the call to format() is still linked through it")
	}
}

// edgeConfidence is the confidence of the calls edge to the node labelled
// label, "" when there is none.
func edgeConfidence(t *testing.T, graphPath, label string) string {
	t.Helper()
	var g struct {
		Nodes []struct{ ID, Label string }
		Links []struct{ Target, Relation, Confidence string }
	}
	if err := json.Unmarshal(read(t, graphPath), &g); err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Nodes {
		if n.Label != label {
			continue
		}
		for _, e := range g.Links {
			if e.Relation == "calls" && e.Target == n.ID {
				return e.Confidence
			}
		}
	}
	return ""
}
