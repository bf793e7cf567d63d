package main_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExtractPythonV2Imports: the Python plugin (ABI v2) keys its modules
// and imports itself, and the built binary links through what Python
// means: a submodule imported by name, a name a package's __init__.py
// re-exports (by name and by *), both sides of a try/except ImportError
// fallback, and a folder of a package without any project file.
func TestExtractPythonV2Imports(t *testing.T) {
	needBin(t)
	proj := t.TempDir()
	write(t, proj, map[string]string{
		"lib/__init__.py":       "from .codec import Codec\nfrom .runners import *\n",
		"lib/codec.py":          "class Codec:\n    def encode(self):\n        pass\n",
		"lib/runners.py":        "def run():\n    pass\n",
		"lib/fast.py":           "def dumps(x):\n    return x\n",
		"lib/slow.py":           "def dumps(x):\n    return x\n",
		"lib/tools/__init__.py": "",
		"lib/tools/cli.py":      "from lib import codec\nfrom lib import Codec, run\nfrom .. import runners\n\n\ndef sub():\n    codec.Codec()\n\n\ndef named():\n    Codec()\n\n\ndef star():\n    run()\n\n\ndef rel():\n    runners.run()\n",
		"app.py":                "try:\n    from lib import fast as impl\nexcept ImportError:\n    from lib import slow as impl\n\n\ndef go():\n    impl.dumps(1)\n",
	})
	outs := t.TempDir()
	run(t, proj, false, "extract", "--out", filepath.Join(outs, "whole"), ".")
	whole := callsUnder(t, filepath.Join(outs, "whole", "graph.json"), "")
	for _, want := range []string{
		"lib/tools/cli.py:6 sub() -> lib/codec.py:1 Codec",     // codec is lib's submodule
		"lib/tools/cli.py:10 named() -> lib/codec.py:1 Codec",  // re-exported by name
		"lib/tools/cli.py:14 star() -> lib/runners.py:1 run()", // re-exported by *
		"lib/tools/cli.py:18 rel() -> lib/runners.py:1 run()",  // a submodule of the parent package
		"app.py:7 go() -> lib/fast.py:1 dumps()",
		"app.py:7 go() -> lib/slow.py:1 dumps()",
	} {
		if !slices.Contains(whole, want) {
			t.Errorf("graph lacks %q; has:\n%s", want, strings.Join(whole, "\n"))
		}
	}

	// The package folder alone, with no project file above it: its
	// absolute imports of itself still link as in the whole graph.
	out := run(t, proj, false, "extract", "--out", filepath.Join(outs, "folder"), "lib")
	if !strings.Contains(out, `project: python: absolute imports may also start at`) {
		t.Errorf("summary does not say which package it guessed:\n%s", out)
	}
	var inLib []string
	for _, c := range whole {
		if rest, ok := strings.CutPrefix(c, "lib/"); ok && strings.Contains(rest, " -> lib/") {
			inLib = append(inLib, strings.Replace(rest, " -> lib/", " -> ", 1))
		}
	}
	if folder := callsUnder(t, filepath.Join(outs, "folder", "graph.json"), ""); !slices.Equal(folder, inLib) {
		t.Errorf("folder extraction links calls differently from the whole tree:\nfolder:\n%s\nwhole (lib/):\n%s", strings.Join(folder, "\n"), strings.Join(inLib, "\n"))
	}
}
