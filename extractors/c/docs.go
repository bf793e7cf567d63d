package main

import (
	"bytes"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// lineStart returns the byte offset of 1-based line l.
func (w *walker) lineStart(l uint32) int {
	if w.lines == nil {
		w.lines = append(w.lines, 0)
		for off, c := range w.t.Source() {
			if c == '\n' {
				w.lines = append(w.lines, off+1)
			}
		}
	}
	if i := int(l) - 1; i >= 0 && i < len(w.lines) {
		return w.lines[i]
	}
	return 0
}

// docAbove is the comment just above a definition: a /** … */ block, a
// run of /// or // lines, or — C's habit — a plain /* … */ block.
func docAbove(src []byte, start int) string {
	if d := extract.DocAbove(src, start, extract.DocBlockStar); d != "" {
		return d
	}
	if d := extract.DocAbove(src, start, extract.DocTriple); d != "" {
		return d // Doxygen's ///
	}
	if d := extract.DocAbove(src, start, extract.DocSlashes); d != "" {
		return d
	}
	return plainBlockDoc(src, start)
}

// maxDocScan bounds how far back a /* … */ doc is looked for.
const maxDocScan = 16 << 10

// plainBlockDoc is a /* … */ comment that ends on the line above start and
// begins at the start of its own line.
func plainBlockDoc(src []byte, start int) string {
	if start <= 0 || start > len(src) {
		return ""
	}
	above := bytes.TrimRight(src[:start-1], " \t\r")
	if !bytes.HasSuffix(above, []byte("*/")) {
		return ""
	}
	lineOf := bytes.LastIndexByte(src[:start-1], '\n') + 1
	if !bytes.HasSuffix(bytes.TrimSpace(src[lineOf:start-1]), []byte("*/")) {
		return ""
	}
	from := max(0, len(above)-maxDocScan)
	open := bytes.LastIndex(above[from:], []byte("/*"))
	if open < 0 {
		return ""
	}
	open += from
	if ls := bytes.LastIndexByte(src[:open], '\n') + 1; len(bytes.TrimSpace(src[ls:open])) != 0 {
		return "" // code before the comment on its line: a trailing comment of that code
	}
	body := string(above[open+2 : len(above)-2])
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "*")
		lines[i] = l
	}
	return extract.DocText(lines)
}
