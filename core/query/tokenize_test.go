package query

import (
	"fmt"
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"ServeHTTP", []string{"serve", "http"}},
		{"HTTPServer", []string{"http", "server"}},
		{"parseURL", []string{"parse", "url"}},
		{"read_all_bytes", []string{"read", "all", "bytes"}},
		{"__init__", []string{"init"}},
		{"utf8Decoder", []string{"utf8", "decoder"}},
		{"Int64Value", []string{"int", "64", "value"}},
		{"base64", []string{"base", "64"}},
		{"x509cert", []string{"x509", "cert"}},
		{"sha256sum", []string{"sha", "256", "sum"}},
		{"http2Server", []string{"http2", "server"}},
		{"net/http/server.go", []string{"net", "http", "server", "go"}},
		{"a b-c", nil}, // one-letter tokens are dropped
		{"JSONDecoder.Decode()", []string{"json", "decoder", "decode"}},
		{"Straße", []string{"straße"}},
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSymbolShaped(t *testing.T) {
	for q, want := range map[string]bool{
		"ServeMux":             true,
		"json.Unmarshal":       true,
		"lru_cache":            true,
		"sync.Once":            true,
		"handler":              false,
		"how does it work":     false,
		"ServeMux and handler": false,
		"":                     false,
	} {
		if got := symbolShaped(q); got != want {
			t.Errorf("symbolShaped(%q) = %v, want %v", q, got, want)
		}
	}
}

func TestParseQuestion(t *testing.T) {
	vocab := map[string]bool{"cache": true, "parse": true, "conn": true, "copytree": true, "serve": true}
	known := func(s string) bool { return vocab[s] }
	toks := func(p parsed) []string {
		var out []string
		for _, t := range p.terms {
			out = append(out, t.tok)
		}
		return out
	}

	p := parseQuestion("how does the server cache work", known, variants{})
	if !slices.Equal(p.concepts, []string{"server", "cache"}) {
		t.Errorf("scaffolding kept: %q", p.concepts)
	}

	// Inflections only when the graph has them, at lower weight, in the
	// same concept as the word they come from.
	p = parseQuestion("parsing caches", known, variants{})
	if got := toks(p); !slices.Equal(got, []string{"parsing", "parse", "caches", "cache"}) {
		t.Errorf("inflections = %q", got)
	}
	for _, tm := range p.terms[1:2] {
		if tm.weight != inflectionWeight || tm.mask != 1 {
			t.Errorf("inflection term %+v", tm)
		}
	}

	// "-ies" has two bases: retries → retry, cookies → cookie; the graph
	// keeps the one it has ("cooky" and "retrie" are not words of it).
	vocab["cookie"], vocab["retry"] = true, true
	for q, want := range map[string][]string{"cookies": {"cookies", "cookie"}, "retries": {"retries", "retry"}} {
		if got := toks(parseQuestion(q, known, variants{})); !slices.Equal(got, want) {
			t.Errorf("%s: terms %q, want %q", q, got, want)
		}
	}

	// Four-letter inflections reach their three-letter base: tags → tag,
	// used → use, runs → run ("bus" and "less" stay whole).
	vocab["tag"], vocab["use"], vocab["run"], vocab["bu"], vocab["les"] = true, true, true, true, true
	for q, want := range map[string][]string{"tags": {"tags", "tag"}, "used": {"used", "use"}, "runs": {"runs", "run"}, "bus": {"bus"}, "less": {"less"}} {
		if got := toks(parseQuestion(q, known, variants{})); !slices.Equal(got, want) {
			t.Errorf("%s: terms %q, want %q", q, got, want)
		}
	}

	// A question made only of scaffolding keeps it rather than nothing.
	if p := parseQuestion("how does it work", known, variants{}); len(p.concepts) == 0 {
		t.Error("all-scaffolding question lost every token")
	}

	// Symbol-shaped questions keep every identifier token, even "get".
	p = parseQuestion("getHandler", known, variants{})
	if !slices.Equal(p.concepts, []string{"get", "handler"}) || !p.symbol {
		t.Errorf("symbol-shaped: %q symbol=%v", p.concepts, p.symbol)
	}

	// An identifier word inside prose names a symbol and keeps its tokens.
	p = parseQuestion("what does getHandler do?", known, variants{})
	if !slices.Contains(p.concepts, "get") || !slices.Equal(p.names, []string{"gethandler"}) {
		t.Errorf("identifier word: concepts %q names %q", p.concepts, p.names)
	}

	// Abbreviations and compounds of adjacent words, when the graph has them.
	p = parseQuestion("copy tree connection", known, variants{abbrev: true})
	got := toks(p)
	if !slices.Contains(got, "conn") || !slices.Contains(got, "copytree") {
		t.Errorf("abbrev/compound terms = %q", got)
	}
	for _, tm := range p.terms {
		if tm.tok == "copytree" && tm.mask != 3 {
			t.Errorf("compound covers concepts %b, want both words", tm.mask)
		}
	}

	// Compounds reach over one word: "copy a directory tree" → copytree.
	vocab["directory"] = true
	p = parseQuestion("copy a directory tree", known, variants{})
	for _, tm := range p.terms {
		if tm.tok == "copytree" && tm.mask != 0b101 {
			t.Errorf("gap-2 compound mask %b", tm.mask)
		}
	}
	if got := toks(p); !slices.Contains(got, "copytree") {
		t.Errorf("gap-2 compound missing: %q", got)
	}
}

