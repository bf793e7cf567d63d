package abi

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func sampleFacts() *Facts {
	return &Facts{
		Package: "main",
		Symbols: []Symbol{
			{Name: "Server", Kind: "struct", Parent: -1, Visibility: "public", Span: Span{1, 1, 5, 2}},
			{Name: "Serve", Kind: "method", Parent: -1, Receiver: "Server", Span: Span{7, 1, 9, 2},
				Signature: &Signature{Params: []Param{{Name: "ctx", Type: "context.Context"}}, Return: "error", Raw: "func (s *Server) Serve(ctx context.Context) error"}},
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
	f.Add(EncodeFacts(nil, docFacts()))
	f.Add(EncodeFacts(nil, v2Facts()))
	f.Add(EncodeFacts(nil, &Facts{Imports: []Import{{Path: "./x", Kind: ImportSymbols, Keys: []string{"a/x", "a/x.ts", "b"}}},
		File: FileFacts{Modules: []string{"a/y"}, ProjectDeps: []string{"cfg:.", "pkg:z"}}}))
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

// encodeWithEncoder is EncodeFacts written with Encoder, the reference its
// faster appenders must match byte for byte.
func encodeWithEncoder(f *Facts) []byte {
	var e Encoder
	e.String(f.Package)
	e.Uvarint(uint64(len(f.Symbols)))
	for _, s := range f.Symbols {
		e.String(s.Name)
		e.String(string(s.Kind))
		e.Varint(int64(s.Parent))
		e.String(s.Receiver)
		e.String(string(s.Visibility))
		e.Uvarint(uint64(s.Span.StartLine))
		e.Uvarint(uint64(s.Span.StartCol))
		e.Uvarint(uint64(s.Span.EndLine))
		e.Uvarint(uint64(s.Span.EndCol))
		e.Bool(s.Test)
		e.Bool(s.Signature != nil)
		if s.Signature != nil {
			e.Uvarint(uint64(len(s.Signature.Params)))
			for _, p := range s.Signature.Params {
				e.String(p.Name)
				e.String(p.Type)
			}
			e.String(s.Signature.Return)
			e.String(s.Signature.Raw)
		}
	}
	e.Uvarint(uint64(len(f.Calls)))
	for _, c := range f.Calls {
		e.Varint(int64(c.Caller))
		e.String(c.Name)
		e.String(c.Receiver)
		e.String(c.ReceiverType)
		e.Uvarint(uint64(c.Line))
		e.Uvarint(uint64(c.Col))
	}
	e.Uvarint(uint64(len(f.Imports)))
	for _, im := range f.Imports {
		e.String(im.Path)
		e.String(im.Alias)
		e.Uvarint(uint64(im.Line))
		e.Uvarint(uint64(len(im.Names)))
		for _, n := range im.Names {
			e.String(n.Name)
			e.String(n.Alias)
		}
	}
	e.Uvarint(uint64(len(f.Relations)))
	for _, r := range f.Relations {
		e.Varint(int64(r.From))
		e.String(string(r.Kind))
		e.String(r.Target)
		e.String(string(r.Context))
		e.Uvarint(uint64(r.Line))
	}
	e.Uvarint(uint64(len(f.Errors)))
	for _, s := range f.Errors {
		e.String(s)
	}
	return e.Buf
}

func TestEncodeFactsMatchesEncoder(t *testing.T) {
	f := sampleFacts()
	f.Package = strings.Repeat("p", 300) // a two-byte length
	f.Symbols[1].Span = Span{127, 128, 16384, math.MaxUint32}
	f.Symbols[2].Parent = 1
	f.Calls[0].Caller = math.MinInt32
	f.Calls[1].Caller = math.MaxInt32
	f.Calls[1].Line, f.Calls[1].Col = 1<<21, 200
	f.Relations[0].From = -64
	f.Relations[1].From = 64
	prefix := []byte{StatusOK}
	if got, want := EncodeFacts(prefix, f), append(prefix, encodeWithEncoder(f)...); !bytes.Equal(got, want) {
		t.Errorf("EncodeFacts differs from the Encoder reference:\n got %x\nwant %x", got, want)
	}
	if got, want := EncodeFacts(nil, &Facts{}), encodeWithEncoder(&Facts{}); !bytes.Equal(got, want) {
		t.Errorf("empty facts: got %x, want %x", got, want)
	}
}
