// Package analysis holds the deterministic graph analyses that orient a
// reader in an unknown codebase: communities, god nodes, surprising
// connections, suggested questions, import cycles and the confidence audit.
//
// Everything here is a pure function of the graph: no randomness, no
// dependence on map iteration or on the order of nodes and edges in the
// input (nodes are processed in sorted-id order and every tie is broken by
// node id), so extraction, GRAPH_REPORT.md and the serve tools always say the
// same thing about the same graph.
//
// Analyses that need a community partition (surprises, questions) use the
// community field written into graph.json when every code node carries one,
// and otherwise compute Communities(x, nil) once per Index (see cache.go).
package analysis
