package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

type nodeJSON struct {
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
}

var nodeKeys = map[string]bool{
	"id": true, "label": true, "file_type": true, "source_file": true, "source_location": true,
	"kind": true, "visibility": true, "language": true, "span": true, "signature": true,
	"community": true, "repo": true, "_is_test": true, "norm_label": true,
}

type edgeJSON struct {
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

var edgeKeys = map[string]bool{
	"source": true, "target": true, "relation": true, "confidence": true, "confidence_score": true,
	"source_file": true, "source_location": true, "context": true, "weight": true, "sites": true,
}

type graphJSON struct {
	Directed      bool                       `json:"directed"`
	Multigraph    bool                       `json:"multigraph"`
	Graph         map[string]json.RawMessage `json:"graph"`
	Nodes         []json.RawMessage          `json:"nodes"`
	Links         []json.RawMessage          `json:"links"`
	Edges         []json.RawMessage          `json:"edges"`
	Hyperedges    []json.RawMessage          `json:"hyperedges"`
	BuiltAtCommit string                     `json:"built_at_commit"`
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

// Read reads a graph.json from r.
func Read(r io.Reader) (*Graph, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse decodes and validates graph.json bytes. It accepts "edges" as an
// alias for "links". A truncated or malformed file is an error, never a
// partial graph.
func Parse(data []byte) (*Graph, error) {
	var raw graphJSON
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
		if err := decodeNode(r, &g.Nodes[i]); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
	}
	for i, r := range links {
		if err := decodeEdge(r, &g.Edges[i]); err != nil {
			return nil, fmt.Errorf("link %d: %w", i, err)
		}
	}
	return g, g.Validate()
}

func decodeNode(raw json.RawMessage, n *Node) error {
	var j nodeJSON
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
		Repo: j.Repo, IsTest: j.IsTest,
	}
	extra, err := extras(raw, nodeKeys)
	n.Extra = extra
	return err
}

func decodeEdge(raw json.RawMessage, e *Edge) error {
	var j edgeJSON
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
	extra, err := extras(raw, edgeKeys)
	e.Extra = extra
	return err
}

// extras returns the object members of raw whose keys are not known. It
// scans keys first so the common case (no extras) allocates nothing.
func extras(raw json.RawMessage, known map[string]bool) (map[string]json.RawMessage, error) {
	unknown := false
	for _, k := range topLevelKeys(raw) {
		if !known[k] {
			unknown = true
			break
		}
	}
	if !unknown {
		return nil, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	for k := range m {
		if known[k] {
			delete(m, k)
		}
	}
	return m, nil
}

// topLevelKeys lists the keys of a JSON object that json.Unmarshal already
// accepted. Keys with escapes are returned raw, which only makes them
// "unknown" and sends them down the slow, exact path.
func topLevelKeys(raw []byte) []string {
	var keys []string
	depth := 0
	expectKey := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '{', '[':
			depth++
			expectKey = c == '{' && depth == 1
		case '}', ']':
			depth--
		case ',':
			expectKey = depth == 1
		case '"':
			j := i + 1
			for j < len(raw) && raw[j] != '"' {
				if raw[j] == '\\' {
					j++
				}
				j++
			}
			if expectKey && depth == 1 {
				keys = append(keys, string(raw[i+1:min(j, len(raw))]))
				expectKey = false
			}
			i = j
		}
	}
	return keys
}

// Validate checks required fields, enums and that every edge endpoint exists.
func (g *Graph) Validate() error {
	ids := make(map[string]struct{}, len(g.Nodes))
	for i := range g.Nodes {
		ids[g.Nodes[i].ID] = struct{}{}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if e.Relation == "" {
			return fmt.Errorf("link %d (%s -> %s): missing relation", i, e.Source, e.Target)
		}
		switch e.Confidence {
		case Extracted, Inferred, Ambiguous:
		default:
			return fmt.Errorf("link %d (%s -> %s): confidence %q is not EXTRACTED, INFERRED or AMBIGUOUS", i, e.Source, e.Target, e.Confidence)
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

// Equal reports whether a and b encode to the same bytes.
func Equal(a, b *Graph) bool {
	var x, y bytes.Buffer
	return Write(&x, a) == nil && Write(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}
