//go:build unix

package extract

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// projectExtractor is a Projector: its info is the files it was handed,
// and each file's one symbol names the info it was extracted with.
type projectExtractor struct {
	mu    sync.Mutex
	info  string
	calls int
	fail  bool
}

func (p *projectExtractor) ProjectFiles() []string { return []string{"proj.cfg"} }

func (p *projectExtractor) Project(_ context.Context, in *abi.ProjectInput) (abi.ProjectOutput, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if p.fail {
		p.info = ""
		return abi.ProjectOutput{}, errors.New("entry point trapped")
	}
	var parts []string
	for _, f := range in.Files {
		parts = append(parts, f.Path+"="+string(f.Data))
	}
	p.info = strings.Join(parts, ",")
	return abi.ProjectOutput{Info: []byte(p.info), Summary: []string{fmt.Sprintf("%d files", len(in.Files))}, Warnings: []string{"check " + path.Base(in.Root)}}, nil
}

func (p *projectExtractor) Extract(context.Context, int, string, uint32, []byte, []byte) (*abi.Facts, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return &abi.Facts{Symbols: []abi.Symbol{{Name: "info:" + p.info, Kind: "module", Parent: -1}}}, nil
}

func TestProjectEntryPoint(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	writeTree(t, top, map[string]string{
		"proj.cfg":          "outside the repository",
		"repo/.git/HEAD":    "ref: refs/heads/main\n",
		"repo/proj.cfg":     "top",
		"repo/sub/proj.cfg": "inner",
		"repo/sub/a.txt":    "x",
	})
	pe := &projectExtractor{}
	opts := testOptions(t, filepath.Join(repo, "sub"))
	opts.Languages[0].Extractor = pe
	lang := opts.Languages[0]
	opts.Route = func(rel string) *Language {
		if filepath.Ext(rel) == ".txt" {
			return &lang
		}
		return nil
	}
	symbol := func(sum *Summary) string {
		t.Helper()
		for _, n := range sum.Graph.Nodes {
			if strings.HasPrefix(n.Label, "info:") {
				return n.Label
			}
		}
		t.Fatalf("no info symbol in %d nodes", len(sum.Graph.Nodes))
		return ""
	}
	sum, err := Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := symbol(sum), "info:../proj.cfg=top,proj.cfg=inner"; got != want {
		t.Errorf("extracted with %q, want %q (the file above the repository must not be seen)", got, want)
	}
	if slices.ContainsFunc(sum.Skipped, func(s Skip) bool { return strings.HasSuffix(s.Path, "proj.cfg") }) {
		t.Errorf("project files reported as skipped: %v", sum.Skipped)
	}
	// The entry point's lines name the plugin in the summary.
	lines := []string{"lines: 2 files"}
	if got := sum.ProjectLines(); !slices.Equal(got, lines) {
		t.Errorf("project lines = %q, want %q", got, lines)
	}
	if !slices.Contains(sum.Warnings, "plugin lines: check sub") {
		t.Errorf("warnings = %q, want the entry point's, naming the plugin", sum.Warnings)
	}

	// Nothing changed: no file to extract, so the entry point is not run,
	// and the summary still says which project the graph was made in.
	calls := pe.calls
	if sum, err = Run(t.Context(), opts); err != nil {
		t.Fatal(err)
	}
	if pe.calls != calls {
		t.Errorf("entry point ran %d more times on an unchanged tree", pe.calls-calls)
	}
	if got := sum.ProjectLines(); !slices.Equal(got, lines) {
		t.Errorf("project lines of the unchanged run = %q, want those of the run that made the graph, %q", got, lines)
	}

	// A metadata file above the root changed: the facts made with the old
	// info are stale, so the file is extracted again.
	writeTree(t, top, map[string]string{"repo/proj.cfg": "top2"})
	sum, err = Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := symbol(sum), "info:../proj.cfg=top2,proj.cfg=inner"; got != want || sum.Extracted != 1 {
		t.Errorf("after the edit: %q (%d extracted), want %q", got, sum.Extracted, want)
	}

	// The entry point fails: extraction finishes without project info,
	// says so, and the next run tries again.
	pe.fail = true
	writeTree(t, top, map[string]string{"repo/proj.cfg": "top3"})
	sum, err = Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := symbol(sum); got != "info:" {
		t.Errorf("with a failing entry point the file saw %q", got)
	}
	if !slices.ContainsFunc(sum.Warnings, func(w string) bool {
		return strings.Contains(w, "plugin lines: project entry point failed (entry point trapped); its files resolve by path only")
	}) {
		t.Errorf("no diagnostic naming the plugin: %q", sum.Warnings)
	}
	pe.fail = false
	sum, err = Run(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := symbol(sum), "info:../proj.cfg=top3,proj.cfg=inner"; got != want {
		t.Errorf("after the failure was fixed: %q, want %q", got, want)
	}
}

// TestProjectFilesAbove: without a .git entry, metadata is looked for up
// to the file system root, nearest first.
func TestProjectFilesAbove(t *testing.T) {
	top := t.TempDir()
	writeTree(t, top, map[string]string{"proj.cfg": "a", "x/y/proj.cfg": "c"})
	if err := os.Mkdir(filepath.Join(top, "x", "y", "z"), 0o755); err != nil {
		t.Fatal(err)
	}
	st := &projectState{plugin: "p", names: []string{"proj.cfg"}}
	got := filesAbove(filepath.Join(top, "x", "y", "z"), st, &Summary{})
	var paths []string
	for _, f := range got {
		paths = append(paths, f.Path+"="+string(f.Data))
	}
	if want := []string{"../proj.cfg=c", "../../../proj.cfg=a"}; !slices.Equal(paths[:min(2, len(paths))], want) {
		t.Errorf("filesAbove = %v, want it to start with %v", paths, want)
	}
}

// TestSameParts: a cached file stays valid while every part it names has
// the digest it had; a part absent before and after is the same.
func TestSameParts(t *testing.T) {
	old := []abi.ProjectPart{{Name: "cfg:.", Digest: "1"}, {Name: "pkg:a", Digest: "2"}}
	now := []abi.ProjectPart{{Name: "cfg:.", Digest: "1"}, {Name: "pkg:a", Digest: "3"}, {Name: "pkg:b", Digest: "4"}}
	for _, tt := range []struct {
		deps []string
		want bool
	}{
		{nil, true},
		{[]string{"cfg:."}, true},
		{[]string{"cfg:.", "pkg:a"}, false},
		{[]string{"pkg:b"}, false},   // appeared
		{[]string{"pkg:gone"}, true}, // absent both times
		{[]string{"cfg:.", "pkg:c"}, true},
	} {
		if got := sameParts(tt.deps, old, now); got != tt.want {
			t.Errorf("sameParts(%q) = %v, want %v", tt.deps, got, tt.want)
		}
	}
}
