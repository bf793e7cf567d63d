package tools

import (
	"bytes"
	"fmt"
	"path"
	"slices"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Property readers. A property runs when its attribute is read
// (net.broadcast_address), and no call edge records a read: the reader
// holds a value whose type the graph rarely knows. So when a changed
// property reaches no test, the selection first looks for the code that
// reads an attribute of that name, in the files of the property's
// directory and in the test files that may test it (the tests of its
// package in Go, of its repository otherwise), and selects the tests that
// read it or reach a function that does, before widening to every test
// of the property's type. The
// files are read from the source root, under the same jail as
// search_text; without one this step finds nothing.

// fallbackReads names tests found by reading the property's attribute.
const fallbackReads fallbackStep = "fallback: reads the attribute"

// maxReaderFiles bounds the files one property's step reads.
const maxReaderFiles = 512

// attributeReaders returns the runnable tests that read .name, for
// property seed sd, directly or through the functions that read it: the
// readers are found in the test files that may test it and in the files
// of its own directory, and the walk goes on from the non-test readers
// as from a changed function (depth hops).
func (s *snapshot) attributeReaders(root string, sd int32, rels []bool, depth int) []impactHit {
	n := s.x.Node(sd)
	name := bareName(n.Label)
	if root == "" || n.Kind != "property" || name == "" {
		return nil
	}
	files := s.filesIn(path.Dir(n.SourceFile))
	for _, t := range s.testsIn(n) {
		files = append(files, s.x.Node(t).SourceFile)
	}
	slices.Sort(files)
	files = slices.Compact(files)
	files = files[:min(len(files), maxReaderFiles)]
	j, err := openJail(root)
	if err != nil {
		return nil
	}
	defer j.close()
	via := fmt.Sprintf("%s .%s", fallbackReads, name)
	seen := map[int32]bool{sd: true}
	var tests []impactHit
	var readers []int32
	for _, f := range files {
		data, err := j.read(f)
		if err != nil {
			continue
		}
		spans := s.spansOf(f)
		for _, line := range attributeLines(data, name) {
			e := s.innermost(spans, line)
			if e == nil || seen[e.node] || !isCallable(s.x.Node(e.node).Kind) {
				continue
			}
			seen[e.node] = true
			if graph.IsTestNode(s.x.Node(e.node)) {
				tests = append(tests, impactHit{node: e.node, depth: 1, via: via})
			} else {
				readers = append(readers, e.node)
			}
		}
	}
	if len(readers) > 0 {
		tests = append(tests, s.testWalk(readers, s.surfaceImpact(readers, rels, depth-1), rels, depth-1)...)
	}
	tests = append(tests, s.throughTestCode(tests, rels)...)
	var out []impactHit
	for _, h := range tests {
		if runsByDefault(s.x.Node(h.node)) {
			h.via = via
			out = append(out, h)
		}
	}
	return out
}

// attributeLines returns the 1-based lines of data holding .name as a
// whole attribute name (.name not followed by an identifier character).
func attributeLines(data []byte, name string) []int {
	pat := []byte("." + name)
	var out []int
	line, from := 1, 0
	for {
		i := bytes.Index(data[from:], pat)
		if i < 0 {
			return out
		}
		at := from + i
		line += bytes.Count(data[from:at], []byte("\n"))
		end := at + len(pat)
		if end == len(data) || !isIdentByte(data[end]) {
			if len(out) == 0 || out[len(out)-1] != line {
				out = append(out, line)
			}
		}
		from = at + 1 // data[at] is the '.', never a newline
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// filesIn returns the graph's files in directory dir.
func (s *snapshot) filesIn(dir string) []string {
	var out []string
	for i := range int32(s.x.Len()) {
		if n := s.x.Node(i); n.Kind == "file" && path.Dir(n.SourceFile) == dir {
			out = append(out, n.SourceFile)
		}
	}
	return out
}
