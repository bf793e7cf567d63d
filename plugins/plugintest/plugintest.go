// Package plugintest runs extractor plugins over txtar fixtures and compares
// their facts with the golden dump kept next to the source.
//
// A fixture is extractors/<lang>/testdata/<case>.txtar: free text saying what
// the case pins, one section per source file, and a "facts" section holding
// the expected dump. `go test ./extractors/... -update` rewrites the goldens;
// review them like code.
//
// The same fixtures run against the extractor natively (fast, plain go test)
// and against the built .wasm through the real sandbox.
package plugintest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/registry"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

var update = flag.Bool("update", false, "rewrite golden facts sections")

// Language is one language a plugin handles.
type Language struct {
	Name       string   `toml:"name"`
	Grammar    string   `toml:"grammar"`
	Extensions []string `toml:"extensions"`
	Globs      []string `toml:"globs"`
}

// Target runs an extractor over one parsed file.
type Target interface {
	// Extract returns the facts for path; lang indexes the languages the
	// target was built with.
	Extract(path string, lang int, records, source []byte) (*abi.Facts, error)
}

type pluginFile struct {
	Languages []Language `toml:"languages"`
	Options   struct {
		NamedOnly bool `toml:"named_only"`
	} `toml:"options"`
}

// namedOnly reports the [options] named_only setting of dir's plugin.toml,
// so fixtures are parsed exactly as the host will parse real files.
func namedOnly(dir string) bool {
	var m pluginFile
	_, err := toml.DecodeFile(filepath.Join(dir, "plugin.toml"), &m)
	return err == nil && m.Options.NamedOnly
}

// Languages reads the [[languages]] tables of the plugin.toml in dir.
func Languages(dir string) ([]Language, error) {
	var m pluginFile
	if _, err := toml.DecodeFile(filepath.Join(dir, "plugin.toml"), &m); err != nil {
		return nil, err
	}
	if len(m.Languages) == 0 {
		return nil, fmt.Errorf("%s/plugin.toml declares no [[languages]]", dir)
	}
	return m.Languages, nil
}

// Grammars returns the host grammar tables for langs, in order.
func Grammars(langs []Language) ([]abi.Grammar, error) {
	var out []abi.Grammar
	for _, l := range langs {
		g, ok := syntax.Lookup(l.Grammar)
		if !ok {
			return nil, fmt.Errorf("language %s: no built-in grammar %q (have %s)", l.Name, l.Grammar, strings.Join(syntax.Names(), ", "))
		}
		out = append(out, abi.Grammar{Language: l.Name, Name: g.Name, Kinds: g.Kinds, Named: g.Named, Fields: g.Fields})
	}
	return out, nil
}

type native struct {
	ex       extract.Extractor
	grammars []*extract.Grammar
}

// Native returns a Target running ex in-process over the given grammars.
func Native(ex extract.Extractor, grammars []abi.Grammar) Target {
	n := &native{ex: ex}
	for i := range grammars {
		n.grammars = append(n.grammars, extract.NewGrammar(&grammars[i]))
	}
	return n
}

func (n *native) Extract(p string, lang int, records, source []byte) (*abi.Facts, error) {
	return extract.Run(n.ex, n.grammars[lang], p, records, source)
}

// RunNative runs the fixtures of the plugin in the current directory
// through ex in-process: the fast golden test every extractor has.
func RunNative(t *testing.T, ex extract.Extractor) {
	t.Helper()
	langs, err := Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	Run(t, ".", langs, Native(ex, grammars))
}

// CheckNamedOnly extracts every fixture source from full trees and from
// named-only trees and requires identical facts: a plugin that sets
// [options] named_only must never depend on keyword or punctuation nodes.
func CheckNamedOnly(t *testing.T, ex extract.Extractor) {
	t.Helper()
	langs, err := Languages(".")
	if err != nil {
		t.Fatal(err)
	}
	grammars, err := Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	target := Native(ex, grammars)
	files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	p := syntax.NewParser()
	defer p.Close()
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			li := langFor(langs, f.Name)
			if f.Name == "facts" || li < 0 {
				continue
			}
			g, _ := syntax.Lookup(grammars[li].Name)
			var dumps [2]string
			for i, named := range []bool{false, true} {
				tree, err := p.Parse(g, f.Data, syntax.ParseOptions{NamedOnly: named})
				if err != nil {
					t.Fatal(err)
				}
				facts, err := target.Extract(f.Name, li, slices.Clone(tree.Records), f.Data)
				if err != nil {
					t.Fatalf("%s/%s: %v", file, f.Name, err)
				}
				dumps[i] = Dump(facts)
			}
			if dumps[0] != dumps[1] {
				t.Errorf("%s/%s: named-only facts differ (-full +named):\n%s", file, f.Name, lineDiff(dumps[0], dumps[1]))
			}
		}
	}
}

