package query

import (
	"context"
	"fmt"
	"strings"
)

// Channel names a lexical channel of the ranking, for Explain.
type Channel int

// The lexical channels, in the order Explanation.Channels holds them.
const (
	ChanLabel Channel = iota
	ChanOwner
	ChanAlias
	ChanPath
	ChanDoc
	numChannels
)

var channelNames = [numChannels]string{"label", "owner", "alias", "path", "doc"}

func (c Channel) String() string { return channelNames[c] }

// Explanation says why one node scores what it does: what each channel
// gave it, the multipliers of the lexical pass, the neighbour whose offer
// set its expansion score, and the post-passes. It exists so that ranking
// changes are made on measured causes (eval/cmd/evalquery -explain).
type Explanation struct {
	Node     int32
	Rank     int // 1-based among the ranked nodes, 0 when not reached
	Score    float64
	Channels [numChannels]float64 // weighted contributions before multipliers
	// Coverage, Boost (exact boost or test demotion) and Prior multiply the
	// channel sum into Lexical, the score a seed starts from.
	Coverage, Boost, Prior, Lexical float64
	Touched                         bool // some channel matched
	Seed                            bool
	// Via is the neighbour whose offer gave the node its expansion score
	// (-1: its own lexical score), along edge ViaEdge, passing Offered.
	Via, ViaEdge int32
	Offered      float64
	// Expanded is the score when expansion settled it; Score/Expanded is
	// what the post-passes (twins, containers) did.
	Expanded float64
}

// trace records explanations during one rank; only Explain sets it.
type trace struct {
	lex map[int32]*Explanation
}

func (t *trace) get(i int32) *Explanation {
	x := t.lex[i]
	if x == nil {
		x = &Explanation{Node: i, Via: -1, ViaEdge: -1, Coverage: 1, Boost: 1, Prior: 1}
		t.lex[i] = x
	}
	return x
}

func (t *trace) channel(i int32, c Channel, v float64) {
	x := t.get(i)
	x.Channels[c] += v
	x.Touched = true
}

func (t *trace) lexical(i int32, cov, boost, prior, v float64) {
	x := t.get(i)
	x.Coverage, x.Boost, x.Prior, x.Lexical = cov, boost, prior, v
}

func (t *trace) offer(i, from, via int32, rel, key float64) {
	x := t.get(i)
	if from >= 0 && rel <= x.Lexical {
		from, via = -1, -1 // its own lexical score won
	}
	x.Via, x.ViaEdge, x.Offered = from, via, rel
}

func (t *trace) expanded(i int32, score float64) { t.get(i).Expanded = score }

// Explained is a ranking with the explanation of every node it touched.
type Explained struct {
	Ranked []Node
	Seeds  []int32
	e      *Engine
	t      *trace
	rank   map[int32]int
}

// Explain ranks r's question like Query, settling up to depth nodes (0:
// the request's own cap), and keeps the explanation of every node the
// ranking touched. It is a diagnostic: slower than Query and not logged.
func (e *Engine) Explain(ctx context.Context, r Request, depth int) *Explained {
	budget := r.TokenBudget
	if budget <= 0 {
		budget = DefaultBudget
	}
	p, rec := e.params(ctx, r, budget)
	if depth > 0 {
		p.maxNodes = depth
	}
	p.trace = &trace{lex: map[int32]*Explanation{}}
	rk := e.rank(p)
	out := &Explained{Seeds: rk.seeds, e: e, t: p.trace, rank: map[int32]int{}}
	for k, h := range rk.hits {
		out.Ranked = append(out.Ranked, e.resultNode(h, rec))
		out.rank[h.node] = k + 1
		p.trace.get(h.node).Score = h.score
	}
	for _, s := range rk.seeds {
		p.trace.get(s).Seed = true
	}
	return out
}

// Of explains node i (a zero explanation when the ranking never touched it).
func (x *Explained) Of(i int32) Explanation {
	ex := Explanation{Node: i, Via: -1, ViaEdge: -1}
	if t := x.t.lex[i]; t != nil {
		ex = *t
	}
	ex.Rank = x.rank[i]
	return ex
}

// Format renders an explanation on one line:
//
//	#12 0.41 = lex 0.82 [label 1.20 doc 0.31] ×cov 0.62 ×prior 1 | via Server.Shutdown (calls) 0.41 | post ×0.5
func (x *Explained) Format(ex Explanation) string {
	var b strings.Builder
	g := x.e.x
	if ex.Rank > 0 {
		fmt.Fprintf(&b, "#%d %.3f", ex.Rank, ex.Score)
	} else {
		b.WriteString("unranked")
	}
	if ex.Touched {
		fmt.Fprintf(&b, " = lex %.3f [", ex.Lexical)
		sep := ""
		for c, v := range ex.Channels {
			if v != 0 {
				fmt.Fprintf(&b, "%s%s %.3f", sep, Channel(c), v)
				sep = " "
			}
		}
		fmt.Fprintf(&b, "] ×cov %.2f ×boost %.2f ×prior %.2f", ex.Coverage, ex.Boost, ex.Prior)
	} else {
		b.WriteString(" = no lexical match")
	}
	if ex.Seed {
		b.WriteString(" | seed")
	}
	if ex.Via >= 0 && ex.ViaEdge >= 0 {
		rel := g.G.Edges[ex.ViaEdge].Relation
		fmt.Fprintf(&b, " | via %s (%s) %.3f", g.Qualified(ex.Via), rel, ex.Offered)
	}
	if ex.Rank > 0 && ex.Expanded > 0 && ex.Score != ex.Expanded {
		fmt.Fprintf(&b, " | post ×%.2f", ex.Score/ex.Expanded)
	}
	return b.String()
}