func TestSynonymsOnlyWhenConfirmed(t *testing.T) {
	known := func(s string) bool { return s == "authenticate" || s == "login" || s == "remove" }
	p := parseQuestion("how does login work", known, variants{synonyms: true})
	var got []string
	for _, tm := range p.terms {
		got = append(got, fmt.Sprintf("%s:%.2f", tm.tok, tm.weight))
	}
	if !slices.Contains(got, "authenticate:0.50") || slices.Contains(got, "signin:0.50") {
		t.Errorf("terms = %v, want authenticate (in the graph) and not signin (absent)", got)
	}
	if p := parseQuestion("how does login work", known, variants{}); len(p.terms) != 1 {
		t.Errorf("synonyms off: %d terms", len(p.terms))
	}
}

func TestDerivations(t *testing.T) {
	for in, want := range map[string]string{
		"extraction": "extract", "canonicalization": "canonicalize", "canonicalize": "canonical",
		"recorder": "record", "management": "manage", "rotation": "rotate", "tokenizer": "tokenize",
		"information": "inform", "extractor": "extract", "completion": "complete", "cancellation": "cancel",
	} {
		if got := inflections(in); !slices.Contains(got, want) {
			t.Errorf("inflections(%q) = %v, want %q among them", in, got, want)
		}
	}
}

// TestSynonymsOfInflectedWords: a plural reaches the synonym table through
// its base ("failures" → failure → error), and a synonym is found in the
// forms code writes it ("monitor" → watch → watched).
func TestSynonymsOfInflectedWords(t *testing.T) {
	vocab := map[string]bool{"error": true, "watched": true, "marshaler": true}
	known := func(s string) bool { return vocab[s] }
	for _, tc := range []struct {
		q, want string
	}{{"failures", "error"}, {"monitor", "watched"}} {
		p := parseQuestion(tc.q, known, variants{synonyms: true})
		if !slices.ContainsFunc(p.terms, func(tm term) bool { return tm.tok == tc.want && tm.weight == synonymWeight }) {
			t.Errorf("%q: terms %+v, want synonym %q", tc.q, p.terms, tc.want)
		}
	}
	// Agent nouns are no surface form: "serialize" does not reach Marshaler.
	p := parseQuestion("serialize", known, variants{synonyms: true})
	if slices.ContainsFunc(p.terms, func(tm term) bool { return tm.tok == "marshaler" }) {
		t.Errorf("serialize: terms %+v include marshaler", p.terms)
	}
}
