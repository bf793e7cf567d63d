package extracttest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestParseWants(t *testing.T) {
	src := strings.Join([]string{
		`x = f(1) -- want call:f`,
		`b:area()  // want call:b.area def:"variable x y"`,
		`class A(B):  # want def:"class A" rel:"inherits B"`,
		`/* want import:"./util" */ import u from "./util"`,
		`print(1) ; want call:- import:-`,
		`s = "-- not a want"`,
		`wanted() // wanted is no want comment`,
	}, "\n")
	got, err := ParseWants([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Want{
		{1, map[Category][]string{Call: {"f"}}},
		{2, map[Category][]string{Call: {"b.area"}, Def: {"variable x y"}}},
		{3, map[Category][]string{Def: {"class A"}, Rel: {"inherits B"}}},
		{4, map[Category][]string{Import: {"./util"}}},
		{5, map[Category][]string{Call: {}, Import: {}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseWants =\n%+v\nwant\n%+v", got, want)
	}
	for _, tc := range []struct{ src, err string }{
		{"f() // want", "no expectations"},
		{"f() // want calls:f", `want item "calls:f": start it with one of def, call, import, rel`},
		{"f() // want call:", "empty value"},
		{`f() // want call:"f`, "bad quoted value"},
		{"f() // want call:f call:-", "next to other call items"},
		{"\n\nf() // want call", "line 3:"},
	} {
		if _, err := ParseWants([]byte(tc.src)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseWants(%q) = %v, want an error with %q", tc.src, err, tc.err)
		}
	}
}

func TestCheck(t *testing.T) {
	f := &abi.Facts{
		Symbols: []abi.Symbol{
			{Name: "Box", Kind: abi.KindClass, Parent: -1, Span: abi.Span{StartLine: 1}},
			{Name: "area", Kind: abi.KindMethod, Parent: 0, Span: abi.Span{StartLine: 2}},
		},
		Calls:     []abi.Call{{Caller: 1, Name: "width", Receiver: "self", Line: 3}, {Caller: 1, Name: "width", Receiver: "self", Line: 3}},
		Imports:   []abi.Import{{Path: "util", Line: 4}},
		Relations: []abi.Relation{{From: 0, Kind: abi.RelInherits, Target: "Shape", Line: 1}},
	}
	ok := []Want{
		{1, map[Category][]string{Def: {"class Box"}, Rel: {"inherits Shape"}}},
		{2, map[Category][]string{Def: {"method Box.area"}, Call: {}}},
		{3, map[Category][]string{Call: {"self.width", "self.width"}}},
		{4, map[Category][]string{Import: {"util"}}},
	}
	if msgs := Check(f, ok); len(msgs) != 0 {
		t.Errorf("Check = %q, want no problems", msgs)
	}
	bad := []Want{
		{1, map[Category][]string{Def: {"class Bx"}}},
		{3, map[Category][]string{Call: {"self.width"}}},
		{4, map[Category][]string{Import: {}}},
	}
	msgs := strings.Join(Check(f, bad), "\n")
	for _, w := range []string{
		`line 1: want def "class Bx", not extracted (the line has "class Box")`,
		`line 1: extracted def "class Box", not wanted`,
		`line 3: extracted call "self.width", not wanted`,
		`line 4: extracted import "util", not wanted`,
	} {
		if !strings.Contains(msgs, w) {
			t.Errorf("Check lacks %q in:\n%s", w, msgs)
		}
	}
}

func TestParseTxtar(t *testing.T) {
	fx := parseTxtar([]byte("comment\n-- a.toy --\nx = 1\n-- dir/b.toy --\ny\n-- facts --\nsym ...\n"))
	want := []fixtureFile{{"a.toy", []byte("x = 1\n")}, {"dir/b.toy", []byte("y\n")}}
	if !reflect.DeepEqual(fx.files, want) {
		t.Errorf("files = %q", fx.files)
	}
}

// FuzzParseWants: fixture text is free-form, so the want parser must
// return wants or an error for anything, and never an expectation with
// an empty key.
func FuzzParseWants(f *testing.F) {
	f.Add([]byte("f() // want call:f def:\"function f\"\n"))
	f.Add([]byte("x -- want call:- rel:\"inherits \\\"B\"\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		wants, err := ParseWants(src)
		if err != nil {
			return
		}
		for _, w := range wants {
			for c, keys := range w.Keys {
				for _, k := range keys {
					if k == "" || k == none {
						t.Fatalf("line %d: %s key %q", w.Line, c, k)
					}
				}
			}
		}
	})
}
