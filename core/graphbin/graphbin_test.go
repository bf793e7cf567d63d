package graphbin

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// fixtures are real graph.json files: the tools' test graph (extracted
// from a real tree) and, when set, $SYNAPTIC_BENCH_GRAPH (e.g. the graph of
// GOROOT/src).
var fixtures = []string{"../tools/testdata/real/graph.json"}

func init() {
	if p := os.Getenv("SYNAPTIC_BENCH_GRAPH"); p != "" {
		fixtures = append(fixtures, p)
	}
}

func parseFixture(t testing.TB, path string) ([]byte, *graph.Graph) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return data, g
}

func headerOf(data []byte) Header {
	return Header{JSONSize: int64(len(data)), JSONSum: sha256.Sum256(data)}
}

// TestRoundTripFixtures: the sidecar of a parsed graph.json decodes to
// the very Graph graph.Parse returned, and encoding is deterministic.
func TestRoundTripFixtures(t *testing.T) {
	for _, p := range fixtures {
		t.Run(p, func(t *testing.T) {
			data, g := parseFixture(t, p)
			h := headerOf(data)
			bin := Encode(g, h)
			got, gh, err := Decode(bin)
			if err != nil {
				t.Fatal(err)
			}
			if gh != h {
				t.Errorf("header %+v, want %+v", gh, h)
			}
			if !reflect.DeepEqual(got, g) {
				t.Fatal("decoded graph differs from the parsed graph.json")
			}
			if again := Encode(got, h); !bytes.Equal(again, bin) {
				t.Error("encoding the decoded graph gave other bytes")
			}
			t.Logf("sidecar %d bytes, graph.json %d", len(bin), len(data))
		})
	}
}

// TestEveryFieldRoundTrips fills every field of Graph, Node and Edge
// (found by reflection, so a field added later without a sidecar slot
// fails here) and checks they all survive, nil and empty kept apart.
func TestEveryFieldRoundTrips(t *testing.T) {
	for _, variant := range []string{"full", "empty"} {
		g := &graph.Graph{}
		fill(reflect.ValueOf(g).Elem(), variant == "empty")
		// Endpoints: one a node id, one not (a graph made in memory may
		// carry dangling edges).
		g.Nodes[0].ID = "n0"
		g.Edges[0].Source, g.Edges[0].Target = "n0", "elsewhere"
		bin := Encode(g, Header{JSONSize: 7})
		got, _, err := Decode(bin)
		if err != nil {
			t.Fatalf("%s: %v", variant, err)
		}
		if !reflect.DeepEqual(got, g) {
			t.Errorf("%s: round trip lost something:\n got %#v\nwant %#v", variant, got, g)
		}
	}
}

// fill sets every field of v to a distinctive non-zero value; with empty,
// slices and maps are empty but not nil.
func fill(v reflect.Value, empty bool) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("s-" + v.Type().Name() + "-" + string(rune('a'+v.Len()%26)))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(-42)
	case reflect.Float64:
		v.SetFloat(0.25)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), empty)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), empty)
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[json.RawMessage]() {
			v.SetBytes([]byte(`{"x":1}`))
			return
		}
		n := 2
		if empty {
			n = 0
		}
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(v.Index(i), empty)
		}
		if v.Type() == reflect.TypeFor[[]graph.Node]() || v.Type() == reflect.TypeFor[[]graph.Edge]() {
			if n == 0 { // records are always needed for the endpoint checks
				v.Set(reflect.MakeSlice(v.Type(), 1, 1))
				fill(v.Index(0), empty)
			}
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		if !empty {
			v.SetMapIndex(reflect.ValueOf("k1"), reflect.ValueOf(json.RawMessage(`[1]`)))
			v.SetMapIndex(reflect.ValueOf("k0"), reflect.ValueOf(json.RawMessage(`"v"`)))
		}
	default:
		panic("fill: unhandled kind " + v.Kind().String())
	}
}

