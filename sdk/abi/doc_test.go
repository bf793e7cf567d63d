package abi

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func docFacts() *Facts {
	f := sampleFacts()
	f.Doc = "Package main serves."
	f.Symbols[0].Doc = "Server answers requests."
	f.Symbols[2].Doc = "addr is the listen address."
	f.Channels = []ChannelSite{{From: -1, Kind: ChannelWS, Role: ChannelSend, Name: "x", Line: 1}}
	return f
}

func TestDocSectionRoundTrip(t *testing.T) {
	f := docFacts()
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil || !reflect.DeepEqual(got, f) {
		t.Fatalf("round trip: %v\n got %+v", err, got)
	}
	if shared, err := DecodeFactsShared(bytes.Clone(b)); err != nil || !reflect.DeepEqual(shared, f) {
		t.Fatalf("shared round trip: %v", err)
	}
	// Docs only on symbols, or only on the file: each decodes alone.
	for name, edit := range map[string]func(*Facts){
		"symbols only": func(f *Facts) { f.Doc = "" },
		"file only":    func(f *Facts) { f.Symbols[0].Doc, f.Symbols[2].Doc = "", "" },
	} {
		g := docFacts()
		edit(g)
		if got, err := DecodeFacts(EncodeFacts(nil, g)); err != nil || !reflect.DeepEqual(got, g) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// Without docs the encoding is the one before the section existed.
	base := docFacts()
	base.Doc = ""
	for i := range base.Symbols {
		base.Symbols[i].Doc = ""
	}
	plain := EncodeFacts(nil, base)
	if !bytes.Equal(plain, b[:len(plain)]) || b[len(plain)] != docSectionTag {
		t.Fatal("the doc section is not an appended trailer")
	}
	for i := len(plain) + 1; i < len(b); i++ {
		if _, err := DecodeFacts(b[:i]); err == nil {
			t.Fatalf("truncation at %d of %d accepted", i, len(b))
		}
	}
}

func TestDocSectionValidation(t *testing.T) {
	section := func(pairs ...any) []byte {
		b := append(EncodeFacts(nil, sampleFacts()), docSectionTag)
		b = appendUvarint(b, uint64(len(pairs)/2))
		for k := 0; k < len(pairs); k += 2 {
			b = appendString(appendVarint(b, int64(pairs[k].(int))), pairs[k+1].(string))
		}
		return b
	}
	if _, err := DecodeFacts(section(-1, "file", 0, "a", 2, "b")); err != nil {
		t.Fatalf("well-formed section refused: %v", err)
	}
	for name, b := range map[string][]byte{
		"out of range":   section(3, "x"),
		"below the file": section(-2, "x"),
		"repeated":       section(0, "a", 0, "b"),
		"descending":     section(2, "a", 0, "b"),
		"empty":          section(0, ""),
		"too long":       section(0, strings.Repeat("x", MaxDoc+1)),
		"not UTF-8":      section(0, "bad\xff"),
	} {
		if _, err := DecodeFacts(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
