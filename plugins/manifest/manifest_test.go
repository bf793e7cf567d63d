package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const full = `# TypeScript and TSX extractor.
name = "typescript"
version = "0.1.0"
kind = "extractor"
abi = 1
module = "typescript.wasm"
sha256 = "ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef0123456789"
description = "TypeScript, TSX"

[[languages]]
name = "typescript"
extensions = [".ts", ".mts", ".cts"]
globs = ["*.d.ts"]
family = "ecmascript"

[[languages]]
name = "tsx"
grammar = "tsx"
extensions = [".tsx"]
family = "ecmascript"

[limits]
memory_pages = 2048
timeout = "500ms"
max_file_bytes = 1048576

[options]
named_only = true
`

func TestParseFull(t *testing.T) {
	m, err := Parse("x/plugin.toml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	want := &Manifest{
		Name: "typescript", Version: "0.1.0", Kind: KindExtractor, ABI: 1,
		Module: "typescript.wasm", SHA256: "abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789",
		Description: "TypeScript, TSX",
		Languages: []Language{
			{Name: "typescript", Grammar: "typescript", Extensions: []string{".ts", ".mts", ".cts"}, Globs: []string{"*.d.ts"}, Family: "ecmascript"},
			{Name: "tsx", Grammar: "tsx", Extensions: []string{".tsx"}, Family: "ecmascript"},
		},
		Limits:    Limits{MemoryPages: 2048, Timeout: 500 * time.Millisecond, MaxFileBytes: 1 << 20},
		Options:   Options{NamedOnly: true},
		Semantics: Semantics{Unqualified: UnqualifiedScopeThenUnique, ReceiverFallback: ReceiverFallbackNone, TypeCall: TypeCallConstructor, ImportStub: ImportStubModule},
		Path:      "x/plugin.toml", Dir: "x",
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("Parse = %+v\nwant %+v", m, want)
	}
}

const minimal = `name = "go"
version = "1"
kind = "extractor"
abi = 1
module = "go.wasm"
[[languages]]
name = "go"
extensions = [".go"]
`

