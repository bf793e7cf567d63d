package discover

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestAdmitAgreesWithWalk: for every file of a tree, Admit lists exactly
// what Walk lists, or says it cannot tell by the path alone.
func TestAdmitAgreesWithWalk(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"main.go": "package main\n", "pkg/a.go": "package pkg\n", ".gitignore": "gen/\n*.tmp\n",
		"gen/out.go": "package gen\n", "pkg/x.tmp": "x\n", ".env": "SECRET=1\n", "package-lock.json": "{}\n",
		"node_modules/m/m.js": "x\n", ".git/config": "[core]\n", "venv/lib/site.py": "x\n",
		"myenv/pyvenv.cfg": "home = /usr\n", "myenv/lib/site.py": "x\n",
		"deep/er/still.go": "package er\n",
	}
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Walk(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var walked []string
	for _, f := range res.Files {
		walked = append(walked, f.Rel)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	real, _ := filepath.EvalSymlinks(root)
	for rel := range files {
		f, listed, sure := Admit(r, real, rel, Options{})
		if !sure {
			if rel != "node_modules/m/m.js" && rel != "venv/lib/site.py" { // noise names: a .synapticignore may reopen them
				t.Errorf("%s: Admit cannot tell", rel)
			}
			continue
		}
		if want := slices.Contains(walked, rel); listed != want {
			t.Errorf("%s: listed = %v, Walk lists it: %v", rel, listed, want)
		}
		if listed && (f.Rel != rel || f.Abs != filepath.Join(real, filepath.FromSlash(rel)) || f.Size != int64(len(files[rel]))) {
			t.Errorf("%s: file %+v", rel, f)
		}
	}
}
