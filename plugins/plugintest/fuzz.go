package plugintest

import (
	"path"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Fuzz is an extractor's fuzz target, the same for every plugin: any bytes,
// given as each of names, are parsed as the host would (the language the
// name routes to, the manifest's named_only, a time limit) and must extract
// without an error into facts that pass validation, the same facts on a
// second run. The fixtures' sources are the seeds.
func Fuzz(f *testing.F, ex extract.Extractor, names ...string) {
	langs, err := Languages(".")
	if err != nil {
		f.Fatal(err)
	}
	grammars, err := Grammars(langs)
	if err != nil {
		f.Fatal(err)
	}
	type route struct {
		name   string
		tree   *syntax.Grammar
		facing *extract.Grammar
	}
	var routes []route
	for _, name := range names {
		li := langFor(langs, path.Base(name))
		if li < 0 {
			f.Fatalf("%s: no language of this plugin takes it", name)
		}
		g, ok := syntax.Lookup(grammars[li].Name)
		if !ok {
			f.Fatalf("%s: the host has no grammar %q", name, grammars[li].Name)
		}
		routes = append(routes, route{name, g, extract.NewGrammar(&grammars[li])})
	}
	archives, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	for _, a := range archives {
		if ar, err := txtar.ParseFile(a); err == nil {
			for _, file := range ar.Files {
				f.Add(file.Data)
			}
		}
	}
	opts := syntax.ParseOptions{NamedOnly: namedOnly("."), Timeout: time.Second}
	f.Fuzz(func(t *testing.T, src []byte) {
		p := syntax.NewParser()
		defer p.Close()
		for _, r := range routes {
			tree, err := p.Parse(r.tree, src, opts)
			if err != nil {
				continue // refused or past the time limit: the host skips such a file too
			}
			var dumps [2]string
			for k := range dumps {
				facts, err := extract.Run(ex, r.facing, r.name, slices.Clone(tree.Records), src)
				if err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				dumps[k] = Dump(facts)
			}
			if dumps[0] != dumps[1] {
				t.Fatalf("%s: facts differ between two runs:\n%s\n---\n%s", r.name, dumps[0], dumps[1])
			}
		}
	})
}

// BenchParse measures tree-sitter parsing alone over the corpus (the same
// grammar and options its files were parsed with): the figure extraction
// is compared with.
func (c *Corpus) BenchParse(b *testing.B) {
	if len(c.files) == 0 {
		b.Skip("empty corpus")
	}
	b.SetBytes(c.bytes)
	b.ReportMetric(float64(len(c.files)), "files")
	cpu0 := processCPU()
	for b.Loop() {
		for _, f := range c.files {
			g, _ := syntax.Lookup(c.grammars[f.lang].Name)
			if _, err := c.parser.Parse(g, f.source, c.opts); err != nil {
				b.Fatalf("%s: %v", f.path, err)
			}
		}
	}
	if cpu := processCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(c.bytes)/1e6/cpu.Seconds(), "cpu-MB/s")
	}
}