// Run extracts every testdata/*.txtar under dir with target and compares
// each file's dump with the archive's "facts" section.
func Run(t *testing.T, dir string, langs []Language, target Target) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "testdata", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in %s/testdata (%v)", dir, err)
	}
	grammars, err := Grammars(langs)
	if err != nil {
		t.Fatal(err)
	}
	parser := syntax.NewParser()
	defer parser.Close()
	opts := syntax.ParseOptions{NamedOnly: namedOnly(dir)}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, f := range ar.Files {
				if f.Name == "facts" {
					continue
				}
				li := langFor(langs, f.Name)
				if li < 0 {
					t.Fatalf("%s: no language of the plugin handles %s", file, f.Name)
				}
				g, _ := syntax.Lookup(grammars[li].Name)
				tree, err := parser.Parse(g, f.Data, opts)
				if err != nil {
					t.Fatalf("parse %s: %v", f.Name, err)
				}
				facts, err := target.Extract(f.Name, li, slices.Clone(tree.Records), f.Data)
				if err != nil {
					t.Fatalf("extract %s: %v", f.Name, err)
				}
				if bad := facts.DropUnknownWords(); len(bad) > 0 {
					t.Errorf("%s: facts outside the vocabulary (sdk/abi vocab.go), which the host drops: %s", f.Name, strings.Join(bad, "; "))
				}
				fmt.Fprintf(&got, "== %s\n%s", f.Name, Dump(facts))
			}
			compare(t, file, ar, got.String())
		})
	}
}

func compare(t *testing.T, file string, ar *txtar.Archive, got string) {
	t.Helper()
	idx := slices.IndexFunc(ar.Files, func(f txtar.File) bool { return f.Name == "facts" })
	if *update {
		if idx < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: "facts"})
			idx = len(ar.Files) - 1
		}
		ar.Files[idx].Data = []byte(got)
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if idx < 0 {
		t.Fatalf("%s has no facts section; run go test -update and review it", file)
	}
	want := string(ar.Files[idx].Data)
	if want != got {
		t.Errorf("%s: facts differ (-want +got):\n%s", file, lineDiff(want, got))
	}
}

// langFor returns the index of the language that handles name, routed by
// the registry's own rules (globs first, then the longest extension), or -1.
func langFor(langs []Language, name string) int {
	m := &manifest.Manifest{Name: "plugintest", Kind: manifest.KindExtractor}
	for _, l := range langs {
		m.Languages = append(m.Languages, manifest.Language{Name: l.Name, Grammar: l.Grammar, Extensions: l.Extensions, Globs: l.Globs})
	}
	rt, ok := registry.FromManifests([]*manifest.Manifest{m}).Lookup(name)
	if !ok {
		return -1
	}
	return slices.IndexFunc(langs, func(l Language) bool { return l.Name == rt.Language.Name })
}

// lineDiff is a small readable diff: lines only in want (-) or only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	inW, inG := map[string]int{}, map[string]int{}
	for _, l := range w {
		inW[l]++
	}
	for _, l := range g {
		inG[l]++
	}
	var b strings.Builder
	for _, l := range w {
		if inG[l] > 0 {
			inG[l]--
			continue
		}
		fmt.Fprintf(&b, "-%s\n", l)
	}
	for _, l := range g {
		if inW[l] > 0 {
			inW[l]--
			continue
		}
		fmt.Fprintf(&b, "+%s\n", l)
	}
	return b.String()
}

