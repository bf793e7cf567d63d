package abi

import (
	"bytes"
	"reflect"
	"slices"
	"testing"
)

func sampleFacts() *Facts {
	return &Facts{
		Package: "main",
		Symbols: []Symbol{
			{Name: "Server", Kind: "struct", Parent: -1, Visibility: "public", Span: Span{1, 1, 5, 2}},
			{Name: "Serve", Kind: "method", Parent: -1, Receiver: "Server", Span: Span{7, 1, 9, 2},
				Signature: &Signature{Params: []Param{{"ctx", "context.Context"}}, Return: "error", Raw: "func (s *Server) Serve(ctx context.Context) error"}},
			{Name: "addr", Kind: "field", Parent: 0, Span: Span{2, 2, 2, 13}, Test: true},
		},
		Calls:     []Call{{Caller: 1, Name: "Listen", Receiver: "net", Line: 8, Col: 6}, {Caller: -1, Name: "init", Line: 1, Col: 1}},
		Imports:   []Import{{Path: "net", Line: 3}, {Path: "./x", Alias: "x", Names: []ImportName{{"a", "b"}, {"*", ""}}, Line: 4}},
		Relations: []Relation{{From: 0, Kind: "embeds", Target: "sync.Mutex", Line: 2}, {From: -1, Kind: "references", Target: "T", Context: "field", Line: 3}},
		Errors:    []string{"syntax error at L9"},
	}
}

func TestFactsRoundTrip(t *testing.T) {
	f := sampleFacts()
	b := EncodeFacts(nil, f)
	got, err := DecodeFacts(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, f) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, f)
	}
	if _, err := DecodeFacts(append(b, 0)); err == nil {
		t.Error("trailing byte accepted")
	}
	for i := 0; i < len(b); i++ {
		if _, err := DecodeFacts(b[:i]); err == nil {
			t.Fatalf("truncation at %d of %d accepted", i, len(b))
		}
	}
}

func TestValidateRejectsBadIndexes(t *testing.T) {
	tests := map[string]func(*Facts){
		"parent out of range": func(f *Facts) { f.Symbols[2].Parent = 9 },
		"self parent":         func(f *Facts) { f.Symbols[0].Parent = 0 },
		"cycle":               func(f *Facts) { f.Symbols[0].Parent = 2 },
		"caller out of range": func(f *Facts) { f.Calls[0].Caller = 3 },
		"relation source":     func(f *Facts) { f.Relations[0].From = -2 },
		"empty name":          func(f *Facts) { f.Symbols[1].Name = "" },
	}
	for name, mutate := range tests {
		f := sampleFacts()
		mutate(f)
		if _, err := DecodeFacts(EncodeFacts(nil, f)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestFileInput(t *testing.T) {
	recs := make([]byte, 2*RecordSize)
	recs[0] = 7
	src := []byte("package x\n")
	buf := make([]byte, FileInputSize("a/b.go", len(recs), len(src)))
	PutFileInput(buf, "a/b.go", 3, recs, src)
	in, err := DecodeFileInput(buf)
	if err != nil || in.Path != "a/b.go" || in.Grammar != 3 || !bytes.Equal(in.Records, recs) || !bytes.Equal(in.Source, src) {
		t.Fatalf("DecodeFileInput = %+v, %v", in, err)
	}
	if _, err := DecodeFileInput(buf[:len(buf)-1]); err == nil {
		t.Error("short input accepted")
	}
}

func TestInitRoundTrip(t *testing.T) {
	in := &Init{ABI: Version, Plugin: "go", Grammars: []Grammar{{Language: "go", Name: "go", Kinds: []string{"end", "identifier"}, Named: []bool{false, true}, Fields: []string{"", "name"}}}}
	got, err := DecodeInit(EncodeInit(in))
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("DecodeInit = %+v, %v", got, err)
	}
}

func FuzzDecodeFacts(f *testing.F) {
	f.Add(EncodeFacts(nil, sampleFacts()))
	f.Add(EncodeFacts(nil, &Facts{}))
	f.Fuzz(func(t *testing.T, b []byte) {
		facts, err := DecodeFacts(b)
		if err != nil {
			return
		}
		again, err := DecodeFacts(EncodeFacts(nil, facts))
		if err != nil || !reflect.DeepEqual(again, facts) {
			t.Fatalf("re-encode round trip failed: %v", err)
		}
		// The zero-copy decoder agrees with the copying one and keeps
		// nothing of b beyond what it returns.
		shared, err := DecodeFactsShared(slices.Clone(b))
		if err != nil || !reflect.DeepEqual(shared, facts) {
			t.Fatalf("shared decode differs: %v", err)
		}
	})
}

func FuzzDecodeFileInput(f *testing.F) {
	buf := make([]byte, FileInputSize("x", RecordSize, 1))
	PutFileInput(buf, "x", 0, make([]byte, RecordSize), []byte("y"))
	f.Add(buf)
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeFileInput(b)
		if err == nil && len(in.Records)%RecordSize != 0 {
			t.Fatal("records not a multiple of the record size")
		}
		_, _ = DecodeInit(b)
	})
}
