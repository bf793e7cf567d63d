package extract

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// rec builds one flat record.
func rec(kind uint16, field uint8, flags uint8, start, end, row, children, size uint32) []byte {
	b := make([]byte, abi.RecordSize)
	binary.LittleEndian.PutUint32(b[0:], uint32(kind)|uint32(field)<<16|uint32(flags)<<24)
	binary.LittleEndian.PutUint32(b[4:], start)
	binary.LittleEndian.PutUint32(b[8:], end)
	binary.LittleEndian.PutUint32(b[12:], row)
	binary.LittleEndian.PutUint32(b[16:], row)
	binary.LittleEndian.PutUint32(b[20:], children)
	binary.LittleEndian.PutUint32(b[24:], size)
	return b
}

func TestTree(t *testing.T) {
	// source_file(function(name:identifier "f"), identifier "g")
	src := []byte("func f\ng")
	g := NewGrammar(&abi.Grammar{Kinds: []string{"end", "source_file", "function", "identifier", "func"},
		Named: []bool{false, true, true, true, false}, Fields: []string{"", "name"}})
	var recs []byte
	recs = append(recs, rec(1, 0, abi.FlagNamed, 0, 8, 0, 2, 5)...)
	recs = append(recs, rec(2, 0, abi.FlagNamed, 0, 6, 0, 2, 3)...)
	recs = append(recs, rec(4, 0, 0, 0, 4, 0, 0, 1)...)
	recs = append(recs, rec(3, 1, abi.FlagNamed, 5, 6, 0, 0, 1)...)
	recs = append(recs, rec(3, 0, abi.FlagNamed, 7, 8, 1, 0, 1)...)
	tr := NewTree(g, recs, src)

	fn := tr.ChildOfKind(0, g.Kind("function"))
	if fn != 1 {
		t.Fatalf("ChildOfKind(function) = %d", fn)
	}
	if name := tr.Child(fn, g.Field("name")); tr.Text(name) != "f" {
		t.Errorf("name = %q", tr.Text(name))
	}
	var kids []string
	for c := range tr.Children(0) {
		kids = append(kids, tr.KindName(c))
	}
	if len(kids) != 2 || kids[0] != "function" || kids[1] != "identifier" {
		t.Errorf("children = %v", kids)
	}
	var named []Node
	for c := range tr.NamedChildren(fn) {
		named = append(named, c)
	}
	if len(named) != 1 || named[0] != 3 {
		t.Errorf("named children of function = %v", named)
	}
	if p := tr.Parent(3); p != 1 {
		t.Errorf("Parent(3) = %d", p)
	}
	if p := tr.Parent(4); p != 0 {
		t.Errorf("Parent(4) = %d", p)
	}
	if c := tr.StartCol(4); c != 1 || tr.StartLine(4) != 2 {
		t.Errorf("StartCol/Line(4) = %d/%d", c, tr.StartLine(4))
	}
	if g.Anon("func") != 4 || g.Kind("func") != 0 {
		t.Errorf("anonymous kind lookup wrong")
	}
	// None is safe everywhere.
	if tr.Kind(None) != 0 || tr.Text(None) != "" || tr.Bytes(None) != nil || tr.ChildCount(None) != 0 || tr.Child(None, 1) != None || tr.Parent(None) != None {
		t.Error("accessors not safe on None")
	}
	for range tr.Children(None) {
		t.Error("None has children")
	}
	if h := tr.Header(3); h.Kind() != 3 || h.Field() != 1 || !h.IsNamed() || h.IsError() || h.IsMissing() {
		t.Errorf("Header(3) = %#x", h)
	}
	if tr.Header(None) != 0 || tr.Header(Node(tr.Len())) != 0 {
		t.Error("Header not zero out of range")
	}
	// Unaligned records are copied, and read the same.
	odd := append(make([]byte, 1, len(recs)+1), recs...)[1:]
	if u := NewTree(g, odd, src); u.Len() != tr.Len() || u.Kind(3) != tr.Kind(3) || u.Size(0) != tr.Size(0) || u.EndByte(4) != tr.EndByte(4) {
		t.Errorf("unaligned records read differently")
	}
	// A tree reused for another file starts afresh.
	tr.reset(g, recs[:2*abi.RecordSize], []byte("x\ny"))
	if tr.Len() != 2 || tr.Kind(2) != 0 || tr.StartCol(1) != 1 || tr.Parent(1) != 0 {
		t.Errorf("reset tree: len %d, kind(2) %d, col(1) %d", tr.Len(), tr.Kind(2), tr.StartCol(1))
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want, chain string }{
		{"void m()", "void m()", "void m()"},
		{"  f(\n\tint a,\n\tint b\n) ", "f(int a, int b)", "f(int a, int b)"},
		{"a()\n  .b()", "a() .b()", "a().b()"},
		{"", "", ""},
	}
	for _, tt := range tests {
		if got := OneLine(tt.in); got != tt.want {
			t.Errorf("OneLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := OneLineChain(tt.in); got != tt.chain {
			t.Errorf("OneLineChain(%q) = %q, want %q", tt.in, got, tt.chain)
		}
	}
	long := strings.Repeat("é", 100)
	if got := ReceiverText(long, 64); len(got) > 64 || !strings.HasSuffix(got, "...") {
		t.Errorf("ReceiverText not clipped on a rune boundary: %q (%d bytes)", got, len(got))
	}
}

func TestSeek(t *testing.T) {
	// source_file(function(name:identifier), MISSING identifier, identifier)
	g := NewGrammar(&abi.Grammar{Kinds: []string{"end", "source_file", "function", "identifier"},
		Named: []bool{false, true, true, true}, Fields: []string{""}})
	var recs []byte
	recs = append(recs, rec(1, 0, abi.FlagNamed, 0, 8, 0, 3, 5)...)
	recs = append(recs, rec(2, 0, abi.FlagNamed, 0, 6, 0, 1, 2)...)
	recs = append(recs, rec(3, 0, abi.FlagNamed, 5, 6, 0, 0, 1)...)
	recs = append(recs, rec(3, 0, abi.FlagNamed|abi.FlagMissing, 6, 6, 0, 0, 1)...)
	recs = append(recs, rec(3, 0, abi.FlagNamed, 7, 8, 1, 0, 1)...)
	tr := NewTree(g, recs, []byte("func f\ng"))
	var tab KindTable
	tab[g.Kind("function")] = 1
	for _, tt := range []struct{ from, end, want Node }{
		{0, 5, 1}, {1, 5, 1}, {2, 5, 3}, {4, 5, 5}, {None, 5, 1}, {9, 5, 5},
		{2, 3, 3}, {0, 1, 1}, {4, 9, 9}, {0, None, None},
	} {
		if got := tr.Seek(tt.from, tt.end, &tab); got != tt.want {
			t.Errorf("Seek(%d, %d) = %d, want %d", tt.from, tt.end, got, tt.want)
		}
	}
}

func TestCollapse(t *testing.T) {
	for in, want := range map[string]string{
		"":                 "",
		"a":                "a",
		"  a  b ":          "a b",
		"f(a,\n\t  b)":     "f(a, b)",
		"( a )":            "( a )",
		"x\r\n=>\n\n y":    "x => y",
		"\u00a0a\u00a0":    "a",
		"a\fb":             "a\fb",
		"already one line": "already one line",
	} {
		if got := Collapse(in); got != want {
			t.Errorf("Collapse(%q) = %q, want %q", in, got, want)
		}
	}
}
