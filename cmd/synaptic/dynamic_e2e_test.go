package main_test

import (
	"strings"
	"testing"
)

// TestCLIDynamicHazards: dynamic sites from the real plugins reach the
// graph: a literal getattr is linked (find_callers shows it), the opaque
// sites are listed by dynamic_hazards and counted by graph_stats, and a
// symbol with no static caller gets a dynamic caveat.
func TestCLIDynamicHazards(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"app/runner.py": `class Runner:
    def run(self, name):
        getattr(self, "start")()
        getattr(self, "on_" + name)()

    def start(self):
        pass

    def on_stop(self):
        pass
`,
		"web/load.ts": `export async function load(name: string) {
  const m = await import(name);
  return m[name]();
}
`,
	})
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "find_callers", "label=.start()")
	if !strings.Contains(out, ".run()") || !strings.Contains(out, "dynamic_ref") {
		t.Errorf("find_callers start:\n%s", out)
	}
	out = run(t, root, false, "call", "dynamic_hazards")
	for _, want := range []string{"4 dynamic-dispatch site(s)", `app/runner.py:3 reflection "start" in .run()`, "app/runner.py:4 reflection (opaque)", "web/load.ts:2 dynamic_import (opaque) in load()", "web/load.ts:3 reflection (opaque)"} {
		if !strings.Contains(out, want) {
			t.Errorf("dynamic_hazards lacks %q:\n%s", want, out)
		}
	}
	if out := run(t, root, false, "call", "graph_stats"); !strings.Contains(out, "Dynamic-dispatch sites: 4 (3 opaque, 1 evidence-linked)") {
		t.Errorf("graph_stats:\n%s", out)
	}
	if out := run(t, root, false, "call", "affected", "label=.on_stop()"); !strings.Contains(out, "Dynamic caveat") || !strings.Contains(out, "opaque dynamic-dispatch site") {
		t.Errorf("affected on_stop has no caveat:\n%s", out)
	}
}
