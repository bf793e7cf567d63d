package tools

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/discover"
	"github.com/synaptic-graph/synaptic/core/safefile"
)

// maxSourceFile bounds what get_source and show_sites will read.
const maxSourceFile = 32 << 20

// jailError says why a source file could not be read, naming the root tried.
type jailError struct {
	Kind string // "noroot", "notfound", "outside", "policy", "read"
	Root string
	Path string
	Err  error
}

func (e *jailError) Error() string {
	switch e.Kind {
	case "noroot":
		return "source not available: no source root configured (start the server with --source-root <dir>)"
	case "notfound":
		return fmt.Sprintf("source not available: %s was not found under %s (in a federated workspace it may live in a sibling repo outside this root)", sanitize(e.Path), sanitize(e.Root))
	case "outside":
		return fmt.Sprintf("refused: %s resolves outside the configured --source-root %s", sanitize(e.Path), sanitize(e.Root))
	case "policy":
		return "refused: " + e.Err.Error()
	}
	return fmt.Sprintf("source not available: reading %s under %s: %v", sanitize(e.Path), sanitize(e.Root), e.Err)
}

// jail reads files below one source root for one request: the root is
// resolved and opened once, and the read policy caches the ignore files it
// reads, so a call reading many files (search_text, show_sites) pays for
// them once.
type jail struct {
	root, realRoot string
	r              *os.Root
	policy         discover.ReadPolicy
}

// openJail opens root for reading; an error is a *jailError. Close it.
func openJail(root string) (*jail, error) {
	if root == "" {
		return nil, &jailError{Kind: "noroot"}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err == nil {
		realRoot, err = filepath.Abs(realRoot)
	}
	if err != nil {
		return nil, &jailError{Kind: "read", Root: root, Err: err}
	}
	r, err := os.OpenRoot(realRoot)
	if err != nil {
		return nil, &jailError{Kind: "read", Root: root, Err: err}
	}
	return &jail{root: root, realRoot: realRoot, r: r, policy: discover.NewReadPolicy(r, sourceAllowList(r))}, nil
}

func (j *jail) close() { j.r.Close() }

// path maps a repo-relative (or absolute-inside-the-root) path to the
// real file it names, refusing anything that escapes the root: ".."
// segments, absolute paths elsewhere, and symlinks whose target resolves
// outside. It gives the precise refusal messages; the read itself is held
// to the root by os.Root (see read).
func (j *jail) path(p string) (string, error) {
	if p == "" || strings.ContainsRune(p, 0) {
		return "", &jailError{Kind: "notfound", Root: j.root, Path: p}
	}
	if slices.Contains(strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }), "..") {
		return "", &jailError{Kind: "outside", Root: j.root, Path: p}
	}
	joined := filepath.Join(j.realRoot, filepath.FromSlash(p))
	if filepath.IsAbs(p) {
		joined = filepath.Clean(p)
	}
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if filepath.IsAbs(p) && !within(j.realRoot, joined) && !within(filepath.Clean(j.root), joined) {
				return "", &jailError{Kind: "outside", Root: j.root, Path: p}
			}
			return "", &jailError{Kind: "notfound", Root: j.root, Path: p}
		}
		return "", &jailError{Kind: "read", Root: j.root, Path: p, Err: err}
	}
	if !within(j.realRoot, real) {
		return "", &jailError{Kind: "outside", Root: j.root, Path: p}
	}
	return real, nil
}

// within reports whether path is root or below it (both clean, absolute).
func within(root, path string) bool {
	return path == root || strings.HasPrefix(path, root+string(filepath.Separator))
}

// readJailed reads one file through a jail opened for it.
func readJailed(root, p string) ([]byte, error) {
	j, err := openJail(root)
	if err != nil {
		if je, ok := err.(*jailError); ok {
			je.Path = p
		}
		return nil, err
	}
	defer j.close()
	return j.read(p)
}

