package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// rawManifest is the TOML shape; Parse validates it into a Manifest.
type rawManifest struct {
	Name        string        `toml:"name"`
	Version     string        `toml:"version"`
	Kind        string        `toml:"kind"`
	ABI         int64         `toml:"abi"`
	Module      string        `toml:"module"`
	SHA256      string        `toml:"sha256"`
	Description string        `toml:"description"`
	Languages   []rawLanguage `toml:"languages"`
	Limits      rawLimits     `toml:"limits"`
	Options     rawOptions    `toml:"options"`
	Rules       *rawRules     `toml:"rules"`
	Project     *rawProject   `toml:"project"`
	Semantics   *rawSemantics `toml:"semantics"`
}

type rawLanguage struct {
	Name       string   `toml:"name"`
	Grammar    string   `toml:"grammar"`
	Extensions []string `toml:"extensions"`
	Globs      []string `toml:"globs"`
	Family     string   `toml:"family"`
}

type rawLimits struct {
	MemoryPages  *int64  `toml:"memory_pages"`
	Timeout      *string `toml:"timeout"`
	MaxFileBytes *int64  `toml:"max_file_bytes"`
}

type rawOptions struct {
	NamedOnly bool `toml:"named_only"`
}

type rawRules struct {
	Targets  []string  `toml:"targets"`
	Doc      string    `toml:"doc"`
	Examples string    `toml:"examples"`
	Rule     []rawRule `toml:"rule"`
}

type rawRule struct {
	ID       string `toml:"id"`
	Severity string `toml:"severity"`
	Category string `toml:"category"`
	Title    string `toml:"title"`
	Doc      string `toml:"doc"`
}

// knownKeys lists the keys of each table, for "did you mean" hints.
var knownKeys = map[string][]string{
	"":           {"name", "version", "kind", "abi", "module", "sha256", "description", "languages", "limits", "options", "rules", "project", "semantics"},
	"languages":  {"name", "grammar", "extensions", "globs", "family"},
	"limits":     {"memory_pages", "timeout", "max_file_bytes"},
	"options":    {"named_only"},
	"rules":      {"targets", "doc", "examples", "rule"},
	"rules.rule": {"id", "severity", "category", "title", "doc"},
	"project":    {"files"},
	"semantics":  {"unqualified", "receiver_fallback", "type_call", "implicit_this", "file_private", "import_stub", "self_names", "submodule_separator", "reexports", "import_submodules"},
}

func decode(data []byte, v any) (md toml.MetaData, err error) {
	// The decoder is well fuzzed upstream, but a panic on hostile input must
	// never take the host down with it.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("toml decoder panic: %v", r)
		}
	}()
	return toml.NewDecoder(bytes.NewReader(data)).Decode(v)
}

// Error is one problem in a manifest.
type Error struct {
	File string // path of the plugin.toml
	Line int    // 1-based; 0 if unknown
	Key  string // dotted key the problem is about, "" if none
	Msg  string // what is wrong and how to fix it
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Errors is every problem found in one manifest, in file order.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap lets errors.As find each *Error.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// decodeErrRE matches the toml package's type-mismatch errors, which are not
// ParseErrors: `toml: line 7 (last key "abi"): incompatible types: ...`.
var decodeErrRE = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// tomlError turns a toml decoding error into an *Error with a line.
func tomlError(file string, data []byte, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		msg := pe.Message
		if pe.LastKey != "" {
			msg = fmt.Sprintf("%s (after key %q)", msg, pe.LastKey)
		}
		return &Error{File: file, Line: pe.Position.Line, Key: pe.LastKey, Msg: "invalid TOML: " + msg}
	}
	if m := decodeErrRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		msg := m[3]
		if strings.HasPrefix(msg, "incompatible types: ") {
			msg = fmt.Sprintf("%q has the wrong type (%s)", lastPart(m[2]), strings.TrimPrefix(msg, "incompatible types: "))
		}
		return &Error{File: file, Line: line, Key: m[2], Msg: msg}
	}
	return &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
}

func lastPart(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}

// keyLine returns the 1-based line where key is set or its table opens, or
// 0 if it cannot be found. The toml package does not expose key positions,
// so this is a small line scanner that understands [table], [[array]],
// dotted and quoted keys: enough for the manifests people write. When the
// full key is absent (it was defaulted) it falls back to the nearest parent.
func keyLine(data []byte, key []string) int {
	return keyLineIn(data, key, -1)
}

// keyLineIn is keyLine within the nth (0-based) [[key[0]]] table, or the
// whole file if nth < 0.
func keyLineIn(data []byte, key []string, nth int) int {
	for k := len(key); k > 0; k-- {
		if n := scanKey(data, key[:k], nth); n > 0 {
			return n
		}
	}
	if nth >= 0 {
		return scanKey(data, key[:1], nth)
	}
	return 0
}

func scanKey(data []byte, key []string, nth int) int {
	want := strings.Join(key, ".")
	var table string
	seen := -1 // occurrences of [[key[0]]] so far
	inside := nth < 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '[' {
			array := strings.HasPrefix(line, "[[")
			h := strings.Trim(stripComment(line), "[] \t")
			table = normKey(h)
			if nth >= 0 {
				if array && table == key[0] {
					seen++
				}
				inside = seen == nth && table == key[0]
			}
			if inside && table == want {
				return i + 1
			}
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq < 0 || !inside {
			continue
		}
		full := normKey(line[:eq])
		if table != "" {
			full = table + "." + full
		}
		if full == want {
			return i + 1
		}
	}
	return 0
}

func stripComment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// normKey turns `a . "b"` into `a.b`.
func normKey(s string) string {
	parts := strings.Split(s, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}
