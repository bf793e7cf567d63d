// Package registry finds plugin folders on disk and decides which plugin
// handles which file.
//
// Plugins are searched in an ordered list of directories ([Sources]):
// the built-in set first, then $SYNAPTIC_PLUGINS and --plugins, then the
// repository's .synaptic/plugins. Later wins: a plugin with the same name as
// an earlier one replaces it, and an extension or glob claimed by two
// plugins goes to the later one (the conflict is reported). So a user can
// override any built-in extractor by dropping a folder into the repository.
//
// A broken folder (malformed manifest, missing module, sha256 pin mismatch)
// is reported in [Registry.Problems] and skipped; the others still load.
package registry

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
)

// EnvVar names the environment variable listing extra plugin directories
// (separated like PATH).
const EnvVar = "SYNAPTIC_PLUGINS"

// Source is one directory searched for plugin folders: either a plugin
// folder itself (it holds plugin.toml) or a directory of plugin folders.
type Source struct {
	Dir      string
	Origin   string // "builtin", "env", "flag", "repo": shown in listings
	Optional bool   // a missing Dir is normal, not a problem
	// Disabled, when set, says why the source's plugins are listed but
	// not loaded (a repository's own plugins without the user's opt-in).
	Disabled string
}

// OriginRepo marks the repository's own .synaptic/plugins: code that came
// with the repository, run only when the user opts in.
const OriginRepo = "repo"

// Disabled is a plugin folder found in a disabled source.
type Disabled struct {
	Dir    string
	Origin string
	Why    string  // the source's Disabled
	Plugin *Plugin // nil when the folder does not load
	Err    error   // why it does not load
}

// Sources returns the search order: builtin (if not ""), each directory in
// $SYNAPTIC_PLUGINS, each of flagDirs (--plugins), then
// repoRoot/.synaptic/plugins (if repoRoot is not "", optional).
func Sources(builtin string, flagDirs []string, repoRoot string) []Source {
	var s []Source
	if builtin != "" {
		s = append(s, Source{Dir: builtin, Origin: "builtin"})
	}
	for _, d := range filepath.SplitList(os.Getenv(EnvVar)) {
		if d != "" {
			s = append(s, Source{Dir: d, Origin: "env"})
		}
	}
	for _, d := range flagDirs {
		s = append(s, Source{Dir: d, Origin: "flag"})
	}
	if repoRoot != "" {
		s = append(s, Source{Dir: filepath.Join(repoRoot, ".synaptic", "plugins"), Origin: OriginRepo, Optional: true})
	}
	return s
}

// Plugin is one usable plugin folder.
type Plugin struct {
	Manifest  *manifest.Manifest
	Origin    string   // Source.Origin it came from
	SHA256    string   // lowercase hex sha256 of the .wasm module
	Overrides []string // folders of same-named plugins this one replaced
	order     int      // position in discovery order; later wins
}

// Name returns the plugin name.
func (p *Plugin) Name() string { return p.Manifest.Name }

// Dir returns the plugin folder.
func (p *Plugin) Dir() string { return p.Manifest.Dir }

// Problem is a plugin folder (or source directory) that was skipped.
type Problem struct {
	Dir string
	Err error
}

func (p Problem) Error() string {
	// Manifest errors already name the file.
	var me *manifest.Error
	if errors.As(p.Err, &me) {
		return p.Err.Error()
	}
	return fmt.Sprintf("%s: %v", p.Dir, p.Err)
}

// Unwrap returns the underlying error.
func (p Problem) Unwrap() error { return p.Err }

// Conflict is an extension or glob claimed by more than one plugin.
type Conflict struct {
	Pattern string   // ".ts" or "*.d.ts"
	Winner  string   // plugin name that handles it
	Losers  []string // plugin names that also claimed it, earlier in the search order
}

func (c Conflict) String() string {
	return fmt.Sprintf("%s is claimed by %s and %s; using %s (later in the search order)", c.Pattern, strings.Join(c.Losers, ", "), c.Winner, c.Winner)
}

// Route is who handles one extension or glob.
type Route struct {
	Pattern  string
	Glob     bool
	Plugin   *Plugin
	Language *manifest.Language
}

// Registry is the result of discovery. It is immutable and safe for
// concurrent use.
type Registry struct {
	Plugins   []*Plugin // usable plugins, sorted by name
	Problems  []Problem // skipped folders, in discovery order
	Conflicts []Conflict
	Disabled  []Disabled // folders of disabled sources, in discovery order

	exts  map[string]Route
	globs []Route // later (winning) first
}

