package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/core/query"
)

func TestParseTune(t *testing.T) {
	got, err := parseTune("Decay=0.5, sizeexp=0.3,raise=0")
	if err != nil {
		t.Fatal(err)
	}
	want := query.DefaultTuning
	want.Decay, want.SizeExp, want.Raise = 0.5, 0.3, false
	if got != want {
		t.Errorf("parseTune = %+v, want %+v", got, want)
	}
	if got, _ := parseTune("original"); got != query.OriginalTuning {
		t.Errorf("original: %+v", got)
	}
	for _, bad := range []string{"nope=1", "decay", "decay=x", "fill=3", "accumulate=1", "postdiversity=1", "agentnouns=1"} {
		if _, err := parseTune(bad); err == nil {
			t.Errorf("parseTune(%q): no error", bad)
		}
	}
}
