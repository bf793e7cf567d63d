package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// synthetic builds a deterministic graph of about n nodes and 5n edges
// shaped like code: files of 20 symbols, every tenth symbol a class owning
// the next few as methods, and call/reference/import edges whose targets
// follow a skewed distribution, so there are hubs with thousands of callers.
func synthetic(n int) *graph.Graph {
	g := &graph.Graph{Directed: true, Nodes: make([]graph.Node, 0, n), Edges: make([]graph.Edge, 0, 5*n)}
	seed := uint64(0x9e3779b97f4a7c15)
	rnd := func() uint64 { // xorshift64*: deterministic, no global state
		seed ^= seed >> 12
		seed ^= seed << 25
		seed ^= seed >> 27
		return seed * 2685821657736338717
	}
	words := []string{"parse", "server", "handle", "request", "token", "cache", "write", "read", "config", "load",
		"graph", "index", "query", "node", "edge", "resolve", "client", "stream", "buffer", "encode"}
	id := func(i int) string { return fmt.Sprintf("n%06d", i) }
	owner := -1
	for i := 0; i < n; i++ {
		file := fmt.Sprintf("pkg%03d/file%04d.go", i/2000, i/20)
		nd := graph.Node{ID: id(i), FileType: "code", SourceFile: file, SourceLocation: fmt.Sprintf("L%d", 1+(i%20)*10)}
		w1, w2 := words[rnd()%uint64(len(words))], words[rnd()%uint64(len(words))]
		switch {
		case i%20 == 0:
			nd.Kind, nd.Label = "file", fmt.Sprintf("file%04d.go", i/20)
		case i%10 == 1:
			nd.Kind, nd.Label = "class", fmt.Sprintf("%s%sType%d", w1, w2, i%97)
			owner = i
		case owner >= 0 && i-owner <= 4:
			nd.Kind, nd.Label = "method", fmt.Sprintf(".%s%s%d()", w1, w2, i%13)
		default:
			nd.Kind, nd.Label = "function", fmt.Sprintf("%s_%s_%d()", w1, w2, i%501)
		}
		g.Nodes = append(g.Nodes, nd)
		if i%20 != 0 {
			g.Edges = append(g.Edges, graph.Edge{Source: id(i - i%20), Target: id(i), Relation: "contains", Confidence: graph.Extracted})
		}
		if nd.Kind == "method" {
			g.Edges = append(g.Edges, graph.Edge{Source: id(owner), Target: id(i), Relation: "method", Confidence: graph.Extracted})
		}
	}
	rels := []string{"calls", "calls", "calls", "calls", "calls", "calls", "references", "references", "imports", "uses"}
	for len(g.Edges) < 5*n {
		src := int(rnd() % uint64(n))
		// Skewed target: squaring a uniform draw favours low indices (hubs).
		u := float64(rnd()%1_000_000) / 1_000_000
		dst := int(u * u * u * float64(n))
		if src == dst {
			continue
		}
		e := graph.Edge{Source: id(src), Target: id(dst), Relation: rels[rnd()%uint64(len(rels))], Confidence: graph.Extracted,
			SourceFile: g.Nodes[src].SourceFile, SourceLocation: g.Nodes[src].SourceLocation}
		g.Edges = append(g.Edges, e)
	}
	g.Canonicalize()
	return g
}

var (
	benchOnce sync.Once
	benchCat  *Catalog
	benchRefs []string
)

// benchCatalog serves the synthetic graph (100k nodes, 500k edges), or the
// graph.json named by $SYNAPTIC_BENCH_GRAPH (e.g. one extracted from
// $(go env GOROOT)/src). The probe set mixes hubs, mid-degree and leaf
// nodes, addressed by id as an agent would after a first lookup.
func benchCatalog(b *testing.B) (*Catalog, []string) {
	benchOnce.Do(func() {
		var g *graph.Graph
		if p := os.Getenv("SYNAPTIC_BENCH_GRAPH"); p != "" {
			var err error
			if g, err = graph.ReadFile(p); err != nil {
				panic(err)
			}
		} else {
			g = synthetic(100_000)
		}
		benchCat = New(Options{})
		benchCat.SetGraph(g)
		x := benchCat.current().x
		order := make([]int32, x.Len())
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, benchCat.current().byDegree)
		for k := 0; k < 64; k++ {
			// Spread over the degree ranking: hubs, then the long tail.
			i := order[(k*k*len(order))/(64*64)]
			benchRefs = append(benchRefs, x.Node(i).ID)
		}
		benchCat.current().queryIndex() // built once per snapshot, not per query
	})
	return benchCat, benchRefs
}

// runLatency calls one tool over the probe set and reports p50/p99.
func runLatency(b *testing.B, tool string, args func(ref string) string) {
	c, refs := benchCatalog(b)
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a := json.RawMessage(args(refs[i%len(refs)]))
		t0 := time.Now()
		r, err := c.Call(ctx, tool, a)
		lat = append(lat, time.Since(t0))
		if err != nil || r.IsError {
			b.Fatalf("%s %s: %v %s", tool, a, err, r.Text)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}

func BenchmarkGetNeighbors(b *testing.B) {
	runLatency(b, "get_neighbors", func(ref string) string { return fmt.Sprintf(`{"label":%q}`, ref) })
}

func BenchmarkAffected(b *testing.B) {
	runLatency(b, "affected", func(ref string) string { return fmt.Sprintf(`{"label":%q}`, ref) })
}

func BenchmarkFindCallers(b *testing.B) {
	runLatency(b, "find_callers", func(ref string) string { return fmt.Sprintf(`{"label":%q}`, ref) })
}

func BenchmarkQueryGraph(b *testing.B) {
	questions := []string{"how does the server handle a request", "parse config", "resolve token cache",
		"where is the graph index written", "stream buffer encode", "handleRequest"}
	k := 0
	runLatency(b, "query_graph", func(string) string {
		k++
		return fmt.Sprintf(`{"question":%q}`, questions[k%len(questions)])
	})
}

func BenchmarkSetGraph(b *testing.B) {
	g := synthetic(100_000)
	c := New(Options{})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.SetGraph(g)
	}
}
