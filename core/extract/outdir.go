package extract

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// DefaultOutDir is the output directory's name inside the repository.
const DefaultOutDir = "synaptic-out"

// lockFile is held locked by the run writing the output directory.
const lockFile = ".lock"

// ErrOutDirBusy is Run's error when another run (an extract, an update,
// a serve catching up) holds the output directory's lock: callers that
// run unattended wait for it rather than fail.
var ErrOutDirBusy = errors.New("another synaptic extract is writing")

// tmpMark is in the name of every temporary file writeAtomic makes,
// before 12 random hex digits.
const tmpMark = ".tmp"

// outDir is a run's output directory, held open: every read and write of
// the run's outputs goes through it, so neither a symlink shipped in the
// repository (synaptic-out -> ../victim) nor one swapped in during the
// run can send a write elsewhere.
type outDir struct {
	root *os.Root
	path string // absolute, for messages and the summary
}

// openOutDir creates and opens the output directory. The default one,
// <repo>/synaptic-out, must be a real directory of the repository itself;
// an explicit one (--out) is the user's choice and may be anywhere.
func openOutDir(repo *os.Root, repoPath, explicit string) (*outDir, error) {
	if explicit != "" {
		abs, err := filepath.Abs(explicit)
		if err != nil {
			return nil, err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("create output directory: %w", err)
		}
		r, err := os.OpenRoot(abs)
		if err != nil {
			return nil, fmt.Errorf("open output directory: %w", err)
		}
		return &outDir{root: r, path: abs}, nil
	}
	r, err := realSubdir(repo, DefaultOutDir, filepath.Join(repoPath, DefaultOutDir), true)
	if err != nil {
		return nil, err
	}
	return &outDir{root: r, path: filepath.Join(repoPath, DefaultOutDir)}, nil
}

func (o *outDir) Close() error { return o.root.Close() }

// cacheDir opens the cache subdirectory, creating it when create is set.
func (o *outDir) cacheDir(create bool) (*os.Root, error) {
	return realSubdir(o.root, cacheDirName, filepath.Join(o.path, cacheDirName), create)
}

// realSubdir opens parent/name, which must be a real directory, not a
// symlink (checked on the directory actually opened, so a swap between
// the check and the open is caught too). shown names it in errors.
func realSubdir(parent *os.Root, name, shown string, create bool) (*os.Root, error) {
	if create {
		if err := parent.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create %s: %w", shown, err)
		}
	}
	fi, err := parent.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		what := "is not a directory"
		if fi.Mode()&fs.ModeSymlink != 0 {
			what = "is a symlink"
			if dest, err := parent.Readlink(name); err == nil {
				what += " (to " + dest + ")"
			}
		}
		return nil, fmt.Errorf("%s %s; synaptic writes only into a real directory: remove it, or choose another place with --out DIR", shown, what)
	}
	r, err := parent.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", shown, err)
	}
	opened, err := r.Stat(".")
	if err != nil || !os.SameFile(fi, opened) {
		r.Close()
		return nil, fmt.Errorf("%s changed while it was opened (replaced by a link?); run again", shown)
	}
	return r, nil
}

// writeFileAtomic writes data to dir/name atomically (see writeAtomic).
func writeFileAtomic(ctx context.Context, dir *os.Root, name string, data []byte) error {
	return writeAtomic(ctx, dir, name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeAtomic streams fill into a temporary file in dir and puts it in
// the place of name (replace), so readers (a serving `synaptic serve`) never see a
// half-written file and big outputs never sit whole in memory. A canceled
// ctx, or a fill or flush error (a full disk), leaves name as it was.
func writeAtomic(ctx context.Context, dir *os.Root, name string, fill func(io.Writer) error) error {
	_, err := writeAtomicInfo(ctx, dir, name, fill)
	return err
}

// writeAtomicInfo is writeAtomic that also returns the file written, as
// stat'ed before the rename (a rename keeps its inode and time).
func writeAtomicInfo(ctx context.Context, dir *os.Root, name string, fill func(io.Writer) error) (os.FileInfo, error) {
	f, err := createAtomic(dir, name)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f.file, 1<<20)
	if err := fill(largeWrites{bw, f.file}); err != nil {
		f.abort()
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		f.abort()
		return nil, err
	}
	return f.commit(ctx)
}

// atomicFile is the temporary file of a write that replaces name when
// committed, or is removed when aborted (see writeAtomic).
type atomicFile struct {
	dir           *os.Root
	name, tmpName string
	file          *os.File
}

func createAtomic(dir *os.Root, name string) (*atomicFile, error) {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmpName := "." + name + tmpMark + hex.EncodeToString(rnd[:])
	tmp, err := dir.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	return &atomicFile{dir: dir, name: name, tmpName: tmpName, file: tmp}, nil
}

// abort removes the temporary file; name stays as it was.
func (f *atomicFile) abort() {
	f.file.Close()
	f.dir.Remove(f.tmpName)
}

// commit puts the file written in the place of name, unless ctx is done,
// and returns it as stat'ed before the rename. On an error it aborts.
func (f *atomicFile) commit(ctx context.Context) (os.FileInfo, error) {
	if err := f.file.Chmod(0o644); err != nil {
		f.abort()
		return nil, err
	}
	info, err := f.file.Stat()
	if err != nil {
		f.abort()
		return nil, err
	}
	if err := f.file.Close(); err != nil {
		f.dir.Remove(f.tmpName)
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		f.dir.Remove(f.tmpName)
		return nil, err
	}
	if err := replace(f.dir, f.tmpName, f.name); err != nil {
		f.dir.Remove(f.tmpName)
		return nil, err
	}
	return info, nil
}

// largeWrites is a buffered writer that hands large writes straight to
// the file, after what is buffered: graph.json's writer sends whole chunks
// of records, which copying into the buffer first only slowed down.
type largeWrites struct {
	buf  *bufio.Writer
	file io.Writer
}

// largeWrite is the size from which a write skips the buffer.
const largeWrite = 64 << 10

func (l largeWrites) Write(p []byte) (int, error) {
	if len(p) < largeWrite {
		return l.buf.Write(p)
	}
	if err := l.buf.Flush(); err != nil {
		return 0, err
	}
	return l.file.Write(p)
}

// The outputs a run writes into its output directory (next to
// ManifestFile and FactsFile).
const (
	GraphFile  = "graph.json"
	ReportFile = "GRAPH_REPORT.md"
)

// writeError explains a failed write of name: the old outputs are still
// in place (every write is a rename of a complete file), and a full disk
// or a cancellation says so.
func writeError(ctx context.Context, out *outDir, name string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err() // Run says what a canceled run leaves
	}
	hint := ""
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		hint = "; free some space and run again"
	}
	return fmt.Errorf("write %s: %w; the previous outputs in %s are kept%s", name, err, out.path, hint)
}

// removeStaleTemps deletes the temporary files a killed run left in dir
// (it holds the lock, so no live run is writing them).
func removeStaleTemps(dir *os.Root) {
	f, err := dir.Open(".")
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if isTempName(n) {
			dir.Remove(n)
		}
	}
}

// isTempName reports names writeAtomic makes: "." + name + tmpMark + 12 hex digits.
func isTempName(n string) bool {
	i := strings.LastIndex(n, tmpMark)
	if !strings.HasPrefix(n, ".") || i < 1 || len(n)-i-len(tmpMark) != 12 {
		return false
	}
	_, err := hex.DecodeString(n[i+len(tmpMark):])
	return err == nil
}
