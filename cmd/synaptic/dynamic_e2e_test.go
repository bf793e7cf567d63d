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

// TestCLIElectronChannel: a handler registered with ipcMain.handle in one
// file and invoked by ipcRenderer in another meets its sender on the
// "ipc #save-doc" channel node, so affected and shortest_path cross it.
func TestCLIElectronChannel(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"src/main.ts": `import { ipcMain } from "electron";

function saveDocument(_e: unknown, doc: string) {
  return doc.length;
}

export function setup() {
  ipcMain.handle("save-doc", saveDocument);
}
`,
		"src/renderer.ts": `import { ipcRenderer } from "electron";

export async function save(doc: string) {
  await ipcRenderer.invoke("save-doc", doc);
}
`,
	})
	run(t, root, false, "extract", "--quiet", ".")
	out := run(t, root, false, "call", "affected", "label=saveDocument")
	if !strings.Contains(out, "ipc #save-doc") || !strings.Contains(out, "save()") {
		t.Errorf("affected saveDocument does not cross the channel:\n%s", out)
	}
	if out := run(t, root, false, "call", "shortest_path", "source=save", "target=saveDocument"); !strings.Contains(out, "--calls_service--> channel_ipc_save_doc") || !strings.Contains(out, "--handled_by--> saveDocument()") {
		t.Errorf("shortest_path:\n%s", out)
	}
	if out := run(t, root, false, "call", "find_callers", "label=saveDocument"); !strings.Contains(out, "ipc #save-doc") {
		t.Errorf("find_callers:\n%s", out)
	}
}
