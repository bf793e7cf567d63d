package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/internal/cputime"
)

// sameGraph compares two decoded graphs field by field; an empty Extra
// equals a nil one (the old reader produced either, and both write alike).
func sameGraph(a, b *Graph) string {
	norm := func(g *Graph) *Graph {
		c := *g
		c.Nodes = append([]Node(nil), g.Nodes...)
		c.Edges = append([]Edge(nil), g.Edges...)
		for i := range c.Nodes {
			if len(c.Nodes[i].Extra) == 0 {
				c.Nodes[i].Extra = nil
			}
		}
		for i := range c.Edges {
			if len(c.Edges[i].Extra) == 0 {
				c.Edges[i].Extra = nil
			}
		}
		return &c
	}
	x, y := norm(a), norm(b)
	if reflect.DeepEqual(x, y) {
		return ""
	}
	for i := range min(len(x.Nodes), len(y.Nodes)) {
		if !reflect.DeepEqual(x.Nodes[i], y.Nodes[i]) {
			return fmt.Sprintf("node %d: %+v\nvs %+v", i, x.Nodes[i], y.Nodes[i])
		}
	}
	for i := range min(len(x.Edges), len(y.Edges)) {
		if !reflect.DeepEqual(x.Edges[i], y.Edges[i]) {
			return fmt.Sprintf("edge %d: %+v\nvs %+v", i, x.Edges[i], y.Edges[i])
		}
	}
	return fmt.Sprintf("graphs differ: %+v\nvs %+v", x, y)
}

// checkDifferential holds Parse to the encoding/json reader it replaced.
func checkDifferential(t *testing.T, data []byte) {
	t.Helper()
	want, werr := parseRef(data)
	got, gerr := Parse(data)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("acceptance differs on %q:\nencoding/json: %v\nParse:         %v", data, werr, gerr)
	}
	if werr != nil {
		return
	}
	if d := sameGraph(want, got); d != "" {
		t.Fatalf("decoded graphs differ on %q:\n%s", data, d)
	}
}

const minNode = `{"id":"a","label":"a","file_type":"code","source_file":""}`
const minEdge = `{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","source_file":""}`

