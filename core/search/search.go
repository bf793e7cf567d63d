// Package search is search_text's engine: a parallel, line-oriented
// content search over a repository's source files that skips what
// extraction skips (ignore files, noise and sensitive files, binaries) and
// synaptic's own output directories.
//
// Files are listed by core/discover, read and scanned by a bounded pool of
// workers, and their hits handed back in path order, so the answer is the
// same on every run whatever the scheduling. Memory is bounded: each
// worker holds one file, and each file keeps at most MaxResults hits (the
// rest are only counted). Work is bounded by the context: a cancelled or
// expired search returns what it has, marked partial.
package search

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/sourcegraph/conc/stream"
	"github.com/synaptic-graph/synaptic/core/discover"
)

// DefaultMaxFileSize is the largest file searched: above extraction's cap
// (a data file worth grepping can be bigger than source), far below what
// would let one file dominate a call.
const DefaultMaxFileSize = 4 * discover.DefaultMaxFileSize

// Options configure one search.
type Options struct {
	// Root is the repository root to walk.
	Root string
	// Keep, when set, selects files by their slash-separated path relative
	// to Root (a path_glob); nil keeps every file.
	Keep func(rel string) bool
	// MaxResults is how many hits are returned; more are counted.
	MaxResults int
	// MaxFileSize skips larger files (0 = DefaultMaxFileSize).
	MaxFileSize int64
	// Read reads a file by its path relative to Root; nil reads it from
	// disk at the path discover resolved, into reused buffers.
	// search_text passes the source-root jail here.
	Read func(rel string) ([]byte, error)
	// Workers bounds the reading goroutines (0 = GOMAXPROCS).
	Workers int
}

// Hit is one matching line.
type Hit struct {
	File  string // relative to Root, slash-separated
	Line  int    // 1-based
	Col   int    // 1-based byte column of the match
	Match string // the matched text
	Text  string // the whole line, without its line break
}

// Result is a search's answer.
type Result struct {
	Hits         []Hit // the first MaxResults hits, in file then line order
	Total        int   // every hit found, returned or not
	Truncated    bool  // Total > len(Hits)
	FilesScanned int   // text files read and searched
	Binary       int   // files skipped because their content is binary
	TooLarge     int   // files over MaxFileSize
	Unreadable   int   // files that could not be read
	OutputFiles  int   // files inside synaptic output directories
	// Partial is set when the context ended first: Total and the hits
	// cover only the files scanned so far.
	Partial bool
	Files   int // files listed for searching (scanned or not)
}

// Search runs m over the files under opts.Root.
func Search(ctx context.Context, m *Matcher, opts Options) (*Result, error) {
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}

	walked, err := discover.Walk(opts.Root, discover.Options{MaxFileSize: opts.MaxFileSize, Match: opts.Keep})
	if err != nil {
		return nil, err
	}
	res := &Result{}
	for _, s := range walked.Skipped {
		if s.Reason == discover.SkipTooLarge {
			res.TooLarge++
		}
	}
	files := make([]discover.File, 0, len(walked.Files))
	out := outputDirs{abs: opts.Root, memo: map[string]bool{}}
	for _, f := range walked.Files {
		if out.inside(f.Rel) {
			res.OutputFiles++
			continue
		}
		files = append(files, f)
	}
	res.Files = len(files)
	scan(ctx, m, files, opts, res)
	res.Truncated = res.Total > len(res.Hits)
	return res, nil
}

// fileResult is one file's share of the answer.
type fileResult struct {
	hits    []Hit
	total   int
	outcome outcome
}

type outcome uint8

const (
	scanned outcome = iota
	binaryFile
	unreadable
	skippedByContext
)

// readBufs hold file contents between reading and scanning when Search
// reads files itself; hits copy what they keep, so a buffer is reused by
// the next file (no allocation and zeroing per file).
var readBufs = sync.Pool{New: func() any { return new([]byte) }}

