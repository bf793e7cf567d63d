package syntax

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// record is one decoded flat record (host-side helper for tests and tools;
// plugins decode through sdk/abi).
type record struct {
	kind             uint16
	field, flags     uint8
	startByte, endB  uint32
	startRow, endRow uint32
	children, size   uint32
}

func decode(recs []byte, i int) record {
	b := recs[i*RecordSize : (i+1)*RecordSize]
	w0 := binary.LittleEndian.Uint32(b)
	return record{
		kind:      uint16(w0),
		field:     uint8(w0 >> 16),
		flags:     uint8(w0 >> 24),
		startByte: binary.LittleEndian.Uint32(b[4:]),
		endB:      binary.LittleEndian.Uint32(b[8:]),
		startRow:  binary.LittleEndian.Uint32(b[12:]),
		endRow:    binary.LittleEndian.Uint32(b[16:]),
		children:  binary.LittleEndian.Uint32(b[20:]),
		size:      binary.LittleEndian.Uint32(b[24:]),
	}
}

// DebugString renders tree as an indented S-expression, one node per line:
// `field: (kind [startRow:startByte-endRow:endByte] "leaf text" ...)` for
// named nodes, `field: "token"` for anonymous leaves, `(MISSING "kind")` for
// nodes inserted by error recovery, and a `~` prefix on extras (comments).
// It is meant for tests and debugging, not for large trees.
func DebugString(g *Grammar, tree Tree, src []byte) string {
	if tree.NodeCount < 1 || tree.NodeCount*RecordSize != len(tree.Records) {
		return fmt.Sprintf("<invalid tree: %d nodes, %d bytes>", tree.NodeCount, len(tree.Records))
	}
	var sb strings.Builder
	var walk func(i, depth int) int
	walk = func(i, depth int) int {
		r := decode(tree.Records, i)
		if depth > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(strings.Repeat("  ", depth))
		if r.field != 0 {
			sb.WriteString(nameAt(g.Fields, int(r.field)) + ": ")
		}
		if r.flags&FlagExtra != 0 {
			sb.WriteByte('~')
		}
		kind := nameAt(g.Kinds, int(r.kind))
		switch {
		case r.flags&FlagMissing != 0:
			fmt.Fprintf(&sb, "(MISSING %s", strconv.Quote(kind))
		case r.flags&FlagNamed == 0 && r.size == 1:
			sb.WriteString(strconv.Quote(kind))
		default:
			if r.flags&FlagNamed == 0 {
				kind = strconv.Quote(kind)
			}
			fmt.Fprintf(&sb, "(%s [%d:%d-%d:%d]", kind, r.startRow, r.startByte, r.endRow, r.endB)
			if r.size == 1 && r.startByte <= r.endB && r.endB <= uint32(len(src)) {
				text := src[r.startByte:r.endB]
				if len(text) > 40 {
					text = append(text[:37:37], "..."...)
				}
				sb.WriteString(" " + strconv.Quote(string(text)))
			}
		}
		j, end := i+1, min(i+int(r.size), tree.NodeCount)
		for j < end {
			j = walk(j, depth+1)
		}
		if r.flags&FlagMissing != 0 || r.flags&FlagNamed != 0 || r.size != 1 {
			sb.WriteByte(')')
		}
		return max(end, i+1)
	}
	walk(0, 0)
	sb.WriteByte('\n')
	return sb.String()
}

func nameAt(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "#" + strconv.Itoa(i)
}