// quirks are inputs where encoding/json's behaviour is easy to get wrong.
var quirks = []string{
	// shape and aliases
	`{"nodes":[]}`, `{"nodes":null}`, `null`, `[]`, `"x"`, `1`, `true`, `{}`, ` {"nodes":[]} `, "\ufeff{\"nodes\":[]}",
	`{"nodes":[` + minNode + `],"edges":[` + minEdge + `]}`,
	`{"nodes":[` + minNode + `],"links":[],"edges":[` + minEdge + `]}`,
	`{"nodes":[` + minNode + `],"links":null,"edges":[` + minEdge + `]}`,
	`{"nodes":[` + minNode + `],"links":[` + minEdge + `],"edges":[1]}`,
	`{"nodes":[` + minNode + `],"links":[1],"edges":[` + minEdge + `]}`,
	`{"nodes":[` + minNode + `],"links":[` + minEdge + `],"links":null}`,
	`{"nodes":[1],"nodes":[` + minNode + `]}`,
	`{"nodes":[` + minNode + `],"nodes":null}`,
	`{"nodes":[` + minNode + `],"nodes":[]}`,
	`{"NODES":[` + minNode + `],"Links":[` + minEdge + `]}`,
	`{"nodes":{}}`, `{"nodes":"x"}`, `{"nodes":[],"directed":"yes"}`, `{"nodes":[],"directed":null,"multigraph":1}`,
	`{"nodes":[],"graph":{"a":1},"graph":{"b":[2]}}`, `{"nodes":[],"graph":{"a":1},"graph":null}`, `{"nodes":[],"graph":[]}`,
	`{"nodes":[],"hyperedges":[null, {"x" : [1, 2]}, "s"]}`, `{"nodes":[],"hyperedges":[1],"hyperedges":[]}`, `{"nodes":[],"hyperedges":{}}`,
	`{"nodes":[],"built_at_commit":"abc","built_at_commit":null}`, `{"nodes":[],"built_at_commit":1}`,
	`{"nodes":[],"unknown":{"deep":[[[{}]]]}}`,
	// node fields
	`{"nodes":[{"ID":"a","Source_File":"f"}]}`,
	`{"nodes":[{"id":"a","ſource_file":"f"}]}`,
	`{"nodes":[{"i\u0064":"a","source_file":"f"}]}`,
	`{"nodes":[{"id":"a","source_file":"f","source_file":null}]}`,
	`{"nodes":[{"id":"a","source_file":null,"source_file":"g"}]}`,
	`{"nodes":[{"id":"a","id":null,"source_file":""}]}`,
	`{"nodes":[{"id":"","source_file":""}]}`, `{"nodes":[null]}`, `{"nodes":[1]}`, `{"nodes":[{"id":5,"source_file":""}]}`,
	`{"nodes":[{"id":"a","source_file":"","span":{"start_line":1},"span":{"end_line":2}}]}`,
	`{"nodes":[{"id":"a","source_file":"","span":{"start_line":1},"span":null}]}`,
	`{"nodes":[{"id":"a","source_file":"","span":{"start_line":1.0}}]}`,
	`{"nodes":[{"id":"a","source_file":"","span":{"start_line":1e2}}]}`,
	`{"nodes":[{"id":"a","source_file":"","span":{"start_line":-0,"END_COL":99999999999}}]}`,
	`{"nodes":[{"id":"a","source_file":"","span":{"start_line":99999999999999999999}}]}`,
	`{"nodes":[{"id":"a","source_file":"","community":3,"community":null}]}`,
	`{"nodes":[{"id":"a","source_file":"","community":3,"community":4}]}`,
	`{"nodes":[{"id":"a","source_file":"","_is_test":true,"_is_test":null}]}`,
	`{"nodes":[{"id":"a","source_file":"","_is_test":"yes"}]}`,
	`{"nodes":[{"id":"a","source_file":"","signature":{"params":[{"name":"x","type_ref":"int"},{"name":"y"}],"raw":"f"},"signature":{"params":[{"type_ref":"T"}]}}]}`,
	`{"nodes":[{"id":"a","source_file":"","signature":{"params":[{"name":"x"},{"name":"y"}]},"signature":{"params":[{"name":"z"}]},"signature":{"params":[null,{"type_ref":"T"}]}}]}`,
	`{"nodes":[{"id":"a","source_file":"","signature":{"params":[{"name":"x"}]},"signature":{"params":[]}}]}`,
	`{"nodes":[{"id":"a","source_file":"","signature":{"params":null,"Raw":"r","extra":1}}]}`,
	`{"nodes":[{"id":"a","source_file":"","norm_label":"x","generated":true,"Norm_Label":"y","zz":{"b":1,"a":[1,2]}}]}`,
	`{"nodes":[{"id":"a","source_file":"","x":1,"x":null}]}`,
	// strings
	`{"nodes":[{"id":"a\u00e9\ud83d\ude00\ud800x\udc00\u0000","label":"\"\\\/\b\f\n\r\t","source_file":""}]}`,
	"{\"nodes\":[{\"id\":\"a\xff\xfe\xed\xa0\x80b\",\"label\":\"\xe2\x82\",\"source_file\":\"\"}]}",
	"{\"nodes\":[{\"id\":\"a\x01\",\"source_file\":\"\"}]}",
	`{"nodes":[{"id":"a\x","source_file":""}]}`, `{"nodes":[{"id":"a\u12g4","source_file":""}]}`,
	"{\"nodes\":[{\"\xffkey\":1,\"id\":\"a\",\"source_file\":\"\"}]}",
	// edges
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"INFERRED","confidence_score":0.25,"weight":null,"source_file":"x"}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"AMBIGUOUS","confidence_score":1e-400,"weight":-0,"Context":"c","extra":[1]}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","weight":1e400}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"SURE"}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"b","relation":"calls","confidence":"EXTRACTED"}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","confidence":"EXTRACTED"}]}`,
	`{"nodes":[` + minNode + `],"links":[null]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","sites":[{"source_file":"f","source_location":"L1"},{"source_file":"g"}],"sites":[{"source_file":"h"},null,{"source_location":"L9"}]}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","sites":[]}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","sites":{}}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","source":null,"target":"a","relation":"calls","confidence":"EXTRACTED","confidence_score":0.5,"confidence_score":null}]}`,
	`{"nodes":[` + minNode + `],"links":[{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","sites":[{"source_file":"f","source_location":"L1"},{"source_file":"f2","source_location":"L2"}]},{"source":"a","target":"a","relation":"calls","confidence":"EXTRACTED","sites":[{"source_file":"g"},{}]}]}`,
	`{"nodes":[{"id":"a","source_file":"","signature":{"params":[{"name":"x","type_ref":"int"}]}},{"id":"b","source_file":"","signature":{"params":[{"name":"y"}]}}]}`,
	// syntax
	`{"nodes":[]`, `{"nodes":[],}`, `{"nodes":[,]}`, `{"nodes":[] "x":1}`, `{"nodes":[]}x`, `{"nodes":[]}{}`, `{nodes:[]}`,
	`{"nodes":[],"x":01}`, `{"nodes":[],"x":1.}`, `{"nodes":[],"x":-}`, `{"nodes":[],"x":1e}`, `{"nodes":[],"x":+1}`, `{"nodes":[],"x":tru}`,
	`{"nodes":[],"x":nul}`, `{"nodes":[],"x":"\'"}`, `{"nodes":[],"x":[1,]}`, `{"nodes":[],"x":{"a"}}`, "{\"nodes\":[],\"x\":\"a\tb\"}",
	`{"nodes":[],"x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}`,
	`{"nodes":[],"x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"nodes":[{"id":"a","source_file":"","x":` + strings.Repeat("[", 9997) + strings.Repeat("]", 9997) + `}]}`,
	`{"nodes":[{"id":"a","source_file":"","x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}]}`,
	"{\"nodes\":[]}\x00",
}

func TestParseMatchesEncodingJSON(t *testing.T) {
	for _, q := range quirks {
		checkDifferential(t, []byte(q))
	}
	var buf bytes.Buffer
	g := sample()
	g.Canonicalize()
	_ = Write(&buf, g)
	checkDifferential(t, buf.Bytes())
	// Every prefix of a real file is rejected, as encoding/json rejects it.
	full := bytes.TrimSpace(buf.Bytes())
	for i := 0; i < len(full); i++ {
		if _, err := Parse(full[:i]); err == nil {
			t.Fatalf("prefix of %d bytes accepted", i)
		}
	}
}

func TestParseErrorOffset(t *testing.T) {
	_, err := Parse([]byte(`{"nodes": [{"id": "a", "label": "a", "file_type": "code", "source_file": "x"`))
	if err == nil || !strings.Contains(err.Error(), "at byte 76") {
		t.Errorf("truncated file: %v, want an error at byte 76", err)
	}
	_, err = Parse([]byte(`{"nodes": [}`))
	if err == nil || !strings.Contains(err.Error(), "at byte 11") {
		t.Errorf("bad byte: %v, want an error at byte 11", err)
	}
}

// TestParseDoesNotRetainInput checks that decoded strings are copies:
// callers may reuse the buffer they parsed.
func TestParseDoesNotRetainInput(t *testing.T) {
	var buf bytes.Buffer
	g := sample()
	g.Canonicalize()
	_ = Write(&buf, g)
	data := bytes.Clone(buf.Bytes())
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range data {
		data[i] = 'X'
	}
	if d := sameGraph(g, got); d != "" {
		// sample() built fresh has no norm_label and Weight 0; compare the
		// written form instead.
		var again bytes.Buffer
		_ = Write(&again, got)
		if !bytes.Equal(again.Bytes(), buf.Bytes()) {
			t.Fatalf("graph changed after the input buffer was overwritten")
		}
	}
}

func TestParseInterns(t *testing.T) {
	in := `{"nodes":[{"id":"a","source_file":"x.go","kind":"function"},{"id":"b","source_file":"x.go","kind":"function"}],
	"links":[{"source":"a","target":"b","relation":"calls","confidence":"EXTRACTED","source_file":"x.go"},
	         {"source":"b","target":"a","relation":"calls","confidence":"EXTRACTED","source_file":"x.go"}]}`
	g, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b string) bool { return a != "" && a == b && stringData(a) == stringData(b) }
	if !same(g.Nodes[0].SourceFile, g.Nodes[1].SourceFile) || !same(g.Nodes[0].SourceFile, g.Edges[1].SourceFile) {
		t.Error("source_file not interned")
	}
	if !same(g.Edges[0].Target, g.Nodes[1].ID) || !same(g.Edges[1].Source, g.Nodes[1].ID) {
		t.Error("endpoints do not share the node id strings")
	}
	if !same(g.Edges[0].Relation, g.Edges[1].Relation) || !same(g.Nodes[0].Kind, g.Nodes[1].Kind) {
		t.Error("relation/kind not interned")
	}
}

func FuzzParseDifferential(f *testing.F) {
	for _, q := range quirks {
		f.Add([]byte(q))
	}
	var buf bytes.Buffer
	g := sample()
	g.Canonicalize()
	_ = Write(&buf, g)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDifferential(t, data)
	})
}

