package tools

// query_graph: a thin adapter over core/query, the one retrieval engine the
// catalog, `synaptic query` and GET /api/query share (ranking, budgets and
// output format live there).

import (
	"context"
	"encoding/json"

	"github.com/synaptic-graph/synaptic/core/query"
)

// queryIndex is the snapshot's query engine, built once per snapshot (so a
// reload rebuilds it with the new graph).
type queryIndex = query.Engine

func (s *snapshot) queryIndex() *queryIndex {
	s.queryOnce.Do(func() {
		s.qi = query.New(s.x, query.WithRoot(s.opts.SourceRoot), query.WithLogger(query.LoggerFromEnv()))
	})
	return s.qi
}

func (c *Catalog) queryGraph(ctx context.Context, s *snapshot, args json.RawMessage) Result {
	a := struct {
		Question      string   `json:"question"`
		Mode          string   `json:"mode"`
		Full          bool     `json:"full"`
		TokenBudget   *int     `json:"token_budget"`
		ContextFilter []string `json:"context_filter"`
		Since         string   `json:"since"`
		RecencyMode   string   `json:"recency_mode"`
	}{}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	req := query.Request{
		Question: a.Question, Mode: a.Mode, Full: a.Full, Concise: c.opts.Concise,
		ContextFilter: a.ContextFilter, Since: a.Since, RecencyMode: a.RecencyMode,
	}
	if a.TokenBudget != nil {
		req.TokenBudget = *a.TokenBudget
	}
	r := s.queryIndex().Query(ctx, req)
	return Result{Text: r.Text, Structured: r.Structured}
}
