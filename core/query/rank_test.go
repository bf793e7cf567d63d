package query

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// gb builds small hand-made graphs.
type gb struct{ g graph.Graph }

func (b *gb) node(id, label, file, kind string) *gb {
	b.g.Nodes = append(b.g.Nodes, graph.Node{ID: id, Label: label, SourceFile: file, Kind: kind, FileType: "code"})
	return b
}

func (b *gb) edge(src, rel, dst string) *gb {
	b.g.Edges = append(b.g.Edges, graph.Edge{Source: src, Target: dst, Relation: rel, Confidence: graph.Extracted})
	return b
}

func (b *gb) engine(opts ...Option) *Engine {
	g := b.g
	g.Canonicalize()
	return New(graph.NewIndex(&g), opts...)
}

func ids(r Response) []string {
	var out []string
	for _, n := range r.Ranked {
		out = append(out, n.ID)
	}
	return out
}

func query(e *Engine, q string) Response {
	return e.Query(context.Background(), Request{Question: q, Full: true})
}

func authGraph() *gb {
	b := &gb{}
	b.node("auth_login", "login()", "auth/login.go", "function").
		node("auth_session", "Session", "auth/session.go", "struct").
		node("auth_session_refresh", ".Refresh()", "auth/session.go", "method").
		node("auth_login_test", "TestLogin()", "auth/login_test.go", "function").
		node("web_login_page", "loginPage()", "web/page.go", "function").
		node("token_validate", "validateToken()", "auth/token.go", "function").
		node("session_token_store", "sessionTokenStore", "auth/store.go", "struct").
		edge("auth_login", "calls", "token_validate").
		edge("auth_session", "method", "auth_session_refresh").
		edge("auth_login_test", "calls", "auth_login").
		edge("web_login_page", "calls", "auth_login")
	return b
}

func TestExactLabelFirst(t *testing.T) {
	e := authGraph().engine()
	r := query(e, "login")
	if got := ids(r); len(got) == 0 || got[0] != "auth_login" {
		t.Fatalf("login: ranked %q, want auth_login first", got)
	}
	// The test that exercises it ranks below the implementation.
	got := ids(r)
	if slices.Index(got, "auth_login_test") < slices.Index(got, "auth_login") {
		t.Errorf("test above implementation: %q", got)
	}
}

func TestCoverageRewardsSeveralConcepts(t *testing.T) {
	e := authGraph().engine()
	r := query(e, "where is the session token stored")
	got := ids(r)
	if len(got) == 0 || got[0] != "session_token_store" {
		t.Fatalf("ranked %q, want session_token_store (covers session+token+store) first", got)
	}
}

func TestOwnerChannelFindsMethod(t *testing.T) {
	e := authGraph().engine()
	got := ids(query(e, "how is a session refreshed"))
	if len(got) == 0 || got[0] != "auth_session_refresh" {
		t.Fatalf("ranked %q, want Session.Refresh first", got)
	}
}

func TestPathTellsParallelImplementationsApart(t *testing.T) {
	b := &gb{}
	b.node("a_parse", "parse()", "python/parser.py", "function").
		node("b_parse", "parse()", "rust/parser.rs", "function")
	e := b.engine()
	if got := ids(query(e, "rust parse")); len(got) == 0 || got[0] != "b_parse" {
		t.Fatalf("ranked %q, want the rust parse first", got)
	}
	if got := ids(query(e, "python parse")); len(got) == 0 || got[0] != "a_parse" {
		t.Fatalf("ranked %q, want the python parse first", got)
	}
}

func TestExpansionDecaysAndHubsArePenalized(t *testing.T) {
	b := &gb{}
	b.node("seed", "frobnicate()", "a.go", "function").
		node("near", "helper()", "a.go", "function").
		node("far", "deep()", "a.go", "function").
		node("hub", "log()", "log.go", "function").
		edge("seed", "calls", "near").
		edge("near", "calls", "far").
		edge("seed", "calls", "hub")
	for i := range 40 {
		id := fmt.Sprintf("caller%02d", i)
		b.node(id, id+"()", "x.go", "function").edge(id, "calls", "hub")
	}
	e := b.engine()
	r := query(e, "frobnicate")
	score := map[string]float64{}
	for _, n := range r.Ranked {
		score[n.ID] = n.Score
	}
	if !(score["seed"] > score["near"] && score["near"] > score["far"]) {
		t.Errorf("no per-hop decay: %v", score)
	}
	if !(score["near"] > score["hub"]) {
		t.Errorf("hub not penalized: near %v hub %v", score["near"], score["hub"])
	}
	// Scores are sorted descending.
	for k := 1; k < len(r.Ranked); k++ {
		if r.Ranked[k].Score > r.Ranked[k-1].Score {
			t.Fatalf("not sorted by score at %d: %v", k, r.Ranked)
		}
	}
}