// Check verifies the structural invariants of a flat tree produced from src
// with g: record count, preorder subtree sizes and child counts, canonical
// kinds, field and flag consistency, byte ranges nested and ordered, and
// rows matching the newlines of src. It is O(n log n) and meant for tests
// and fuzzing (also from other packages).
func Check(g *Grammar, tree Tree, src []byte) error {
	n := tree.NodeCount
	if n < 1 || len(tree.Records) != n*RecordSize {
		return fmt.Errorf("bad size: %d nodes, %d record bytes", n, len(tree.Records))
	}
	var lines []int // byte offsets of '\n'
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i)
		}
	}
	rowOf := func(off uint32) uint32 { return uint32(sort.SearchInts(lines, int(off))) }
	if r := decode(tree.Records, 0); int(r.size) != n {
		return fmt.Errorf("root size %d != node count %d", r.size, n)
	}
	var stack []checkFrame
	for i := 0; i < n; i++ {
		r := decode(tree.Records, i)
		if r.size < 1 || i+int(r.size) > n {
			return fmt.Errorf("node %d: size %d out of range", i, r.size)
		}
		if int(r.kind) >= len(g.Kinds) {
			return fmt.Errorf("node %d: kind %d out of range", i, r.kind)
		}
		if g.Canonical(r.kind) != r.kind {
			return fmt.Errorf("node %d: kind %d (%s) not canonical (%d)", i, r.kind, g.Kinds[r.kind], g.Canonical(r.kind))
		}
		if int(r.field) >= len(g.Fields) {
			return fmt.Errorf("node %d: field %d out of range", i, r.field)
		}
		if r.flags&^(FlagNamed|FlagError|FlagMissing|FlagExtra) != 0 {
			return fmt.Errorf("node %d: unknown flags %#x", i, r.flags)
		}
		if (r.flags&FlagNamed != 0) != g.Named[r.kind] {
			return fmt.Errorf("node %d: named flag %v disagrees with kind %q", i, r.flags&FlagNamed != 0, g.Kinds[r.kind])
		}
		if (r.flags&FlagError != 0) != (r.kind == g.ErrorKind) {
			return fmt.Errorf("node %d: error flag %v disagrees with kind %q", i, r.flags&FlagError != 0, g.Kinds[r.kind])
		}
		if r.startByte > r.endB || int(r.endB) > len(src) {
			return fmt.Errorf("node %d: bytes [%d,%d) outside source of %d", i, r.startByte, r.endB, len(src))
		}
		if r.startRow != rowOf(r.startByte) || r.endRow != rowOf(r.endB) {
			return fmt.Errorf("node %d: rows %d-%d, want %d-%d", i, r.startRow, r.endRow, rowOf(r.startByte), rowOf(r.endB))
		}
		// Pop finished ancestors and verify their child counts.
		for len(stack) > 0 && stack[len(stack)-1].end <= i {
			if err := stack[len(stack)-1].done(); err != nil {
				return err
			}
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			p := &stack[len(stack)-1]
			if i != p.next {
				return fmt.Errorf("node %d: expected next child at %d", i, p.next)
			}
			if i+int(r.size) > p.end {
				return fmt.Errorf("node %d: subtree overruns parent %d", i, p.i)
			}
			if r.startByte < p.r.startByte || r.endB > p.r.endB {
				return fmt.Errorf("node %d: bytes [%d,%d) not within parent %d [%d,%d)", i, r.startByte, r.endB, p.i, p.r.startByte, p.r.endB)
			}
			if p.kids > 0 && r.startByte < p.lastEnd {
				return fmt.Errorf("node %d: starts at %d before previous sibling ends at %d", i, r.startByte, p.lastEnd)
			}
			p.kids++
			p.lastEnd = r.endB
			p.next = i + int(r.size)
		} else if i != 0 {
			return fmt.Errorf("node %d: outside the root", i)
		}
		stack = append(stack, checkFrame{i: i, end: i + int(r.size), next: i + 1, r: r})
	}
	for len(stack) > 0 {
		if err := stack[len(stack)-1].done(); err != nil {
			return err
		}
		stack = stack[:len(stack)-1]
	}
	return nil
}

type checkFrame struct {
	i, end, next int // next: index of the next expected child
	kids         uint32
	lastEnd      uint32
	r            record
}

func (f *checkFrame) done() error {
	if f.kids != f.r.children {
		return fmt.Errorf("node %d: child count %d, found %d", f.i, f.r.children, f.kids)
	}
	if f.next != f.end {
		return fmt.Errorf("node %d: children end at %d, subtree at %d", f.i, f.next, f.end)
	}
	return nil
}