// benchGraphPath is the graph.json of $(go env GOROOT)/src, if present.
func benchGraphPath(b *testing.B) string {
	p := os.Getenv("SYNAPTIC_BENCH_GRAPH")
	if p == "" {
		p = "/tmp/gosrc-out/graph.json"
	}
	if _, err := os.Stat(p); err != nil {
		b.Skipf("no benchmark graph at %s (set SYNAPTIC_BENCH_GRAPH or extract $(go env GOROOT)/src to /tmp/gosrc-out)", p)
	}
	return p
}

// parseBenchGraph parses the benchmark graph (see benchGraphPath) and
// returns it with its bytes.
func parseBenchGraph(b *testing.B) (*Graph, []byte) {
	data, err := os.ReadFile(benchGraphPath(b))
	if err != nil {
		b.Fatal(err)
	}
	g, err := Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	return g, data
}

func BenchmarkParseGoroot(b *testing.B) {
	data, err := os.ReadFile(benchGraphPath(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// BenchmarkNewIndex indexes the GOROOT/src graph: "lookup" builds
// everything from the graph (any Graph), "after-parse" right after Parse,
// taking the id map and endpoints Parse found.
func BenchmarkNewIndex(b *testing.B) {
	g, data := parseBenchGraph(b)
	NewIndex(g) // takes the hand-off
	b.Run("lookup", func(b *testing.B) {
		b.ReportAllocs()
		c0 := cputime.Process()
		for b.Loop() {
			NewIndex(g)
		}
		reportCPU(b, c0)
	})
	b.Run("after-parse", func(b *testing.B) {
		b.ReportAllocs()
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			g, err := Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			c0 := cputime.Process()
			b.StartTimer()
			NewIndex(g)
			cpu += cputime.Process() - c0
		}
		b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
	})
}

func reportCPU(b *testing.B, since time.Duration) {
	b.ReportMetric(float64(cputime.Process()-since)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkParseGorootEncodingJSON is the reader Parse replaced, for the
// before/after ratio in one run.
func BenchmarkParseGorootEncodingJSON(b *testing.B) {
	data, err := os.ReadFile(benchGraphPath(b))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	c0 := cputime.Process()
	for b.Loop() {
		if _, err := parseRef(data); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, c0)
}

// bigGraph writes a graph whose record arrays are large enough to be
// decoded on their own goroutines.
func bigGraph(n int) []byte { return bigGraphLinks(n, -1) }

// bigGraphLinks is bigGraph with at most links links (-1: all).
func bigGraphLinks(n, links int) []byte {
	g := &Graph{Directed: true}
	for i := range n {
		nd := Node{ID: fmt.Sprintf("n%05d", i), Label: fmt.Sprintf("F%d()", i%300), FileType: "code",
			SourceFile: fmt.Sprintf("p/f%d.go", i/20), SourceLocation: fmt.Sprintf("L%d", i%50), Kind: "function", Language: "go"}
		if i%3 == 0 {
			nd.Span = &Span{1, 2, 3, 4}
			nd.Signature = &Signature{Params: []Param{{"x", "int"}}, Raw: fmt.Sprintf("func F%d(x int)", i)}
		}
		if i%7 == 0 {
			nd.Doc = fmt.Sprintf("F%d does \"thing\" %d.", i, i)
		}
		if i%100 == 0 {
			nd.Extra = map[string]json.RawMessage{"generated": json.RawMessage("true")}
		}
		g.Nodes = append(g.Nodes, nd)
		for k := 1; k <= 3; k++ {
			e := Edge{Source: nd.ID, Target: fmt.Sprintf("n%05d", (i*7+k*13)%n), Relation: "calls", Confidence: Extracted,
				SourceFile: nd.SourceFile, SourceLocation: fmt.Sprintf("L%d", k)}
			if k == 2 {
				e.Sites = []Site{{nd.SourceFile, "L99"}}
			}
			g.Edges = append(g.Edges, e)
		}
	}
	if links >= 0 {
		g.Edges = g.Edges[:links]
	}
	g.Canonicalize()
	var buf bytes.Buffer
	_ = Write(&buf, g)
	return buf.Bytes()
}

func TestParseParallel(t *testing.T) {
	defer func(old int) { parallelMin = old }(parallelMin)
	data := bigGraph(3 * parallelMin)
	checkDifferential(t, data)
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	// Endpoints share the node id strings even though links and nodes were
	// interned by different decoders.
	x := NewIndex(g)
	for i := range g.Edges {
		s, d := x.Ends(int32(i))
		if stringData(g.Edges[i].Source) != stringData(g.Nodes[s].ID) || stringData(g.Edges[i].Target) != stringData(g.Nodes[d].ID) {
			t.Fatalf("edge %d endpoints are copies of the node ids", i)
		}
	}
	sameIndex(t, x, NewIndex(g))

	// Nothing points into the input once Parse returns (the links decoder
	// borrows ids from it while it runs).
	scratch := bytes.Clone(data)
	g2, err := Parse(scratch)
	if err != nil {
		t.Fatal(err)
	}
	for i := range scratch {
		scratch[i] = '#'
	}
	var again bytes.Buffer
	if err := Write(&again, g2); err != nil || !bytes.Equal(again.Bytes(), data) {
		t.Fatal("graph changed when the parsed buffer was overwritten")
	}

	// Broken big arrays: syntax errors inside (fatal, with an offset),
	// records that do not fit, dangling endpoints, truncation.
	links := bytes.Index(data, []byte(`"links": [`))
	nodes := bytes.Index(data, []byte(`"nodes": [`))
	mid := func(at int) int { return at + (len(data)-at)/3 }
	breakAt := func(at int, repl string) []byte {
		pat := `"relation":"calls"`
		if !strings.HasPrefix(repl, pat) {
			pat = `"kind":"function"`
		}
		i := bytes.Index(data[at:], []byte(pat))
		out := bytes.Clone(data[:at+i])
		out = append(out, repl...)
		return append(out, data[at+i+len(pat):]...)
	}
	bad := map[string][]byte{
		"truncated in links":  data[:mid(links)],
		"truncated in nodes":  data[:mid(nodes)],
		"syntax in links":     breakAt(links+1000, `"relation":"calls",,`),
		"syntax in nodes":     breakAt(nodes+1000, `"kind":"function",,`),
		"semantic in links":   breakAt(links+1000, `"relation":"calls", "weight":"x"`),
		"semantic in nodes":   breakAt(nodes+1000, `"kind":"function", "span":[]`),
		"dangling":            bytes.Replace(data, []byte(`"target":"n00013"`), []byte(`"target":"nope"`), 1),
		"nodes array is null": bytes.Replace(data, []byte(`"nodes": [`), []byte(`"nodes": null, "x": [`), 1),
	}
	for name, in := range bad {
		_, err := Parse(in)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		checkDifferential(t, in)
		if _, syntax := errors.AsType[*syntaxError](err); syntax != (strings.HasPrefix(name, "syntax") || strings.HasPrefix(name, "truncated")) {
			t.Errorf("%s: %v (syntax error: %v)", name, err, syntax)
		}
		if strings.HasPrefix(name, "syntax") || strings.HasPrefix(name, "truncated") {
			if !strings.Contains(err.Error(), "at byte") {
				t.Errorf("%s: %v has no offset", name, err)
			}
		}
	}
}

// TestParseMixed has a large nodes array on its own decoder and a small
// links array decoded inline by the top level.
func TestParseMixed(t *testing.T) {
	data := bigGraphLinks(2*parallelMin, 50)
	checkDifferential(t, data)
	g, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	x := NewIndex(g)
	for i := range g.Edges {
		s, d := x.Ends(int32(i))
		if s < 0 || stringData(g.Edges[i].Source) != stringData(g.Nodes[s].ID) || stringData(g.Edges[i].Target) != stringData(g.Nodes[d].ID) {
			t.Fatalf("edge %d endpoints not resolved to the node ids", i)
		}
	}
	sameIndex(t, x, NewIndex(g))
	bad := bytes.Replace(data, []byte(`"target":"`), []byte(`"target":"x`), 1)
	if _, err := Parse(bad); err == nil || !strings.Contains(err.Error(), "is not a node") {
		t.Errorf("dangling target: %v", err)
	}
}

// TestParseAllParallel runs the quirks with every array on a goroutine.
func TestParseAllParallel(t *testing.T) {
	defer func(old int) { parallelMin = old }(parallelMin)
	parallelMin = 0
	for _, q := range quirks {
		checkDifferential(t, []byte(q))
	}
}

// TestStringEnd holds the quote-to-quote scan to the byte-by-byte one it
// replaced: a backslash escapes the next byte, whatever it is.
func TestStringEnd(t *testing.T) {
	naive := func(data []byte, open int) int {
		i := open + 1
		for ; i < len(data); i++ {
			if c := data[i]; c == '"' {
				break
			} else if c == '\\' {
				i++
			}
		}
		return min(i, len(data))
	}
	cases := []string{`""`, `"a"`, `"a\"b"`, `"a\\"b"`, `"a\\\"b"x"`, `"\\\\"`, `"abc`, `"ab\`, `"\"`, `"x\\\\\"y"z"`}
	rnd := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte{'a', '"', '\\', 'b'}
	for range 2000 {
		b := []byte{'"'}
		for range rnd.IntN(12) {
			b = append(b, alphabet[rnd.IntN(len(alphabet))])
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		if got, want := stringEnd([]byte(c), 0), naive([]byte(c), 0); got != want {
			t.Errorf("stringEnd(%q) = %d, want %d", c, got, want)
		}
	}
}
