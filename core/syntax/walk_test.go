package syntax

import (
	"bytes"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"
)

// walkCorpusExtensions names, per grammar, the file extensions the
// differential test collects sources by.
var walkCorpusExtensions = map[string][]string{
	"go": {".go"}, "python": {".py"}, "javascript": {".js", ".mjs", ".cjs"},
	"typescript": {".ts"}, "tsx": {".tsx"}, "java": {".java"}, "rust": {".rs"},
	"c": {".c", ".h"}, "cpp": {".cc", ".cpp", ".hpp", ".hh"}, "csharp": {".cs"},
	"ruby": {".rb"}, "php": {".php"}, "kotlin": {".kt", ".kts"}, "bash": {".sh", ".bash"},
	"css": {".css"}, "html": {".html", ".htm"}, "lua": {".lua"}, "yaml": {".yml", ".yaml"},
	"toml": {".toml"}, "sql": {".sql"}, "scala": {".scala"}, "swift": {".swift"},
	"groovy": {".groovy", ".gradle"}, "hcl": {".tf", ".hcl"}, "protobuf": {".proto"},
}

// walkCorpus gathers up to maxFiles sources with the grammar's extensions
// from this repository (txtar fixtures included), GOROOT and the system
// Python library, whatever of them exists here.
func walkCorpus(name string, maxFiles int) [][]byte {
	exts := walkCorpusExtensions[name]
	var out [][]byte
	if s, ok := snippets[name]; ok {
		out = append(out, []byte(s.src))
	}
	roots := []string{"../..", filepath.Join(runtime.GOROOT(), "src")}
	if py, _ := filepath.Glob("/usr/lib/python3*"); len(py) > 0 {
		roots = append(roots, py[0])
	}
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if len(out) >= maxFiles {
				return fs.SkipAll
			}
			if err != nil {
				return nil // unreadable: not part of the corpus
			}
			if d.IsDir() && (d.Name() == "synaptic-out" || d.Name() == ".git") {
				return fs.SkipDir
			}
			if d.Type().IsRegular() && filepath.Ext(path) == ".txtar" {
				if a, err := txtar.ParseFile(path); err == nil {
					for _, f := range a.Files {
						if slices.Contains(exts, filepath.Ext(f.Name)) {
							out = append(out, f.Data)
						}
					}
				}
			}
			if d.Type().IsRegular() && slices.Contains(exts, filepath.Ext(path)) {
				if src, err := os.ReadFile(path); err == nil && len(src) < 1<<20 {
					out = append(out, src)
				}
			}
			return nil
		})
	}
	return out
}

// damaged returns variants of src that exercise error recovery: ERROR and
// MISSING nodes, extras at odd places, truncated constructs.
func damaged(src []byte, r *rand.Rand) [][]byte {
	if len(src) == 0 {
		return nil
	}
	cut := r.IntN(len(src))
	a, b := r.IntN(len(src)), r.IntN(len(src))
	a, b = min(a, b), max(a, b)
	junk := []byte("){;\"'/*<?#")
	ins := slices.Concat(src[:cut], junk[r.IntN(len(junk)):], src[cut:])
	return [][]byte{src[:cut], slices.Concat(src[:a], src[b:]), ins}
}

// sameWalk fails t when the direct walk and the cursor walk disagree on src.
func sameWalk(t *testing.T, p *Parser, g *Grammar, src []byte) {
	t.Helper()
	for _, named := range []bool{false, true} {
		opts := ParseOptions{NamedOnly: named, Timeout: 2 * time.Second}
		got, want, err := p.parseReference(g, src, opts)
		if errors.Is(err, ErrTimeout) {
			// Some grammars' error recovery explodes on some garbage (groovy
			// on 48 bytes); the timeout is the host's answer to that, and
			// there is no tree to compare.
			t.Logf("%s: %v", g.Name, err)
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if got.HasError != want.HasError || got.NodeCount != want.NodeCount {
			t.Fatalf("%s named=%v: walk gives %d nodes (error %v), cursor %d (error %v) on %q",
				g.Name, named, got.NodeCount, got.HasError, want.NodeCount, want.HasError, head(src))
		}
		if i := firstRecordDiff(got.Records, want.Records); i >= 0 {
			t.Fatalf("%s named=%v: record %d differs: walk %v, cursor %v on %q",
				g.Name, named, i, words(got.Records, i), words(want.Records, i), head(src))
		}
	}
}

func firstRecordDiff(a, b []byte) int {
	for i := 0; i*RecordSize < len(a); i++ {
		if !bytes.Equal(a[i*RecordSize:(i+1)*RecordSize], b[i*RecordSize:(i+1)*RecordSize]) {
			return i
		}
	}
	return -1
}

func words(recs []byte, i int) []uint32 {
	w := make([]uint32, RecordWords)
	for j := range w {
		o := i*RecordSize + 4*j
		w[j] = uint32(recs[o]) | uint32(recs[o+1])<<8 | uint32(recs[o+2])<<16 | uint32(recs[o+3])<<24
	}
	return w
}

func head(src []byte) string {
	if len(src) > 200 {
		return string(src[:200]) + "…"
	}
	return string(src)
}

// TestWalkMatchesCursor holds walk.c to the TSTreeCursor walk it replaced,
// record for record, on real sources of every built-in grammar and on
// damaged copies of them.
func TestWalkMatchesCursor(t *testing.T) {
	maxFiles := 300
	if testing.Short() {
		maxFiles = 40
	}
	p := NewParser()
	defer p.Close()
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range Names() {
		g := mustGrammar(t, name)
		corpus := walkCorpus(name, maxFiles)
		t.Run(name, func(t *testing.T) {
			for _, src := range corpus {
				sameWalk(t, p, g, src)
				for _, d := range damaged(src, r) {
					sameWalk(t, p, g, d)
				}
			}
			t.Logf("%s: %d sources", name, len(corpus))
		})
	}
}

// FuzzWalk compares the two walks on arbitrary input for every grammar.
func FuzzWalk(f *testing.F) {
	names := Names()
	for i, name := range names {
		if s, ok := snippets[name]; ok {
			f.Add(uint8(i), []byte(s.src))
		}
	}
	f.Add(uint8(0), []byte("\xff\x00\n"))
	p := NewParser()
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		sameWalk(t, p, mustGrammar(t, names[int(which)%len(names)]), src)
	})
}

// TestVendoredHeadersMatchModule: walk.c is compiled against tsinternal/,
// so those headers must be the ones of the tree-sitter runtime that is
// linked, the go.mod version of github.com/smacker/go-tree-sitter.
func TestVendoredHeadersMatchModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/smacker/go-tree-sitter").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		t.Skipf("module directory not available (%v)", err)
	}
	headers, err := filepath.Glob("tsinternal/*.h")
	if err != nil || len(headers) == 0 {
		t.Fatalf("no vendored headers: %v", err)
	}
	for _, h := range headers {
		ours, err1 := os.ReadFile(h)
		theirs, err2 := os.ReadFile(filepath.Join(dir, filepath.Base(h)))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", h, err1, err2)
		}
		if !bytes.Equal(ours, theirs) {
			t.Errorf("%s differs from %s: copy the module's headers into tsinternal/ and rerun TestWalkMatchesCursor", h, dir)
		}
	}
}