// Dump renders facts canonically, one fact per line, in emission order
// (extractors are deterministic, so order is part of what is pinned).
func Dump(f *abi.Facts) string {
	var b strings.Builder
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	dumpFileFacts(&b, &f.File)
	qual := func(i int32) string {
		if i < 0 {
			return "<file>"
		}
		var parts []string
		for ; i >= 0; i = f.Symbols[i].Parent {
			parts = append(parts, f.Symbols[i].Name)
		}
		slices.Reverse(parts)
		return strings.Join(parts, ".")
	}
	for i, s := range f.Symbols {
		fmt.Fprintf(&b, "sym %s %s L%d:%d-%d:%d", s.Kind, qual(int32(i)), s.Span.StartLine, s.Span.StartCol, s.Span.EndLine, s.Span.EndCol)
		if s.Receiver != "" {
			fmt.Fprintf(&b, " recv=%s", s.Receiver)
		}
		if s.Visibility != "" {
			fmt.Fprintf(&b, " %s", s.Visibility)
		}
		if s.Test {
			b.WriteString(" test")
		}
		if sig := s.Signature; sig != nil {
			var ps []string
			for _, p := range sig.Params {
				ps = append(ps, strings.TrimSpace(p.Name+" "+p.Type))
			}
			fmt.Fprintf(&b, " sig=(%s)", strings.Join(ps, ", "))
			if sig.Return != "" {
				fmt.Fprintf(&b, "->%s", sig.Return)
			}
			fmt.Fprintf(&b, " raw=%s", strconv.Quote(sig.Raw))
		}
		if len(s.Variants) > 0 {
			fmt.Fprintf(&b, " variants=%s", constraints(s.Variants))
		}
		b.WriteByte('\n')
		dumpSignatureRefs(&b, qual(int32(i)), s.Signature)
	}
	for _, c := range f.Calls {
		callee := c.Name
		if c.Receiver != "" {
			callee = c.Receiver + "." + c.Name
		}
		fmt.Fprintf(&b, "call %s -> %s L%d:%d", qual(c.Caller), callee, c.Line, c.Col)
		if c.ReceiverType != "" {
			fmt.Fprintf(&b, " type=%s", c.ReceiverType)
		}
		if c.ReceiverRef != nil {
			fmt.Fprintf(&b, " ref=%s", typeRef(c.ReceiverRef))
		}
		if c.Implicit {
			b.WriteString(" implicit")
		}
		b.WriteByte('\n')
	}
	for _, im := range f.Imports {
		fmt.Fprintf(&b, "import %s", strconv.Quote(im.Path))
		if im.Alias != "" {
			fmt.Fprintf(&b, " as %s", im.Alias)
		}
		if len(im.Names) > 0 {
			var ns []string
			for _, n := range im.Names {
				if n.Alias != "" {
					ns = append(ns, n.Name+" as "+n.Alias)
				} else {
					ns = append(ns, n.Name)
				}
			}
			fmt.Fprintf(&b, " {%s}", strings.Join(ns, ", "))
		}
		fmt.Fprintf(&b, " L%d", im.Line)
		if im.Kind != "" {
			fmt.Fprintf(&b, " kind=%s", im.Kind)
		}
		if len(im.Keys) > 0 {
			fmt.Fprintf(&b, " keys=%s", quoteList(im.Keys))
		}
		b.WriteByte('\n')
	}
	for _, r := range f.Relations {
		fmt.Fprintf(&b, "rel %s %s %s L%d", qual(r.From), r.Kind, r.Target, r.Line)
		if r.Context != "" {
			fmt.Fprintf(&b, " (%s)", r.Context)
		}
		b.WriteByte('\n')
	}
	for _, d := range f.Dynamic {
		key := "(opaque)"
		if d.Key != "" {
			key = strconv.Quote(d.Key)
		}
		fmt.Fprintf(&b, "dyn %s %s %s L%d\n", qual(d.From), d.Kind, key, d.Line)
	}
	for _, c := range f.Channels {
		fmt.Fprintf(&b, "chan %s %s %s #%s", qual(c.From), c.Role, c.Kind, strconv.Quote(c.Name))
		if c.Handler != "" {
			fmt.Fprintf(&b, " handler=%s", c.Handler)
		}
		fmt.Fprintf(&b, " L%d\n", c.Line)
	}
	for _, q := range f.SQL {
		fmt.Fprintf(&b, "sql %s %s L%d %s\n", qual(q.From), q.Built, q.Line, strconv.Quote(q.Text))
	}
	if f.Doc != "" {
		fmt.Fprintf(&b, "doc <file> %s\n", strconv.Quote(f.Doc))
	}
	for i, s := range f.Symbols {
		if s.Doc != "" {
			fmt.Fprintf(&b, "doc %s %s\n", qual(int32(i)), strconv.Quote(s.Doc))
		}
	}
	for _, e := range f.Errors {
		fmt.Fprintf(&b, "error %s\n", strconv.Quote(e))
	}
	return b.String()
}
