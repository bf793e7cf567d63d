//go:build !wasip1

package main

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func target(t testing.TB) ([]plugintest.Language, plugintest.Target, []abi.Grammar) {
	t.Helper()
	langs, err := plugintest.Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := plugintest.Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	return langs, plugintest.Native(Extractor{}, grammars), grammars
}

func TestGolden(t *testing.T) { plugintest.RunNative(t, Extractor{}) }

// TestNamedOnly: the manifest sets named_only, so facts must not depend on
// keyword or punctuation nodes.
func TestNamedOnly(t *testing.T) { plugintest.CheckNamedOnly(t, Extractor{}) }

func TestIsTestName(t *testing.T) {
	for name, want := range map[string]bool{
		"Test": true, "TestFoo": true, "Test_foo": true, "Testify": false,
		"BenchmarkX": true, "Benchmarking": false, "FuzzParse": true,
		"Example": true, "ExampleT_M": true, "Example_suffix": true, "Examples": false,
		"TestÉté": true, "Testé": false, "helper": false,
	} {
		if got := isTestName(name); got != want {
			t.Errorf("isTestName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestCollapse(t *testing.T) {
	for in, want := range map[string]string{
		"func f()":             "func f()",
		"  func f() ":          "func f()",
		"func f(\n\ta int,\n)": "func f( a int, )",
		"func  f(a\tint)":      "func f(a int)",
		"func été(\n)\xff":     "func été( )\xff",
		"":                     "",
	} {
		if got := collapse(in); got != want {
			t.Errorf("collapse(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReceiverTextCap(t *testing.T) {
	long := "a"
	for range 100 {
		long += "é"
	}
	got := receiverText(long)
	if len(got) > maxReceiver || !strings.HasSuffix(got, "...") || !utf8.ValidString(got) {
		t.Errorf("receiverText not capped on a rune boundary: %q", got)
	}
}

// TestHostileInputs: invalid UTF-8, deep nesting and a huge generated file
// must extract without panics and give valid facts.
func TestHostileInputs(t *testing.T) {
	_, tg, _ := target(t)
	g, _ := syntax.Lookup("go")
	p := syntax.NewParser()
	defer p.Close()
	deep := "package p\nfunc f() { x := "
	for range 2000 {
		deep += "g("
	}
	deep += "1"
	for range 2000 {
		deep += ")"
	}
	deep += " }\n"
	huge := []byte("package p\n")
	for i := range 20000 {
		huge = append(huge, "func F"...)
		huge = append(huge, byte('a'+i%26))
		huge = append(huge, "(x *T) error { return x.Do(y) }\n"...)
	}
	for name, src := range map[string][]byte{
		"bad_utf8.go": []byte("package p\nfunc \xff\xfe() { a.\xffb() }\n"),
		"deep.go":     []byte(deep),
		"huge.go":     huge,
		"garbage.go":  []byte("}}}{{{ func ( type struct interface"),
	} {
		tree, err := p.Parse(g, src, syntax.ParseOptions{})
		if err != nil {
			t.Fatalf("%s: parse: %v", name, err)
		}
		start := time.Now()
		if _, err := tg.Extract(name, 0, tree.Records, src); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		t.Logf("%s: %d nodes extracted in %v", name, tree.NodeCount, time.Since(start))
	}
}

// BenchmarkExtract measures extraction alone over the standard library's
// net/http (parsed beforehand, named nodes only as plugin.toml asks).
func BenchmarkExtract(b *testing.B) {
	c := plugintest.NewCorpus(b)
	c.AddDir(filepath.Join(runtime.GOROOT(), "src", "net", "http"))
	if c.Len() == 0 {
		c.AddFixtures()
	}
	c.Bench(b, Extractor{})
}

// BenchmarkExtractWasm is BenchmarkExtract through the built go.wasm.
func BenchmarkExtractWasm(b *testing.B) {
	c := plugintest.NewCorpus(b)
	c.AddDir(filepath.Join(runtime.GOROOT(), "src", "net", "http"))
	if c.Len() == 0 {
		c.AddFixtures()
	}
	c.BenchWasm(b)
}

// TestGoldenWasm runs the same fixtures through the built .wasm in the real
// sandbox (skipped with -short).
func TestGoldenWasm(t *testing.T) { plugintest.RunWasm(t, ".") }

// TestLongChains: generated code can hold call and selector chains of
// thousands of links; receiver types follow at most maxTypeDepth of them.
func TestLongChains(t *testing.T) {
	src := "package p\n\nfunc f(x *T) {\n\tNew()" + plugintest.Chain(".M%d()", 3000) +
		"\n\tx" + plugintest.Chain(".f%d", 3000) + ".Close()\n\tx.a.Stop()\n}\n"
	plugintest.CheckBoundedChain(t, Extractor{}, "chain.go", src, "Stop", "T#a")
}

// BenchmarkSitePasses measures what the passes recording dynamic sites,
// routes and cross-language calls add to extraction: each file with and
// without them, alternating (issue 12 asks <= 5%).
func BenchmarkSitePasses(b *testing.B) {
	c := plugintest.NewCorpus(b)
	c.AddDir(filepath.Join(runtime.GOROOT(), "src", "net", "http"))
	if c.Len() == 0 {
		c.AddFixtures()
	}
	c.BenchPair(b, Extractor{}, func(on bool) { sitePasses = on })
}
