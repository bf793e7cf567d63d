package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/resolve"
	"github.com/synaptic-graph/synaptic/core/syntax"
	"github.com/synaptic-graph/synaptic/core/textsafe"
	"github.com/synaptic-graph/synaptic/plugins/builtin"
	"github.com/synaptic-graph/synaptic/plugins/cacheprune"
	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/registry"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// builtinPluginDir is where `make` installs the default plugins: next to the
// binary, so bin/synaptic works from any directory.
func builtinPluginDir() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Join(filepath.Dir(exe), "plugins")
}

func splitDirs(s string) []string {
	var out []string
	for _, d := range filepath.SplitList(s) {
		if d = strings.TrimSpace(d); d != "" {
			out = append(out, d)
		}
	}
	return out
}

// RepoPluginsEnv opts in to a repository's own .synaptic/plugins, like
// --repo-plugins.
const RepoPluginsEnv = "SYNAPTIC_REPO_PLUGINS"

// repoPluginsHint says how to opt in, wherever repository plugins are
// listed but not run.
const repoPluginsHint = "they came with the repository: pass --repo-plugins (or set " + RepoPluginsEnv + "=1) to run them"

// repoPluginsWanted reports the opt-in: the flag, or the variable set to
// a true value.
func repoPluginsWanted(flag bool) bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(RepoPluginsEnv))) {
	case "1", "true", "yes", "on":
		return true
	}
	return flag
}

// loadedPlugins are the extractor plugins compiled and ready for a run.
type loadedPlugins struct {
	reg       *registry.Registry
	host      *host.Host
	languages []extract.Language
	byRoute   map[string]*extract.Language // plugin + "\x00" + language name
	// notes are for the run's summary: plugins that replace others of the
	// same name (a repository's "go" over the built-in one).
	notes []string
}

func (l *loadedPlugins) close(ctx context.Context) {
	if l.host != nil {
		l.host.Close(ctx)
	}
}

// instanceLines describes, per plugin the run loaded, how many guest
// calls (files, project entry point) it served on how many instances
// (extract -v): an instance is
// replaced after a failure or when its memory grew past the recycle size,
// and each replacement re-runs the guest's start-up.
func (l *loadedPlugins) instanceLines() []string {
	seen := map[*lazyPlugin]bool{}
	var out []string
	for _, lang := range l.languages {
		lp, ok := lang.Extractor.(*lazyPlugin)
		if !ok || seen[lp] || lp.plugin == nil {
			continue
		}
		seen[lp] = true
		st := lp.plugin.Stats()
		out = append(out, fmt.Sprintf("plugin %s: %d guest calls on %d instances (%d recycled for memory, %d failed)",
			textsafe.Terminal(lp.plugin.Name()), st.Calls, st.Instances, st.Recycled, st.Failures))
	}
	slices.Sort(out)
	return out
}

