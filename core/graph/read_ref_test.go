package graph

import (
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"
)

// parseRef is the encoding/json reader that Parse replaced, kept as the
// oracle for FuzzParseDifferential: Parse must accept exactly what it
// accepts and decode the same Graph.
func parseRef(data []byte) (*Graph, error) {
	var raw struct {
		Directed      bool                       `json:"directed"`
		Multigraph    bool                       `json:"multigraph"`
		Graph         map[string]json.RawMessage `json:"graph"`
		Nodes         []json.RawMessage          `json:"nodes"`
		Links         []json.RawMessage          `json:"links"`
		Edges         []json.RawMessage          `json:"edges"`
		Hyperedges    []json.RawMessage          `json:"hyperedges"`
		BuiltAtCommit string                     `json:"built_at_commit"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("not valid JSON at byte %d (truncated or half-written?): %v", se.Offset, err)
		}
		return nil, fmt.Errorf("not a graph.json: %v", err)
	}
	if raw.Nodes == nil {
		return nil, errors.New(`not a graph.json: no "nodes" array`)
	}
	links := raw.Links
	if links == nil {
		links = raw.Edges
	}
	g := &Graph{
		Directed:      raw.Directed,
		Hyperedges:    raw.Hyperedges,
		BuiltAtCommit: raw.BuiltAtCommit,
		GraphAttrs:    raw.Graph,
		Nodes:         make([]Node, len(raw.Nodes)),
		Edges:         make([]Edge, len(links)),
	}
	for i, r := range raw.Nodes {
		if err := refNode(r, &g.Nodes[i]); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
	}
	for i, r := range links {
		if err := refEdge(r, &g.Edges[i]); err != nil {
			return nil, fmt.Errorf("link %d: %w", i, err)
		}
	}
	return g, g.Validate()
}

func refNode(raw json.RawMessage, n *Node) error {
	var j struct {
		ID             string     `json:"id"`
		Label          string     `json:"label"`
		FileType       string     `json:"file_type"`
		SourceFile     *string    `json:"source_file"`
		SourceLocation string     `json:"source_location"`
		Kind           string     `json:"kind"`
		Visibility     string     `json:"visibility"`
		Language       string     `json:"language"`
		Span           *Span      `json:"span"`
		Signature      *Signature `json:"signature"`
		Community      *int       `json:"community"`
		Repo           string     `json:"repo"`
		IsTest         bool       `json:"_is_test"`
		Doc            string     `json:"doc"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return err
	}
	if j.ID == "" {
		return errors.New(`missing "id"`)
	}
	if j.SourceFile == nil {
		return fmt.Errorf("node %q: missing \"source_file\"", j.ID)
	}
	*n = Node{
		ID: j.ID, Label: j.Label, FileType: j.FileType, SourceFile: *j.SourceFile,
		SourceLocation: j.SourceLocation, Kind: j.Kind, Visibility: j.Visibility,
		Language: j.Language, Span: j.Span, Signature: j.Signature, Community: j.Community,
		Repo: j.Repo, IsTest: j.IsTest, Doc: j.Doc,
	}
	extra, err := refExtras(raw, nodeKeys)
	n.Extra = extra
	return err
}

func refEdge(raw json.RawMessage, e *Edge) error {
	var j struct {
		Source          string     `json:"source"`
		Target          string     `json:"target"`
		Relation        string     `json:"relation"`
		Confidence      Confidence `json:"confidence"`
		ConfidenceScore *float64   `json:"confidence_score"`
		SourceFile      string     `json:"source_file"`
		SourceLocation  string     `json:"source_location"`
		Context         string     `json:"context"`
		Weight          *float64   `json:"weight"`
		Sites           []Site     `json:"sites"`
	}
	if err := json.Unmarshal(raw, &j); err != nil {
		return err
	}
	*e = Edge{
		Source: j.Source, Target: j.Target, Relation: j.Relation, Confidence: j.Confidence,
		SourceFile: j.SourceFile, SourceLocation: j.SourceLocation, Context: j.Context,
		Sites: j.Sites, Weight: 1.0,
	}
	if j.ConfidenceScore != nil {
		e.ConfidenceScore = *j.ConfidenceScore
	}
	if j.Weight != nil {
		e.Weight = *j.Weight
	}
	extra, err := refExtras(raw, edgeKeys)
	e.Extra = extra
	return err
}

func refExtras(raw json.RawMessage, known map[string]bool) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for k := range m {
		if known[k] {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return nil, nil
	}
	return m, nil
}

func stringData(s string) *byte { return unsafe.StringData(s) }
