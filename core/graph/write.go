package graph

import (
	"bufio"
	"encoding/json"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Write writes g as canonical graph.json: keys sorted, one node or link per
// line. Callers that want canonical record order call Canonicalize first.
func Write(w io.Writer, g *Graph) error { return WriteStaged(w, g, nil) }

// WriteStaged is Write with a pause: the links, which sort before the nodes
// and are most of the bytes, are encoded and written first; then it calls
// beforeNodes (unless nil) and writes the nodes. Until beforeNodes returns
// it reads nothing of g.Nodes, so the caller may still be setting node
// attributes (communities) on another goroutine. The records reach w as
// they are encoded, in writes of thousands of records, not through a
// buffer of its own: copying graph.json through one cost its writer
// goroutine, the critical path of an extraction, a copy of every byte.
func WriteStaged(w io.Writer, g *Graph, beforeNodes func()) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	var b []byte
	flush := func() error {
		_, err := bw.Write(b)
		b = b[:0]
		return err
	}
	flushAll := func() error { // before records go to w directly
		if err := flush(); err != nil {
			return err
		}
		return bw.Flush()
	}
	b = append(b, "{\n"...)
	if g.BuiltAtCommit != "" {
		b = append(b, `  "built_at_commit": `...)
		b = appendString(b, g.BuiltAtCommit)
		b = append(b, ",\n"...)
	}
	b = append(b, `  "directed": `...)
	b = strconv.AppendBool(b, g.Directed)
	b = append(b, ",\n  \"graph\": "...)
	b = appendRawMap(b, g.GraphAttrs)
	b = append(b, ",\n  \"hyperedges\": ["...)
	for i, h := range g.Hyperedges {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendCompact(b, h)
	}
	if len(g.Hyperedges) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"links\": ["...)
	if err := flushAll(); err != nil {
		return err
	}
	err := writeRecords(w, len(g.Edges), func(b []byte, i int) []byte { return appendEdge(b, &g.Edges[i]) })
	if err != nil {
		return err
	}
	if len(g.Edges) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"multigraph\": false,\n  \"nodes\": ["...)
	if err := flushAll(); err != nil {
		return err
	}
	if beforeNodes != nil {
		beforeNodes()
	}
	err = writeRecords(w, len(g.Nodes), func(b []byte, i int) []byte { return appendNode(b, &g.Nodes[i]) })
	if err != nil {
		return err
	}
	if len(g.Nodes) > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "]\n}\n"...)
	if err := flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// writeRecords writes n records as ",\n    "-separated lines (the first
// without the comma). Chunks of records are encoded in parallel and written
// in order, so the bytes do not depend on the number of goroutines.
func writeRecords(w io.Writer, n int, appendRec func([]byte, int) []byte) error {
	const chunk = 2048
	chunks := (n + chunk - 1) / chunk
	encode := func(c int, b []byte) []byte {
		for i := c * chunk; i < min(n, (c+1)*chunk); i++ {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n    "...)
			b = appendRec(b, i)
		}
		return b
	}
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		var b []byte
		for c := 0; c < chunks; c++ {
			b = encode(c, b[:0])
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
		return nil
	}
	// Each chunk has a slot; a worker fills it and the writer drains slots in
	// order. At most 2*workers chunks are in flight, bounding memory.
	slots := make([]chan []byte, chunks)
	for c := range slots {
		slots[c] = make(chan []byte, 1)
	}
	free := make(chan []byte, 2*workers)
	for range 2 * workers {
		free <- nil
	}
	next := make(chan int, chunks)
	for c := range chunks {
		next <- c
	}
	close(next)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				// Take a buffer before a chunk: every chunk taken can then
				// finish, so the writer never waits on a starved worker.
				var buf []byte
				select {
				case buf = <-free:
				case <-stop:
					return
				}
				c, ok := <-next
				if !ok {
					return
				}
				slots[c] <- encode(c, buf[:0])
			}
		})
	}
	var err error
	for c := range chunks {
		b := <-slots[c]
		if err == nil {
			_, err = w.Write(b)
		}
		if err != nil {
			close(stop)
			break
		}
		free <- b
	}
	wg.Wait()
	return err
}

// field is one key of an object being written; objects with pass-through
// extras are written by sorting fields, the rest in fixed sorted order.
type field struct {
	key string
	val func([]byte) []byte
}

func appendNode(b []byte, n *Node) []byte {
	if len(n.Extra) == 0 {
		return appendNodeFixed(b, n)
	}
	return appendNodeFields(b, n)
}

