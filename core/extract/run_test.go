//go:build unix

package extract

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// lineExtractor names one function after each line of a file, so a test
// can see exactly which bytes were read.
type lineExtractor struct{}

func (lineExtractor) Extract(_ context.Context, _ int, _ string, _ uint32, _, src []byte) (*abi.Facts, error) {
	f := &abi.Facts{}
	for i, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		f.Symbols = append(f.Symbols, abi.Symbol{Name: strings.TrimSpace(line), Kind: "function", Parent: -1,
			Span: abi.Span{StartLine: uint32(i + 1), EndLine: uint32(i + 1)}})
	}
	return f, nil
}

// testOptions extracts .txt files of root with lineExtractor, sealing
// caches with a key of the test's own.
func testOptions(t *testing.T, root string) Options {
	t.Helper()
	g, ok := syntax.Lookup("python")
	if !ok {
		t.Fatal("no python grammar")
	}
	lang := &Language{Name: "txt", Family: "txt", Grammar: g, Extensions: []string{".txt"},
		Plugin: PluginInfo{Name: "lines", Version: "1", SHA256: "00"}, Extractor: lineExtractor{}}
	t.Setenv(KeyEnv, filepath.Join(t.TempDir(), "key"))
	return Options{Root: root, Workers: 1, Languages: []Language{*lang}, Route: func(rel string) *Language {
		if path.Ext(rel) == ".txt" {
			return lang
		}
		return nil
	}}
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readOut(t *testing.T, root, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, DefaultOutDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestOutputSymlinkRefused: a repository that ships synaptic-out (or its
// cache/) as a link out of the tree gets an error, and the link's target
// is untouched (D1).
func TestOutputSymlinkRefused(t *testing.T) {
	for _, link := range []string{DefaultOutDir, DefaultOutDir + "/" + cacheDirName} {
		t.Run(link, func(t *testing.T) {
			base := t.TempDir()
			repo, victim := filepath.Join(base, "repo"), filepath.Join(base, "victim")
			writeTree(t, repo, map[string]string{"a.txt": "A\n"})
			writeTree(t, victim, map[string]string{GraphFile: "VICTIM DATA\n", factsName: "VICTIM DATA\n"})
			if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, link)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(victim, filepath.Join(repo, link)); err != nil {
				t.Fatal(err)
			}
			_, err := Run(t.Context(), testOptions(t, repo))
			if err == nil || !strings.Contains(err.Error(), "is a symlink") || !strings.Contains(err.Error(), "--out") {
				t.Fatalf("err = %v, want a refusal naming the symlink and --out", err)
			}
			ents, _ := os.ReadDir(victim)
			if len(ents) != 2 {
				t.Errorf("victim gained files: %v", ents)
			}
			for _, name := range []string{GraphFile, factsName} {
				if b, _ := os.ReadFile(filepath.Join(victim, name)); string(b) != "VICTIM DATA\n" {
					t.Errorf("victim %s overwritten: %q", name, b)
				}
			}
		})
	}
}

// TestInputsSwappedAfterScan: files replaced after discovery by a FIFO or
// by a link out of the tree are skipped with a reason, never read and
// never waited on (E3, H5).
func TestInputsSwappedAfterScan(t *testing.T) {
	base := t.TempDir()
	repo, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
	writeTree(t, outside, map[string]string{"secret.txt": "LEAKED_OUTSIDE\n"})
	// a.txt is the largest, so one worker reads it first.
	writeTree(t, repo, map[string]string{"a.txt": "first_file_is_the_largest\n", "fifo.txt": "F\n", "link.txt": "L\n", "dir/x.txt": "X\n"})
	opts := testOptions(t, repo)
	swapped := false
	opts.Progress = func(done, total int) {
		if swapped {
			return
		}
		swapped = true
		must(t, os.Remove(filepath.Join(repo, "fifo.txt")))
		must(t, syscall.Mkfifo(filepath.Join(repo, "fifo.txt"), 0o644))
		must(t, os.Remove(filepath.Join(repo, "link.txt")))
		must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(repo, "link.txt")))
		must(t, os.RemoveAll(filepath.Join(repo, "dir")))
		must(t, os.Symlink(outside, filepath.Join(repo, "dir")))
		must(t, os.Rename(filepath.Join(outside, "secret.txt"), filepath.Join(outside, "x.txt")))
	}
	done := make(chan struct{})
	var sum *Summary
	var err error
	go func() { sum, err = Run(t.Context(), opts); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("extraction hangs on a file swapped for a FIFO")
	}
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"fifo.txt": "special", "link.txt": "symlink-outside", "dir/x.txt": "symlink-outside"}
	for _, s := range sum.Skipped {
		if want[s.Path] == s.Reason {
			delete(want, s.Path)
		}
	}
	if len(want) > 0 {
		t.Errorf("not skipped as expected: %v (skipped: %+v)", want, sum.Skipped)
	}
	if g := readOut(t, repo, GraphFile); bytes.Contains(g, []byte("LEAKED_OUTSIDE")) {
		t.Error("graph.json holds the content of a file outside the root")
	}
}

