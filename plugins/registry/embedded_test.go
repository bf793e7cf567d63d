package registry

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

func TestMaterialize(t *testing.T) {
	set := fstest.MapFS{
		"README.md":          {Data: []byte("not a plugin")},
		"toy/plugin.toml":    {Data: []byte("name = \"toy\"\n")},
		"toy/toy.wasm":       {Data: []byte("\x00asm")},
		"nomanifest/x.wasm":  {Data: []byte("ignored")},
		"other/plugin.toml":  {Data: []byte("name = \"other\"\n")},
		"other/sub/data.bin": {Data: []byte("nested")},
	}
	cache := t.TempDir()
	dir, err := Materialize(set, cache)
	if err != nil || dir == "" {
		t.Fatalf("Materialize = %q, %v", dir, err)
	}
	for rel, want := range map[string]string{"toy/toy.wasm": "\x00asm", "other/sub/data.bin": "nested"} {
		if got, _ := os.ReadFile(filepath.Join(dir, rel)); string(got) != want {
			t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
	for _, absent := range []string{"README.md", "nomanifest"} {
		if _, err := os.Stat(filepath.Join(dir, absent)); err == nil {
			t.Errorf("%s was unpacked", absent)
		}
	}
	again, err := Materialize(set, cache)
	if err != nil || again != dir {
		t.Fatalf("second Materialize = %q, %v; want %q", again, err, dir)
	}
	// A damaged or augmented copy is rewritten, not trusted.
	os.WriteFile(filepath.Join(dir, "toy", "toy.wasm"), []byte("evil"), 0o644)
	os.WriteFile(filepath.Join(dir, "toy", "extra.wasm"), []byte("evil"), 0o644)
	if _, err := Materialize(set, cache); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "toy", "toy.wasm")); string(got) != "\x00asm" {
		t.Errorf("tampered module kept: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "toy", "extra.wasm")); err == nil {
		t.Error("extra file kept")
	}
	// Another set gets another folder.
	set["toy/toy.wasm"] = &fstest.MapFile{Data: []byte("\x00asm2")}
	if d2, _ := Materialize(set, cache); d2 == dir || d2 == "" {
		t.Errorf("changed set reused %q", d2)
	}
	if d, err := Materialize(fstest.MapFS{"README.md": {Data: []byte("x")}}, cache); d != "" || err != nil {
		t.Errorf("set without plugins = %q, %v", d, err)
	}
}

// TestMaterializeConcurrent: runs starting at once (two extracts, say)
// all get the same intact folder.
func TestMaterializeConcurrent(t *testing.T) {
	set := fstest.MapFS{"toy/plugin.toml": {Data: []byte("name = \"toy\"\n")}, "toy/toy.wasm": {Data: make([]byte, 1<<20)}}
	cache := t.TempDir()
	dirs := make(chan string, 8)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			d, err := Materialize(set, cache)
			dirs <- d
			errs <- err
		}()
	}
	first := ""
	for range 8 {
		d, err := <-dirs, <-errs
		if err != nil {
			t.Fatal(err)
		}
		if first == "" {
			first = d
		} else if d != first {
			t.Fatalf("two folders: %s, %s", first, d)
		}
	}
	if !sameFiles(first, mustFiles(t, set)) {
		t.Fatal("folder damaged by concurrent runs")
	}
}

func mustFiles(t *testing.T, set fstest.MapFS) []embeddedFile {
	files, err := embeddedFiles(set, true)
	if err != nil {
		t.Fatal(err)
	}
	return files
}
