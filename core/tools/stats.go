package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// crossLanguage are the relations that couple code across a language or
// process boundary (HTTP/RPC/FFI/WebSocket/queue/SQL). graph_stats counts
// them by relation, so a polyglot single repo reports its coupling too.
var crossLanguage = map[string]bool{
	"invokes": true, "binds_native": true, "calls_service": true, "handled_by": true,
	"queries": true, "writes_to": true, "calls_proc": true,
}

// stats is graph_stats' structured mirror.
type stats struct {
	Nodes              int `json:"nodes"`
	Edges              int `json:"edges"`
	Communities        int `json:"communities"`
	Extracted          int `json:"extracted"`
	Inferred           int `json:"inferred"`
	Ambiguous          int `json:"ambiguous"`
	CrossRepo          int `json:"cross_repo"`
	CrossLanguage      int `json:"cross_language"`
	DynamicSites       int `json:"dynamic_sites"`
	DynamicSitesOpaque int `json:"dynamic_sites_opaque"`
	DynamicRefsLinked  int `json:"dynamic_refs_linked"`
}

func (s *snapshot) stats() stats {
	_, ids := s.communities()
	st := stats{Nodes: len(s.g.Nodes), Edges: len(s.g.Edges), Communities: len(ids)}
	for i := range s.g.Edges {
		e := &s.g.Edges[i]
		switch e.Confidence {
		case graph.Extracted:
			st.Extracted++
		case graph.Inferred:
			st.Inferred++
		case graph.Ambiguous:
			st.Ambiguous++
		}
		if crossLanguage[e.Relation] {
			st.CrossLanguage++
		}
		if e.Relation == "dynamic_ref" {
			st.DynamicRefsLinked++
		}
		if s.isCrossRepo(int32(i)) {
			st.CrossRepo++
		}
	}
	for i := range s.g.Nodes {
		raw, ok := s.g.Nodes[i].Extra["dynamic_sites"]
		if !ok {
			continue
		}
		var sites []struct {
			Key *string `json:"key"`
		}
		if json.Unmarshal(raw, &sites) != nil {
			continue
		}
		st.DynamicSites += len(sites)
		for _, site := range sites {
			if site.Key == nil || *site.Key == "" {
				st.DynamicSitesOpaque++
			}
		}
	}
	return st
}

// isCrossRepo reports an edge marked cross_repo, or one whose endpoints carry
// different repo tags.
func (s *snapshot) isCrossRepo(e int32) bool {
	if raw, ok := s.g.Edges[e].Extra["cross_repo"]; ok && bytes.Equal(bytes.TrimSpace(raw), []byte("true")) {
		return true
	}
	a, b := s.x.Ends(e)
	if a < 0 {
		return false
	}
	ra, rb := s.g.Nodes[a].Repo, s.g.Nodes[b].Repo
	return ra != "" && rb != "" && ra != rb
}

func (s *snapshot) statsText(st stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Graph: %d nodes, %d edges, %d communities\n", st.Nodes, st.Edges, st.Communities)
	fmt.Fprintf(&b, "Edges: %d EXTRACTED, %d INFERRED, %d AMBIGUOUS\n", st.Extracted, st.Inferred, st.Ambiguous)
	if st.CrossLanguage > 0 {
		fmt.Fprintf(&b, "Cross-language: %d coupling edge(s) (HTTP/RPC/FFI/WebSocket/queue/SQL boundaries)\n", st.CrossLanguage)
	}
	if st.CrossRepo > 0 {
		fmt.Fprintf(&b, "Cross-repo: %d edge(s) span repositories\n", st.CrossRepo)
	}
	if st.DynamicSites > 0 || st.DynamicRefsLinked > 0 {
		fmt.Fprintf(&b, "Dynamic-dispatch sites: %d (%d opaque, %d evidence-linked)\n", st.DynamicSites, st.DynamicSitesOpaque, st.DynamicRefsLinked)
	}
	return strings.TrimRight(b.String(), "\n")
}

func (c *Catalog) graphStats(_ context.Context, s *snapshot, _ json.RawMessage) Result {
	st := s.stats()
	return Result{Text: s.statsText(st), Structured: st}
}

type repoRow struct {
	Repo       string `json:"repo"`
	Nodes      int    `json:"nodes"`
	Edges      int    `json:"edges"`
	SourceHash string `json:"source_hash,omitempty"`
}

func (c *Catalog) listRepos(_ context.Context, s *snapshot, _ json.RawMessage) Result {
	rows := []repoRow{}
	if len(s.repos) == 0 {
		return Result{Text: "No federated repos (single-repo graph).", Structured: map[string]any{"repos": rows}}
	}
	hashes := s.repoHashes()
	var b strings.Builder
	fmt.Fprintf(&b, "%d federated repo(s):\n", len(s.repos))
	for _, r := range s.repos {
		row := repoRow{Repo: sanitize(r.Repo), Nodes: r.Nodes, Edges: r.Edges, SourceHash: sanitize(hashes[r.Repo])}
		rows = append(rows, row)
		fmt.Fprintf(&b, "  %s: %d nodes, %d edges", row.Repo, row.Nodes, row.Edges)
		if row.SourceHash != "" {
			fmt.Fprintf(&b, ", src %s", row.SourceHash)
		}
		b.WriteByte('\n')
	}
	return Result{Text: strings.TrimRight(b.String(), "\n"), Structured: map[string]any{"repos": rows}}
}

func (c *Catalog) repoStats(_ context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		Repo string `json:"repo"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	for _, r := range s.repos {
		if r.Repo == a.Repo {
			return Result{Text: fmt.Sprintf("Repo %s: %d nodes, %d edges", sanitize(r.Repo), r.Nodes, r.Edges)}
		}
	}
	return errorf("No nodes for repo %s", sanitize(a.Repo))
}
