package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
)

// OriginEmbedded marks plugins that came from the binary itself.
const OriginEmbedded = "embedded"

// embeddedFile is one file of an embedded plugin folder.
type embeddedFile struct {
	rel  string // slash path below the set's root
	data []byte
}

// Materialize writes the plugin folders of fsys (an embedded set: folders
// holding plugin.toml) to a directory named by the set's content hash under
// cacheDir, and returns that directory, to be searched first as a Source
// with Origin OriginEmbedded. The host compiles modules from files, and a
// content-addressed folder is written once per binary, not once per run.
// A folder found there is compared with fsys byte for byte before use, so
// an edited or truncated copy is rewritten, never trusted. It returns ""
// when fsys holds no plugin folder (a build without embedded plugins).
func Materialize(fsys fs.FS, cacheDir string) (string, error) {
	files, err := embeddedFiles(fsys)
	if err != nil || len(files) == 0 {
		return "", err
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.rel, len(f.data))
		h.Write(f.data)
	}
	dir := filepath.Join(cacheDir, "plugins-"+hex.EncodeToString(h.Sum(nil))[:16])
	if sameFiles(dir, files) {
		return dir, nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", fmt.Errorf("unpack embedded plugins: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".plugins-tmp-*")
	if err != nil {
		return "", fmt.Errorf("unpack embedded plugins: %w", err)
	}
	defer os.RemoveAll(tmp)
	for _, f := range files {
		p := filepath.Join(tmp, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", fmt.Errorf("unpack embedded plugins: %w", err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return "", fmt.Errorf("unpack embedded plugins: %w", err)
		}
	}
	// Renaming onto a non-empty folder fails: either a concurrent run got
	// there first (its identical folder is used, never pulled from under
	// it) or the folder is damaged, and only then is it replaced.
	if err := os.Rename(tmp, dir); err == nil || sameFiles(dir, files) {
		return dir, nil
	}
	os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil && !sameFiles(dir, files) {
		return "", fmt.Errorf("unpack embedded plugins into %s: %w", dir, err)
	}
	return dir, nil
}

// embeddedFiles lists the files of every top-level folder of fsys that
// holds a plugin.toml, sorted by path.
func embeddedFiles(fsys fs.FS) ([]embeddedFile, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var out []embeddedFile
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(e.Name(), manifest.FileName)); err != nil {
			continue
		}
		err := fs.WalkDir(fsys, e.Name(), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			out = append(out, embeddedFile{rel: p, data: data})
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b embeddedFile) int {
		if a.rel < b.rel {
			return -1
		}
		if a.rel > b.rel {
			return 1
		}
		return 0
	})
	return out, nil
}

// sameFiles reports whether dir holds exactly files (extra files too are a
// difference: a dropped-in module must not ride along as "embedded").
func sameFiles(dir string, files []embeddedFile) bool {
	want := map[string]bool{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.rel)))
		if err != nil || !bytes.Equal(data, f.data) {
			return false
		}
		want[f.rel] = true
	}
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			n++
			rel, _ := filepath.Rel(dir, p)
			if !want[filepath.ToSlash(rel)] {
				return errors.New("extra file")
			}
		}
		return nil
	})
	return err == nil && n == len(files)
}