// readInto reads the file at abs (size bytes when listed, at most max)
// into buf, grown as needed.
func readInto(buf []byte, abs string, size, max int64) ([]byte, error) {
	f, err := os.Open(abs)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	want := int(min(size, max)) + 1 // one more byte tells a file that grew
	if cap(buf) < want {
		buf = make([]byte, want)
	}
	buf = buf[:cap(buf)]
	n := 0
	for n < len(buf) {
		k, err := f.Read(buf[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			return buf[:0], err
		}
		if n == len(buf) && int64(n) <= max {
			buf = append(buf, 0)[:n] // the file grew past its listed size: keep reading
			buf = buf[:cap(buf)]
		}
	}
	if int64(n) > max {
		return buf[:0], fmt.Errorf("%s grew past %d bytes", abs, max)
	}
	return buf[:n], nil
}

// scratch buffers for the lower-cased copy of a file, reused across files.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// scan reads and searches files in parallel and merges their results in
// path order.
func scan(ctx context.Context, m *Matcher, files []discover.File, opts Options, res *Result) {
	workers := opts.Workers
	if workers <= 0 {
		workers = 4 * runtime.GOMAXPROCS(0) // reads wait in the kernel: overlap them
	}
	st := stream.New().WithMaxGoroutines(workers)
	for _, file := range files {
		if ctx.Err() != nil {
			res.Partial = true
			break
		}
		st.Go(func() stream.Callback {
			fr := searchFile(ctx, m, file, opts)
			return func() { merge(res, fr, opts.MaxResults) }
		})
	}
	st.Wait()
	if ctx.Err() != nil {
		res.Partial = true
	}
}

func merge(res *Result, fr fileResult, max int) {
	switch fr.outcome {
	case binaryFile:
		res.Binary++
		return
	case unreadable:
		res.Unreadable++
		return
	case skippedByContext:
		res.Partial = true
		return
	}
	res.FilesScanned++
	res.Total += fr.total
	if room := max - len(res.Hits); room > 0 {
		res.Hits = append(res.Hits, fr.hits[:min(room, len(fr.hits))]...)
	}
}

// searchFile reads one file and collects up to max hits, counting all.
func searchFile(ctx context.Context, m *Matcher, file discover.File, opts Options) fileResult {
	if ctx.Err() != nil {
		return fileResult{outcome: skippedByContext}
	}
	rel := file.Rel
	var data []byte
	var err error
	if opts.Read != nil {
		data, err = opts.Read(rel)
	} else {
		buf := readBufs.Get().(*[]byte)
		defer readBufs.Put(buf)
		*buf, err = readInto(*buf, file.Abs, file.Size, opts.MaxFileSize)
		data = *buf
	}
	if err != nil {
		return fileResult{outcome: unreadable}
	}
	if isBinary(data) {
		return fileResult{outcome: binaryFile}
	}
	var fr fileResult
	buf := scratch.Get().(*[]byte)
	*buf = m.Scan(data, *buf, func(h LineHit) bool {
		fr.total++
		if len(fr.hits) < opts.MaxResults {
			fr.hits = append(fr.hits, Hit{
				File: rel, Line: h.Line, Col: h.MatchStart + 1,
				Match: string(h.Text[h.MatchStart:h.MatchEnd]), Text: string(h.Text),
			})
		}
		return true
	})
	scratch.Put(buf)
	return fr
}

// outputDirs recognises synaptic output directories other than
// synaptic-out/ (which discover prunes by name): a directory holding both
// graph.json and .manifest.json, the pair every extraction writes. A lone
// graph.json is someone's data and is searched.
type outputDirs struct {
	abs  string
	memo map[string]bool
}

// inside reports whether rel lies in an output directory at any depth.
func (o *outputDirs) inside(rel string) bool {
	dir := path.Dir(rel)
	for dir != "." && dir != "/" {
		if o.isOutput(dir) {
			return true
		}
		dir = path.Dir(dir)
	}
	return false // the root itself is the repository, whatever it holds
}

func (o *outputDirs) isOutput(dir string) bool {
	if v, ok := o.memo[dir]; ok {
		return v
	}
	base := filepath.Join(o.abs, filepath.FromSlash(dir))
	v := isFile(filepath.Join(base, "graph.json")) && isFile(filepath.Join(base, ".manifest.json"))
	o.memo[dir] = v
	return v
}

func isFile(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.Mode().IsRegular()
}