// read reads a whole file. The read goes through the os.Root held on the
// real root, so a component swapped for a symlink between the check and
// the open cannot lead outside (the open fails instead), and through
// safefile, so a FIFO, socket or device is refused without ever blocking.
// Files that extraction leaves out as sensitive, VCS metadata or ignored
// are refused by name, under both the path asked for and the path it
// resolves to.
func (j *jail) read(p string) ([]byte, error) {
	root := j.root
	real, err := j.path(p)
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(j.realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, &jailError{Kind: "outside", Root: root, Path: p}
	}
	for _, name := range []string{lexicalRel(j.realRoot, root, p), filepath.ToSlash(rel)} {
		if name == "" {
			continue
		}
		if ref := j.policy.Check(name); ref != nil {
			return nil, &jailError{Kind: "policy", Root: root, Path: p, Err: refusalError{name, ref}}
		}
	}
	data, err := safefile.ReadFile(j.r, rel, maxSourceFile, nil)
	switch {
	case safefile.EscapesRoot(err):
		return nil, &jailError{Kind: "outside", Root: root, Path: p}
	case errors.Is(err, safefile.ErrTooLarge):
		return nil, &jailError{Kind: "read", Root: root, Path: p, Err: fmt.Errorf("file larger than %d MiB", maxSourceFile>>20)}
	case err != nil:
		return nil, &jailError{Kind: "read", Root: root, Path: p, Err: err}
	}
	return data, nil
}

// lexicalRel is p as asked for, relative to the root and slash-separated,
// before any symlink is followed ("" when it cannot be expressed so).
func lexicalRel(realRoot, root, p string) string {
	if !filepath.IsAbs(p) {
		return path.Clean(filepath.ToSlash(p))
	}
	for _, base := range []string{realRoot, filepath.Clean(root)} {
		if rel, err := filepath.Rel(base, filepath.Clean(p)); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return ""
}

// refusalError explains a read-policy refusal and how to lift it.
type refusalError struct {
	name string
	ref  *discover.Refusal
}

func (e refusalError) Error() string {
	return fmt.Sprintf("%s is %s (%s), which extraction leaves out too; to serve it anyway, list it under [source] allow in %s",
		sanitize(e.name), e.ref.Reason, sanitize(e.ref.Rule), sourceConfigFile)
}

// splitLines splits file bytes into lines without their terminators.
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	lines := bytes.Split(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// siteReader reads call-site lines for show_sites, caching each file for
// the duration of one call and bounding how many files one call may open.
type siteReader struct {
	root  string
	jail  *jail // opened on the first read
	files map[string][][]byte
}

const maxSiteFiles = 64

func newSiteReader(root string) *siteReader {
	return &siteReader{root: root, files: map[string][][]byte{}}
}

// read reads one file through the reader's jail, opening it on first use.
func (r *siteReader) read(file string) ([]byte, error) {
	if r.jail == nil {
		j, err := openJail(r.root)
		if err != nil {
			return nil, err
		}
		r.jail = j
	}
	return r.jail.read(file)
}

// close releases the jail; the reader is not used afterwards.
func (r *siteReader) close() {
	if r.jail != nil {
		r.jail.close()
	}
}

// line returns "file:line: <code>" for a site, with the code sanitized
// (only get_source returns raw bytes), or a note when it cannot be read.
func (r *siteReader) line(file, loc string) string {
	n := startLine(loc, 0)
	where := sanitize(file)
	if n > 0 {
		where = fmt.Sprintf("%s:%d", where, n)
	}
	lines, ok := r.files[file]
	if !ok {
		if len(r.files) >= maxSiteFiles {
			return where + ": (not read: too many files in one call)"
		}
		data, err := r.read(file)
		if err != nil {
			r.files[file] = nil
			return where + ": (" + err.Error() + ")"
		}
		lines = splitLines(data)
		r.files[file] = lines
	}
	if lines == nil {
		return where + ": (source not available)"
	}
	if n < 1 || n > len(lines) {
		return where + ": (line out of range)"
	}
	return where + ": " + sanitize(string(lines[n-1]))
}
