package tools

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxContextLines is get_source's upper clamp.
const maxContextLines = 400

// getSource returns verbatim source lines: the one tool whose output is raw
// file bytes (the header is sanitized; the numbered lines are not, because
// the agent asked for exactly those bytes). Every read goes through the
// source-root jail.
func (c *Catalog) getSource(_ context.Context, s *snapshot, args json.RawMessage) Result {
	var a struct {
		Label        string `json:"label"`
		File         string `json:"file"`
		Lines        string `json:"lines"`
		ContextLines *int   `json:"context_lines"`
	}
	if err := decode(args, &a); err != nil {
		return errorf("%v", err)
	}
	ctxLines := c.defaults().contextLines
	if a.ContextLines != nil {
		ctxLines = *a.ContextLines
	}
	ctxLines = min(max(ctxLines, 1), maxContextLines)

	var w window
	switch {
	case a.File != "":
		w = window{file: a.File, from: 1, to: ctxLines, byFile: true}
		if a.Lines != "" {
			var err error
			if w.from, w.to, err = parseLines(a.Lines, ctxLines); err != nil {
				return errorf("%v", err)
			}
		}
	case a.Label != "":
		i, _, fail := s.resolveOne(a.Label)
		if fail != nil {
			return *fail
		}
		n := s.x.Node(i)
		if n.SourceFile == "" {
			return errorf("%s is an external node with no source file.", s.label(i))
		}
		w = window{file: n.SourceFile, explicit: a.ContextLines != nil, ctx: ctxLines}
		w.from = max(startLine(n.SourceLocation, 0), 1)
		if n.Span != nil && n.Span.StartLine > 0 {
			w.from, w.spanEnd = n.Span.StartLine, n.Span.EndLine
		}
		w.header = fmt.Sprintf("%s [%s] ", s.label(i), sanitize(cmp.Or(n.Kind, n.FileType, "node")))
		if q := s.x.Qualified(i); q != n.Label+"@"+n.SourceFile {
			w.header = fmt.Sprintf("%s [%s] (ref %s) ", s.label(i), sanitize(cmp.Or(n.Kind, n.FileType, "node")), sanitize(q))
		}
	default:
		return errorf("get_source needs a label, or a file (with optional lines).")
	}

	data, err := readJailed(c.opts.SourceRoot, w.file)
	if err != nil {
		return errorf("%v", err)
	}
	lines := splitLines(data)
	if w.from > len(lines) {
		return errorf("%s has %d lines; L%d is past the end.", sanitize(w.file), len(lines), w.from)
	}
	from, to, note := w.plan(lines)
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s:L%d-L%d%s\n", w.header, sanitize(w.file), from, to, note)
	width := len(strconv.Itoa(to))
	for n := from; n <= to; n++ {
		fmt.Fprintf(&b, "%*d  ", width, n)
		b.Write(lines[n-1])
		b.WriteByte('\n')
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
}

// maxSymbolLines caps a symbol shown whole (doc comment included) when no
// context_lines is given: long enough for nearly every function, short
// enough for a model's context.
const maxSymbolLines = 200

// maxDocLines bounds how far above a symbol its doc comment is looked for.
const maxDocLines = 60

// window is what get_source was asked to show, before the file is read.
type window struct {
	file, header string
	from, to     int // byFile: the requested range
	spanEnd      int // the symbol's last line, 0 when no span is recorded
	ctx          int
	explicit     bool // context_lines was passed
	byFile       bool
}

// plan picks the lines to print and the header note that says what they
// are: the whole symbol with its doc comment, or a window that says where
// it was cut and how to see the rest. A window never looks complete when
// it is not.
func (w window) plan(lines [][]byte) (from, to int, note string) {
	total := len(lines)
	if w.byFile {
		from, to = w.from, min(w.to, total)
		if to < total {
			note = fmt.Sprintf(" (of %d lines)", total)
		} else if w.to > total {
			note = fmt.Sprintf(" (the file ends at L%d)", total)
		}
		return from, to, note
	}
	end := min(w.spanEnd, total)
	if end < w.from {
		// No span: a window from the start line, which may stop mid-symbol.
		to = min(satAdd(w.from, w.ctx-1), total)
		return w.from, to, fmt.Sprintf(" (no extent recorded for this symbol: showing %d lines from its start; pass context_lines for more)", to-w.from+1)
	}
	if w.explicit {
		to = min(satAdd(w.from, w.ctx-1), end)
		if to < end {
			note = fmt.Sprintf(", of the symbol's L%d-L%d (cut at context_lines=%d: pass context_lines=%d to see all of it)", w.from, end, w.ctx, end-w.from+1)
		}
		return w.from, to, note
	}
	from = docStart(lines, w.from)
	to = min(end, satAdd(from, maxSymbolLines-1))
	if to < end {
		return from, to, fmt.Sprintf(", of the symbol's L%d-L%d (truncated at %d lines: pass context_lines=%d to see all of it)", w.from, end, maxSymbolLines, end-w.from+1)
	}
	if from < w.from {
		note = fmt.Sprintf(" (doc comment L%d-L%d, symbol L%d-L%d)", from, w.from-1, w.from, end)
	}
	return from, to, note
}

// docStart walks up from a symbol's first line over the comment,
// attribute and decorator lines directly above it (no blank line between),
// so the symbol is shown with its documentation.
func docStart(lines [][]byte, start int) int {
	from := start
	for n := start - 1; n >= 1 && start-n <= maxDocLines; n-- {
		t := bytes.TrimSpace(lines[n-1])
		if len(t) == 0 || !isDocLine(t) {
			break
		}
		from = n
	}
	return from
}

// docPrefixes open, continue or close a comment in the common comment
// syntaxes, or annotate the declaration below (@decorator, #[attr]).
var docPrefixes = [][]byte{[]byte("//"), []byte("#"), []byte("/*"), []byte("*"), []byte("--"), []byte(";;"), []byte("@"), []byte("'''"), []byte(`"""`)}

// isDocLine reports a line of a doc block (see docPrefixes), or a C#
// style [Attribute] line.
func isDocLine(t []byte) bool {
	for _, p := range docPrefixes {
		if bytes.HasPrefix(t, p) {
			return true
		}
	}
	return bytes.HasPrefix(t, []byte("[")) && bytes.HasSuffix(t, []byte("]"))
}

// parseLines parses "108-140" or "108" (then ctxLines from there).
func parseLines(s string, ctxLines int) (from, to int, err error) {
	bad := fmt.Errorf("lines must look like \"108-140\" or \"108\", got %q", sanitize(s))
	a, b, isRange := strings.Cut(strings.TrimSpace(s), "-")
	if from, err = strconv.Atoi(strings.TrimSpace(a)); err != nil || from < 1 {
		return 0, 0, bad
	}
	if !isRange {
		return from, satAdd(from, ctxLines-1), nil
	}
	if to, err = strconv.Atoi(strings.TrimSpace(b)); err != nil || to < from {
		return 0, 0, bad
	}
	return from, min(to, satAdd(from, maxContextLines-1)), nil
}

// satAdd adds two non-negative ints, saturating instead of wrapping: line
// numbers come from arguments and from graph spans, either may be huge.
func satAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}
