//go:build !wasip1

package main

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// jdkSources returns the src.zip of an installed JDK, "" if none: the
// JDK's own classes are a large, realistic Java corpus.
func jdkSources() string {
	var candidates []string
	if home := os.Getenv("JAVA_HOME"); home != "" {
		candidates = append(candidates, filepath.Join(home, "lib", "src.zip"))
	}
	globbed, _ := filepath.Glob("/usr/lib/jvm/*/lib/src.zip")
	candidates = append(candidates, globbed...)
	for _, c := range candidates {
		if _, err := os.Stat(c); err == nil {
			return c
		}
	}
	return ""
}

// corpusPrefixes pick packages of the JDK with classes of every shape:
// collections and concurrency (generics, nested and anonymous classes,
// lambdas) and the core language classes.
var corpusPrefixes = []string{"java.base/java/util/", "java.base/java/lang/"}

// corpus is the JDK's own sources (or the fixtures when no JDK is installed).
func corpus(tb testing.TB) *plugintest.Corpus {
	c := plugintest.NewCorpus(tb)
	if zipPath := jdkSources(); zipPath != "" {
		zr, err := zip.OpenReader(zipPath)
		if err != nil {
			tb.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if c.Full() {
				break
			}
			if !strings.HasSuffix(f.Name, ".java") || !hasPrefix(f.Name, corpusPrefixes) {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				tb.Fatal(err)
			}
			src, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				tb.Fatal(err)
			}
			c.Add(f.Name, src)
		}
	}
	if c.Len() == 0 {
		c.AddFixtures()
	}
	return c
}

func hasPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// BenchmarkExtract measures extraction alone over the JDK's sources.
func BenchmarkExtract(b *testing.B) { corpus(b).Bench(b, Extractor{}) }

// TestCorpus: every corpus file extracts without error and gives valid facts.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	corpus(t).Check(t, Extractor{})
}
