package analysis

import (
	"slices"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// structural lists the relations that shape communities and their weight.
// They are the relations that say "these symbols are built together":
// containment (file->symbol, package->file, class->method), calls, type
// references and type relations, and module imports between project files.
// Left out on purpose:
//   - imports: a file -> external tail stub; thousands of files importing
//     "fmt" would glue unrelated code together through the stub.
//   - calls_sdk and the semantic-overlay relations (semantically_similar_to,
//     conceptually_related_to): they are guesses about meaning, not structure.
//   - anything unknown to this list: a new relation should be added here
//     deliberately, not count by accident.
//
// Edges touching an external stub (source_file "") never count either; the
// stubs are attached afterwards to the community most of their neighbours
// are in (see attachStubs), so they get a community without steering the
// partition.
var structural = map[string]float64{
	"contains":      1,
	"method":        1,
	"calls":         1,
	"references":    1,
	"inherits":      1,
	"implements":    1,
	"embeds":        1,
	"mixes_in":      1,
	"extends":       1,
	"imports_from":  1,
	"re_exports":    1,
	"rationale_for": 1,
	"uses":          1,
	"depends_on":    1,
	"reads_from":    1,
	"writes_to":     1,
	"queries":       1,
	"triggers":      1,
	"has_column":    1,
	"has_index":     1,
	"indexes":       1,
}

// csr is an undirected weighted graph in compressed sparse row form over
// dense node numbers 0..n-1. Each undirected edge appears in both rows, with
// no self-loops and no duplicates. k holds node strengths (for an aggregated
// graph, including the weight inside the node) and m2 their sum (2m).
type csr struct {
	off []int32 // row i is adj[off[i]:off[i+1]]
	adj []int32
	w   []float64
	k   []float64
	m2  float64
}

func (g *csr) n() int { return len(g.k) }

// view is the partitioning view of an Index: nodes in sorted-id order (so
// the result does not depend on input order), which of them take part, and
// the structural graph over those ranks.
type view struct {
	x     *graph.Index
	order []int32 // rank -> node index, sorted by node id
	rank  []int32 // node index -> rank
	stub  []bool  // by rank: external stub, left out of partitioning
	g     *csr    // over ranks; stubs are present but have no edges
}

// newView builds the sorted order and the structural CSR.
func newView(x *graph.Index) *view {
	n := x.Len()
	v := &view{x: x, stub: make([]bool, n)}
	v.order, v.rank = byID(x)
	for r, i := range v.order {
		v.stub[r] = x.Node(i).SourceFile == ""
	}
	v.g = buildCSR(n, func(emit func(a, b int32, w float64)) {
		// Relations repeat from edge to edge: a compare with the last one
		// (one shared string, in practice) saves most map probes.
		lastRel, lastW, lastOK := "", 0.0, false
		for e := range len(x.G.Edges) {
			ed := x.Edge(int32(e))
			if ed.Relation != lastRel || lastRel == "" {
				lastRel = ed.Relation
				lastW, lastOK = structural[lastRel]
			}
			rw, ok := lastW, lastOK
			if !ok {
				continue
			}
			s, t := x.Ends(int32(e))
			if s < 0 || s == t {
				continue
			}
			a, b := v.rank[s], v.rank[t]
			if v.stub[a] || v.stub[b] {
				continue
			}
			w := ed.Weight
			if w <= 0 {
				w = 1
			}
			emit(a, b, rw*w)
		}
	})
	return v
}

type half struct {
	to int32
	w  float64
}

// buildCSR collects undirected edges (each emitted once) into a CSR. Rows
// are sorted by neighbour and then weight before duplicates are summed, so
// the float sums, and everything after, are independent of emit order.
// The rows are laid out in adj and w themselves and compacted in place,
// each through a scratch row of the longest row's size: a separate array
// of every half-edge cost 19 MB a partition on GOROOT/src.
func buildCSR(n int, edges func(emit func(a, b int32, w float64))) *csr {
	deg := make([]int32, n+1)
	edges(func(a, b int32, _ float64) { deg[a]++; deg[b]++ })
	off := make([]int32, n+1)
	longest := int32(0)
	for i := range n {
		off[i+1] = off[i] + deg[i]
		longest = max(longest, deg[i])
	}
	g := &csr{off: make([]int32, n+1), adj: make([]int32, off[n]), w: make([]float64, off[n]), k: make([]float64, n)}
	fill := deg[:n] // reused as each row's fill position
	copy(fill, off)
	edges(func(a, b int32, w float64) {
		g.adj[fill[a]], g.w[fill[a]] = b, w
		fill[a]++
		g.adj[fill[b]], g.w[fill[b]] = a, w
		fill[b]++
	})
	row := make([]half, 0, longest)
	out := int32(0) // compacted rows so far; never past the row being read
	for i := range n {
		row = row[:0]
		for j := off[i]; j < off[i+1]; j++ {
			row = append(row, half{g.adj[j], g.w[j]})
		}
		slices.SortFunc(row, func(p, q half) int {
			if p.to != q.to {
				return int(p.to - q.to)
			}
			switch {
			case p.w < q.w:
				return -1
			case p.w > q.w:
				return 1
			}
			return 0
		})
		for j := 0; j < len(row); {
			to, w := row[j].to, 0.0
			for ; j < len(row) && row[j].to == to; j++ {
				w += row[j].w
			}
			g.adj[out], g.w[out] = to, w
			out++
			g.k[i] += w
		}
		g.off[i+1] = out
	}
	g.adj, g.w = g.adj[:out:out], g.w[:out:out]
	for _, k := range g.k {
		g.m2 += k
	}
	return g
}
