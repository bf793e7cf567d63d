// Package manifest parses and validates plugin.toml, the file that declares a
// synaptic plugin: what it is called, which WebAssembly module implements it,
// which languages and files it handles, and the sandbox limits it runs under.
//
// Parsing is strict: an unknown key is an error (a misspelt key silently
// ignored would leave a plugin half-configured). Every error names the file,
// the line and, where there is one, the fix.
//
// A minimal extractor manifest:
//
//	name    = "typescript"
//	version = "0.1.0"
//	kind    = "extractor"
//	abi     = 1
//	module  = "typescript.wasm"
//
//	[[languages]]
//	name       = "typescript"
//	extensions = [".ts", ".mts", ".cts"]
//	family     = "ecmascript"
//
//	[[languages]]
//	name       = "tsx"
//	extensions = [".tsx"]
//	family     = "ecmascript"
//
//	[limits]
//	memory_pages   = 4096   # 64 KiB pages: 256 MiB per instance
//	timeout        = "2s"   # per file of up to 1 MiB, see Limits.FileTimeout
//	max_file_bytes = 8388608
package manifest

import (
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/core/safefile"
)

// FileName is the manifest's name inside a plugin folder.
const FileName = "plugin.toml"

// Kind is what a plugin does.
type Kind string

// Plugin kinds.
const (
	KindExtractor Kind = "extractor" // turns syntax trees into facts
	KindRules     Kind = "rules"     // a rule pack (defined by a later issue)
)

// Defaults and bounds of [Limits].
const (
	DefaultMemoryPages  = 4096 // 256 MiB: a Go guest needs about 10× the source plus 10 MiB
	MaxMemoryPages      = 65536
	DefaultTimeout      = 2 * time.Second
	MaxTimeout          = 10 * time.Minute
	DefaultMaxFileBytes = 8 << 20
	MaxMaxFileBytes     = 1 << 30
)

// Manifest is a validated plugin.toml.
type Manifest struct {
	Name        string // unique plugin name; a later plugin folder with the same name overrides an earlier one
	Version     string
	Kind        Kind
	ABI         int    // abi.MinVersion to abi.Version after validation
	Module      string // .wasm file, slash-separated, relative to Dir
	SHA256      string // optional pin of the module's sha256, lowercase hex; "" if not pinned
	Description string
	Languages   []Language
	Limits      Limits
	Options     Options
	Rules       *Rules // set only for kind "rules"
	// Project lists the metadata files of the project entry point (ABI
	// v2); nil without [project].
	Project *Project
	// Semantics are the declared call semantics, defaults filled in.
	Semantics Semantics

	Path string // the plugin.toml this came from
	Dir  string // the plugin folder (directory of Path)
}

// Language is one language a plugin handles.
type Language struct {
	Name       string   // e.g. "tsx"; what extractors see as File.Language()
	Grammar    string   // tree-sitter grammar name; defaults to Name
	Extensions []string // file name suffixes including the dot: ".ts", ".d.ts"
	Globs      []string // path.Match patterns on the base name: "*.d.ts", "Dockerfile"
	Family     string   // resolution family (calls link only within one); defaults to Name
}

// Limits are the sandbox limits for one plugin instance and one file.
type Limits struct {
	MemoryPages  uint32        // maximum linear memory, in 64 KiB pages
	Timeout      time.Duration // time budget for a file of up to 1 MiB; see FileTimeout
	MaxFileBytes int64         // larger files are not handed to the plugin
}

// FileTimeout returns the time budget for extracting a file of size bytes:
// Timeout for each started MiB, i.e. Timeout × ceil(max(size,1) / 1 MiB),
// capped at MaxTimeout. Extraction is linear in the file size, so the budget
// is too; the granularity keeps small files at exactly Timeout.
func (l Limits) FileTimeout(size int) time.Duration {
	mib := (int64(size) + 1<<20 - 1) >> 20
	if mib < 1 {
		mib = 1
	}
	if l.Timeout <= 0 {
		return DefaultTimeout
	}
	if mib > int64(MaxTimeout/l.Timeout) {
		return MaxTimeout
	}
	return time.Duration(mib) * l.Timeout
}

