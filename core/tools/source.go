package tools

import (
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

	var header, file string
	var from, to int
	switch {
	case a.File != "":
		file = a.File
		from, to = 1, ctxLines
		if a.Lines != "" {
			var err error
			if from, to, err = parseLines(a.Lines, ctxLines); err != nil {
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
		file = n.SourceFile
		spanStart, spanEnd := 0, 0
		if n.Span != nil {
			spanStart, spanEnd = n.Span.StartLine, n.Span.EndLine
		}
		from = max(startLine(n.SourceLocation, spanStart), 1)
		to = satAdd(from, ctxLines-1)
		if spanEnd >= from && spanEnd < to {
			to = spanEnd // stop at the symbol's end when a span is recorded
		}
		header = fmt.Sprintf("%s [%s] ", s.label(i), sanitize(cmp.Or(n.Kind, n.FileType, "node")))
	default:
		return errorf("get_source needs a label, or a file (with optional lines).")
	}

	data, err := readJailed(c.opts.SourceRoot, file)
	if err != nil {
		return errorf("%v", err)
	}
	lines := splitLines(data)
	if from > len(lines) {
		return errorf("%s has %d lines; L%d is past the end.", sanitize(file), len(lines), from)
	}
	to = min(to, len(lines))
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s:L%d-L%d\n", header, sanitize(file), from, to)
	width := len(strconv.Itoa(to))
	for n := from; n <= to; n++ {
		fmt.Fprintf(&b, "%*d  ", width, n)
		b.Write(lines[n-1])
		b.WriteByte('\n')
	}
	return Result{Text: strings.TrimRight(b.String(), "\n")}
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