// TestRefused: every damage to a sidecar is an ErrCorrupt, never a
// different graph; a sidecar of another graph.json is ErrStale.
func TestRefused(t *testing.T) {
	data, g := parseFixture(t, fixtures[0])
	h := headerOf(data)
	good := Encode(g, h)
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic", mutate(func(b []byte) []byte { b[0] = 'X'; return b })},
		{"version", mutate(func(b []byte) []byte { b[8] = 99; return b })},
		{"truncated", good[:len(good)-1]},
		{"header only", good[:headerSize]},
		{"extended", append(bytes.Clone(good), 0)},
		{"bit flip in body", mutate(func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b })},
		{"checksum", mutate(func(b []byte) []byte { b[headerSize-1] ^= 1; return b })},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := Decode(tc.data); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
		})
	}
	_, gh, err := Decode(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := gh.Matches(h.JSONSize, h.JSONSum); err != nil {
		t.Errorf("own header: %v", err)
	}
	other := h.JSONSum
	other[0] ^= 1
	if err := gh.Matches(h.JSONSize, other); !errors.Is(err, ErrStale) {
		t.Errorf("other digest: %v, want ErrStale", err)
	}
	if err := gh.Matches(h.JSONSize+1, h.JSONSum); !errors.Is(err, ErrStale) {
		t.Errorf("other size: %v, want ErrStale", err)
	}
}

// FuzzDecode: any bytes either fail with ErrCorrupt or decode to a graph
// whose own sidecar decodes to the same graph. The checksum is fixed up
// first, so the fuzzer reaches the record decoder.
func FuzzDecode(f *testing.F) {
	for _, p := range fixtures[:1] {
		data, g := parseFixture(f, p)
		f.Add(Encode(g, headerOf(data)))
	}
	g := &graph.Graph{}
	fill(reflect.ValueOf(g).Elem(), false)
	f.Add(Encode(g, Header{}))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, body, err := ReadHeader(data); err == nil {
			data = appendHeader(nil, Header{}, body)
			data = append(data, body...)
		}
		g, _, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is not ErrCorrupt", err)
			}
			return
		}
		g2, _, err := Decode(Encode(g, Header{}))
		if err != nil {
			t.Fatalf("re-encoded graph does not decode: %v", err)
		}
		if !reflect.DeepEqual(g, g2) {
			t.Fatal("re-encoded graph differs")
		}
	})
}

// BenchmarkLoad compares starting from the sidecar with parsing the
// graph.json it mirrors (the baseline), on $SYNAPTIC_BENCH_GRAPH (a
// graph.json of GOROOT/src) or the largest fixture.
//
//	SYNAPTIC_BENCH_GRAPH=/tmp/gosrc-out/graph.json go test -run '^$' -bench BenchmarkLoad ./core/graphbin
func BenchmarkLoad(b *testing.B) {
	path := os.Getenv("SYNAPTIC_BENCH_GRAPH")
	if path == "" {
		path = fixtures[0]
	}
	data, g := parseFixture(b, path)
	bin := Encode(g, headerOf(data))
	b.Run("graph.json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := graph.Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("sidecar", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, _, err := Decode(bin); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		for b.Loop() {
			Encode(g, Header{})
		}
	})
	b.ReportMetric(float64(len(bin))/float64(len(data)), "sidecar/json")
}

