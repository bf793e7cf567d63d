package cli

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/core/safefile"
	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/core/textsafe"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/registry"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/trees"
)

// maxParseFile caps one file given to `synaptic parse`: fixtures are
// small, and a mistaken path to a huge file should fail fast.
const maxParseFile = 16 << 20

func runParse(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "parse", "--plugin DIR [-o OUT] FILE ...", `
Parse FILEs the way extraction would for the plugin in DIR, and write the
trees the plugin would receive (sdk/trees format) to OUT, default stdout.

Each FILE is routed by DIR/plugin.toml exactly as the plugin registry
routes repository files (globs before extensions, the longest extension
first) and parsed with that language's built-in grammar, honouring
[options] named_only. The plugin need not be built. A file no language
of the plugin claims is an error naming the file and the patterns.

sdk/extracttest runs this command (from $SYNAPTIC_BIN, else synaptic on
PATH) so a plugin's own tests need no cgo: see docs/plugin-authoring.md.
FILE paths are recorded as given, slash-separated: run it from the
directory the paths are relative to.`)
	dir := fs.String("plugin", "", "plugin folder holding plugin.toml (required)")
	out := fs.String("o", "", "write the trees here instead of stdout")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *dir == "" || len(files) == 0 {
		return usageError{"need --plugin DIR and at least one FILE"}
	}
	set, err := parseForPlugin(*dir, files)
	if err != nil {
		return err
	}
	b := set.Encode()
	if *out == "" {
		if f, ok := stdio.Out.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				return usageError{"the trees are binary; pass -o FILE (or redirect stdout) instead of writing them to a terminal"}
			}
		}
		_, err = stdio.Out.Write(b)
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}

// parseForPlugin routes and parses files for the plugin in dir.
func parseForPlugin(dir string, files []string) (*trees.Set, error) {
	m, err := manifest.Load(dir)
	if err != nil {
		return nil, err
	}
	if m.Kind != manifest.KindExtractor || len(m.Languages) == 0 {
		return nil, fmt.Errorf("%s: plugin %s declares no [[languages]]; parse is for extractor plugins", m.Path, m.Name)
	}
	set := &trees.Set{Plugin: m.Name}
	index := map[string]uint32{} // language name -> grammar index
	grammars := make([]*syntax.Grammar, len(m.Languages))
	for i := range m.Languages {
		ml := &m.Languages[i]
		g, ok := syntax.Lookup(ml.Grammar)
		if !ok {
			return nil, fmt.Errorf("%s: language %s needs grammar %s, which this build does not have (built-in: %s)",
				m.Path, ml.Name, textsafe.Terminal(ml.Grammar), strings.Join(syntax.Names(), ", "))
		}
		grammars[i], index[ml.Name] = g, uint32(i)
		set.Grammars = append(set.Grammars, abi.Grammar{Language: ml.Name, Name: g.Name, Kinds: g.Kinds, Named: g.Named, Fields: g.Fields})
	}
	reg := registry.FromManifests([]*manifest.Manifest{m})
	parser := syntax.NewParser()
	defer parser.Close()
	for _, file := range files {
		rel := path.Clean(filepath.ToSlash(file))
		rt, ok := reg.Lookup(rel)
		if !ok {
			return nil, fmt.Errorf("%s: no language of plugin %s claims it (it routes %s); rename the file or add its extension to %s",
				textsafe.Terminal(file), m.Name, claimed(m), m.Path)
		}
		src, err := safefile.ReadPath(file, maxParseFile)
		if err != nil {
			return nil, err
		}
		gi := index[rt.Language.Name]
		tree, err := parser.Parse(grammars[gi], src, syntax.ParseOptions{NamedOnly: m.Options.NamedOnly})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", textsafe.Terminal(file), err)
		}
		// The parser reuses its record buffer for the next file.
		set.Files = append(set.Files, trees.File{Path: rel, Grammar: gi, Records: slices.Clone(tree.Records), Source: src})
	}
	return set, nil
}

// claimed lists the extensions and globs of m's languages.
func claimed(m *manifest.Manifest) string {
	var pats []string
	for _, l := range m.Languages {
		pats = append(pats, l.Extensions...)
		pats = append(pats, l.Globs...)
	}
	return strings.Join(pats, " ")
}