func TestDeterministicTies(t *testing.T) {
	// Identical labels and shapes tie on score; ids break the tie, in
	// whatever order the graph lists them.
	build := func(order []string) *Engine {
		b := &gb{}
		for _, id := range order {
			b.node(id, "Widget", id+".go", "struct")
		}
		g := b.g // not canonicalized: node order differs between builds
		return New(graph.NewIndex(&g))
	}
	want := []string{"w_a", "w_b", "w_c", "w_d"}
	for _, order := range [][]string{{"w_c", "w_a", "w_d", "w_b"}, {"w_d", "w_c", "w_b", "w_a"}, want} {
		e := build(order)
		for _, mode := range []string{"bfs", "dfs"} {
			r := e.Query(context.Background(), Request{Question: "widget", Mode: mode})
			if got := ids(r); !slices.Equal(got, want) {
				t.Errorf("order %q mode %s: %q, want %q", order, mode, got, want)
			}
		}
	}
	// Same engine, same question: byte-identical answers.
	e := authGraph().engine()
	a, b := query(e, "login session"), query(e, "login session")
	if a.Text != b.Text {
		t.Errorf("answers differ:\n%s\n---\n%s", a.Text, b.Text)
	}
}

func TestNoMatch(t *testing.T) {
	e := authGraph().engine()
	r := query(e, "zzqx")
	if len(r.Ranked) != 0 || !strings.Contains(r.Text, "no nodes match 'zzqx'") {
		t.Errorf("got %q", r.Text)
	}
	empty := New(graph.NewIndex(&graph.Graph{}))
	if r := query(empty, "anything"); len(r.Ranked) != 0 {
		t.Errorf("empty graph ranked %v", r.Ranked)
	}
}

func TestContextFilter(t *testing.T) {
	e := authGraph().engine()
	r := e.Query(context.Background(), Request{Question: "login", ContextFilter: []string{"web/"}})
	for _, n := range r.Ranked {
		if !strings.Contains(n.SourceFile, "web/") {
			t.Errorf("context_filter let %s (%s) through", n.ID, n.SourceFile)
		}
	}
	if len(r.Ranked) == 0 {
		t.Error("context_filter dropped everything")
	}
}

func TestTopKMatchesFullSort(t *testing.T) {
	order := func(a, b [2]int) int {
		if a[0] != b[0] {
			return b[0] - a[0]
		}
		return a[1] - b[1]
	}
	var c [][2]int
	for i := range 1000 {
		c = append(c, [2]int{(i * 7919) % 37, i}) // many ties on the score
	}
	full := slices.Clone(c)
	slices.SortFunc(full, order)
	for _, k := range []int{1, 8, 256, 999, 1000, 2000} {
		got := topK(slices.Clone(c), k, order)
		if want := full[:min(k, len(full))]; !slices.Equal(got, want) {
			t.Errorf("k=%d: top differs from the full sort", k)
		}
	}
}

func TestIdentifierWordNamesFewSymbolsOnly(t *testing.T) {
	b := &gb{}
	b.node("gen", "generateInit()", "dc.py", "function").
		node("dc", "dataclass()", "dc.py", "function")
	for i := range 6 {
		b.node(fmt.Sprintf("init%d", i), ".__init__()", fmt.Sprintf("m%d.py", i), "method")
	}
	e := b.engine()
	// "__init__" names six symbols: no exact boost for all of them, so
	// the function covering both concepts leads.
	if got := ids(query(e, "how does dataclass generate __init__")); got[0] != "dc" && got[0] != "gen" {
		t.Errorf("ranked %q: a generic identifier word was treated as exact", got)
	}
	// A rare identifier word is exact.
	if got := ids(query(e, "where is generateInit called")); got[0] != "gen" {
		t.Errorf("ranked %q, want generateInit first", got)
	}
}