// appendNodeFields writes any node, pass-through keys included.
func appendNodeFields(b []byte, n *Node) []byte {
	fs := make([]field, 0, 16)
	if n.IsTest {
		fs = append(fs, field{"_is_test", func(b []byte) []byte { return append(b, "true"...) }})
	}
	if n.Community != nil {
		c := *n.Community
		fs = append(fs, field{"community", func(b []byte) []byte { return strconv.AppendInt(b, int64(c), 10) }})
	}
	if n.Doc != "" {
		fs = append(fs, strField("doc", n.Doc))
	}
	fs = append(fs, strField("file_type", n.FileType), strField("id", n.ID))
	if n.Kind != "" {
		fs = append(fs, strField("kind", n.Kind))
	}
	fs = append(fs, strField("label", n.Label))
	if n.Language != "" {
		fs = append(fs, strField("language", n.Language))
	}
	fs = append(fs, strField("norm_label", strings.ToLower(n.Label)))
	if n.Repo != "" {
		fs = append(fs, strField("repo", n.Repo))
	}
	if s := n.Signature; s != nil {
		fs = append(fs, field{"signature", func(b []byte) []byte { return appendSignature(b, s) }})
	}
	fs = append(fs, strField("source_file", n.SourceFile))
	if n.SourceLocation != "" {
		fs = append(fs, strField("source_location", n.SourceLocation))
	}
	if s := n.Span; s != nil {
		fs = append(fs, field{"span", func(b []byte) []byte { return appendSpan(b, s) }})
	}
	if n.Visibility != "" {
		fs = append(fs, strField("visibility", n.Visibility))
	}
	return appendObject(b, fs, n.Extra)
}

// appendNodeFixed is appendNode for a node without pass-through keys: the
// same keys in the same (sorted) order, without building a field list.
func appendNodeFixed(b []byte, n *Node) []byte {
	b = append(b, '{')
	if n.IsTest {
		b = append(b, `"_is_test":true,`...)
	}
	if n.Community != nil {
		b = append(b, `"community":`...)
		b = strconv.AppendInt(b, int64(*n.Community), 10)
		b = append(b, ',')
	}
	if n.Doc != "" {
		b = append(b, `"doc":`...)
		b = appendString(b, n.Doc)
		b = append(b, ',')
	}
	b = append(b, `"file_type":`...)
	b = appendString(b, n.FileType)
	b = append(b, `,"id":`...)
	b = appendString(b, n.ID)
	if n.Kind != "" {
		b = append(b, `,"kind":`...)
		b = appendString(b, n.Kind)
	}
	b = append(b, `,"label":`...)
	b = appendString(b, n.Label)
	if n.Language != "" {
		b = append(b, `,"language":`...)
		b = appendString(b, n.Language)
	}
	b = append(b, `,"norm_label":`...)
	b = appendLowerString(b, n.Label)
	if n.Repo != "" {
		b = append(b, `,"repo":`...)
		b = appendString(b, n.Repo)
	}
	if s := n.Signature; s != nil {
		b = append(b, `,"signature":`...)
		b = appendSignature(b, s)
	}
	b = append(b, `,"source_file":`...)
	b = appendString(b, n.SourceFile)
	if n.SourceLocation != "" {
		b = append(b, `,"source_location":`...)
		b = appendString(b, n.SourceLocation)
	}
	if s := n.Span; s != nil {
		b = append(b, `,"span":`...)
		b = appendSpan(b, s)
	}
	if n.Visibility != "" {
		b = append(b, `,"visibility":`...)
		b = appendString(b, n.Visibility)
	}
	return append(b, '}')
}

// appendLowerString is appendString(b, strings.ToLower(s)) without the
// intermediate string when s is ASCII.
func appendLowerString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return appendString(b, strings.ToLower(s))
		}
		if c < 0x20 || c == '"' || c == '\\' {
			return appendString(b, strings.ToLower(s))
		}
	}
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return append(b, '"')
}

// appendEdgeFixed is appendEdge for an edge without pass-through keys.
func appendEdgeFixed(b []byte, e *Edge) []byte {
	b = append(b, `{"confidence":`...)
	b = appendString(b, string(e.Confidence))
	b = append(b, `,"confidence_score":`...)
	b = appendFloat(b, e.Score())
	if e.Context != "" {
		b = append(b, `,"context":`...)
		b = appendString(b, e.Context)
	}
	b = append(b, `,"relation":`...)
	b = appendString(b, e.Relation)
	if len(e.Sites) > 0 {
		b = append(b, `,"sites":`...)
		b = appendSites(b, e.Sites)
	}
	b = append(b, `,"source":`...)
	b = appendString(b, e.Source)
	b = append(b, `,"source_file":`...)
	b = appendString(b, e.SourceFile)
	if e.SourceLocation != "" {
		b = append(b, `,"source_location":`...)
		b = appendString(b, e.SourceLocation)
	}
	b = append(b, `,"target":`...)
	b = appendString(b, e.Target)
	b = append(b, `,"weight":`...)
	b = appendFloat(b, e.Weight)
	return append(b, '}')
}

