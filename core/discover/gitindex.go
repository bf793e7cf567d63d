package discover

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// Git never applies ignore rules to a file it tracks: a package.json
// committed before "**/package.json" was added to .gitignore (zod does
// this) is still part of the repository. The walk reads the index of the
// work tree holding the root for the same reason, and only to take such
// files back; everything else about ignoring stays as the tree says.

// maxIndexBytes caps the index read: git's own for a million files is
// about 100 MB.
const maxIndexBytes = 256 << 20

// errSplitIndex: the index holds only part of the entries (core.splitIndex);
// the walk then goes without tracked paths rather than guess.
var errSplitIndex = errors.New("split index")

// parseIndex returns the paths of a git index file (versions 2 to 4), in
// the index's order (sorted, one per stage). Sparse-index directory
// entries are left out: their files are not checked out.
func parseIndex(data []byte) ([]string, error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, errors.New("not a git index")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("git index version %d", version)
	}
	n := binary.BigEndian.Uint32(data[8:12])
	// Every entry takes at least 63 bytes: a count beyond that is a lie
	// that would make the slice below enormous.
	if uint64(n)*63 > uint64(len(data)) {
		return nil, errors.New("git index entry count exceeds its size")
	}
	paths := make([]string, 0, n)
	off, prev := 12, ""
	for range n {
		p, next, err := indexEntry(data, off, version, prev)
		if err != nil {
			return nil, err
		}
		if !strings.HasSuffix(p, "/") && (len(paths) == 0 || paths[len(paths)-1] != p) {
			paths = append(paths, p)
		}
		off, prev = next, p
	}
	if hasExtension(data[off:], "link") {
		return nil, errSplitIndex
	}
	if !slices.IsSorted(paths) { // git sorts its index; a crafted one may not be
		slices.Sort(paths)
		paths = slices.Compact(paths)
	}
	return paths, nil
}

// indexEntry decodes the entry at off: its path and where the next begins.
func indexEntry(data []byte, off int, version uint32, prev string) (string, int, error) {
	const fixed = 62 // stat fields (40), object id (20), flags (2)
	if off+fixed > len(data) {
		return "", 0, errors.New("git index truncated")
	}
	flags := binary.BigEndian.Uint16(data[off+60:])
	start := off + fixed
	if version >= 3 && flags&0x4000 != 0 { // extended flags follow
		start += 2
	}
	if start > len(data) {
		return "", 0, errors.New("git index truncated")
	}
	var p string
	end := start
	if version == 4 {
		strip, w := binary.Uvarint(data[start:])
		if w <= 0 || strip > uint64(len(prev)) {
			return "", 0, errors.New("git index: bad path compression")
		}
		start += w
		nul := bytes.IndexByte(data[start:], 0)
		if nul < 0 {
			return "", 0, errors.New("git index truncated")
		}
		p = prev[:len(prev)-int(strip)] + string(data[start:start+nul])
		end = start + nul + 1
	} else {
		nul := bytes.IndexByte(data[start:], 0)
		if nul < 0 {
			return "", 0, errors.New("git index truncated")
		}
		p = string(data[start : start+nul])
		// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
		end = off + (start-off+nul+8)&^7
	}
	if p == "" || end > len(data) {
		return "", 0, errors.New("git index: empty path or truncated entry")
	}
	return p, end, nil
}

// hasExtension reports whether the index extensions after the entries
// (each a 4-byte signature and a 32-bit size, then the trailing
// checksum) include sig.
func hasExtension(rest []byte, sig string) bool {
	for len(rest) >= 8+20 {
		if string(rest[:4]) == sig {
			return true
		}
		size := binary.BigEndian.Uint32(rest[4:8])
		if uint64(size) > uint64(len(rest)-8) {
			return false
		}
		rest = rest[8+size:]
	}
	return false
}

// tracked is the set of files git tracks below the walk's root, as paths
// relative to the root, sorted.
type tracked []string

// has reports whether git tracks the file rel.
func (t tracked) has(rel string) bool {
	_, ok := slices.BinarySearch(t, rel)
	return ok
}

// under reports whether git tracks a file below the directory rel.
func (t tracked) under(rel string) bool {
	prefix := rel + "/"
	i := sort.SearchStrings(t, prefix)
	return i < len(t) && strings.HasPrefix(t[i], prefix)
}

// trackedFiles finds the git work tree holding root (root itself or the
// nearest parent with a .git), reads its index and returns the files it
// tracks below root, with the index as one of the walk's inputs (adding
// a file to it can take an ignored file back). No work tree, an unreadable
// or split index: no tracked files, and ignore rules apply to everything.
// The last answer is kept while the index's size and mtime stay the same:
// a reader checking paths one by one reads the index once.
func trackedFiles(root string) (tracked, *Input) {
	workTree, gitDir, ok := findGitDir(root)
	if !ok {
		return nil, nil
	}
	in := Input{Abs: filepath.Join(gitDir, "index"), Size: -1}
	fi, err := os.Stat(in.Abs)
	if err != nil {
		return nil, &in
	}
	in.Size, in.ModTime = fi.Size(), fi.ModTime()
	trackedMemo.Lock()
	defer trackedMemo.Unlock()
	if m := &trackedMemo; m.root == root && m.in.Abs == in.Abs && m.in.Size == in.Size && m.in.ModTime.Equal(in.ModTime) {
		return m.files, &in
	}
	files := readIndexBelow(in.Abs, workTree, root)
	trackedMemo.root, trackedMemo.in, trackedMemo.files = root, in, files
	return files, &in
}

// trackedMemo is trackedFiles' last answer.
var trackedMemo struct {
	sync.Mutex
	root  string
	in    Input
	files tracked
}

// readIndexBelow reads the index at p of the work tree workTree and keeps
// the files below root; nil when it cannot be read or parsed.
func readIndexBelow(p, workTree, root string) tracked {
	data, err := safefile.ReadPath(p, maxIndexBytes)
	if err != nil {
		return nil
	}
	all, err := parseIndex(data)
	if err != nil {
		return nil
	}
	prefix, err := filepath.Rel(workTree, root)
	if err != nil {
		return nil
	}
	return below(all, filepath.ToSlash(prefix))
}

// below keeps the sorted paths under the directory prefix ("." for all),
// relative to it; they stay sorted.
func below(all []string, prefix string) tracked {
	if prefix == "." {
		return all
	}
	prefix += "/"
	i := sort.SearchStrings(all, prefix)
	var out tracked
	for ; i < len(all) && strings.HasPrefix(all[i], prefix); i++ {
		out = append(out, all[i][len(prefix):])
	}
	return out
}

// findGitDir returns the work tree holding dir and its git directory: the
// nearest of dir and its parents with a .git directory, or a .git file
// ("gitdir: ..." of a worktree or submodule).
func findGitDir(dir string) (workTree, gitDir string, ok bool) {
	for d := dir; ; {
		if g, ok := gitDirAt(d); ok {
			return d, g, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", false
		}
		d = parent
	}
}

// gitDirAt is the git directory of a work tree rooted at dir, if it is one.
func gitDirAt(dir string) (string, bool) {
	p := filepath.Join(dir, ".git")
	fi, err := os.Stat(p)
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return p, true
	}
	data, err := safefile.ReadPath(p, maxIgnoreBytes)
	if err != nil {
		return "", false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	g, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", false
	}
	g = strings.TrimSpace(g)
	if !filepath.IsAbs(g) {
		g = filepath.Join(dir, g)
	}
	return g, true
}