// Discover loads every plugin folder under sources, in order.
func Discover(sources []Source) *Registry {
	return DiscoverWith(sources, nil)
}

// DiscoverWith is Discover taking module sums from sums where a module is
// unchanged since it was last hashed (nil: hash every module).
func DiscoverWith(sources []Source, sums *Sums) *Registry {
	r := &Registry{exts: map[string]Route{}}
	byName := map[string]*Plugin{}
	order := 0
	for _, src := range sources {
		dirs, err := pluginDirs(src)
		if err != nil {
			r.Problems = append(r.Problems, Problem{Dir: src.Dir, Err: err})
			continue
		}
		if src.Disabled != "" {
			for _, dir := range dirs {
				p, err := load(dir, sums)
				if p != nil {
					p.Origin = src.Origin
				}
				r.Disabled = append(r.Disabled, Disabled{Dir: dir, Origin: src.Origin, Why: src.Disabled, Plugin: p, Err: err})
			}
			continue
		}
		seen := map[string]string{} // name -> folder, within this source
		for _, dir := range dirs {
			p, err := load(dir, sums)
			if err != nil {
				r.Problems = append(r.Problems, Problem{Dir: dir, Err: err})
				continue
			}
			name := p.Name()
			if first, ok := seen[name]; ok {
				r.Problems = append(r.Problems, Problem{Dir: dir, Err: fmt.Errorf("plugin name %q is also used by %s in the same directory; rename one of them", name, first)})
				continue
			}
			seen[name] = dir
			p.Origin = src.Origin
			p.order = order
			order++
			if old, ok := byName[name]; ok {
				p.Overrides = slices.Concat(old.Overrides, []string{old.Dir()})
			}
			byName[name] = p
		}
	}
	for _, p := range byName {
		r.Plugins = append(r.Plugins, p)
	}
	slices.SortFunc(r.Plugins, func(a, b *Plugin) int { return strings.Compare(a.Name(), b.Name()) })
	r.route()
	return r
}

// route builds the extension and glob tables from the winning plugins.
func (r *Registry) route() {
	claims := map[string][]Route{}
	for _, p := range r.Plugins {
		if p.Manifest.Kind != manifest.KindExtractor {
			continue
		}
		for i := range p.Manifest.Languages {
			l := &p.Manifest.Languages[i]
			for _, e := range l.Extensions {
				claims[e] = append(claims[e], Route{Pattern: e, Plugin: p, Language: l})
			}
			for _, g := range l.Globs {
				claims[g] = append(claims[g], Route{Pattern: g, Glob: true, Plugin: p, Language: l})
			}
		}
	}
	patterns := make([]string, 0, len(claims))
	for k := range claims {
		patterns = append(patterns, k)
	}
	slices.Sort(patterns)
	for _, pat := range patterns {
		cs := claims[pat]
		slices.SortFunc(cs, func(a, b Route) int { return b.Plugin.order - a.Plugin.order })
		win := cs[0]
		if len(cs) > 1 {
			c := Conflict{Pattern: pat, Winner: win.Plugin.Name()}
			for _, l := range cs[1:] {
				c.Losers = append(c.Losers, l.Plugin.Name())
			}
			r.Conflicts = append(r.Conflicts, c)
		}
		if win.Glob {
			r.globs = append(r.globs, win)
		} else {
			r.exts[pat] = win
		}
	}
	slices.SortStableFunc(r.globs, func(a, b Route) int { return b.Plugin.order - a.Plugin.order })
}

// Lookup returns the plugin and language that handle the file at path
// (slash- or OS-separated; only the base name matters). A matching glob
// beats an extension (globs name exceptions such as "*.d.ts"); among
// extensions the longest wins (".d.ts" over ".ts").
func (r *Registry) Lookup(file string) (Route, bool) {
	base := path.Base(filepath.ToSlash(file))
	for _, g := range r.globs {
		if ok, _ := path.Match(g.Pattern, base); ok {
			return g, true
		}
	}
	// Candidate extensions start at each dot, longest first; a name that is
	// only an extension (".ts") does not count.
	for i := 1; i < len(base); i++ {
		if base[i] != '.' {
			continue
		}
		if rt, ok := r.exts[base[i:]]; ok {
			return rt, true
		}
	}
	return Route{}, false
}