// TestHugeQuestionIsBounded: a pasted megabyte of distinct graph words is
// cut to MaxQuestion and says so (the attack run spent 19 CPU-s on 1.6 MB),
// and a cancelled request stops expanding.
func TestHugeQuestionIsBounded(t *testing.T) {
	b := &gb{}
	for i := range 2000 {
		b.node(fmt.Sprintf("n%d", i), fmt.Sprintf("Word%dThing()", i), fmt.Sprintf("p%d/f.go", i%50), "function")
		if i > 0 {
			b.edge(fmt.Sprintf("n%d", i), "calls", fmt.Sprintf("n%d", i-1))
		}
	}
	e := b.engine()
	var q strings.Builder
	for i := 0; q.Len() < 1<<20; i++ {
		fmt.Fprintf(&q, "Word%dThing ", i%2000)
	}
	r := e.Query(context.Background(), Request{Question: q.String()})
	if !strings.HasPrefix(r.Text, "(question cut to its first 8 KiB") {
		t.Errorf("no cut note: %.120q", r.Text)
	}
	p := parseQuestion(q.String(), func(string) bool { return true }, variants{})
	if len(p.names) > maxConcepts || len(p.concepts) > maxConcepts {
		t.Errorf("names %d, concepts %d: unbounded", len(p.names), len(p.concepts))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = e.Query(ctx, Request{Question: "word thing", Full: true, TokenBudget: 100000})
	if len(r.Ranked) > 0 {
		t.Errorf("cancelled query ranked %d nodes", len(r.Ranked))
	}
}

func BenchmarkHugeQuestion(b *testing.B) {
	g := &gb{}
	for i := range 5000 {
		g.node(fmt.Sprintf("n%d", i), fmt.Sprintf("Word%dThing()", i), fmt.Sprintf("p%d/f.go", i%50), "function")
	}
	e := g.engine()
	var q strings.Builder
	for i := 0; q.Len() < 4<<20; i++ {
		fmt.Fprintf(&q, "Word%dThing ", i%5000)
	}
	for b.Loop() {
		e.Query(context.Background(), Request{Question: q.String()})
	}
}

// TestTwinsTakeOneSeat: a symbol declared once per build (decode.go and
// v2_decode.go in one package) appears once near the top; its twin is
// demoted below a distinct match, except when the question names it.
func TestTwinsTakeOneSeat(t *testing.T) {
	b := &gb{}
	b.node("json_decode_token", ".Token()", "json/stream.go", "method").
		node("json_v2_token", ".Token()", "json/v2_stream.go", "method").
		node("json_decoder", "Decoder", "json/stream.go", "struct").
		node("json_decoder_v2", "Decoder", "json/v2_stream.go", "struct").
		node("json_token_more", ".tokenMore()", "json/stream.go", "method").
		edge("json_decoder", "method", "json_decode_token").
		edge("json_decoder_v2", "method", "json_v2_token").
		edge("json_decoder", "method", "json_token_more")
	for _, tc := range []struct {
		tune       float64
		q          string
		twinBefore bool // the second Token() ranks above tokenMore
	}{
		{1, "json decoder token stream", true},
		{DefaultTuning.TwinDemote, "json decoder token stream", false},
		{DefaultTuning.TwinDemote, "Decoder.Token", true}, // named: exact, not demoted
	} {
		tn := DefaultTuning
		tn.TwinDemote = tc.tune
		got := ids(query(b.engine(WithTuning(tn)), tc.q))
		first := slices.Index(got, "json_decode_token")
		second := max(first, slices.Index(got, "json_v2_token"))
		if first < 0 {
			first = slices.Index(got, "json_v2_token")
		}
		more := slices.Index(got, "json_token_more")
		if first < 0 || second < 0 || more < 0 {
			t.Fatalf("%q: ranked %q", tc.q, got)
		}
		if (second < more) != tc.twinBefore {
			t.Errorf("TwinDemote=%v %q: ranked %q; twin above tokenMore = %v, want %v", tc.tune, tc.q, got, second < more, tc.twinBefore)
		}
	}
}

// TestContainersYieldTheirSeat: a file matching the question still passes
// relevance to its symbols, but ranks below a symbol matching as well.
func TestContainersYieldTheirSeat(t *testing.T) {
	b := &gb{}
	b.node("f_indent", "indent.go", "json/indent.go", "file").
		node("fn_indent", "Indent()", "json/indent.go", "function").
		node("fn_append", "appendIndent()", "json/indent.go", "function").
		edge("f_indent", "contains", "fn_indent").
		edge("f_indent", "contains", "fn_append")
	got := ids(query(b.engine(), "json indent"))
	if len(got) < 3 || slices.Index(got, "f_indent") < slices.Index(got, "fn_append") {
		t.Errorf("ranked %q, want the file below both functions", got)
	}
	// Named, the file keeps its place.
	if got := ids(query(b.engine(), "indent.go")); len(got) == 0 || got[0] != "f_indent" {
		t.Errorf("indent.go: ranked %q, want the file first", got)
	}
}

// TestSizePrior: of two functions matching the question alike, the long
// body that does the work ranks above the one-line wrapper; a type is
// not scaled, and SizeExp 0 leaves the id tie-break.
func TestSizePrior(t *testing.T) {
	b := &gb{}
	b.node("a_short", "readRequest()", "p/a.go", "function").
		node("b_long", "readRequest()", "q/b.go", "function").
		node("c_mid", "other()", "p/c.go", "function").
		node("t_type", "Request", "p/t.go", "struct")
	span := func(k, lines int) { b.g.Nodes[k].Span = &graph.Span{StartLine: 10, EndLine: 10 + lines - 1} }
	span(0, 1)
	span(1, 120)
	span(2, 12)
	for _, tc := range []struct {
		exp   float64
		first string
	}{{0, "a_short"}, {DefaultTuning.SizeExp, "b_long"}} {
		tn := DefaultTuning
		tn.SizeExp = tc.exp
		e := b.engine(WithTuning(tn))
		got := ids(query(e, "read request"))
		if len(got) < 2 || got[0] != tc.first {
			t.Errorf("SizeExp %v: ranked %q, want %s first", tc.exp, got, tc.first)
		}
		if tc.exp > 0 {
			if s := e.size[e.Index().ID("t_type")]; s != 1 {
				t.Errorf("a struct's size prior = %v, want 1", s)
			}
			if s := e.size[e.Index().ID("c_mid")]; s != 1 {
				t.Errorf("the median function's size prior = %v, want 1", s)
			}
		}
	}
}

// TestTestCallsFavourEntryPoints: of two functions matching the question
// equally, the one test code calls ranks first; calls from other code do
// not count.
func TestTestCallsFavourEntryPoints(t *testing.T) {
	b := &gb{}
	b.node("a_helper", "withTimeout()", "p/a.go", "function").
		node("b_api", "WithTimeout()", "p/b.go", "function").
		node("c_caller", "run()", "p/c.go", "function").
		node("t_test", "TestWithTimeout()", "p/b_test.go", "function").
		node("u_test", "TestOther()", "p/c_test.go", "function").
		edge("t_test", "calls", "b_api").
		edge("u_test", "calls", "b_api").
		edge("c_caller", "calls", "a_helper").
		edge("c_caller", "calls", "a_helper")
	for _, tc := range []struct {
		w     float64
		first string
	}{{0, "a_helper"}, {0.08, "b_api"}} {
		tn := DefaultTuning
		tn.TestCalls = tc.w
		got := ids(query(b.engine(WithTuning(tn)), "with timeout"))
		if len(got) < 2 || got[0] != tc.first {
			t.Errorf("TestCalls %v: ranked %q, want %s first", tc.w, got, tc.first)
		}
	}
}

// TestGeneratedFilesYield: a node of a generated file ranks below an
// equal match in source a person wrote, and only with GeneratedPrior on;
// an exact label match is exempt.
func TestGeneratedFilesYield(t *testing.T) {
	b := &gb{}
	b.node("a_gen", "startGracefulShutdown()", "p/bundle.go", "function").
		node("b_src", "startGracefulShutdown()", "q/server.go", "function").
		node("f_gen", "bundle.go", "p/bundle.go", "file").
		node("f_src", "server.go", "q/server.go", "file").
		edge("f_gen", "contains", "a_gen").
		edge("f_src", "contains", "b_src")
	b.g.Nodes[2].Extra = map[string]json.RawMessage{"generated": json.RawMessage("true")}
	for _, tc := range []struct {
		prior float64
		first string
	}{{1, "a_gen"}, {0.5, "b_src"}} {
		tn := DefaultTuning
		tn.GeneratedPrior = tc.prior
		e := b.engine(WithTuning(tn))
		got := ids(query(e, "graceful shutdown start"))
		if len(got) < 2 || got[0] != tc.first {
			t.Errorf("GeneratedPrior %v: ranked %q, want %s first", tc.prior, got, tc.first)
		}
		// Named exactly, a generated symbol keeps its full score: both
		// twins tie, and the tie goes to the smaller id.
		got = ids(query(e, "startGracefulShutdown"))
		if len(got) < 2 || got[0] != "a_gen" {
			t.Errorf("GeneratedPrior %v, exact: ranked %q, want a_gen first", tc.prior, got)
		}
	}
}