func TestParseDefaults(t *testing.T) {
	m, err := Parse("plugin.toml", []byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	l := m.Languages[0]
	if l.Grammar != "go" || l.Family != "go" {
		t.Errorf("language defaults = %+v, want grammar and family \"go\"", l)
	}
	if want := (Limits{DefaultMemoryPages, DefaultTimeout, DefaultMaxFileBytes}); m.Limits != want {
		t.Errorf("Limits = %+v, want %+v", m.Limits, want)
	}
}

func TestParseRules(t *testing.T) {
	src := `name = "sql-rules"
version = "0.1.0"
kind = "rules"
abi = 1
module = "rules.wasm"
[rules]
targets = ["sql"]
doc = """
Flags SELECT *.
"""
[[rules.rule]]
id = "PERF-SEL-001"
severity = "low"
category = "performance"
title = "SELECT *"
`
	m, err := Parse("plugin.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.Rules == nil || !reflect.DeepEqual(m.Rules.Targets, []string{"sql"}) || !strings.Contains(m.Rules.Doc, "SELECT") {
		t.Errorf("Rules = %+v", m.Rules)
	}
	want := []Rule{{ID: "PERF-SEL-001", Severity: "low", Category: "performance", Title: "SELECT *"}}
	if !reflect.DeepEqual(m.Rules.Rules, want) {
		t.Errorf("Rules.Rules = %+v, want %+v", m.Rules.Rules, want)
	}
}

func TestParseRuleErrors(t *testing.T) {
	head := "name = \"p\"\nversion = \"0.1.0\"\nkind = \"rules\"\nabi = 1\nmodule = \"p.wasm\"\n[rules]\ntargets = [\"sql\"]\n"
	rule := "[[rules.rule]]\nid = \"X-001\"\nseverity = \"low\"\ncategory = \"c\"\ntitle = \"t\"\n"
	tests := []struct{ name, src, want string }{
		{"no rules", head, "needs at least one [[rules.rule]]"},
		{"bad id", head + strings.Replace(rule, "X-001", "x 1", 1), `id "x 1" is not valid`},
		{"duplicate id", head + rule + rule, `rule id "X-001" is declared twice`},
		{"bad severity", head + strings.Replace(rule, `"low"`, `"severe"`, 1), `severity "severe" is not valid`},
		{"no title", head + strings.Replace(rule, `title = "t"`, "", 1), "needs a category and a title"},
		{"unknown key", head + rule + "sevrity = \"x\"\n", `did you mean "severity"?`},
		{"examples outside", head + "examples = \"../x\"\n" + rule, "must be a clean folder path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("plugin.toml", []byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(string) string
		want []string // substrings of the error, each "line: message"
	}{
		{"unknown top key", func(s string) string { return "modul = \"x\"\n" + s },
			[]string{`plugin.toml:1: unknown key "modul"; did you mean "module"?`}},
		{"unknown key in array table", func(s string) string { return s + "modul = \"x\"\n" },
			[]string{`plugin.toml:9: unknown key "modul" in [languages]; known keys: name, grammar`}},
		{"unknown language key", func(s string) string { return strings.Replace(s, "extensions", "extensionz", 1) },
			[]string{`plugin.toml:8: unknown key "extensionz" in [languages]; did you mean "extensions"?`, `has no extensions or globs`}},
		{"syntax", func(s string) string { return strings.Replace(s, `version = "1"`, `version = "1`, 1) },
			[]string{`plugin.toml:2: invalid TOML`}},
		{"wrong type", func(s string) string { return strings.Replace(s, "abi = 1", `abi = "1"`, 1) },
			[]string{`plugin.toml:4: "abi" has the wrong type`}},
		{"wrong abi", func(s string) string { return strings.Replace(s, "abi = 1", "abi = 7", 1) },
			[]string{`plugin.toml:4: the plugin needs extractor ABI 7; this synaptic speaks 1–2; upgrade synaptic`}},
		{"abi zero or less", func(s string) string { return strings.Replace(s, "abi = 1", "abi = -1", 1) },
			[]string{`plugin.toml:4: abi = -1 is not an ABI; use abi = 2`}},
		{"project on v1", func(s string) string { return s + "[project]\nfiles = [\"go.mod\"]\n" },
			[]string{`plugin.toml:9: [project] needs abi = 2`}},
		{"project path", func(s string) string {
			return strings.Replace(s, "abi = 1", "abi = 2", 1) + "[project]\nfiles = [\"../go.mod\", \"*.toml\"]\n"
		}, []string{`project file "../go.mod" must be a plain base name`, `project file "*.toml" must be a plain base name`}},
		{"project empty", func(s string) string { return strings.Replace(s, "abi = 1", "abi = 2", 1) + "[project]\nfiles = []\n" },
			[]string{`[project] files must list 1 to 32 file names`}},
		{"semantics unknown value", func(s string) string {
			return strings.Replace(s, "abi = 1", "abi = 2", 1) + "[semantics]\nunqualified = \"global\"\n"
		}, []string{`plugin.toml:10: unqualified = "global" is not known; use one of "scope", "scope_then_unique"`}},
		{"semantics unknown key", func(s string) string {
			return strings.Replace(s, "abi = 1", "abi = 2", 1) + "[semantics]\ntype_cal = \"none\"\n"
		}, []string{`unknown key "type_cal" in [semantics]; did you mean "type_call"?`}},
		{"semantics bad submodule separator", func(s string) string {
			return strings.Replace(s, "abi = 1", "abi = 2", 1) + "[semantics]\nsubmodule_separator = \"a b\"\n"
		}, []string{`submodule separator "a b" must be 1 to 4 printable characters`}},
		{"semantics old submodule key contradicts the new one", func(s string) string {
			return strings.Replace(s, "abi = 1", "abi = 2", 1) + "[semantics]\nimport_submodules = true\nsubmodule_separator = \".\"\n"
		}, []string{`plugin.toml:10: import_submodules = true is the old spelling of submodule_separator = "::", which contradicts submodule_separator = "."; keep submodule_separator only`}},
		{"semantics on v1", func(s string) string { return s + "[semantics]\ntype_call = \"none\"\n" },
			[]string{`[semantics] needs abi = 2`}},
		{"missing abi", func(s string) string { return strings.Replace(s, "abi = 1\n", "", 1) },
			[]string{`plugin.toml: missing abi; add abi = 2`}},
		{"bad kind", func(s string) string { return strings.Replace(s, `"extractor"`, `"extracter"`, 1) },
			[]string{`plugin.toml:3: kind "extracter" is not valid; did you mean "extractor"?`}},
		{"module escape", func(s string) string { return strings.Replace(s, `"go.wasm"`, `"../go.wasm"`, 1) },
			[]string{`plugin.toml:5: module "../go.wasm" must be a clean path inside the plugin folder`}},
		{"module absolute", func(s string) string { return strings.Replace(s, `"go.wasm"`, `"/tmp/go.wasm"`, 1) },
			[]string{`plugin.toml:5: module "/tmp/go.wasm" must be a clean path`}},
		{"module not wasm", func(s string) string { return strings.Replace(s, `"go.wasm"`, `"go.so"`, 1) },
			[]string{`must name a .wasm file`}},
		{"bad pin", func(s string) string {
			return s[:strings.Index(s, "[[")] + "sha256 = \"abc\"\n" + s[strings.Index(s, "[["):]
		},
			[]string{`plugin.toml:6: sha256 "abc" is not 64 hex digits`}},
		{"extension without dot", func(s string) string { return strings.Replace(s, `".go"`, `"go"`, 1) },
			[]string{`plugin.toml:8: extension "go" of language "go" must start with "."`, `did you mean ".go"?`}},
		{"extension glob", func(s string) string { return strings.Replace(s, `".go"`, `"*.go"`, 1) },
			[]string{`put patterns in globs`}},
		{"bad glob", func(s string) string { return s + "globs = [\"[\"]\n" },
			[]string{`plugin.toml:9: glob "[" of language "go" is not a valid pattern`}},
		{"no languages", func(s string) string { return s[:strings.Index(s, "[[")] },
			[]string{`needs at least one [[languages]]`}},
		{"bad timeout", func(s string) string { return s + "[limits]\ntimeout = \"2 secs\"\n" },
			[]string{`plugin.toml:10: timeout "2 secs" is not a duration`}},
		{"memory out of range", func(s string) string { return s + "[limits]\nmemory_pages = 100000\n" },
			[]string{`plugin.toml:10: memory_pages = 100000 is out of range`}},
		{"rules on extractor", func(s string) string { return s + "[rules]\ntargets = [\"go\"]\n" },
			[]string{`plugin.toml:9: [rules] is only allowed with kind = "rules"`}},
		{"rules without table", func(s string) string { return strings.Replace(s, `"extractor"`, `"rules"`, 1) },
			[]string{`plugin.toml:3: kind = "rules" needs a [rules] table`}},
		{"duplicate extension", func(s string) string { return s + "[[languages]]\nname = \"go2\"\nextensions = [\".go\"]\n" },
			[]string{`plugin.toml:11: extension ".go" is claimed by both "go" and "go2"`}},
		{"bad name", func(s string) string { return strings.Replace(s, `name = "go"`, `name = "Go Lang"`, 1) },
			[]string{`plugin.toml:1: name "Go Lang" is not valid`}},
		{"several problems", func(s string) string {
			return strings.Replace(strings.Replace(s, "abi = 1", "abi = 3", 1), `kind = "extractor"`, `kind = "x"`, 1)
		}, []string{`plugin.toml:3: kind "x"`, `plugin.toml:4: the plugin needs extractor ABI 3`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("plugin.toml", []byte(tt.edit(minimal)))
			if err == nil {
				t.Fatalf("Parse succeeded, want errors %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Parse error =\n%v\nwant it to contain %q", err, w)
				}
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("errors.As(%T, *Error) = false", err)
			}
		})
	}
}

func TestFileTimeout(t *testing.T) {
	l := Limits{Timeout: 2 * time.Second}
	for _, tt := range []struct {
		size int
		want time.Duration
	}{
		{0, 2 * time.Second},
		{1 << 20, 2 * time.Second},
		{1<<20 + 1, 4 * time.Second},
		{10 << 20, 20 * time.Second},
		{1 << 40, MaxTimeout},
	} {
		if got := l.FileTimeout(tt.size); got != tt.want {
			t.Errorf("FileTimeout(%d) = %v, want %v", tt.size, got, tt.want)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "no plugin.toml") {
		t.Errorf("Load(empty dir) = %v, want a missing plugin.toml error", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(minimal), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dir != dir || m.Path != filepath.Join(dir, FileName) {
		t.Errorf("Load: Dir, Path = %q, %q", m.Dir, m.Path)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte(minimal))
	f.Add([]byte("[[languages]]\nname=1\n[limits]\ntimeout=2\n"))
	f.Add([]byte("a.b.c = 1\n[x.\"y\"]\nz = [1, {a=1}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse("plugin.toml", data)
		if err != nil {
			_ = err.Error()
			return
		}
		if m.Name == "" || m.Module == "" || m.ABI != 1 {
			t.Errorf("Parse accepted an incomplete manifest: %+v", m)
		}
	})
}

func TestParseABI2(t *testing.T) {
	src := `name = "go"
version = "1"
kind = "extractor"
abi = 2
module = "go.wasm"

[[languages]]
name = "go"
extensions = [".go"]

[project]
files = ["go.mod", "go.work"]

[semantics]
unqualified = "scope"
receiver_fallback = "unique_method"
type_call = "none"
implicit_this = true
file_private = true
import_stub = "package"
self_names = ["self"]
submodule_separator = "::"
reexports = true
`
	m, err := Parse("plugin.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := Semantics{Unqualified: UnqualifiedScope, ReceiverFallback: ReceiverFallbackUniqueMethod, TypeCall: TypeCallNone, ImplicitThis: true, FilePrivate: true, ImportStub: ImportStubPackage, SelfNames: []string{"self"}, SubmoduleSeparator: "::", Reexports: true}
	if m.ABI != 2 || !reflect.DeepEqual(m.Project, &Project{Files: []string{"go.mod", "go.work"}}) || !reflect.DeepEqual(m.Semantics, want) {
		t.Errorf("got abi %d, project %+v, semantics %+v", m.ABI, m.Project, m.Semantics)
	}
}

// TestSubmoduleSeparatorAlias: the old key import_submodules = true is
// read as submodule_separator = "::", alone or next to that same value.
func TestSubmoduleSeparatorAlias(t *testing.T) {
	base := "name = \"rust\"\nversion = \"1\"\nkind = \"extractor\"\nabi = 2\nmodule = \"rust.wasm\"\n\n[[languages]]\nname = \"rust\"\nextensions = [\".rs\"]\n\n[semantics]\n"
	for _, tt := range []struct{ semantics, want string }{
		{"import_submodules = true\n", "::"},
		{"import_submodules = true\nsubmodule_separator = \"::\"\n", "::"},
		{"import_submodules = false\nsubmodule_separator = \".\"\n", "."},
		{"import_submodules = false\n", ""},
	} {
		m, err := Parse("plugin.toml", []byte(base+tt.semantics))
		if err != nil {
			t.Errorf("%q: %v", tt.semantics, err)
			continue
		}
		if m.Semantics.SubmoduleSeparator != tt.want {
			t.Errorf("%q: separator %q, want %q", tt.semantics, m.Semantics.SubmoduleSeparator, tt.want)
		}
	}
}
