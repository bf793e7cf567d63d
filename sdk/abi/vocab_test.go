package abi

import (
	"reflect"
	"strings"
	"testing"
)

func TestVocabularyValid(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
		v    interface{ Valid() bool }
	}{
		{"kind", true, KindMethod},
		{"sql kind", true, KindAlterTable},
		{"empty kind", false, SymbolKind("")},
		{"unknown kind", false, SymbolKind("klass")},
		{"kind case", false, SymbolKind("Class")},
		{"relation", true, RelEmbeds},
		{"unknown relation", false, RelationKind("uses")},
		{"no context", true, CtxNone},
		{"context", true, CtxGenericArg},
		{"for type", true, ForType("Box")},
		{"for nothing", false, ForType("")},
		{"unknown context", false, RelationContext("somewhere")},
		{"no visibility", true, VisNone},
		{"visibility", true, VisInternal},
		{"unknown visibility", false, Visibility("friend")},
	} {
		if got := tc.v.Valid(); got != tc.ok {
			t.Errorf("%s: %q.Valid() = %v, want %v", tc.name, tc.v, got, tc.ok)
		}
	}
	if typ, ok := ForType("Box").ForType(); !ok || typ != "Box" {
		t.Errorf("ForType round trip = %q, %v", typ, ok)
	}
	for _, list := range [][]SymbolKind{SymbolKinds} {
		seen := map[SymbolKind]bool{}
		for _, k := range list {
			if seen[k] || k == "" {
				t.Errorf("kind %q listed twice or empty", k)
			}
			seen[k] = true
		}
	}
}

func TestDropUnknownWords(t *testing.T) {
	f := &Facts{
		Symbols: []Symbol{
			{Name: "A", Kind: KindClass, Parent: -1},
			{Name: "B", Kind: "klass", Parent: 0},
			{Name: "m", Kind: KindMethod, Parent: 1},
			{Name: "x", Kind: KindField, Parent: 2, Visibility: "friend"},
			{Name: "y", Kind: KindField, Parent: 2},
		},
		Calls:     []Call{{Caller: 1, Name: "f"}, {Caller: 3, Name: "g"}, {Caller: 4, Name: "h"}},
		Relations: []Relation{{From: 1, Kind: RelInherits, Target: "Z"}, {From: 2, Kind: RelReferences, Target: "T", Context: CtxReturnType}},
		Dynamic:   []DynamicSite{{From: 3, Kind: DynamicEval}},
	}
	notes := f.DropUnknownWords()
	if len(notes) != 3 || !strings.Contains(notes[0], `"klass"`) || !strings.Contains(notes[1], `"friend"`) || !strings.Contains(notes[2], "dropped symbol") {
		t.Errorf("notes = %q", notes)
	}
	wantSyms := []Symbol{{Name: "A", Kind: KindClass, Parent: -1}, {Name: "m", Kind: KindMethod, Parent: 0}, {Name: "y", Kind: KindField, Parent: 1}}
	if !reflect.DeepEqual(f.Symbols, wantSyms) {
		t.Errorf("symbols = %+v", f.Symbols)
	}
	if got := []int32{f.Calls[0].Caller, f.Calls[1].Caller, f.Calls[2].Caller}; !reflect.DeepEqual(got, []int32{0, 1, 2}) {
		t.Errorf("callers = %v, want [0 1 2]", got)
	}
	if len(f.Relations) != 1 || f.Relations[0].From != 1 || f.Dynamic[0].From != 1 {
		t.Errorf("relations %+v, dynamic %+v", f.Relations, f.Dynamic)
	}
	if err := f.Validate(); err != nil {
		t.Error(err)
	}

	many := &Facts{}
	for range 12 {
		many.Relations = append(many.Relations, Relation{From: -1, Kind: "uses"})
	}
	if notes := many.DropUnknownWords(); len(notes) != maxReported+1 || notes[maxReported] != "… and 7 more" || len(many.Relations) != 0 {
		t.Errorf("notes = %q, relations left %d", notes, len(many.Relations))
	}
	clean := &Facts{Symbols: []Symbol{{Name: "A", Kind: KindClass, Parent: -1}}}
	if notes := clean.DropUnknownWords(); notes != nil {
		t.Errorf("clean facts: %q", notes)
	}
}
