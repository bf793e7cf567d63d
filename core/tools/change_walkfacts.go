package tools

import (
	"maps"
	"path"
	"slices"
	"strings"

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
	// Per file, once: its directory and whether it is a test path (the
	// string work graph.IsTestNode would redo for every node).
	type fileFacts struct {
		dir      int32
		testPath bool
	}
	member := s.p.relSet(func(rel string) bool { return memberRelations[rel] })
	files := map[string]*fileFacts{}
	dirs := map[string]int32{}
	for i := range int32(n) {
		nd := s.x.Node(i)
		ff := files[nd.SourceFile]
		if ff == nil {
			dir := path.Dir(nd.SourceFile)
			id, ok := dirs[dir]
			if !ok {
				id = int32(len(dirs))
				dirs[dir] = id
			}
			ff = &fileFacts{dir: id, testPath: nd.SourceFile != "" && graph.IsTestPath(nd.SourceFile)}
			files[nd.SourceFile] = ff
		}
		f.test[i] = nd.IsTest || ff.testPath                                                        // graph.IsTestNode
		f.runs[i] = f.test[i] && !(nd.Language == "go" && strings.HasPrefix(nd.Label, "Benchmark")) // runsByDefault
		f.callable[i] = isCallable(nd.Kind)
		f.internal[i] = nd.Visibility == "private" && f.callable[i]
		f.dir[i] = ff.dir
		f.ownerType[i] = s.ownerVia(i, member)
		f.owner[i], f.dynamic[i] = s.dispatchableIn(d, i, f.ownerType[i])
	}
	rank := map[string]int32{}
	for k, file := range slices.Sorted(maps.Keys(files)) {
		rank[file] = int32(k)
	}
	for i := range int32(n) {
		f.fileRank[i] = rank[s.x.Node(i).SourceFile]
	}
	return f
}

// ownerVia is ownerType with the member relations as a relation-id mask
// (no string look-up per edge).
func (s *snapshot) ownerVia(i int32, member []bool) int32 {
	for _, e := range s.x.In(i) {
		if o, _ := s.x.Ends(e); member[s.p.relID[e]] && s.methodOwner(o) {
			return o
		}
	}
	return -1
}

func (s *snapshot) walkFacts() *walkFacts { return &s.dispatchIdx().walk }
