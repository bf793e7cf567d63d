package query

import (
	"context"
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
				if want := sum * ex.Coverage * ex.Boost * ex.Prior; !approx(ex.Lexical, want) {
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
