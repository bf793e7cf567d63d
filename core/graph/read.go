package graph

import (
	"errors"
	"fmt"
	"os"
)

// nodeKeys and edgeKeys are the member names a record may carry without
// landing in Extra: every modelled field, plus norm_label, which the writer
// derives from the label.
var nodeKeys = map[string]bool{
	"id": true, "label": true, "file_type": true, "source_file": true, "source_location": true,
	"kind": true, "visibility": true, "language": true, "span": true, "signature": true,
	"community": true, "repo": true, "_is_test": true, "norm_label": true,
	"doc": true,
}

var edgeKeys = map[string]bool{
	"source": true, "target": true, "relation": true, "confidence": true, "confidence_score": true,
	"source_file": true, "source_location": true, "context": true, "weight": true, "sites": true,
}

// ReadFile reads and validates a graph.json file.
func ReadFile(path string) (*Graph, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g, nil
}

// Parse decodes and validates graph.json bytes. It accepts "edges" as an
// alias for "links". A truncated or malformed file is an error, never a
// partial graph.
//
// Parse reads what encoding/json would read into the graph.json shape —
// member names match case-insensitively, a repeated member overrides (or,
// for objects, merges into) the earlier one, null leaves scalars alone and
// clears pointers, slices and maps, invalid UTF-8 in strings becomes U+FFFD —
// but in one pass over data with no per-record re-decoding, and with the
// repeated strings (ids, files, locations, relations, kinds…) stored once.
// The Graph does not retain data.
func Parse(data []byte) (*Graph, error) {
	d := newDecoder(data)
	return d.parse()
}

// Validate checks required fields, enums and that every edge endpoint exists.
func (g *Graph) Validate() error {
	ids := make(map[string]struct{}, len(g.Nodes))
	for i := range g.Nodes {
		ids[g.Nodes[i].ID] = struct{}{}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if err := checkEdge(i, e); err != nil {
			return err
		}
		if _, ok := ids[e.Source]; !ok {
			return fmt.Errorf("link %d: source %q is not a node", i, e.Source)
		}
		if _, ok := ids[e.Target]; !ok {
			return fmt.Errorf("link %d: target %q is not a node", i, e.Target)
		}
	}
	return nil
}

// checkEdge is Validate's per-edge check of required fields and enums.
func checkEdge(i int, e *Edge) error {
	if e.Relation == "" {
		return fmt.Errorf("link %d (%s -> %s): missing relation", i, e.Source, e.Target)
	}
	switch e.Confidence {
	case Extracted, Inferred, Ambiguous:
	default:
		return fmt.Errorf("link %d (%s -> %s): confidence %q is not EXTRACTED, INFERRED or AMBIGUOUS", i, e.Source, e.Target, e.Confidence)
	}
	return nil
}

// errNotGraph is what a document without a nodes array is.
var errNotGraph = errors.New(`not a graph.json: no "nodes" array`)
