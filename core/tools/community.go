package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/synaptic-graph/synaptic/core/analysis"
)

// communityText renders one page of a community; ok is false for an
// unknown or empty community.
func (s *snapshot) communityText(id, offset, limit int) (string, bool) {
	comms, _ := s.communities()
	m := comms[id]
	if len(m) == 0 {
		return fmt.Sprintf("No community %d", id), false
	}
	start := min(max(offset, 0), len(m))
	page := m[start : start+min(max(limit, 0), len(m)-start)] // no offset+limit: it can wrap
	var b strings.Builder
	fmt.Fprintf(&b, "Community %d (showing %d of %d):\n", id, len(page), len(m))
	for _, i := range page {
		fmt.Fprintf(&b, "  %s  (%s)\n", s.label(i), s.fileOrExternal(i))
	}
	if rest := len(m) - start - len(page); rest > 0 {
		fmt.Fprintf(&b, "  +%d more (pass offset=%d)\n", rest, start+len(page))
	}
	return strings.TrimRight(b.String(), "\n"), true
}

func (c *Catalog) getCommunity(_ context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		CommunityID int  `json:"community_id"`
		Offset      int  `json:"offset"`
		Limit       *int `json:"limit"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	limit := c.defaults().community
	if a.Limit != nil {
		limit = *a.Limit
	}
	text, ok := s.communityText(a.CommunityID, a.Offset, limit)
	return Result{Text: text, IsError: !ok}
}

// maxGodPage caps god_nodes per page: each hub costs a reverse-impact walk
// to count the tests that reach it.
const maxGodPage = 200

type godRow struct {
	Label     string `json:"label"`
	Degree    int    `json:"degree"`
	ID        string `json:"id"`
	TestCount int    `json:"test_count"`
}

// godText renders a god-node page; the numbering is the absolute rank.
func (s *snapshot) godText(topN, offset int) (string, []godRow) {
	gods, total := analysis.GodNodes(s.x, min(topN, maxGodPage), offset)
	rows := make([]godRow, 0, len(gods))
	var b strings.Builder
	if len(gods) == 0 {
		if total == 0 {
			return "No nodes in the graph.", rows
		}
		return fmt.Sprintf("No god nodes past offset %d (%d ranked).", offset, total), rows
	}
	fmt.Fprintf(&b, "God nodes (ranks %d-%d of %d, by degree):\n", gods[0].Rank, gods[len(gods)-1].Rank, total)
	for _, g := range gods {
		n := s.x.Node(g.Node)
		row := godRow{Label: sanitize(n.Label), Degree: g.Degree, ID: sanitize(n.ID), TestCount: g.Tests}
		rows = append(rows, row)
		fmt.Fprintf(&b, "  %d. %s - %d connections, %d test(s)  (%s)\n", g.Rank, row.Label, g.Degree, g.Tests, s.fileOrExternal(g.Node))
	}
	if last := gods[len(gods)-1].Rank; last < total {
		fmt.Fprintf(&b, "  +%d more (pass offset=%d)\n", total-last, last)
	}
	b.WriteString("Degree counts every edge kind (members included): it is size/centrality, not incoming dependence; use affected for blast radius.")
	return b.String(), rows
}

func (c *Catalog) godNodes(_ context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		TopN   *int `json:"top_n"`
		Offset int  `json:"offset"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	topN := c.defaults().topN
	if a.TopN != nil {
		topN = *a.TopN
	}
	text, rows := s.godText(topN, a.Offset)
	return Result{Text: text, Structured: map[string]any{"god_nodes": rows}}
}