// Routes returns every extension and glob with the plugin that handles it,
// sorted by pattern: the language table `synaptic plugins` shows.
func (r *Registry) Routes() []Route {
	out := slices.Collect(func(yield func(Route) bool) {
		for _, rt := range r.exts {
			if !yield(rt) {
				return
			}
		}
	})
	out = append(out, r.globs...)
	slices.SortFunc(out, func(a, b Route) int { return strings.Compare(a.Pattern, b.Pattern) })
	return out
}

// Plugin returns the usable plugin called name, or nil.
func (r *Registry) Plugin(name string) *Plugin {
	i, ok := slices.BinarySearchFunc(r.Plugins, name, func(p *Plugin, n string) int { return strings.Compare(p.Name(), n) })
	if !ok {
		return nil
	}
	return r.Plugins[i]
}

// pluginDirs lists the plugin folders of a source, sorted.
func pluginDirs(src Source) ([]string, error) {
	if _, err := os.Stat(filepath.Join(src.Dir, manifest.FileName)); err == nil {
		return []string{src.Dir}, nil
	}
	ents, err := os.ReadDir(src.Dir)
	if err != nil {
		if src.Optional && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("plugin directory does not exist (from %s); create it or fix the setting", originHint(src.Origin))
		}
		return nil, err
	}
	var dirs []string
	for _, e := range ents {
		d := filepath.Join(src.Dir, e.Name())
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, manifest.FileName)); err == nil {
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

func originHint(origin string) string {
	switch origin {
	case "env":
		return "$" + EnvVar
	case "flag":
		return "--plugins"
	}
	return origin + " plugins"
}

// load reads one plugin folder: its manifest and its module's hash.
func load(dir string, sums *Sums) (*Plugin, error) {
	m, err := manifest.Load(dir)
	if err != nil {
		return nil, err
	}
	sum, err := moduleSum(m, sums)
	if err != nil {
		return nil, err
	}
	return &Plugin{Manifest: m, SHA256: sum}, nil
}

// moduleSum hashes the module (or takes its remembered sum from sums)
// and checks the manifest's pin. The host reads and checks the module
// again when it loads it, so a remembered sum never lets a module run
// unchecked.
func moduleSum(m *manifest.Manifest, sums *Sums) (string, error) {
	path := filepath.Join(m.Dir, m.Module)
	key := "module:" + path
	sum, ok := sums.Lookup(key, path)
	if !ok {
		wasm, err := manifest.ReadModule(m)
		if err != nil {
			return "", err
		}
		sum = hexSum(wasm)
		sums.Remember(key, path, sum)
	}
	if m.SHA256 != "" && m.SHA256 != sum {
		return "", fmt.Errorf("sha256 of %s is %s, but %s pins %s; if you rebuilt the plugin on purpose, update the pin (or remove it), otherwise restore the original module", m.Module, sum, manifest.FileName, m.SHA256)
	}
	return sum, nil
}

// Check validates one plugin folder for `synaptic plugins --check DIR` and
// returns every problem found (nil if none): all manifest errors, a
// grammar that hasGrammar (if not nil) does not know, a missing module
// (or one that is no regular file inside the folder) or pin mismatch,
// and, if h is not nil, whatever loading the module in h reports
// (compile errors, missing exports, ABI version, failing init).
func Check(ctx context.Context, dir string, h *host.Host, hasGrammar func(string) bool) []error {
	m, err := manifest.Load(dir)
	if err != nil {
		var es manifest.Errors
		if errors.As(err, &es) {
			return es.Unwrap()
		}
		return []error{err}
	}
	var problems []error
	if hasGrammar != nil {
		for _, l := range m.Languages {
			if !hasGrammar(l.Grammar) {
				problems = append(problems, Problem{Dir: dir, Err: fmt.Errorf("language %s needs grammar %q, which this synaptic does not have; its files would be skipped (set grammar to a built-in one, see `synaptic plugins`)", l.Name, l.Grammar)})
			}
		}
	}
	if _, err := moduleSum(m, nil); err != nil {
		return append(problems, Problem{Dir: dir, Err: err})
	}
	if len(problems) > 0 {
		return problems
	}
	if h == nil || m.Kind != manifest.KindExtractor {
		return nil
	}
	p, err := h.Load(ctx, m, nil)
	if err != nil {
		return []error{err}
	}
	p.Close(ctx)
	return nil
}
