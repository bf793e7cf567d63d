package query

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestExplainMatchesQuery: explaining a question does not change its
// ranking, and every explanation adds up to what the ranking shows.
func TestExplainMatchesQuery(t *testing.T) {
	e := authGraph().engine()
	for _, q := range []string{"login", "where is the session token stored", "how does login validate the token", "refresh"} {
		r := e.Query(context.Background(), Request{Question: q})
		x := e.Explain(context.Background(), Request{Question: q}, 0)
		if got, want := ids(Response{Ranked: x.Ranked}), ids(r); !slices.Equal(got, want) {
			t.Errorf("%q: Explain ranked %q, Query %q", q, got, want)
		}
		for k, n := range x.Ranked {
			ex := x.Of(n.Index)
			if ex.Rank != k+1 || !approx(ex.Score, n.Score) {
				t.Errorf("%q: %s: rank %d score %.3f, want %d %.3f", q, n.ID, ex.Rank, ex.Score, k+1, n.Score)
			}
			if ex.Touched {
				sum := 0.0
				for _, v := range ex.Channels {
					sum += v
				}
				if want := sum*ex.Coverage*ex.Boost*ex.Prior + ex.Spread; !approx(ex.Lexical, want) {
					t.Errorf("%q: %s: lexical %.4f, channels give %.4f", q, n.ID, ex.Lexical, want)
				}
			}
		}
	}
}

// TestExplainNamesTheChannelAndThePath: parseConfig matches by its
// label; readBytes, which shares no word with the question, is there
// because parseConfig calls it, and the explanation says so.
func TestExplainNamesTheChannelAndThePath(t *testing.T) {
	b := &gb{}
	b.node("p", "parseConfig()", "cfg/parse.go", "function").
		node("r", "readBytes()", "io/read.go", "function").
		node("w", "writeLog()", "log/write.go", "function").
		edge("p", "calls", "r")
	e := b.engine()
	x := e.Explain(context.Background(), Request{Question: "parse config"}, 0)
	p := x.Of(e.Index().ID("p"))
	if p.Rank != 1 || p.Channels[ChanLabel] == 0 || !p.Seed {
		t.Errorf("parseConfig: %+v, want rank 1, a label match, a seed", p)
	}
	r := x.Of(e.Index().ID("r"))
	if r.Rank != 2 || r.Touched || r.Via != e.Index().ID("p") {
		t.Errorf("readBytes: %+v, want rank 2 via parseConfig and no lexical match", r)
	}
	if s := x.Format(r); !strings.Contains(s, "via parseConfig()") || !strings.Contains(s, "(calls)") {
		t.Errorf("Format = %q, want the path through parseConfig's call", s)
	}
	if s := x.Format(x.Of(e.Index().ID("w"))); s != "unranked = no lexical match" {
		t.Errorf("an unrelated node: %q, want unranked", s)
	}
}

func approx(a, b float64) bool { d := a - b; return d < 1e-3 && d > -1e-3 }

// TestBlendFavoursLinkedMatches: with Blend on, of two functions matching
// the question equally, the one the best match calls ranks first; an
// offer from a file is not blended (its words are the path channel).
func TestBlendFavoursLinkedMatches(t *testing.T) {
	b := &gb{}
	b.node("top", "parseConfigFile()", "p/load.go", "function").
		node("a_read", "readConfig()", "p/read.go", "function").
		node("z_read", "readConfig()", "q/read.go", "function").
		edge("top", "calls", "z_read")
	for _, tc := range []struct {
		blend float64
		first string
	}{{0, "a_read"}, {0.05, "z_read"}} {
		tn := DefaultTuning
		tn.Blend = tc.blend
		got := ids(query(b.engine(WithTuning(tn)), "read config"))
		ia, iz := slices.Index(got, "a_read"), slices.Index(got, "z_read")
		if ia < 0 || iz < 0 {
			t.Fatalf("blend %v: ranked %q", tc.blend, got)
		}
		if first := map[bool]string{true: "a_read", false: "z_read"}[ia < iz]; first != tc.first {
			t.Errorf("blend %v: ranked %q, want %s before the other readConfig", tc.blend, got, tc.first)
		}
	}
}

// TestUnlinkedCallsLead: with Unlinked on, a function's call on a receiver
// of unknown type reaches the one method of that name; a name declared by
// more than maxUnlinkedTargets types leads nowhere.
func TestUnlinkedCallsLead(t *testing.T) {
	b := &gb{}
	b.node("run", "run()", "p/sub.go", "function").
		node("comm", ".communicate()", "p/popen.go", "method").
		node("other", "unrelated()", "p/x.go", "function")
	for k := range maxUnlinkedTargets + 1 {
		b.node(fmt.Sprintf("close%d", k), ".close()", fmt.Sprintf("p/c%d.go", k), "method")
	}
	b.g.Nodes[0].Extra = map[string]json.RawMessage{"unlinked_calls": json.RawMessage(`["communicate","close"]`)}
	for _, on := range []float64{0, 0.5} {
		tn := DefaultTuning
		tn.Unlinked = on
		x := b.engine(WithTuning(tn)).Explain(context.Background(), Request{Question: "run"}, 0)
		var comm, closes int
		for _, n := range x.Ranked {
			switch {
			case n.ID == "comm":
				comm++
				if ex := x.Of(n.Index); ex.ViaEdge != -1 || !strings.Contains(x.Format(ex), "unlinked call") {
					t.Errorf("communicate: %s, want via run's unlinked call", x.Format(ex))
				}
			case strings.HasPrefix(n.ID, "close"):
				closes++
			}
		}
		if want := map[bool]int{true: 1, false: 0}[on > 0]; comm != want || closes != 0 {
			t.Errorf("Unlinked=%v: communicate ranked %d times, close %d; want %d and 0", on, comm, closes, want)
		}
	}
}
