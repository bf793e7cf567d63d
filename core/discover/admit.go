package discover

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Admit applies Walk's rules to one file, at the slash path rel under
// the walked root (root is that directory, rootReal its resolved path):
// a file a watcher saw appear, which a caller following edits can then
// take without walking the tree. It returns the File Walk would list
// and listed; sure is false when the rules cannot be applied to the
// path alone (a symlink on the way, a noise directory a .synapticignore
// might reopen): walk then.
func Admit(root *os.Root, rootReal, rel string, opts Options) (f File, listed, sure bool) {
	parts := strings.Split(rel, "/")
	dir := ""
	for _, d := range parts[:len(parts)-1] {
		dir = joinRel(dir, d)
		if mandatoryNoise[d] {
			return File{}, false, true
		}
		if isNoiseDir(d, false) {
			return File{}, false, false
		}
		fi, err := root.Lstat(dir)
		if err != nil || !fi.IsDir() {
			return File{}, false, false // a link, or gone: the walk decides
		}
		for _, marker := range []string{"pyvenv.cfg", "conda-meta"} {
			if _, err := root.Lstat(path.Join(dir, marker)); err == nil {
				return File{}, false, true // a virtual environment: pruned
			}
		}
	}
	if (ReadPolicy{Root: root}).Check(rel) != nil {
		return File{}, false, true // VCS metadata, sensitive or ignored
	}
	name := parts[len(parts)-1]
	if opts.Match != nil && !opts.Match(rel) || IsLockfile(name) {
		return File{}, false, true
	}
	fi, err := root.Lstat(rel)
	if err != nil {
		return File{}, false, true // gone again
	}
	if fi.Mode()&fs.ModeType != 0 {
		return File{}, false, false // a link or a special file: the walk reports it
	}
	max := opts.MaxFileSize
	if max == 0 {
		max = DefaultMaxFileSize
	}
	if max > 0 && fi.Size() > max || !readable(fi) {
		return File{}, false, true
	}
	abs := filepath.Join(rootReal, filepath.FromSlash(rel))
	return File{Rel: rel, Abs: abs, Real: rel, Size: fi.Size(), ModTime: fi.ModTime()}, true, true
}
