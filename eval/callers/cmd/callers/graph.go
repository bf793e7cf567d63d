package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

type gnode struct {
	ID         string `json:"id"`
	Label      string `json:"label"`
	Kind       string `json:"kind"`
	SourceFile string `json:"source_file"`
	Span       *struct {
		StartLine int `json:"start_line"`
		EndLine   int `json:"end_line"`
	} `json:"span"`
}

type gsite struct {
	SourceFile     string `json:"source_file"`
	SourceLocation string `json:"source_location"`
}

type glink struct {
	Relation       string  `json:"relation"`
	Source         string  `json:"source"`
	Target         string  `json:"target"`
	Confidence     string  `json:"confidence"`
	SourceFile     string  `json:"source_file"`
	SourceLocation string  `json:"source_location"`
	Sites          []gsite `json:"sites"`
}

// lines returns every call site of the edge as "file:line" (file relative to
// the evaluated root), the first one being source_location.
func (l *glink) lines() []string {
	var out []string
	add := func(f, loc string) {
		if n, err := strconv.Atoi(strings.TrimPrefix(loc, "L")); err == nil {
			out = append(out, fmt.Sprintf("%s:%d", f, n))
		}
	}
	add(l.SourceFile, l.SourceLocation)
	for _, s := range l.Sites {
		add(s.SourceFile, s.SourceLocation)
	}
	return out
}

// graph is the part of graph.json below prefix: its nodes (source_file made
// relative to the evaluated root) and its calls edges.
type graph struct {
	nodes map[string]*gnode
	calls []*glink
}

// readGraph streams graph.json, keeping nodes whose source_file starts with
// prefix and calls edges; a full-GOROOT graph is >200 MB, so nothing else is
// held.
func readGraph(path, prefix string) (*graph, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	g := &graph{nodes: map[string]*gnode{}}
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if key != "nodes" && key != "links" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := dec.Token(); err != nil { // [
			return nil, err
		}
		for dec.More() {
			if key == "nodes" {
				n := new(gnode)
				if err := dec.Decode(n); err != nil {
					return nil, err
				}
				if strings.HasPrefix(n.SourceFile, prefix) {
					n.SourceFile = strings.TrimPrefix(n.SourceFile, prefix)
					g.nodes[n.ID] = n
				}
				continue
			}
			l := new(glink)
			if err := dec.Decode(l); err != nil {
				return nil, err
			}
			if l.Relation == "calls" && strings.HasPrefix(l.SourceFile, prefix) {
				l.SourceFile = strings.TrimPrefix(l.SourceFile, prefix)
				for i := range l.Sites {
					if !strings.HasPrefix(l.Sites[i].SourceFile, prefix) {
						l.Sites[i].SourceFile = "\x00" + l.Sites[i].SourceFile // outside the root: never matches
					}
					l.Sites[i].SourceFile = strings.TrimPrefix(l.Sites[i].SourceFile, prefix)
				}
				g.calls = append(g.calls, l)
			}
		}
		if _, err := dec.Token(); err != nil { // ]
			return nil, err
		}
	}
	if _, err := dec.Token(); err != nil && err != io.EOF { // }
		return nil, err
	}
	// drop edges whose caller lies outside the evaluated root
	kept := g.calls[:0]
	for _, l := range g.calls {
		if g.nodes[l.Source] != nil {
			kept = append(kept, l)
		}
	}
	g.calls = kept
	return g, nil
}

// detectPrefix returns the source_file prefix under which the evaluated root
// (whose slash path ends in rootTail, e.g. "net/http") sits in graph.json: ""
// for a graph extracted from a copy of the root, "net/http/" for a graph of
// the whole GOROOT/src. It scans the bytes for a source_file naming probe
// (a file of the root, e.g. "server.go") under rootTail.
func detectPrefix(path, rootTail, probe string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	needles := [][]byte{
		[]byte(`"source_file": "` + rootTail + "/" + probe + `"`),
		[]byte(`"source_file":"` + rootTail + "/" + probe + `"`),
	}
	const overlap = 256
	buf := make([]byte, 4<<20)
	keep := 0
	for {
		n, err := f.Read(buf[keep:])
		chunk := buf[:keep+n]
		for _, nd := range needles {
			if bytes.Contains(chunk, nd) {
				return rootTail + "/", nil
			}
		}
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		keep = copy(buf, chunk[max(0, len(chunk)-overlap):])
	}
}

func baseName(label string) string {
	return strings.TrimSuffix(strings.TrimPrefix(label, "."), "()")
}
