package tools

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/synql"
	"github.com/synaptic-graph/synaptic/core/textsafe"
)

// snapshot is one immutable graph plus everything derived from it. A
// request pins one snapshot, so a reload mid-request cannot mix two graphs.
// Cheap derivations are built eagerly in newSnapshot; expensive ones
// (communities fallback, query index, completion tables) lazily, once.
type snapshot struct {
	g    *graph.Graph
	x    *graph.Index
	p    *perf
	opts Options

	repos []repoCount // sorted by tag; empty for a single-repo graph

	commOnce sync.Once
	comms    map[int][]int32 // community id -> members, highest degree first
	commIDs  []int           // sorted
	commOf   []int           // node -> community id, -1 for none

	queryOnce sync.Once
	qi        *queryIndex

	complOnce sync.Once
	compl     *completer

	repoHashOnce sync.Once
	repoHash     map[string]string

	synqlOnce sync.Once
	synqlEng  *synql.Engine

	dynOnce sync.Once
	dyn     *dynamicIndex

	dispatchOnce sync.Once
	dispatch     *dispatchIndex

	unlinked unlinkedState // unlinked.go
}

type repoCount struct {
	Repo         string
	Nodes, Edges int
}

func newSnapshot(g *graph.Graph, opts Options) *snapshot {
	x := graph.NewIndex(g)
	return newSnapshotOf(x, newPerf(g, x), opts)
}

// newSnapshotOf is the snapshot of an indexed graph with its perf.
func newSnapshotOf(x *graph.Index, p *perf, opts Options) *snapshot {
	g := x.G
	s := &snapshot{g: g, x: x, p: p, opts: opts}
	byRepo := map[string]*repoCount{}
	for i := range g.Nodes {
		if r := g.Nodes[i].Repo; r != "" {
			if byRepo[r] == nil {
				byRepo[r] = &repoCount{Repo: r}
			}
			byRepo[r].Nodes++
		}
	}
	if len(byRepo) > 0 {
		for i := range g.Edges {
			src, _ := s.x.Ends(int32(i))
			if src < 0 {
				continue
			}
			if rc := byRepo[g.Nodes[src].Repo]; rc != nil { // edges count under their source's repo
				rc.Edges++
			}
		}
		for _, rc := range byRepo {
			s.repos = append(s.repos, *rc)
		}
		slices.SortFunc(s.repos, func(a, b repoCount) int { return strings.Compare(a.Repo, b.Repo) })
	}
	return s
}

// byDegree orders nodes highest degree first, then by id: the order every
// list in the catalog uses, so output is deterministic.
func (s *snapshot) byDegree(a, b int32) int {
	return int(s.p.rank[a]) - int(s.p.rank[b])
}

// communities returns the community partition: the ids extraction wrote
// into graph.json, or, for a graph without them, core/analysis's partition
// computed once per snapshot.
func (s *snapshot) communities() (map[int][]int32, []int) {
	s.commOnce.Do(func() {
		s.comms = map[int][]int32{}
		for i := range s.g.Nodes {
			if c := s.g.Nodes[i].Community; c != nil {
				s.comms[*c] = append(s.comms[*c], int32(i))
			}
		}
		if len(s.comms) == 0 && len(s.g.Nodes) > 0 {
			for _, c := range analysis.Communities(s.x, nil) {
				s.comms[c.ID] = slices.Clone(c.Members)
			}
		}
		s.commOf = make([]int, len(s.g.Nodes))
		for i := range s.commOf {
			s.commOf[i] = -1
		}
		for id, m := range s.comms {
			slices.SortFunc(m, s.byDegree)
			s.commIDs = append(s.commIDs, id)
			for _, i := range m {
				s.commOf[i] = id
			}
		}
		slices.Sort(s.commIDs)
	})
	return s.comms, s.commIDs
}

// communityOf returns node i's community id, or -1.
func (s *snapshot) communityOf(i int32) int {
	if c := s.g.Nodes[i].Community; c != nil {
		return *c
	}
	s.communities()
	return s.commOf[i]
}

// repoHashes reads per-repo source fingerprints from a workspace-state.json
// beside the graph. The file's shape is owned by the workspace builder, so
// this accepts the plausible layouts ({"repos": {tag: {source_hash}}},
// {"members": [{tag|repo, source_hash}]}, or a top-level tag map) and
// ignores anything else.
func (s *snapshot) repoHashes() map[string]string {
	s.repoHashOnce.Do(func() {
		s.repoHash = map[string]string{}
		if s.opts.GraphPath == "" {
			return
		}
		data, err := readBeside(s.opts.GraphPath, "workspace-state.json", maxWorkspaceFile)
		if err != nil {
			return
		}
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) != nil {
			return
		}
		type member struct {
			Tag        string `json:"tag"`
			Repo       string `json:"repo"`
			SourceHash string `json:"source_hash"`
		}
		fromMap := func(raw json.RawMessage) {
			var m map[string]member
			if json.Unmarshal(raw, &m) == nil {
				for tag, v := range m {
					if v.SourceHash != "" {
						s.repoHash[tag] = v.SourceHash
					}
				}
			}
		}
		for _, key := range []string{"repos", "members"} {
			raw, ok := top[key]
			if !ok {
				continue
			}
			var list []member
			if json.Unmarshal(raw, &list) == nil {
				for _, v := range list {
					if tag := cmp.Or(v.Tag, v.Repo); tag != "" && v.SourceHash != "" {
						s.repoHash[tag] = v.SourceHash
					}
				}
				continue
			}
			fromMap(raw)
		}
		if len(s.repoHash) == 0 {
			fromMap(data)
		}
	})
	return s.repoHash
}

// sanitize is the security boundary every label, relation and path crosses
// before it reaches output.
func sanitize(s string) string { return textsafe.Label(s) }