// Options tune what the host sends to the plugin.
type Options struct {
	// NamedOnly asks the host to serialise named nodes only, which cuts the
	// records by about a third when the extractor never looks at punctuation.
	NamedOnly bool
}

// Rules is the [rules] table of a rule pack (see rules.go).
type Rules struct {
	Targets  []string // the audits the pack joins: "sql" (audit_sql, advise_sql) and/or "readiness"
	Doc      string   // free-form documentation
	Examples string   // folder of example fixtures (slash-separated, relative to Dir); "" means "examples"
	Rules    []Rule   // the [[rules.rule]] tables: every rule id the pack may report
}

// Load reads and parses dir/plugin.toml.
func Load(dir string) (*Manifest, error) {
	p := filepath.Join(dir, FileName)
	data, err := safefile.ReadPath(p, maxManifestBytes)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, &Error{File: p, Msg: "no " + FileName + " in plugin folder; add one or remove the folder"}
		}
		return nil, &Error{File: p, Msg: err.Error()}
	}
	return Parse(p, data)
}

// Name patterns: lowercase, so names are stable across file systems and
// usable as graph id parts.
var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,63}$`)

var sha256RE = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// Parse parses and validates a manifest. path is used in error messages and
// to set Manifest.Path and Manifest.Dir. The error, if any, is an *Error or
// an Errors listing every problem found.
func Parse(path string, data []byte) (*Manifest, error) {
	var raw rawManifest
	md, err := decode(data, &raw)
	if err != nil {
		return nil, tomlError(path, data, err)
	}
	v := &validator{file: path, data: data}
	for _, k := range md.Undecoded() {
		v.unknownKey(k)
	}
	m := v.manifest(&raw)
	if err := v.err(); err != nil {
		return nil, err
	}
	m.Path = path
	m.Dir = filepath.Dir(path)
	return m, nil
}

// validator accumulates problems so one run reports all of them.
type validator struct {
	file string
	data []byte
	errs Errors
}

func (v *validator) add(key []string, format string, args ...any) {
	v.addN(-1, key, format, args...)
}

// addN reports a problem in the nth [[languages]] table (or anywhere if nth < 0).
func (v *validator) addN(nth int, key []string, format string, args ...any) {
	v.errs = append(v.errs, &Error{File: v.file, Line: keyLineIn(v.data, key, nth), Key: strings.Join(key, "."), Msg: fmt.Sprintf(format, args...)})
}

func (v *validator) err() error {
	switch len(v.errs) {
	case 0:
		return nil
	case 1:
		return v.errs[0]
	}
	return v.errs
}

func (v *validator) unknownKey(k []string) {
	parent, last := k[:len(k)-1], k[len(k)-1]
	msg := fmt.Sprintf("unknown key %q", last)
	if len(parent) > 0 {
		msg = fmt.Sprintf("unknown key %q in [%s]", last, strings.Join(parent, "."))
	}
	if known, ok := knownKeys[strings.Join(parent, ".")]; ok {
		if s := suggest(last, known); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		} else {
			msg += "; known keys: " + strings.Join(known, ", ")
		}
	}
	v.add(k, "%s", msg)
}

func (v *validator) manifest(r *rawManifest) *Manifest {
	m := &Manifest{
		Name:        r.Name,
		Version:     r.Version,
		Kind:        Kind(r.Kind),
		ABI:         int(r.ABI),
		Module:      r.Module,
		SHA256:      strings.ToLower(r.SHA256),
		Description: r.Description,
		Options:     Options{NamedOnly: r.Options.NamedOnly},
	}
	switch {
	case r.Name == "":
		v.add([]string{"name"}, `missing name; add name = "<plugin>" (lowercase letters, digits, "-", "_", ".")`)
	case !nameRE.MatchString(r.Name):
		v.add([]string{"name"}, "name %q is not valid; use up to 64 lowercase letters, digits, \"-\", \"_\" or \".\"", r.Name)
	}
	if strings.TrimSpace(r.Version) == "" || strings.ContainsAny(r.Version, " \t\n") {
		v.add([]string{"version"}, `missing or blank version; add version = "0.1.0"`)
	}
	switch m.Kind {
	case KindExtractor, KindRules:
	case "":
		v.add([]string{"kind"}, `missing kind; add kind = "extractor" or kind = "rules"`)
	default:
		msg := fmt.Sprintf("kind %q is not valid; use \"extractor\" or \"rules\"", r.Kind)
		if s := suggest(r.Kind, []string{string(KindExtractor), string(KindRules)}); s != "" {
			msg = fmt.Sprintf("kind %q is not valid; did you mean %q?", r.Kind, s)
		}
		v.add([]string{"kind"}, "%s", msg)
	}
	v.abiVersion(r.ABI)
	m.Project = v.project(r.Project, m)
	m.Semantics = v.semantics(r.Semantics, m)
	v.module(r.Module)
	if r.SHA256 != "" && !sha256RE.MatchString(r.SHA256) {
		v.add([]string{"sha256"}, "sha256 %q is not 64 hex digits; use the output of `sha256sum %s`, or remove the pin", r.SHA256, r.Module)
	}
	m.Languages = v.languages(r.Languages, m.Kind)
	m.Limits = v.limits(&r.Limits)
	switch {
	case r.Rules != nil && m.Kind != KindRules:
		v.add([]string{"rules"}, "[rules] is only allowed with kind = \"rules\"; remove it or change kind")
	case r.Rules == nil && m.Kind == KindRules:
		v.add([]string{"kind"}, "kind = \"rules\" needs a [rules] table with targets = [\"<language>\", ...]")
	case r.Rules != nil:
		m.Rules = &Rules{Targets: r.Rules.Targets, Doc: r.Rules.Doc, Examples: r.Rules.Examples}
		m.Rules.Rules = v.ruleDecls(r.Rules.Rule)
		v.examples(r.Rules.Examples)
		if len(r.Rules.Targets) == 0 {
			v.add([]string{"rules"}, "[rules] needs targets = [\"<language>\", ...]")
		}
		for _, t := range r.Rules.Targets {
			if !nameRE.MatchString(t) {
				v.add([]string{"rules", "targets"}, "target %q is not a valid language name", t)
			}
		}
	}
	return m
}

func (v *validator) module(mod string) {
	key := []string{"module"}
	switch {
	case mod == "":
		v.add(key, `missing module; add module = "<file>.wasm" (relative to the plugin folder)`)
	case strings.Contains(mod, `\`):
		v.add(key, "module %q must use forward slashes", mod)
	case !filepath.IsLocal(filepath.FromSlash(mod)) || path.Clean(mod) != mod:
		v.add(key, "module %q must be a clean path inside the plugin folder (no \"..\", no leading \"/\")", mod)
	case !strings.HasSuffix(mod, ".wasm"):
		v.add(key, "module %q must name a .wasm file", mod)
	}
}

func (v *validator) languages(rl []rawLanguage, kind Kind) []Language {
	if len(rl) == 0 && kind == KindExtractor {
		v.add([]string{"name"}, "an extractor needs at least one [[languages]] table with name and extensions")
	}
	var out []Language
	names := map[string]bool{}
	claimed := map[string]string{} // extension or glob -> language
	for i, r := range rl {
		key := []string{"languages"}
		l := Language{Name: r.Name, Grammar: r.Grammar, Family: r.Family}
		switch {
		case r.Name == "":
			v.addN(i, key, "[[languages]] #%d has no name; add name = \"<language>\"", i+1)
		case !nameRE.MatchString(r.Name):
			v.addN(i, append(key, "name"), "language name %q is not valid; use lowercase letters, digits, \"-\", \"_\" or \".\"", r.Name)
		case names[r.Name]:
			v.addN(i, append(key, "name"), "language %q is declared twice; merge the two [[languages]] tables", r.Name)
		}
		names[r.Name] = true
		if l.Grammar == "" {
			l.Grammar = l.Name
		}
		if l.Family == "" {
			l.Family = l.Name
		}
		if len(r.Extensions) == 0 && len(r.Globs) == 0 {
			v.addN(i, key, "language %q has no extensions or globs; add extensions = [\".ext\"]", r.Name)
		}
		for _, e := range r.Extensions {
			switch {
			case len(e) < 2 || e[0] != '.' || strings.ContainsAny(e, `/\*?[]`):
				msg := fmt.Sprintf("extension %q of language %q must start with \".\" and hold no \"/\" or wildcard", e, r.Name)
				if e != "" && e[0] != '.' && !strings.ContainsAny(e, `/\*?[]`) {
					msg += fmt.Sprintf("; did you mean %q?", "."+e)
				} else if strings.ContainsAny(e, "*?[") {
					msg += "; put patterns in globs"
				}
				v.addN(i, append(key, "extensions"), "%s", msg)
			case claimed[e] != "":
				v.addN(i, append(key, "extensions"), "extension %q is claimed by both %q and %q", e, claimed[e], r.Name)
			default:
				claimed[e] = r.Name
				l.Extensions = append(l.Extensions, e)
			}
		}
		for _, g := range r.Globs {
			_, err := path.Match(g, "")
			switch {
			case g == "" || err != nil || strings.ContainsAny(g, `/\`):
				v.addN(i, append(key, "globs"), "glob %q of language %q is not a valid pattern on a file's base name (path.Match syntax, no \"/\")", g, r.Name)
			case claimed[g] != "":
				v.addN(i, append(key, "globs"), "glob %q is claimed by both %q and %q", g, claimed[g], r.Name)
			default:
				claimed[g] = r.Name
				l.Globs = append(l.Globs, g)
			}
		}
		if !nameRE.MatchString(l.Grammar) {
			v.addN(i, append(key, "grammar"), "grammar %q is not a valid grammar name", l.Grammar)
		}
		if !nameRE.MatchString(l.Family) {
			v.addN(i, append(key, "family"), "family %q is not a valid family name", l.Family)
		}
		out = append(out, l)
	}
	return out
}

func (v *validator) limits(r *rawLimits) Limits {
	l := Limits{MemoryPages: DefaultMemoryPages, Timeout: DefaultTimeout, MaxFileBytes: DefaultMaxFileBytes}
	if r.MemoryPages != nil {
		if p := *r.MemoryPages; p < 64 || p > MaxMemoryPages {
			v.add([]string{"limits", "memory_pages"}, "memory_pages = %d is out of range; use 64 (4 MiB) to %d (4 GiB) pages of 64 KiB", p, MaxMemoryPages)
		} else {
			l.MemoryPages = uint32(p)
		}
	}
	if r.Timeout != nil {
		d, err := time.ParseDuration(*r.Timeout)
		switch {
		case err != nil:
			v.add([]string{"limits", "timeout"}, "timeout %q is not a duration; use e.g. \"2s\" or \"500ms\"", *r.Timeout)
		case d < time.Millisecond || d > MaxTimeout:
			v.add([]string{"limits", "timeout"}, "timeout %s is out of range; use 1ms to %s", d, MaxTimeout)
		default:
			l.Timeout = d
		}
	}
	if r.MaxFileBytes != nil {
		if n := *r.MaxFileBytes; n < 1 || n > MaxMaxFileBytes {
			v.add([]string{"limits", "max_file_bytes"}, "max_file_bytes = %d is out of range; use 1 to %d", n, int64(MaxMaxFileBytes))
		} else {
			l.MaxFileBytes = n
		}
	}
	return l
}

// suggest returns the candidate closest to s when it is close enough to be a
// likely typo.
func suggest(s string, candidates []string) string {
	best, bestD := "", math.MaxInt
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= 2 || (bestD <= 3 && len(s) > 6) {
		return best
	}
	return ""
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