// extensions lists the extensions the loaded plugins claim, sorted.
func (l *loadedPlugins) extensions() []string {
	var out []string
	for _, lang := range l.languages {
		out = append(out, lang.Extensions...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// route maps a file to its language through the registry's routing rules.
func (l *loadedPlugins) route(rel string) *extract.Language {
	r, ok := l.reg.Lookup(rel)
	if !ok {
		return nil
	}
	return l.byRoute[r.Plugin.Name()+"\x00"+r.Language.Name]
}

// discoverPlugins finds plugin folders without compiling anything. The
// repository's own plugins are code that came with the repository: they
// are listed, and loaded only with repoOK.
func discoverPlugins(repoRoot, flagDirs string, repoOK bool) *registry.Registry {
	// registry.Sources reads $SYNAPTIC_PLUGINS itself; --plugins adds more.
	var flags []string
	if flagDirs != os.Getenv(registry.EnvVar) {
		flags = splitDirs(flagDirs)
	}
	sums := openPluginSums()
	sources := withEmbedded(registry.Sources(builtinPluginDir(), flags, repoRoot), sums)
	for i := range sources {
		if sources[i].Origin == registry.OriginRepo && !repoOK {
			sources[i].Disabled = repoPluginsHint
		}
	}
	reg := registry.DiscoverWith(sources, sums)
	_ = sums.Save() // a memo that cannot be saved only costs the next run a re-hash
	return reg
}

// openPluginSums opens the memo of plugin module hashes in the user's
// cache ($XDG_CACHE_HOME/synaptic/plugin-sums.json); nil (hash every
// module) when there is no cache directory.
func openPluginSums() *registry.Sums {
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return registry.OpenSums(filepath.Join(cache, "synaptic", "plugin-sums.json"))
}

// withEmbedded puts the plugins embedded in the binary first, so every
// folder on disk (beside the binary, --plugins, $SYNAPTIC_PLUGINS, the
// repository) overrides them by name, and makes the folder beside the
// binary optional: a copied binary has none and needs none.
func withEmbedded(srcs []registry.Source, sums *registry.Sums) []registry.Source {
	dir, err := embeddedPluginDir(sums)
	if err != nil {
		fmt.Fprintf(os.Stderr, "synaptic: warning: %v; using only plugins on disk\n", err)
	}
	if dir == "" {
		return srcs
	}
	for i := range srcs {
		if srcs[i].Origin == "builtin" {
			srcs[i].Optional = true
		}
	}
	return append([]registry.Source{{Dir: dir, Origin: registry.OriginEmbedded}}, srcs...)
}

// embeddedPluginDir unpacks the embedded plugin set into the user's cache
// ($XDG_CACHE_HOME/synaptic), or into a fresh private temp directory when
// there is no cache directory.
func embeddedPluginDir(sums *registry.Sums) (string, error) {
	if cache, err := os.UserCacheDir(); err == nil {
		exe, _ := os.Executable()
		root := filepath.Join(cache, "synaptic")
		if dir, err := registry.MaterializeWith(builtin.FS(), root, sums, exe); err == nil {
			// Old binaries' plugin sets and compiled modules would
			// otherwise stay forever; a failed prune costs nothing.
			_, _ = cacheprune.Prune(root, time.Now(), cacheprune.MaxAge, dir)
			return dir, nil
		}
	}
	tmp, err := os.MkdirTemp("", "synaptic-plugins-")
	if err != nil {
		return "", err
	}
	return registry.Materialize(builtin.FS(), tmp)
}

// loadExtractors is loadPlugins for a run that extracts: it fails when no
// extractor plugin was found, saying how to get one.
func loadExtractors(ctx context.Context, repoRoot, flagDirs string, repoOK bool, warn io.Writer) (*loadedPlugins, error) {
	loaded, err := loadPlugins(ctx, repoRoot, flagDirs, repoOK, warn)
	if err != nil {
		return nil, safeError(err)
	}
	if len(loaded.languages) == 0 {
		loaded.close(ctx)
		return nil, fmt.Errorf("no extractor plugins found; build them with 'make plugins' or pass --plugins DIR")
	}
	return loaded, nil
}

// loadPlugins discovers every extractor plugin. Modules are compiled lazily,
// on the first file that needs them, so a no-op or one-file rerun does not
// pay for plugins it does not use. Broken folders are reported on warn and
// skipped; the others still load.
func loadPlugins(ctx context.Context, repoRoot, flagDirs string, repoOK bool, warn io.Writer) (*loadedPlugins, error) {
	reg := discoverPlugins(repoRoot, flagDirs, repoOK)
	for _, p := range reg.Problems {
		fmt.Fprintf(warn, "synaptic: skipping plugin: %s\n", textsafe.Terminal(p.Error()))
	}
	for _, c := range reg.Conflicts {
		fmt.Fprintf(warn, "synaptic: note: %s\n", textsafe.Terminal(c.String()))
	}
	if n := len(reg.Disabled); n > 0 {
		fmt.Fprintf(warn, "synaptic: note: %d plugin folder(s) in %s not loaded (%s); %s\n",
			n, textsafe.Terminal(filepath.Dir(reg.Disabled[0].Dir)), textsafe.Terminal(disabledNames(reg.Disabled)), repoPluginsHint)
	}
	h, err := host.New(ctx, host.Options{})
	if err != nil {
		return nil, fmt.Errorf("start plugin host: %w", err)
	}
	l := &loadedPlugins{reg: reg, host: h, byRoute: map[string]*extract.Language{}}
	for _, p := range reg.Plugins {
		m := p.Manifest
		if m.Kind != manifest.KindExtractor {
			continue
		}
		// The set beside the binary is the embedded one on disk (a dev
		// build): replacing it is the normal case, not worth a note.
		for _, old := range p.Overrides {
			if p.Origin != "builtin" {
				l.notes = append(l.notes, fmt.Sprintf("plugin %s from %s (%s) replaces the one in %s", m.Name, m.Dir, p.Origin, old))
			}
		}
		_, capped := h.Cap(m.Limits)
		for _, c := range capped {
			fmt.Fprintf(warn, "synaptic: note: plugin %s: %s\n", m.Name, c)
		}
		var grammars []abi.Grammar
		var langs []extract.Language
		for i := range m.Languages {
			ml := &m.Languages[i]
			g, ok := syntax.Lookup(ml.Grammar)
			if !ok {
				fmt.Fprintf(warn, "synaptic: plugin %s: language %s needs grammar %s, which this build does not have (built-in: %s); its files are skipped\n",
					m.Name, ml.Name, textsafe.Terminal(strconv.Quote(ml.Grammar)), strings.Join(syntax.Names(), ", "))
				continue
			}
			langs = append(langs, extract.Language{
				Name: ml.Name, Family: ml.Family, Grammar: g, GrammarIndex: uint32(len(grammars)),
				Extensions: ml.Extensions, Globs: ml.Globs, NamedOnly: m.Options.NamedOnly,
				MaxFileBytes: m.Limits.MaxFileBytes,
				Plugin:       extract.PluginInfo{Name: m.Name, Version: m.Version, SHA256: p.SHA256},
				ABI:          m.ABI, Semantics: resolveSemantics(m.Semantics),
			})
			grammars = append(grammars, abi.Grammar{Language: ml.Name, Name: g.Name, Kinds: g.Kinds, Named: g.Named, Fields: g.Fields})
		}
		if len(langs) == 0 {
			continue
		}
		lazy := &lazyPlugin{host: h, manifest: m, grammars: grammars}
		for i := range langs {
			langs[i].Extractor = lazy
		}
		l.languages = append(l.languages, langs...)
	}
	for i := range l.languages {
		lang := &l.languages[i]
		l.byRoute[lang.Plugin.Name+"\x00"+lang.Name] = lang
	}
	return l, nil
}

// disabledNames lists the plugins of disabled folders (the folder's name
// when its manifest does not load).
func disabledNames(ds []registry.Disabled) string {
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = filepath.Base(d.Dir)
		if d.Plugin != nil {
			names[i] = d.Plugin.Name()
		}
	}
	return strings.Join(names, ", ")
}

func runPlugins(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "plugins", "[--check DIR] [--plugins DIRS] [REPO]", `
List the plugins synaptic would load for REPO (default: the current
directory): built-in ones next to the binary, then --plugins /
$SYNAPTIC_PLUGINS, then REPO/.synaptic/plugins. A repository's own plugins
are listed as disabled unless --repo-plugins (or $`+RepoPluginsEnv+`=1) opts
in: they are code that came with the repository. Broken folders are listed
with what is wrong. With --check DIR, fully validate one plugin folder
(manifest, grammars, module, pin, exports, ABI and init) and exit non-zero if
it has problems.`)
	check := fs.String("check", "", "validate one plugin folder and report every problem")
	pluginDir := fs.String("plugins", envOr(registry.EnvVar, ""), "extra plugin directories, separated by "+string(filepath.ListSeparator))
	repoOK := fs.Bool("repo-plugins", false, "load REPO/.synaptic/plugins (also $"+RepoPluginsEnv+"=1)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	return safeError(listOrCheck(ctx, stdio, *check, *pluginDir, repoPluginsWanted(*repoOK), pos))
}

// listOrCheck is runPlugins after its flags.
func listOrCheck(ctx context.Context, stdio IO, check, pluginDir string, repoOK bool, pos []string) error {
	if check != "" {
		h, err := host.New(ctx, host.Options{})
		if err != nil {
			return err
		}
		defer h.Close(ctx)
		problems := registry.Check(ctx, check, h, func(g string) bool { _, ok := syntax.Lookup(g); return ok })
		if len(problems) == 0 {
			if m, err := manifest.Load(check); err == nil {
				_, capped := h.Cap(m.Limits)
				for _, c := range capped {
					fmt.Fprintf(stdio.Out, "note: %s\n", c)
				}
			}
			fmt.Fprintf(stdio.Out, "%s: ok\n", textsafe.Terminal(check))
			return nil
		}
		for _, p := range problems {
			fmt.Fprintf(stdio.Out, "%s\n", textsafe.Terminal(p.Error()))
		}
		return fmt.Errorf("%s: %d problem(s)", check, len(problems))
	}
	root := "."
	if len(pos) > 0 {
		root = pos[0]
	}
	reg := discoverPlugins(root, pluginDir, repoOK)
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tKIND\tLANGUAGES\tORIGIN\tFOLDER\tSHA256")
	for _, p := range reg.Plugins {
		m := p.Manifest
		var langs []string
		for _, l := range m.Languages {
			pats := append(append([]string{}, l.Extensions...), l.Globs...)
			langs = append(langs, l.Name+"("+strings.Join(pats, ",")+")")
		}
		if m.Kind == manifest.KindRules && m.Rules != nil {
			langs = append(langs, "rules:"+strings.Join(m.Rules.Targets, ","))
		}
		row(tw, m.Name, m.Version, string(m.Kind), strings.Join(langs, " "), p.Origin, p.Dir(), p.SHA256[:min(16, len(p.SHA256))])
	}
	for _, d := range reg.Disabled {
		if p := d.Plugin; p != nil {
			row(tw, p.Name(), p.Manifest.Version, string(p.Manifest.Kind), "-", d.Origin+" (disabled)", d.Dir, p.SHA256[:min(16, len(p.SHA256))])
		} else {
			row(tw, filepath.Base(d.Dir), "-", "-", "-", d.Origin+" (disabled, broken)", d.Dir, "-")
		}
	}
	tw.Flush()
	for _, c := range reg.Conflicts {
		fmt.Fprintf(stdio.Out, "note: %s\n", textsafe.Terminal(c.String()))
	}
	if len(reg.Disabled) > 0 {
		fmt.Fprintf(stdio.Out, "note: %d plugin folder(s) in the repository are not loaded; %s\n", len(reg.Disabled), repoPluginsHint)
	}
	if len(reg.Problems) > 0 {
		fmt.Fprintf(stdio.Out, "\n%d plugin folder(s) skipped:\n", len(reg.Problems))
		for _, p := range reg.Problems {
			fmt.Fprintf(stdio.Out, "  %s\n", textsafe.Terminal(p.Error()))
		}
		return fmt.Errorf("%d plugin folder(s) have problems", len(reg.Problems))
	}
	if len(reg.Plugins) == 0 {
		fmt.Fprintln(stdio.Out, "no plugins found; run 'make plugins' or pass --plugins DIR")
	}
	return nil
}

// row writes one table row, each cell made safe for the terminal.
func row(w io.Writer, cells ...string) {
	for i, c := range cells {
		cells[i] = textsafe.Terminal(c)
	}
	fmt.Fprintln(w, strings.Join(cells, "\t"))
}

// safeError prints as err with its text made safe for the terminal (it
// may quote file names from the tree), and still unwraps to err.
func safeError(err error) error {
	if err == nil {
		return nil
	}
	return terminalError{err}
}

type terminalError struct{ err error }

func (e terminalError) Error() string { return textsafe.Terminal(e.err.Error()) }
func (e terminalError) Unwrap() error { return e.err }

// lazyPlugin compiles its module on first use. A load failure is returned for
// every file of the plugin, so each shows up in the summary with the reason.
type lazyPlugin struct {
	once     sync.Once
	host     *host.Host
	manifest *manifest.Manifest
	grammars []abi.Grammar
	plugin   *host.Plugin
	err      error
}

func (l *lazyPlugin) Extract(ctx context.Context, worker int, path string, grammar uint32, records, source []byte) (*abi.Facts, error) {
	l.once.Do(func() { l.plugin, l.err = l.host.Load(ctx, l.manifest, l.grammars) })
	if l.err != nil {
		return nil, l.err
	}
	return l.plugin.Extract(ctx, worker, path, grammar, records, source)
}

// ReleaseIdle lets the loaded plugin's instances go (extract.Releaser).
// A plugin never loaded has none.
func (l *lazyPlugin) ReleaseIdle() {
	if l.plugin != nil {
		l.plugin.ReleaseIdle()
	}
}

// resolveSemantics maps a manifest's [semantics] onto the resolver's own
// (core/resolve cannot import plugins/manifest).
func resolveSemantics(s manifest.Semantics) resolve.Semantics {
	r := resolve.Semantics{ImplicitThis: s.ImplicitThis, FilePrivate: s.FilePrivate, SelfNames: s.SelfNames, ImportStubKind: string(s.ImportStub), SubmoduleSeparator: s.SubmoduleSeparator, Reexports: s.Reexports}
	if s.Unqualified == manifest.UnqualifiedScope {
		r.Unqualified = resolve.UnqualifiedScope
	}
	if s.ReceiverFallback == manifest.ReceiverFallbackUniqueMethod {
		r.ReceiverFallback = resolve.ReceiverFallbackUniqueMethod
	}
	if s.TypeCall == manifest.TypeCallNone {
		r.TypeCall = resolve.TypeCallNone
	}
	return r
}

// ProjectFiles names the metadata files of the plugin's [project] table
// (ABI v2), without loading the module.
func (l *lazyPlugin) ProjectFiles() []string {
	if l.manifest.Project == nil {
		return nil
	}
	return l.manifest.Project.Files
}

// Project runs the plugin's project entry point (extract.Projector).
func (l *lazyPlugin) Project(ctx context.Context, in *abi.ProjectInput) (abi.ProjectOutput, error) {
	l.once.Do(func() { l.plugin, l.err = l.host.Load(ctx, l.manifest, l.grammars) })
	if l.err != nil {
		return abi.ProjectOutput{}, l.err
	}
	return l.plugin.Project(ctx, in)
}
