package registry

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
)

// TestFromManifestsRoutesLikeDiscover: the same manifests route the same
// files to the same languages whether discovered on disk or handed over
// parsed, with no module needed in the second case.
func TestFromManifestsRoutesLikeDiscover(t *testing.T) {
	toml := "name = \"toy\"\nversion = \"1\"\nkind = \"extractor\"\nabi = 1\nmodule = \"toy.wasm\"\n" +
		"[[languages]]\nname = \"toy\"\ngrammar = \"lua\"\nextensions = [\".toy\", \".t.toy\"]\n" +
		"[[languages]]\nname = \"toyspec\"\ngrammar = \"lua\"\nglobs = [\"*_spec.toy\"]\n"
	m, err := manifest.Parse("toy/plugin.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	r := FromManifests([]*manifest.Manifest{m})
	for file, want := range map[string]string{"a.toy": "toy", "dir/x.t.toy": "toy", "a_spec.toy": "toyspec", "a.lua": "", ".toy": ""} {
		rt, ok := r.Lookup(file)
		got := ""
		if ok {
			got = rt.Language.Name
		}
		if got != want {
			t.Errorf("Lookup(%q) = %q, want %q", file, got, want)
		}
	}
}
