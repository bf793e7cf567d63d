//go:build !wasip1

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// corpus is real C and C++: the tree-sitter runtime and grammar scanners
// of the Go module cache (never the generated parser.c tables) and, when
// Debian's googletest package is installed, googletest and googlemock;
// else the fixtures.
func corpus(tb testing.TB) *plugintest.Corpus {
	c := plugintest.NewCorpus(tb)
	if out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/smacker/go-tree-sitter").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		for _, pattern := range []string{"*.c", "*.h", "*/scanner.c", "*/scanner.cc", "*/scanner.h"} {
			files, _ := filepath.Glob(filepath.Join(dir, pattern))
			for _, f := range files {
				if src, err := os.ReadFile(f); err == nil {
					rel, _ := filepath.Rel(dir, f)
					c.Add(filepath.ToSlash(rel), src)
				}
			}
		}
	}
	c.AddDir("/usr/src/googletest")
	if c.Len() == 0 {
		c.AddFixtures()
	}
	return c
}

// BenchmarkExtract measures extraction alone over real C and C++ sources.
func BenchmarkExtract(b *testing.B) { corpus(b).Bench(b, Extractor{}) }

// BenchmarkExtractWasm is BenchmarkExtract through the built plugin.
func BenchmarkExtractWasm(b *testing.B) { corpus(b).BenchWasm(b) }

// BenchmarkParse is tree-sitter parsing alone over the same files, the
// figure extraction is compared with.
func BenchmarkParse(b *testing.B) { corpus(b).BenchParse(b) }

// TestCorpus: every corpus file extracts without error and gives valid facts.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	corpus(t).Check(t, Extractor{})
}

// FuzzExtract: any source, C or C++, extracts without a panic and gives
// facts the host accepts (every symbol named, every index in range).
func FuzzExtract(f *testing.F) {
	for _, seed := range []string{
		"int main(void) { return f(1); }\n",
		"class A API : B { public: void m() { this->n(); } };\n",
		"#define F(x) g(x)\nTEST(A, B) { F(1); }\nTEST_CASE(\"x\") { h(); }\n",
		"MOCK_METHOD((std::map<int, int>), Index, (), ());\n",
		"namespace a::b { template <class T> struct S { T t; }; }\n",
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, src string, cpp bool) {
		name := "fuzz.c"
		if cpp {
			name = "fuzz.cc"
		}
		plugintest.ExtractSource(t, Extractor{}, name, []byte(src))
	})
}