// TestCancelKeepsOutputs: a run canceled mid-way (SIGTERM reaches Run as
// ctx) returns promptly and leaves the previous outputs as they were.
func TestCancelKeepsOutputs(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.txt": "A\n", "b.txt": "B\n", "c.txt": "C\n"})
	opts := testOptions(t, repo)
	if _, err := Run(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	before := map[string][]byte{}
	for _, name := range []string{GraphFile, ReportFile, ManifestFile, FactsFile} {
		before[name] = readOut(t, repo, name)
	}
	writeTree(t, repo, map[string]string{"a.txt": "A2 longer\n", "b.txt": "B2 longer\n", "c.txt": "C2 longer\n"})
	ctx, cancel := context.WithCancel(t.Context())
	opts.Progress = func(int, int) { cancel() }
	_, err := Run(ctx, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for name, b := range before {
		if !bytes.Equal(readOut(t, repo, name), b) {
			t.Errorf("%s changed by a canceled run", name)
		}
	}
}

// TestForeignCacheIgnored: a manifest and facts cache this user's key did
// not seal (shipped in the repository, or with one byte flipped) are
// ignored with a note, and the run is a full one (W1).
func TestForeignCacheIgnored(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.txt": "Evil\nMain\n", "b.txt": "Other\n"})
	opts := testOptions(t, repo)
	if _, err := Run(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	clean := readOut(t, repo, GraphFile)

	// Same tree, same outputs, another user's key.
	t.Setenv(KeyEnv, filepath.Join(t.TempDir(), "other-key"))
	sum, err := Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.FullRebuild || sum.Extracted != 2 || !hasWarning(sum, "not written by your synaptic") {
		t.Errorf("foreign manifest: full=%v extracted=%d warnings=%q", sum.FullRebuild, sum.Extracted, sum.Warnings)
	}

	// One flipped byte in a cached fact, then an unrelated edit.
	p := filepath.Join(repo, DefaultOutDir, FactsFile)
	facts, err := os.ReadFile(p)
	must(t, err)
	i := bytes.Index(facts, []byte("Main"))
	if i < 0 {
		t.Fatal("cached fact not found")
	}
	facts[i] = 'Q'
	must(t, os.WriteFile(p, facts, 0o644))
	writeTree(t, repo, map[string]string{"b.txt": "Other\n\n"})
	sum, err = Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if !sum.FullRebuild || !hasWarning(sum, FactsFile) {
		t.Errorf("flipped byte: full=%v warnings=%q", sum.FullRebuild, sum.Warnings)
	}
	if g := readOut(t, repo, GraphFile); !bytes.Equal(g, clean) {
		t.Error("graph after a corrupted cache differs from a clean run")
	}
}

func hasWarning(s *Summary, sub string) bool {
	for _, w := range s.Warnings {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestStaleTempsAndLock: temporary files a killed run left are removed by
// the next run, and a second run on a locked output directory is refused.
func TestStaleTempsAndLock(t *testing.T) {
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"a.txt": "A\n"})
	opts := testOptions(t, repo)
	stale := []string{".graph.json.tmp0123456789ab", "cache/.facts.bin.tmpab0123456789"}
	writeTree(t, filepath.Join(repo, DefaultOutDir), map[string]string{stale[0]: "half", stale[1]: "half", "keep.tmp": "user file"})
	if _, err := Run(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	for _, s := range stale {
		if _, err := os.Stat(filepath.Join(repo, DefaultOutDir, s)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stale %s not removed: %v", s, err)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, DefaultOutDir, "keep.tmp")); err != nil {
		t.Errorf("a file that is no temporary of ours was removed: %v", err)
	}
	f, err := os.OpenFile(filepath.Join(repo, DefaultOutDir, lockFile), os.O_RDWR, 0)
	must(t, err)
	defer f.Close()
	must(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX))
	if _, err := Run(t.Context(), opts); err == nil || !strings.Contains(err.Error(), "another synaptic extract") {
		t.Fatalf("run on a locked output directory: %v", err)
	}
}

// releasingExtractor is lineExtractor that counts ReleaseIdle calls and
// the files it extracted before the first one.
type releasingExtractor struct {
	lineExtractor
	files, released, filesAtRelease int
}

func (r *releasingExtractor) Extract(ctx context.Context, w int, p string, g uint32, rec, src []byte) (*abi.Facts, error) {
	r.files++
	return r.lineExtractor.Extract(ctx, w, p, g, rec, src)
}

func (r *releasingExtractor) ReleaseIdle() {
	if r.released == 0 {
		r.filesAtRelease = r.files
	}
	r.released++
}

// TestReleaseExtractors: with ReleaseExtractors a run releases its
// extractors once every file is extracted, and not at all without it.
func TestReleaseExtractors(t *testing.T) {
	for _, release := range []bool{false, true} {
		repo := t.TempDir()
		writeTree(t, repo, map[string]string{"a.txt": "A\n", "b.txt": "B\n"})
		opts := testOptions(t, repo)
		ex := &releasingExtractor{}
		opts.Languages[0].Extractor = ex
		lang := &opts.Languages[0]
		opts.Route = func(rel string) *Language {
			if path.Ext(rel) == ".txt" {
				return lang
			}
			return nil
		}
		opts.ReleaseExtractors = release
		if _, err := Run(t.Context(), opts); err != nil {
			t.Fatal(err)
		}
		switch {
		case !release && ex.released != 0:
			t.Errorf("released %d times without ReleaseExtractors", ex.released)
		case release && (ex.released != 1 || ex.filesAtRelease != 2):
			t.Errorf("released %d times, first after %d files; want once, after 2", ex.released, ex.filesAtRelease)
		}
	}
}
