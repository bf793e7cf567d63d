package abi

import (
	"reflect"
	"strings"
	"testing"
)

func v2Facts() *Facts {
	f := sampleFacts()
	f.File = FileFacts{Scope: "example.com/m/srv", Modules: []string{"srv", "m.srv"}, Test: true,
		Variants: []Constraint{{Axis: "goos", Values: []string{"windows"}}, {Axis: "goarch", Values: []string{"wasm"}, Negated: true}}}
	f.Imports[0].Keys, f.Imports[0].Kind = []string{"net"}, ImportModule
	f.Imports[1].Kind = ImportSymbols
	f.Calls[0].ReceiverRef = &TypeRef{Steps: []TypeStep{{Op: StepResult, Name: "New"}, {Op: StepField, Name: "conn"}}}
	f.Symbols[1].Signature.ReturnRef = &TypeRef{Steps: []TypeStep{{Op: StepNamed, Name: "error"}}}
	f.Symbols[1].Signature.Params[0].TypeRef = &TypeRef{Steps: []TypeStep{{Op: StepNamed, Name: "context.Context"}}}
	f.Symbols[1].Variants = []Constraint{{Axis: "defined:_WIN32", Values: []string{"1"}, Negated: true}, {Axis: "if:USE_SSL", Values: []string{"1"}}}
	return f
}

func TestV2FactsRoundTrip(t *testing.T) {
	f := v2Facts()
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, f)
	}
	// A cut before a section is the facts without it (sections are
	// optional); a cut inside one is an error.
	start := len(EncodeFacts(nil, sampleFacts()))
	noKeys := *f
	noKeys.Imports = append([]Import(nil), f.Imports...)
	for i := range noKeys.Imports {
		noKeys.Imports[i].Keys = nil
	}
	noSymVariants := noKeys
	noSymVariants.Symbols = append([]Symbol(nil), f.Symbols...)
	noSymVariants.Symbols[1].Variants = nil
	// The section boundaries: after the v2 section, after the symbol
	// variants (the keys section comes last).
	boundary := map[int]bool{len(EncodeFacts(nil, &noSymVariants)): true, len(EncodeFacts(nil, &noKeys)): true}
	for i := start + 1; i < len(b); i++ {
		if boundary[i] {
			continue
		}
		if _, err := DecodeFacts(b[:i]); err == nil {
			t.Fatalf("truncation at %d of %d accepted", i, len(b))
		}
	}
	// v1 facts encode exactly as before: no v2 section.
	if got := appendV2Section(nil, sampleFacts()); len(got) != 0 {
		t.Errorf("v1 facts grew a v2 section: % x", got)
	}
}

func TestV2FactsRejected(t *testing.T) {
	tests := map[string]struct {
		mutate func(*Facts)
		want   string
	}{
		"unknown import kind": {func(f *Facts) { f.Imports[0].Kind = "everything" }, "unknown kind"},
		"bad receiver ref":    {func(f *Facts) { f.Calls[0].ReceiverRef = &TypeRef{} }, "steps"},
		"bad return ref": {func(f *Facts) {
			f.Symbols[1].Signature.ReturnRef = &TypeRef{Steps: []TypeStep{{Op: StepElem}}}
		}, "elem"},
		"axis without values": {func(f *Facts) { f.File.Variants = []Constraint{{Axis: "goos"}} }, "variant"},
		"symbol variant without axis": {func(f *Facts) {
			f.Symbols[0].Variants = []Constraint{{Values: []string{"1"}}}
		}, "variant constraint"},
		"too many symbol variants": {func(f *Facts) {
			f.Symbols[0].Variants = make([]Constraint, MaxSymbolVariants+1)
			for i := range f.Symbols[0].Variants {
				f.Symbols[0].Variants[i] = Constraint{Axis: "a", Values: []string{"1"}}
			}
		}, "at most"},
	}
	for name, tt := range tests {
		f := v2Facts()
		tt.mutate(f)
		_, err := DecodeFacts(EncodeFacts(nil, f))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want an error with %q", name, err, tt.want)
		}
	}
}

func TestInitProject(t *testing.T) {
	in := &Init{ABI: 2, Plugin: "go", Grammars: []Grammar{{Language: "go", Name: "go", Kinds: []string{"a"}, Named: []bool{true}, Fields: []string{""}}},
		Project: []byte("module example.com/m")}
	got, err := DecodeInit(EncodeInit(in))
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("got %+v, %v", got, err)
	}
	// A v1 Init carries no project, and a v1 guest's decoder (which
	// stops after the grammars) reads a v2 Init as before.
	v1 := *in
	v1.ABI = 1
	if got, err := DecodeInit(EncodeInit(&v1)); err != nil || got.Project != nil {
		t.Fatalf("v1 init: %+v, %v", got, err)
	}
}

func TestProjectInputRoundTrip(t *testing.T) {
	in := &ProjectInput{Root: "/src/net/http", Files: []ProjectFile{{Path: "../../go.mod", Data: []byte("module std")}, {Path: "a/package.json", Data: []byte("{}")}}}
	got, err := DecodeProjectInput(EncodeProjectInput(in))
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("got %+v, %v", got, err)
	}
	for _, bad := range []string{"/etc/passwd", "a/../../b", "", "..", "a//b", `a\b`, "../", "./a"} {
		b := EncodeProjectInput(&ProjectInput{Files: []ProjectFile{{Path: bad}}})
		if _, err := DecodeProjectInput(b); err == nil {
			t.Errorf("path %q accepted", bad)
		}
	}
}

func FuzzDecodeProjectInput(f *testing.F) {
	f.Add(EncodeProjectInput(&ProjectInput{Root: "/r", Files: []ProjectFile{{Path: "go.mod", Data: []byte("module m")}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeProjectInput(b)
		if err != nil {
			return
		}
		again, err := DecodeProjectInput(EncodeProjectInput(in))
		if err != nil || !reflect.DeepEqual(again, in) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
