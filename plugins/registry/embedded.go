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
	return MaterializeWith(fsys, cacheDir, nil, "")
}

// MaterializeWith is Materialize remembering, in sums, the set's content
// hash under the identity of the file fsys is embedded in (from: the
// running executable, "" for none) and the identity of every file of the
// copy it has checked. While neither changed, a run neither hashes nor
// reads back the ~50 MB of modules; any change to the binary or to a
// file of the copy (a new ctime) brings back the full hash and the byte
// for byte comparison.
func MaterializeWith(fsys fs.FS, cacheDir string, sums *Sums, from string) (string, error) {
	if dir, ok := checkedBefore(fsys, cacheDir, sums, from); ok {
		return dir, nil
	}
	files, err := embeddedFiles(fsys, true)
	if err != nil || len(files) == 0 {
		return "", err
	}
	digest := setDigest(files)
	if from != "" {
		sums.Remember("embedded:"+from, from, digest)
	}
	dir := filepath.Join(cacheDir, "plugins-"+digest)
	if sameFiles(dir, files) {
		rememberChecked(sums, dir, files, digest)
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

// checkedBefore returns the copy of fsys a previous run checked, when the
// executable still has the identity whose set digest sums remembers and
// every file of the copy is still the one that was compared.
func checkedBefore(fsys fs.FS, cacheDir string, sums *Sums, from string) (string, bool) {
	if sums == nil || from == "" {
		return "", false
	}
	digest, ok := sums.Lookup("embedded:"+from, from)
	if !ok {
		return "", false
	}
	files, err := embeddedFiles(fsys, false)
	if err != nil || len(files) == 0 {
		return "", false
	}
	dir := filepath.Join(cacheDir, "plugins-"+digest)
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.rel))
		if d, ok := sums.Lookup("unpacked:"+p, p); !ok || d != digest {
			return "", false
		}
	}
	return dir, onlyFiles(dir, files)
}

// rememberChecked records that the files of dir were found equal to the
// set named digest.
func rememberChecked(sums *Sums, dir string, files []embeddedFile, digest string) {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.rel))
		sums.Remember("unpacked:"+p, p, digest)
	}
}

// setDigest names an embedded set by its content: every file's path,
// length and bytes.
func setDigest(files []embeddedFile) string {
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.rel, len(f.data))
		h.Write(f.data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// embeddedFiles lists the files of every top-level folder of fsys that
// holds a plugin.toml, sorted by path, with their bytes when withData.
func embeddedFiles(fsys fs.FS, withData bool) ([]embeddedFile, error) {
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
			f := embeddedFile{rel: p}
			if withData {
				f.data, err = fs.ReadFile(fsys, p)
			}
			out = append(out, f)
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
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.rel)))
		if err != nil || !bytes.Equal(data, f.data) {
			return false
		}
	}
	return onlyFiles(dir, files)
}

// onlyFiles reports whether dir holds no file but files.
func onlyFiles(dir string, files []embeddedFile) bool {
	want := make(map[string]bool, len(files))
	for _, f := range files {
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