// TestEncodeIndexedSameBytes: encoding through the index gives EncodeBody's
// bytes, on the fixtures and on random graphs with dangling edges,
// duplicate node ids and graphs not in id order (where the index is not
// used).
func TestEncodeIndexedSameBytes(t *testing.T) {
	var graphs []*graph.Graph
	for _, p := range fixtures {
		_, g := parseFixture(t, p)
		graphs = append(graphs, g)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	name := func(n int) string { return "n" + strconv.Itoa(rng.IntN(n)) }
	for i := range 300 {
		g := &graph.Graph{}
		for range rng.IntN(30) {
			g.Nodes = append(g.Nodes, graph.Node{ID: name(40), Label: name(5)})
		}
		for range rng.IntN(100) {
			g.Edges = append(g.Edges, graph.Edge{Source: name(50), Target: name(50), Relation: "calls", SourceLocation: "L" + strconv.Itoa(rng.IntN(3))})
		}
		if i%3 != 0 { // the others keep their duplicate ids and random order
			g.Canonicalize()
		}
		graphs = append(graphs, g)
	}
	for i, g := range graphs {
		want := EncodeBody(g).bytes()
		if got := EncodeBodyIndexed(graph.NewIndex(g)).bytes(); !bytes.Equal(got, want) {
			t.Fatalf("graph %d (%d nodes, %d edges): indexed encoding differs", i, len(g.Nodes), len(g.Edges))
		}
	}
}

// TestWriteToIsEncode: the body written in parts (extract's path) is the
// sidecar Encode returns, checksum included.
func TestWriteToIsEncode(t *testing.T) {
	data, g := parseFixture(t, fixtures[0])
	h := headerOf(data)
	var buf bytes.Buffer
	if err := EncodeBody(g).WriteTo(&buf, h); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), Encode(g, h)) {
		t.Fatal("WriteTo wrote other bytes than Encode")
	}
	if _, _, err := Decode(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
}

// TestDeferredSameBytes: a body encoded before the communities are set and
// finished after is EncodeBody's, checksum and written bytes included, on
// the fixtures and on random graphs with and without communities, spans,
// signatures and extras. The communities set before EncodeDeferred are
// garbage, which it must not read.
func TestDeferredSameBytes(t *testing.T) {
	var graphs []*graph.Graph
	for _, p := range fixtures {
		_, g := parseFixture(t, p)
		graphs = append(graphs, g, &graph.Graph{})
	}
	rng := rand.New(rand.NewPCG(7, 8))
	name := func(n int) string { return "n" + strconv.Itoa(rng.IntN(n)) }
	for i := range 300 {
		g := &graph.Graph{}
		for range rng.IntN(30) {
			n := graph.Node{ID: name(40), Label: name(5)}
			if rng.IntN(2) == 0 {
				n.Span = &graph.Span{StartLine: rng.IntN(9), EndLine: rng.IntN(9)}
			}
			if rng.IntN(3) == 0 {
				n.Signature = &graph.Signature{Raw: name(4), Params: []graph.Param{{Name: name(3)}}}
			}
			if rng.IntN(4) == 0 {
				n.Extra = map[string]json.RawMessage{name(3): json.RawMessage(`1`)}
			}
			g.Nodes = append(g.Nodes, n)
		}
		for range rng.IntN(100) {
			g.Edges = append(g.Edges, graph.Edge{Source: name(50), Target: name(50), Relation: "calls", SourceLocation: "L" + strconv.Itoa(rng.IntN(3))})
		}
		if i%3 != 0 {
			g.Canonicalize()
		}
		graphs = append(graphs, g)
	}
	for i, g := range graphs {
		comms := make([]*int, len(g.Nodes))
		for j := range g.Nodes {
			if i == 0 || rng.IntN(5) > 0 {
				c := rng.IntN(1<<(1+rng.IntN(40))) - 1<<20
				comms[j] = &c
			}
			garbage := rng.IntN(1 << 30)
			g.Nodes[j].Community = &garbage
			if rng.IntN(2) == 0 {
				g.Nodes[j].Community = nil
			}
		}
		d := EncodeDeferred(graph.NewIndex(g))
		for j := range g.Nodes {
			g.Nodes[j].Community = comms[j]
		}
		got, want := d.Finish(), EncodeBody(g)
		if !bytes.Equal(got.bytes(), want.bytes()) || got.crc != want.crc || got.size != want.size {
			t.Fatalf("graph %d (%d nodes, %d edges): deferred encoding differs", i, len(g.Nodes), len(g.Edges))
		}
		var gw, ww bytes.Buffer
		if err := got.WriteTo(&gw, Header{JSONSize: 9}); err != nil {
			t.Fatal(err)
		}
		if err := want.WriteTo(&ww, Header{JSONSize: 9}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gw.Bytes(), ww.Bytes()) {
			t.Fatalf("graph %d: deferred body writes other bytes", i)
		}
	}
}
