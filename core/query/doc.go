// Package query is synaptic's retrieval engine behind query_graph, the
// `synaptic query` command and GET /api/query: one implementation, so the
// catalog, the CLI and the HTTP API can never rank differently.
//
// An Engine is built once per graph snapshot (New). It tokenizes every
// node into weighted channels (label, owner type, source path, extractor
// aliases, doc comment) with per-channel IDF, so a question can be scored against the
// whole graph with a few posting-list walks. A query then:
//
//  1. turns the question into weighted terms (scaffolding dropped,
//     graph-confirmed inflections added at lower weight, identifier tokens
//     of symbol-shaped questions all kept);
//  2. scores nodes lexically, rewarding nodes that cover several of the
//     question's concepts and never penalizing an exact label match;
//  3. picks diverse seeds and expands best-first from a priority frontier
//     with per-hop decay and a hub penalty (bfs/dfs only break ties);
//  4. renders the spec's text and structuredContent, cut to an exact
//     cl100k_base token budget.
//
// Everything is deterministic: ties are broken by node id.
package query
