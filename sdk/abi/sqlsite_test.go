package abi

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestSQLSectionRoundTrip(t *testing.T) {
	f := docFacts()
	f.SQL = []SQLSite{
		{From: 0, Text: "SELECT id FROM users WHERE id = $1", Built: BuiltLiteral, Line: 7},
		{From: -1, Text: "DELETE FROM t WHERE id = ", Built: BuiltConcatenation, Line: 1 << 20},
	}
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil || !reflect.DeepEqual(got, f) {
		t.Fatalf("round trip: %v\n got %+v", err, got)
	}
	if shared, err := DecodeFactsShared(bytes.Clone(b)); err != nil || !reflect.DeepEqual(shared, f) {
		t.Fatalf("shared round trip: %v", err)
	}
	// Without sites the encoding is what it was before the section existed.
	base := docFacts()
	if !bytes.Equal(EncodeFacts(nil, base), bytes.TrimSuffix(b, appendSQLSection(nil, f))) {
		t.Error("facts without SQL sites changed their encoding")
	}
}

func TestSQLSectionValidation(t *testing.T) {
	for name, site := range map[string]SQLSite{
		"symbol out of range": {From: 9, Text: "SELECT 1 FROM t", Built: BuiltLiteral},
		"empty text":          {From: -1, Built: BuiltLiteral},
		"huge text":           {From: -1, Text: strings.Repeat("x", MaxSQLText+1), Built: BuiltLiteral},
		"not UTF-8":           {From: -1, Text: "SELECT \xff", Built: BuiltLiteral},
		"unknown built":       {From: -1, Text: "SELECT 1 FROM t", Built: "magic"},
	} {
		f := sampleFacts()
		f.SQL = []SQLSite{site}
		if _, err := DecodeFacts(EncodeFacts(nil, f)); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	f := sampleFacts()
	f.SQL = make([]SQLSite, MaxSQLSites+1)
	for i := range f.SQL {
		f.SQL[i] = SQLSite{From: -1, Text: "SELECT 1 FROM t", Built: BuiltLiteral}
	}
	if f.Validate() == nil {
		t.Error("too many sites validated")
	}
}
