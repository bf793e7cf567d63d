package plugintest

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Corpus is a set of real source files parsed up front for an extractor's
// benchmark and corpus test, so parsing stays outside the timer. Files are
// parsed like the host does (the manifest's named_only included).
type Corpus struct {
	// Max caps the corpus size in source bytes (default 8 MiB); files past
	// it are not added.
	Max int64

	tb       testing.TB
	langs    []Language
	grammars []*extract.Grammar
	// abiGrammars are the grammars as the host hands them to a plugin.
	abiGrammars []abi.Grammar
	parser      *syntax.Parser
	opts        syntax.ParseOptions
	files       []corpusFile
	bytes       int64
}

type corpusFile struct {
	path            string
	lang            int
	records, source []byte
}

// NewCorpus prepares a corpus for the plugin in the current directory.
func NewCorpus(tb testing.TB) *Corpus {
	tb.Helper()
	langs, err := Languages(".")
	if err != nil {
		tb.Fatal(err)
	}
	abiGrammars, err := Grammars(langs)
	if err != nil {
		tb.Fatal(err)
	}
	c := &Corpus{Max: 8 << 20, tb: tb, langs: langs, abiGrammars: abiGrammars, parser: syntax.NewParser(), opts: syntax.ParseOptions{NamedOnly: namedOnly(".")}}
	for i := range abiGrammars {
		c.grammars = append(c.grammars, extract.NewGrammar(&abiGrammars[i]))
	}
	tb.Cleanup(c.parser.Close)
	return c
}

// Full reports whether the corpus reached Max.
func (c *Corpus) Full() bool { return c.bytes >= c.Max }

// Len returns the number of files.
func (c *Corpus) Len() int { return len(c.files) }

// Add parses src if its extension belongs to one of the plugin's languages
// (and to exts, when given) and the corpus is not full.
func (c *Corpus) Add(name string, src []byte, exts ...string) {
	li := langFor(c.langs, path.Base(name))
	if li < 0 || c.Full() || (len(exts) > 0 && !slices.Contains(exts, path.Ext(name))) {
		return
	}
	g, _ := syntax.Lookup(c.grammars[li].Name)
	tree, err := c.parser.Parse(g, src, c.opts)
	if err != nil {
		return // too slow or unparsable: not what a benchmark measures
	}
	c.files = append(c.files, corpusFile{name, li, slices.Clone(tree.Records), src})
	c.bytes += int64(len(src))
}

// AddDir adds the files under root, in walk order, until the corpus is full.
func (c *Corpus) AddDir(root string, exts ...string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || c.Full() {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			if src, err := os.ReadFile(p); err == nil && len(src) <= 1<<20 {
				c.Add(p, src, exts...)
			}
		}
		return nil
	})
}

// AddFixtures adds the sources of testdata/*.txtar: the fallback when the
// machine has no real corpus.
func (c *Corpus) AddFixtures() {
	c.tb.Logf("no real corpus found; using the fixtures")
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, f := range files {
		if ar, err := txtar.ParseFile(f); err == nil {
			for _, af := range ar.Files {
				c.Add(af.Name, af.Data)
			}
		}
	}
}

// Bench measures extraction alone over the corpus: MB/s by the wall clock
// (b.SetBytes) and cpu-MB/s by process CPU time, which stays meaningful on
// a loaded machine.
func (c *Corpus) Bench(b *testing.B, ex extract.Extractor) {
	if len(c.files) == 0 {
		b.Skip("empty corpus")
	}
	b.SetBytes(c.bytes)
	b.ReportAllocs()
	b.ReportMetric(float64(len(c.files)), "files")
	cpu0 := processCPU()
	for b.Loop() {
		for _, f := range c.files {
			if _, err := extract.Run(ex, c.grammars[f.lang], f.path, f.records, f.source); err != nil {
				b.Fatalf("%s: %v", f.path, err)
			}
		}
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(c.bytes)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// BenchWasm is Bench for the built plugin in the current directory, run
// in the real wazero sandbox (one instance): comparing the two shows what
// the wasm boundary and Go's wasm code generation cost.
func (c *Corpus) BenchWasm(b *testing.B) {
	if len(c.files) == 0 {
		b.Skip("empty corpus")
	}
	target := BuildWasm(b, ".", c.abiGrammars)
	b.SetBytes(c.bytes)
	b.ReportMetric(float64(len(c.files)), "files")
	cpu0 := processCPU()
	for b.Loop() {
		for _, f := range c.files {
			if _, err := target.Extract(f.path, f.lang, f.records, f.source); err != nil {
				b.Fatalf("%s: %v", f.path, err)
			}
		}
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(c.bytes)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}

// Check extracts every corpus file, fails on any error or invalid facts,
// and returns the facts in the order the files were added.
func (c *Corpus) Check(t *testing.T, ex extract.Extractor) []*abi.Facts {
	t.Helper()
	var all []*abi.Facts
	for _, f := range c.files {
		facts, err := extract.Run(ex, c.grammars[f.lang], f.path, f.records, f.source)
		if err != nil {
			t.Errorf("%s: %v", f.path, err)
		}
		all = append(all, facts)
	}
	t.Logf("%d files, %d bytes", len(c.files), c.bytes)
	return all
}

// ExtractSource extracts one in-memory file with the plugin in the current
// directory, natively, and returns its facts (failing on any error).
func ExtractSource(t *testing.T, ex extract.Extractor, name string, src []byte) *abi.Facts {
	t.Helper()
	c := NewCorpus(t)
	c.Max = int64(len(src)) + 1
	c.Add(name, src)
	if c.Len() != 1 {
		t.Fatalf("%s: no language of this plugin takes it", name)
	}
	facts := c.Check(t, ex)
	if facts[0] == nil {
		t.Fatalf("%s: no facts", name)
	}
	return facts[0]
}

// Chain repeats link n times, its %d standing for the link's index:
// Chain(".m%d()", 3) is ".m0().m1().m2()". Generated code holds such
// chains thousands of links long.
func Chain(link string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, link, i)
	}
	return b.String()
}

// CheckBoundedChain extracts src, which holds a chain of thousands of links
// (see Chain), and fails if a call's receiver type is longer than 200 bytes
// (types that spell the chain below each link made extraction cubic) or if
// the call named name has a receiver type other than want.
func CheckBoundedChain(t *testing.T, ex extract.Extractor, file, src, name, want string) {
	t.Helper()
	facts := ExtractSource(t, ex, file, []byte(src))
	got := "(no call)"
	for _, call := range facts.Calls {
		if len(call.ReceiverType) > 200 {
			t.Errorf("call %s has a %d-byte receiver type", call.Name, len(call.ReceiverType))
		}
		if call.Name == name {
			got = call.ReceiverType
		}
	}
	if got != want {
		t.Errorf("%s() has receiver type %q, want %q", name, got, want)
	}
}
