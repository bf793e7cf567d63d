// Package extracttest tests an extractor plugin against fixtures whose
// expectations sit next to the source they are about, go/analysis style:
//
//	-- shapes.toy --
//	local Box = class("Box")      -- want def:"class Box"
//	function Box:area()           -- want def:"method Box.area"
//	  return self:width() * 2     -- want call:self.width
//	end
//
// A fixture is testdata/<case>.txtar under the plugin folder: free text,
// then one section per source file. Each file is routed by the plugin's
// plugin.toml exactly as the synaptic registry routes repository files,
// parsed with the host's grammar, and extracted with the plugin's
// extractor in-process; then every want comment is checked (see
// ParseWants) and every fact is checked against the sdk/abi vocabulary,
// as the host does on arrival.
//
// Parsing needs tree-sitter, which lives in the synaptic binary (cgo), not
// in the plugin: the harness runs `synaptic parse` for the trees, so the
// plugin's tests are plain `go test` with CGO_ENABLED=0. It finds the
// binary in $SYNAPTIC_BIN, else synaptic on PATH, and fails with that
// advice when there is none.
package extracttest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
	"github.com/synaptic-graph/synaptic/sdk/trees"
)

// BinEnv names the variable pointing at the synaptic binary.
const BinEnv = "SYNAPTIC_BIN"

// Binary returns the synaptic binary the harness runs: $SYNAPTIC_BIN, else
// synaptic on PATH.
func Binary() (string, error) {
	if b := os.Getenv(BinEnv); b != "" {
		return b, nil
	}
	if b, err := exec.LookPath("synaptic"); err == nil {
		return b, nil
	}
	return "", errors.New("sdk/extracttest needs the synaptic binary to parse fixtures (tree-sitter lives there, not in the plugin): set " + BinEnv + "=/path/to/synaptic or put synaptic on PATH")
}

// Run checks every testdata/*.txtar fixture of the plugin in the current
// directory (a test's working directory is its package folder).
func Run(t *testing.T, ex extract.Extractor) { RunDir(t, ".", ex) }

// RunDir checks every testdata/*.txtar fixture of the plugin in dir.
func RunDir(t *testing.T, dir string, ex extract.Extractor) {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", "*.txtar"))
	if len(files) == 0 {
		t.Fatalf("no fixtures: add %s", filepath.Join(dir, "testdata", "<case>.txtar"))
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			fx, err := readFixture(file)
			if err != nil {
				t.Fatal(err)
			}
			results, err := extractFixture(bin, absDir, fx, ex)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, r := range results {
				for _, msg := range r.problems() {
					t.Errorf("%s: %s", r.path, msg)
				}
			}
		})
	}
}

// Result is one fixture file's facts and what its want comments and the
// vocabulary made of them.
type Result struct {
	Facts *abi.Facts
	path  string
	wants []Want
	vocab []string // facts outside the vocabulary
}

func (r *Result) problems() []string {
	var out []string
	if len(r.vocab) > 0 {
		out = append(out, "facts outside the vocabulary (sdk/abi vocab.go), which the host drops: "+strings.Join(r.vocab, "; "))
	}
	return append(out, Check(r.Facts, r.wants)...)
}

// Extract routes, parses and extracts the files (name → source) for the
// plugin in dir, as RunDir does for one fixture, and returns each file's
// facts by name: for tests that check facts in Go rather than in want
// comments.
func Extract(dir string, ex extract.Extractor, files map[string][]byte) (map[string]*abi.Facts, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fx := fixture{}
	for name, src := range files {
		fx.files = append(fx.files, fixtureFile{name, src})
	}
	slices.SortFunc(fx.files, func(a, b fixtureFile) int { return strings.Compare(a.name, b.name) })
	results, err := extractFixture(bin, absDir, fx, ex)
	if err != nil {
		return nil, err
	}
	out := map[string]*abi.Facts{}
	for _, r := range results {
		out[r.path] = r.Facts
	}
	return out, nil
}

// extractFixture writes the fixture's files to a temporary folder, has
// `synaptic parse` route and parse them, and extracts each.
func extractFixture(bin, pluginDir string, fx fixture, ex extract.Extractor) ([]Result, error) {
	tmp, err := os.MkdirTemp("", "extracttest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	args := []string{"parse", "--plugin", pluginDir, "-o", filepath.Join(tmp, ".trees")}
	for _, f := range fx.files {
		p := filepath.Join(tmp, filepath.FromSlash(f.name))
		if !filepath.IsLocal(filepath.FromSlash(f.name)) {
			return nil, fmt.Errorf("fixture file %q: use a relative path inside the fixture", f.name)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return nil, err
		}
		args = append(args, f.name)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("%s parse: %v\n%s", bin, err, out)
	}
	b, err := os.ReadFile(filepath.Join(tmp, ".trees"))
	if err != nil {
		return nil, err
	}
	set, err := trees.Decode(b)
	if err != nil {
		return nil, err
	}
	grammars := make([]*extract.Grammar, len(set.Grammars))
	for i := range set.Grammars {
		grammars[i] = extract.NewGrammar(&set.Grammars[i])
	}
	var results []Result
	for _, f := range fx.files {
		tf, ok := set.Lookup(f.name)
		if !ok {
			return nil, fmt.Errorf("synaptic parse returned no tree for %s", f.name)
		}
		wants, err := ParseWants(f.data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.name, err)
		}
		facts, err := extract.Run(ex, grammars[tf.Grammar], tf.Path, tf.Records, tf.Source)
		if err != nil {
			return nil, fmt.Errorf("extract %s: %v", f.name, err)
		}
		vocab := facts.DropUnknownWords()
		results = append(results, Result{Facts: facts, path: f.name, wants: wants, vocab: vocab})
	}
	return results, nil
}
