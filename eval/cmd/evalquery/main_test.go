package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/query"
)

func TestParseTune(t *testing.T) {
	got, err := parseTune("Decay=0.5, fill=3,raise=1")
	if err != nil {
		t.Fatal(err)
	}
	want := query.DefaultTuning
	want.Decay, want.Fill, want.Raise = 0.5, 3, true
	if got != want {
		t.Errorf("parseTune = %+v, want %+v", got, want)
	}
	if got, _ := parseTune("original"); got != query.OriginalTuning {
		t.Errorf("original: %+v", got)
	}
	for _, bad := range []string{"nope=1", "decay", "decay=x"} {
		if _, err := parseTune(bad); err == nil {
			t.Errorf("parseTune(%q): no error", bad)
		}
	}
}
