package extract

import (
	"strings"
	"sync"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func testGrammar() *Grammar {
	return NewGrammar(&abi.Grammar{Language: "toy", Kinds: []string{"end", "source_file", "function", "identifier", "func"},
		Named: []bool{false, true, true, true, false}, Fields: []string{"", "name"}})
}

func TestBind(t *testing.T) {
	g := testGrammar()
	var ids struct {
		Fn    KindID  `kind:"function"`
		Func  KindID  `anon:"func"`
		Name  FieldID `field:"name"`
		Class KindID  `kind:"class,optional"`
		Other int
	}
	if err := Bind(g, &ids); err != nil {
		t.Fatal(err)
	}
	if ids.Fn != 2 || ids.Func != 4 || ids.Name != 1 || ids.Class != 0 {
		t.Errorf("ids = %+v", ids)
	}
	for _, tc := range []struct {
		name string
		dst  any
		want string
	}{
		{"missing names listed", &struct {
			A KindID  `kind:"klass"`
			B FieldID `field:"body"`
			C KindID  `anon:"function"` // named, so not an anonymous kind
		}{}, "grammar toy has no kind klass, field body, anon function"},
		{"wrong field type", &struct {
			A int `kind:"function"`
		}{}, "needs an exported"},
		{"unexported", &struct {
			a KindID `kind:"function"`
		}{}, "needs an exported"},
		{"not a pointer", struct{}{}, "want a pointer to a struct"},
	} {
		err := Bind(g, tc.dst)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Bind = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestTablesBuildOncePerGrammar(t *testing.T) {
	type ids struct {
		Fn KindID `kind:"function"`
	}
	var tables Tables[ids]
	g1, g2 := testGrammar(), testGrammar()
	builds := 0
	build := func(g *Grammar) *ids { builds++; return MustBind[ids](g) }
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if tables.For(g1, build).Fn != 2 {
				t.Error("wrong id")
			}
		})
	}
	wg.Wait()
	tables.For(g2, build)
	if builds != 2 {
		t.Errorf("%d builds, want one per grammar", builds)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(error).Error(), "no kind nope") {
			t.Errorf("MustBind did not panic with the missing name: %v", r)
		}
	}()
	MustBind[struct {
		X KindID `kind:"nope"`
	}](g1)
}

func TestScopes(t *testing.T) {
	var s Scopes[string]
	if s.Top() != nil || s.Leave(3) != 0 {
		t.Fatal("empty stack")
	}
	s.Enter(10, "class")  // nodes [.., 10)
	s.Enter(6, "method")  // nodes [.., 6)
	s.Enter(4, "closure") // nodes [.., 4)
	if *s.Top() != "closure" || s.Depth() != 3 {
		t.Fatalf("top %q depth %d", *s.Top(), s.Depth())
	}
	if got := s.Find(func(f *string) bool { return *f == "class" }); got == nil || *got != "class" {
		t.Errorf("Find(class) = %v", got)
	}
	if n := s.Leave(3); n != 0 {
		t.Errorf("node 3 is inside every frame, popped %d", n)
	}
	if n := s.Leave(6); n != 2 || *s.Top() != "class" {
		t.Errorf("node 6 closes closure and method: popped %d, top %q", n, *s.Top())
	}
	s.Reset()
	if s.Depth() != 0 {
		t.Error("Reset left frames")
	}
}

func TestKindsOf(t *testing.T) {
	type action uint8
	g := testGrammar()
	tab := KindsOf(g, map[string]action{"function": 3, "klass": 5})
	for _, tc := range []struct {
		kind string
		id   KindID
		want action
	}{
		{"function", g.Kind("function"), 3},
		{"a kind the grammar lacks stays out", 0, 0},
		{"an id no name maps to", g.Kind("function") + 1, 0},
	} {
		if got := action(tab[tc.id]); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.kind, got, tc.want)
		}
	}
}
