package host

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestIntakeCapsStrings(t *testing.T) {
	huge := strings.Repeat("é", 3<<20) // 6 MiB, two bytes a rune
	f := &abi.Facts{
		Symbols: []abi.Symbol{{Name: huge, Kind: "function", Parent: -1, Signature: &abi.Signature{Raw: huge}}, {Name: "ok", Kind: "function", Parent: -1}},
		Calls:   []abi.Call{{Caller: 0, Name: huge}},
		Errors:  []string{huge},
	}
	intake(f, "test")
	tests := []struct {
		what string
		got  string
		max  int
	}{
		{"symbol name", f.Symbols[0].Name, MaxNameBytes},
		{"signature", f.Symbols[0].Signature.Raw, MaxSignatureBytes},
		{"call name", f.Calls[0].Name, MaxNameBytes},
		{"note", f.Errors[0], MaxNoteBytes},
	}
	for _, tc := range tests {
		if len(tc.got) > tc.max || len(tc.got) < tc.max-4 || !strings.HasPrefix(huge, tc.got) {
			t.Errorf("%s: %d bytes, want a valid prefix of at most %d", tc.what, len(tc.got), tc.max)
		}
	}
	if f.Symbols[1].Name != "ok" {
		t.Errorf("a short name changed: %q", f.Symbols[1].Name)
	}
	last := f.Errors[len(f.Errors)-1]
	if !strings.Contains(last, "4 over-long string(s)") || !strings.Contains(last, "symbol name") {
		t.Errorf("diagnostic = %q", last)
	}

	many := &abi.Facts{Errors: make([]string, 1000)}
	intake(many, "test")
	if len(many.Errors) != MaxNotes+1 || !strings.Contains(many.Errors[MaxNotes], "900 more") {
		t.Errorf("notes kept: %d, last %q", len(many.Errors), many.Errors[len(many.Errors)-1])
	}
}

func TestCapLimits(t *testing.T) {
	h, err := New(context.Background(), Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(context.Background())
	tests := []struct {
		in    manifest.Limits
		want  manifest.Limits
		notes int
	}{
		{manifest.Limits{MemoryPages: 4096, Timeout: 2 * time.Second}, manifest.Limits{MemoryPages: 4096, Timeout: 2 * time.Second}, 0},
		{manifest.Limits{MemoryPages: 65536, Timeout: 10 * time.Minute}, manifest.Limits{MemoryPages: DefaultMaxMemoryPages, Timeout: DefaultMaxTimeout}, 2},
		{manifest.Limits{MemoryPages: 65536, Timeout: time.Second}, manifest.Limits{MemoryPages: DefaultMaxMemoryPages, Timeout: time.Second}, 1},
	}
	for _, tc := range tests {
		got, notes := h.Cap(tc.in)
		if got != tc.want || len(notes) != tc.notes {
			t.Errorf("Cap(%+v) = %+v, %q; want %+v with %d notes", tc.in, got, notes, tc.want, tc.notes)
		}
	}
}

// TestIntakeThroughWasm: a real guest returning a 3 MiB name and a 5 MiB
// signature gets them cut at intake, with a note (P11).
func TestIntakeThroughWasm(t *testing.T) {
	p := loadHostile(t, newHost(t, Options{}), "")
	f, err := p.Extract(t.Context(), 0, "longname.fake", 0, fakeRecords(), fakeSource)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Symbols) != 1 || len(f.Symbols[0].Name) != MaxNameBytes || len(f.Symbols[0].Signature.Raw) != MaxSignatureBytes {
		t.Fatalf("symbols not capped: %d symbols, name %d bytes", len(f.Symbols), len(f.Symbols[0].Name))
	}
	if n := len(f.Errors); n == 0 || !strings.Contains(f.Errors[n-1], "2 over-long string(s)") {
		t.Errorf("no intake note: %q", f.Errors)
	}
}

// TestIntakeDropsUnknownWords: a real guest reporting a symbol kind, a
// visibility, a relation kind and a context outside the vocabulary gets
// exactly those facts dropped, the rest renumbered, and one note naming
// the plugin and each bad word.
func TestIntakeDropsUnknownWords(t *testing.T) {
	p := loadHostile(t, newHost(t, Options{}), "")
	f, err := p.Extract(t.Context(), 0, "vocab.fake", 0, fakeRecords(), fakeSource)
	if err != nil {
		t.Fatal(err)
	}
	want := []abi.Symbol{{Name: "ok", Kind: abi.KindMethod, Parent: -1}}
	if !reflect.DeepEqual(f.Symbols, want) {
		t.Errorf("symbols = %+v, want %+v", f.Symbols, want)
	}
	if len(f.Calls) != 1 || f.Calls[0].Caller != 0 {
		t.Errorf("calls = %+v, want g called from symbol 0", f.Calls)
	}
	if len(f.Relations) != 0 {
		t.Errorf("relations = %+v, want none (two bad, one from the dropped class)", f.Relations)
	}
	if len(f.Errors) != 1 {
		t.Fatalf("notes = %q, want one", f.Errors)
	}
	for _, w := range []string{"plugin hostile", `symbol kind "klass"`, `visibility "friend"`, `relation kind "uses"`, `relation context "somewhere"`, `inherits relation to "Base" of a dropped symbol`} {
		if !strings.Contains(f.Errors[0], w) {
			t.Errorf("note lacks %q: %s", w, f.Errors[0])
		}
	}
}