func appendSpan(b []byte, s *Span) []byte {
	b = append(b, `{"end_col":`...)
	b = strconv.AppendInt(b, int64(s.EndCol), 10)
	b = append(b, `,"end_line":`...)
	b = strconv.AppendInt(b, int64(s.EndLine), 10)
	b = append(b, `,"start_col":`...)
	b = strconv.AppendInt(b, int64(s.StartCol), 10)
	b = append(b, `,"start_line":`...)
	b = strconv.AppendInt(b, int64(s.StartLine), 10)
	return append(b, '}')
}

func appendSites(b []byte, sites []Site) []byte {
	b = append(b, '[')
	for i, s := range sites {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"source_file":`...)
		b = appendString(b, s.SourceFile)
		if s.SourceLocation != "" {
			b = append(b, `,"source_location":`...)
			b = appendString(b, s.SourceLocation)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendSignature(b []byte, s *Signature) []byte {
	b = append(b, `{"params":[`...)
	for i, p := range s.Params {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = appendString(b, p.Name)
		if p.TypeRef != "" {
			b = append(b, `,"type_ref":`...)
			b = appendString(b, p.TypeRef)
		}
		b = append(b, '}')
	}
	b = append(b, `],"raw":`...)
	b = appendString(b, s.Raw)
	if s.ReturnType != "" {
		b = append(b, `,"return_type":`...)
		b = appendString(b, s.ReturnType)
	}
	return append(b, '}')
}

func appendEdge(b []byte, e *Edge) []byte {
	if len(e.Extra) == 0 {
		return appendEdgeFixed(b, e)
	}
	return appendEdgeFields(b, e)
}

// appendEdgeFields writes any edge, pass-through keys included.
func appendEdgeFields(b []byte, e *Edge) []byte {
	fs := make([]field, 0, 12)
	score := e.Score()
	fs = append(fs,
		strField("confidence", string(e.Confidence)),
		field{"confidence_score", func(b []byte) []byte { return appendFloat(b, score) }},
	)
	if e.Context != "" {
		fs = append(fs, strField("context", e.Context))
	}
	fs = append(fs, strField("relation", e.Relation))
	if len(e.Sites) > 0 {
		sites := e.Sites
		fs = append(fs, field{"sites", func(b []byte) []byte { return appendSites(b, sites) }})
	}
	fs = append(fs, strField("source", e.Source), strField("source_file", e.SourceFile))
	if e.SourceLocation != "" {
		fs = append(fs, strField("source_location", e.SourceLocation))
	}
	w := e.Weight
	fs = append(fs, strField("target", e.Target), field{"weight", func(b []byte) []byte { return appendFloat(b, w) }})
	return appendObject(b, fs, e.Extra)
}

func strField(k, v string) field {
	return field{k, func(b []byte) []byte { return appendString(b, v) }}
}

func appendObject(b []byte, fs []field, extra map[string]json.RawMessage) []byte {
	if len(extra) > 0 {
		known := make(map[string]bool, len(fs))
		for _, f := range fs {
			known[f.key] = true
		}
		for k, v := range extra {
			if known[k] || k == "norm_label" {
				continue
			}
			v := v
			fs = append(fs, field{k, func(b []byte) []byte { return appendCompact(b, v) }})
		}
		slices.SortFunc(fs, func(a, b field) int { return strings.Compare(a.key, b.key) })
	}
	b = append(b, '{')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, f.key)
		b = append(b, ':')
		b = f.val(b)
	}
	return append(b, '}')
}

func appendRawMap(b []byte, m map[string]json.RawMessage) []byte {
	return appendObject(b, nil, m)
}

// appendCompact writes raw JSON compactly with object keys sorted, so
// pass-through values are canonical too.
func appendCompact(b []byte, raw json.RawMessage) []byte {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return append(b, "null"...)
	}
	out, err := json.Marshal(v) // encoding/json sorts map keys
	if err != nil {
		return append(b, "null"...)
	}
	return append(b, out...)
}

// appendFloat writes integral values with ".0" (as serde_json does) and
// others in the shortest form that round-trips.
func appendFloat(b []byte, f float64) []byte {
	if f == float64(int64(f)) && f < 1e15 && f > -1e15 {
		b = strconv.AppendInt(b, int64(f), 10)
		return append(b, ".0"...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

const hexDigits = "0123456789abcdef"

// plain8 reports whether the 8 bytes of s from i are written as they are:
// ASCII, and none a control character, '"' or '\\'. It tests the 8 at
// once (the has-less and has-zero byte tricks), which halves the cost of
// encoding graph.json's strings.
func plain8(s string, i int) bool {
	v := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	ctl := (v - 0x20*ones) &^ v // a byte below 0x20
	q := v ^ '"'*ones           // a '"' byte is zero here
	bs := v ^ '\\'*ones         // and a '\\' byte here
	return (v|ctl|(q-ones)&^q|(bs-ones)&^bs)&highs == 0
}

// appendString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD so the
// output is always valid JSON.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain8(s, i) {
			i += 8 // most of graph.json: ids, paths, labels
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
