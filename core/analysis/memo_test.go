package analysis

import (
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// TestIsGeneric pins isGeneric to its definition,
// genericNames[graph.BareName(label)], on labels that take each path:
// ASCII, call and member forms, too long, non-ASCII that lower-cases to
// ASCII (the Kelvin sign), invalid UTF-8.
func TestIsGeneric(t *testing.T) {
	tests := []struct {
		label string
		want  bool
	}{
		{"len", true},
		{"Len()", true},
		{".Close()", true},
		{".ERROR", true},
		{"__init__()", true},
		{"ServeHTTP()", false},
		{"..close()", false},
		{"close()()", false},
		{"", false},
		{"()", false},
		{strings.Repeat("a", 40), false},
		{"\u212Aey", true}, // KELVIN SIGN lower-cases to "k"
		{"\u212Aey" + strings.Repeat("x", 40), false},
		{"cl\xffose", false},
		{"Ünicode()", false},
	}
	for _, tc := range tests {
		if got := isGeneric(tc.label); got != tc.want {
			t.Errorf("isGeneric(%q) = %v, want %v", tc.label, got, tc.want)
		}
		if ref := genericNames[graph.BareName(tc.label)]; ref != tc.want {
			t.Errorf("genericNames[BareName(%q)] = %v: the table is wrong", tc.label, ref)
		}
	}
	for n := range genericNames { // every generic name, in the forms labels take
		for _, l := range []string{n, strings.ToUpper(n), n + "()", "." + n + "()"} {
			if !isGeneric(l) {
				t.Errorf("isGeneric(%q) = false", l)
			}
		}
	}
}

// TestMemoizedAnalysesMatchFresh checks that the per-Index memos (test
// reach, cycles, isolated symbols) answer what a fresh Index computes,
// whatever order the questions come in.
func TestMemoizedAnalysesMatchFresh(t *testing.T) {
	g := synthetic(40, 6)
	warm := graph.NewIndex(g)
	GodNodes(warm, 3, 5) // a later page first: its walks are memoized
	ImportCycles(warm, 5)
	Isolated(warm)
	fresh := graph.NewIndex(g)
	for _, page := range [][2]int{{20, 0}, {10, 0}, {4, 6}} {
		got, gotTotal := GodNodes(warm, page[0], page[1])
		want, wantTotal := GodNodes(graph.NewIndex(g), page[0], page[1])
		if gotTotal != wantTotal || !slices.Equal(got, want) {
			t.Errorf("GodNodes(%d, %d) memoized = %v (%d), fresh = %v (%d)", page[0], page[1], got, gotTotal, want, wantTotal)
		}
	}
	if got, want := ImportCycles(warm, 5), ImportCycles(fresh, 5); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("ImportCycles memoized = %v, fresh = %v", got, want)
	}
	if got, want := ImportCycles(warm, 3), importCycles(fresh, 3); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("ImportCycles(3) after ImportCycles(5) = %v, want %v", got, want)
	}
	if got, want := Isolated(warm), isolated(fresh); !slices.Equal(got, want) {
		t.Errorf("Isolated memoized = %v, fresh = %v", got, want)
	}
}
