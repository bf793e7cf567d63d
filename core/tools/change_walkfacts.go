package tools

import (
	"maps"
	"path"
	"slices"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// walkFacts are the per-node facts test selection's walks ask of every
// node they pass, computed once per snapshot (with the dispatch index) so
// that a walk through tens of thousands of nodes reads arrays instead of
// re-deriving test paths, directories and method owners per edge.
type walkFacts struct {
	test      []bool  // graph.IsTestNode
	runs      []bool  // runsByDefault
	callable  []bool  // isCallable(kind)
	internal  []bool  // a private callable: its callers in its own directory are inside the package (surfaceImpact hops into it for free)
	dir       []int32 // path.Dir(SourceFile), interned
	fileRank  []int32 // SourceFile's position among the graph's files in byte order
	ownerType []int32 // ownerType
	// owner is the type declaring method i (-1 for a non-method or a
	// method of no type), dynamic whether callers may reach it through an
	// interface: dispatchable's answer.
	owner   []int32
	dynamic []bool
}

func buildWalkFacts(s *snapshot, d *dispatchIndex) walkFacts {
	n := s.x.Len()
	f := walkFacts{test: make([]bool, n), runs: make([]bool, n), callable: make([]bool, n), internal: make([]bool, n),
		dir: make([]int32, n), fileRank: make([]int32, n), ownerType: make([]int32, n), owner: make([]int32, n), dynamic: make([]bool, n)}
	dirs, files := map[string]int32{}, map[string]int32{}
	for i := range int32(n) {
		nd := s.x.Node(i)
		f.test[i] = graph.IsTestNode(nd)
		f.runs[i] = runsByDefault(nd)
		f.callable[i] = isCallable(nd.Kind)
		f.internal[i] = nd.Visibility == "private" && f.callable[i]
		dir := path.Dir(nd.SourceFile)
		id, ok := dirs[dir]
		if !ok {
			id = int32(len(dirs))
			dirs[dir] = id
		}
		f.dir[i] = id
		files[nd.SourceFile] = 0
		f.ownerType[i] = s.ownerType(i)
		f.owner[i], f.dynamic[i] = s.dispatchableIn(d, i)
	}
	for k, file := range slices.Sorted(maps.Keys(files)) {
		files[file] = int32(k)
	}
	for i := range int32(n) {
		f.fileRank[i] = files[s.x.Node(i).SourceFile]
	}
	return f
}

func (s *snapshot) walkFacts() *walkFacts { return &s.dispatchIdx().walk }
