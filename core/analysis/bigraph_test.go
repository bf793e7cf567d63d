package analysis

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// bigGraphPath is where an extraction of $(go env GOROOT)/src is expected;
// SYNAPTIC_BIG_GRAPH overrides it.
func bigGraphPath() string {
	if p := os.Getenv("SYNAPTIC_BIG_GRAPH"); p != "" {
		return p
	}
	return "/tmp/gosrc-out/graph.json"
}

var big struct {
	once sync.Once
	x    *graph.Index
	name string
}

// bigIndex returns the real big graph when present, else a deterministic
// synthetic one of similar shape (smaller, so it stays quick).
func bigIndex(tb testing.TB) (*graph.Index, string) {
	tb.Helper()
	big.once.Do(func() {
		p := bigGraphPath()
		if g, err := graph.ReadFile(p); err == nil {
			big.x, big.name = graph.NewIndex(g), p
			return
		}
		g := synthetic(400, 25)
		big.x, big.name = graph.NewIndex(g), fmt.Sprintf("synthetic (%d nodes)", len(g.Nodes))
	})
	return big.x, big.name
}

// synthetic builds a deterministic repository-shaped graph: dirs packages
// of files files each, with functions that call mostly within their file and
// package and sometimes across packages, test files calling into their
// package, and imports between files of related packages.
func synthetic(dirs, files int) *graph.Graph {
	g := &graph.Graph{Directed: true}
	rng := uint64(88172645463325252)
	next := func(n int) int { // xorshift: deterministic, no math/rand
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return int(rng % uint64(n))
	}
	const funcs = 6
	fn := func(d, f, i int) string { return fmt.Sprintf("d%03d_f%02d_fn%d", d, f, i) }
	file := func(d, f int) string { return fmt.Sprintf("d%03d_f%02d_go", d, f) }
	edge := func(s, t, rel string, sf string) {
		g.Edges = append(g.Edges, graph.Edge{Source: s, Target: t, Relation: rel, Confidence: graph.Extracted, SourceFile: sf, Weight: 1})
	}
	for d := range dirs {
		pkg := fmt.Sprintf("d%03d_package", d)
		dir := fmt.Sprintf("top%d/d%03d", d%7, d)
		g.Nodes = append(g.Nodes, graph.Node{ID: pkg, Label: fmt.Sprintf("d%03d", d), Kind: "package", SourceFile: dir + "/f00.go", FileType: "code"})
		for f := range files {
			sf := fmt.Sprintf("%s/f%02d.go", dir, f)
			test := f == files-1
			if test {
				sf = fmt.Sprintf("%s/f%02d_test.go", dir, f)
			}
			g.Nodes = append(g.Nodes, graph.Node{ID: file(d, f), Label: path2base(sf), Kind: "file", SourceFile: sf, FileType: "code", IsTest: test})
			edge(pkg, file(d, f), "contains", sf)
			for i := range funcs {
				g.Nodes = append(g.Nodes, graph.Node{ID: fn(d, f, i), Label: fmt.Sprintf("Fn%d_%d_%d()", d, f, i), Kind: "function", SourceFile: sf, FileType: "code", IsTest: test})
				edge(file(d, f), fn(d, f, i), "contains", sf)
				for range 2 {
					switch r := next(100); {
					case r < 55:
						edge(fn(d, f, i), fn(d, f, next(funcs)), "calls", sf)
					case r < 90:
						edge(fn(d, f, i), fn(d, next(files), next(funcs)), "calls", sf)
					default:
						edge(fn(d, f, i), fn(next(dirs), next(files), next(funcs)), "calls", sf)
					}
				}
			}
			if next(3) == 0 {
				edge(file(d, f), fmt.Sprintf("d%03d_package", (d+1+next(3))%dirs), "imports_from", sf)
			}
		}
	}
	g.Canonicalize()
	return g
}

func path2base(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
