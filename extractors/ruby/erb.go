package main

import "bytes"

// ERB templates reach the extractor parsed with the Ruby grammar (the host
// has no ERB grammar), so HTML around the tags parses as broken Ruby. The
// extractor keeps only what starts inside a <% … %> or <%= … %> tag
// (<%# comments %> excluded), reports no syntax errors of its own, and says
// once that the file's facts are partial.

// erbNote is the one problem an ERB file reports.
const erbNote = "ERB template: only Ruby inside <% %> tags that parses around the HTML is extracted"

// span is a byte range [start, end).
type span struct{ start, end int }

// erbCode returns the Ruby code regions of an ERB template.
func erbCode(src []byte) []span {
	var out []span
	for i := 0; i < len(src); {
		j := bytes.Index(src[i:], []byte("<%"))
		if j < 0 {
			break
		}
		start := i + j + 2
		if start < len(src) && src[start] == '%' { // <%% is a literal "<%"
			i = start + 1
			continue
		}
		comment := start < len(src) && src[start] == '#'
		for start < len(src) && (src[start] == '=' || src[start] == '-' || src[start] == '#') {
			start++
		}
		k := bytes.Index(src[start:], []byte("%>"))
		end := len(src)
		if k >= 0 {
			end = start + k
		}
		if end > start && src[end-1] == '-' { // -%> trims the newline
			end--
		}
		if !comment {
			out = append(out, span{start, end})
		}
		i = end + 2
	}
	return out
}

// inCode reports whether n starts inside a code region (always true for
// a .rb file).
func (x *state) inCode(n node) bool {
	if x.erb == nil {
		return true
	}
	at := x.t.StartByte(n)
	for _, s := range x.erb {
		if at >= s.start && at < s.end {
			return true
		}
		if s.start > at {
			break
		}
	}
	return false
}
