package trees

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func sample() *Set {
	return &Set{
		Plugin:   "toy",
		Grammars: []abi.Grammar{{Language: "toy", Name: "lua", Kinds: []string{"end", "chunk"}, Named: []bool{false, true}, Fields: []string{""}}},
		Files: []File{
			{Path: "a.toy", Records: make([]byte, 2*abi.RecordSize), Source: []byte("x = 1\n")},
			{Path: "dir/b.toy", Records: make([]byte, abi.RecordSize), Source: []byte{}},
		},
	}
}

func TestRoundTrip(t *testing.T) {
	s := sample()
	got, err := Decode(s.Encode())
	if err != nil {
		t.Fatal(err)
	}
	if got.Plugin != s.Plugin || !reflect.DeepEqual(got.Grammars, s.Grammars) || len(got.Files) != 2 {
		t.Fatalf("got %+v", got)
	}
	for i, f := range got.Files {
		w := s.Files[i]
		if f.Path != w.Path || f.Grammar != w.Grammar || !bytes.Equal(f.Records, w.Records) || !bytes.Equal(f.Source, w.Source) {
			t.Errorf("file %d = %+v, want %+v", i, f, w)
		}
	}
	if f, ok := got.Lookup("dir/b.toy"); !ok || f.Path != "dir/b.toy" {
		t.Errorf("Lookup = %v, %v", f, ok)
	}
}

func TestDecodeRejects(t *testing.T) {
	good := sample().Encode()
	badGrammar := sample()
	badGrammar.Files[0].Grammar = 3
	badRecords := sample()
	badRecords.Files[0].Records = make([]byte, 5)
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "bad header"},
		{"other file", []byte("package main\n"), "bad header"},
		{"truncated", good[:len(good)-3], "trees:"},
		{"trailing", append(append([]byte{}, good...), 0), "trailing"},
		{"grammar index", badGrammar.Encode(), "grammar 3 of 1"},
		{"partial record", badRecords.Encode(), "not a multiple"},
	} {
		if _, err := Decode(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Decode = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzDecode: whatever the bytes, Decode returns a set or an error, and a
// set it returns survives Encode and Decode unchanged.
func FuzzDecode(f *testing.F) {
	f.Add(sample().Encode())
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Decode(s.Encode())
		if err != nil {
			t.Fatalf("re-decoding: %v", err)
		}
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip changed the set:\n%+v\n%+v", s, again)
		}
	})
}
