package syntax

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// snippets: one small, valid program per registered grammar and a named
// node kind it must contain.
var snippets = map[string]struct {
	src, want string
}{
	"go":         {"package main\n\nimport \"fmt\"\n\n// hello\nfunc main() { fmt.Println(\"hi\") }\n", "function_declaration"},
	"python":     {"import os\n\ndef f(x):\n    return x + 1\n\nclass A:\n    pass\n", "function_definition"},
	"javascript": {"function f(a) { return a + 1; }\nconst x = () => f(2);\n", "function_declaration"},
	"typescript": {"interface A { x: number }\nfunction f(a: A): number { return a.x; }\n", "interface_declaration"},
	"tsx":        {"const App = () => <div className=\"x\">{1}</div>;\n", "jsx_element"},
	"java":       {"class A { void m() { System.out.println(1); } }\n", "method_declaration"},
	"rust":       {"fn main() { let x = 1; println!(\"{}\", x); }\n", "function_item"},
	"bash":       {"#!/bin/sh\nfoo() { echo hi; }\nfoo | grep h\n", "function_definition"},
	"c":          {"#include <stdio.h>\nint main(void) { return 0; }\n", "function_definition"},
	"cpp":        {"namespace n { class A { public: int f() const { return 1; } }; }\n", "class_specifier"},
	"csharp":     {"class A { void M() { System.Console.WriteLine(1); } }\n", "method_declaration"},
	"css":        {"a.b > c { color: red; }\n", "rule_set"},
	"dockerfile": {"FROM golang:1.26\nRUN go build ./...\n", "from_instruction"},
	"groovy":     {"def f(x) { return x + 1 }\nprintln f(2)\n", "function_definition"},
	"hcl":        {"resource \"a\" \"b\" {\n  x = 1\n}\n", "block"},
	"html":       {"<html><body><p class=\"x\">hi</p></body></html>\n", "element"},
	"kotlin":     {"fun main() {\n    println(\"hi\")\n}\n", "function_declaration"},
	"lua":        {"local function f(x) return x + 1 end\nprint(f(1))\n", "function_call"},
	"php":        {"<?php\nfunction f($x) { return $x + 1; }\n", "function_definition"},
	"protobuf":   {"syntax = \"proto3\";\nmessage A { int32 x = 1; }\n", "message"},
	"ruby":       {"class A\n  def m(x)\n    x + 1\n  end\nend\n", "method"},
	"scala":      {"object A {\n  def f(x: Int): Int = x + 1\n}\n", "function_definition"},
	"sql":        {"SELECT a, b FROM t WHERE a = 1;\n", "select"},
	"swift":      {"func f(x: Int) -> Int {\n    return x + 1\n}\n", "function_declaration"},
	"toml":       {"[a]\nb = 1\n", "table"},
	"yaml":       {"a:\n  - b\n  - c\n", "block_mapping"},
}

func mustGrammar(tb testing.TB, name string) *Grammar {
	tb.Helper()
	g, ok := Lookup(name)
	if !ok {
		tb.Fatalf("Lookup(%q) failed", name)
	}
	return g
}

func TestRegistry(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names not sorted: %v", names)
	}
	for _, want := range []string{"go", "python", "javascript", "typescript", "tsx", "java", "rust"} {
		if !slices.Contains(names, want) {
			t.Errorf("core grammar %q not registered", want)
		}
	}
	if _, ok := Lookup("no-such-language"); ok {
		t.Error("Lookup of unknown grammar succeeded")
	}
	for _, name := range names {
		g := mustGrammar(t, name)
		if _, ok := snippets[name]; !ok {
			t.Errorf("%s: no test snippet", name)
		}
		if g.Name != name || len(g.Kinds) != len(g.Named) || len(g.Kinds) < 2 {
			t.Fatalf("%s: bad tables: %d kinds, %d named", name, len(g.Kinds), len(g.Named))
		}
		if len(g.Fields) == 0 || g.Fields[0] != "" || len(g.Fields) > 256 {
			t.Errorf("%s: bad field table (%d)", name, len(g.Fields))
		}
		if g.Kinds[g.ErrorKind] != "ERROR" || !g.Named[g.ErrorKind] {
			t.Errorf("%s: ErrorKind %d is %q", name, g.ErrorKind, g.Kinds[g.ErrorKind])
		}
		first := map[kindKey]uint16{}
		aliases := 0
		for i := range len(g.Kinds) - 1 {
			k := kindKey{g.Kinds[i], g.Named[i]}
			if _, ok := first[k]; !ok {
				first[k] = uint16(i)
			}
			c := g.Canonical(uint16(i))
			if c != first[k] {
				t.Errorf("%s: Canonical(%d %q)=%d, want %d", name, i, g.Kinds[i], c, first[k])
			}
			if c != uint16(i) {
				aliases++
			}
			if id, ok := g.KindID(k.name, k.named); !ok || id != c {
				t.Errorf("%s: KindID(%q,%v)=%d,%v want %d", name, k.name, k.named, id, ok, c)
			}
		}
		if g.Canonical(0xFFFF) != g.ErrorKind {
			t.Errorf("%s: Canonical(0xFFFF) != ErrorKind", name)
		}
		for i, f := range g.Fields[1:] {
			if id, ok := g.FieldID(f); !ok || int(id) != i+1 {
				t.Errorf("%s: FieldID(%q)=%d,%v want %d", name, f, id, ok, i+1)
			}
		}
		t.Logf("%-10s %4d kinds (%3d non-canonical) %3d fields", name, len(g.Kinds), aliases, len(g.Fields)-1)
	}
}

// namedView lists (kind, field, start, end) of the named nodes of a tree.
func namedView(tr Tree) [][4]uint32 {
	var out [][4]uint32
	for i := range tr.NodeCount {
		r := decode(tr.Records, i)
		if r.flags&FlagNamed != 0 || i == 0 {
			out = append(out, [4]uint32{uint32(r.kind), uint32(r.field), r.startByte, r.endB})
		}
	}
	return out
}

func TestParseSnippets(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			g := mustGrammar(t, name)
			sn := snippets[name]
			src := []byte(sn.src)
			full, err := p.Parse(g, src, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			full = full.Clone() // the next Parse reuses the buffer
			dump := DebugString(g, full, src)
			if err := Check(g, full, src); err != nil {
				t.Fatalf("invariants: %v\n%s", err, dump)
			}
			if full.HasError {
				t.Errorf("HasError on valid snippet:\n%s", dump)
			}
			want, ok := g.KindID(sn.want, true)
			if !ok {
				t.Fatalf("grammar has no named kind %q", sn.want)
			}
			found := false
			for i := range full.NodeCount {
				found = found || decode(full.Records, i).kind == want
			}
			if !found {
				t.Errorf("no %s node:\n%s", sn.want, dump)
			}

			named, err := p.Parse(g, src, ParseOptions{NamedOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(g, named, src); err != nil {
				t.Fatalf("named-only invariants: %v\n%s", err, DebugString(g, named, src))
			}
			for i := 1; i < named.NodeCount; i++ {
				if decode(named.Records, i).flags&FlagNamed == 0 {
					t.Fatalf("named-only tree has anonymous node %d", i)
				}
			}
			if a, b := namedView(full), namedView(named); !slices.Equal(a, b) {
				t.Errorf("named-only nodes differ from the named nodes of the full tree:\n%v\n%v", a, b)
			}
			if named.NodeCount >= full.NodeCount {
				t.Errorf("named-only kept %d of %d nodes", named.NodeCount, full.NodeCount)
			}
		})
	}
}

func TestGoFields(t *testing.T) {
	g := mustGrammar(t, "go")
	p := NewParser()
	defer p.Close()
	src := []byte("package p\n\nfunc (r *T) M(a int) {}\n\nfunc F() { G(1) }\n")
	tr, err := p.Parse(g, src, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	kind := func(name string) uint16 {
		id, ok := g.KindID(name, true)
		if !ok {
			t.Fatalf("no kind %q", name)
		}
		return id
	}
	field := func(name string) uint8 {
		id, ok := g.FieldID(name)
		if !ok {
			t.Fatalf("no field %q", name)
		}
		return id
	}
	// childWithField returns the child of node i that has field f.
	childWithField := func(i int, f uint8) (record, bool) {
		r := decode(tr.Records, i)
		for j := i + 1; j < i+int(r.size); {
			c := decode(tr.Records, j)
			if c.field == f {
				return c, true
			}
			j += int(c.size)
		}
		return record{}, false
	}
	var funcs, methods int
	for i := range tr.NodeCount {
		r := decode(tr.Records, i)
		switch r.kind {
		case kind("function_declaration"):
			funcs++
			c, ok := childWithField(i, field("name"))
			if !ok || c.kind != kind("identifier") || string(src[c.startByte:c.endB]) != "F" {
				t.Errorf("function name: %+v %v", c, ok)
			}
		case kind("method_declaration"):
			methods++
			c, ok := childWithField(i, field("name"))
			if !ok || c.kind != kind("field_identifier") || string(src[c.startByte:c.endB]) != "M" {
				t.Errorf("method name: %+v %v", c, ok)
			}
			c, ok = childWithField(i, field("receiver"))
			if !ok || c.kind != kind("parameter_list") || string(src[c.startByte:c.endB]) != "(r *T)" {
				t.Errorf("receiver: %+v %v", c, ok)
			}
		case kind("call_expression"):
			c, ok := childWithField(i, field("function"))
			if !ok || string(src[c.startByte:c.endB]) != "G" {
				t.Errorf("call function: %+v %v", c, ok)
			}
		}
		if r.field != 0 && i == 0 {
			t.Error("root has a field")
		}
	}
	if funcs != 1 || methods != 1 {
		t.Errorf("funcs=%d methods=%d", funcs, methods)
	}
	// Anonymous tokens are canonical too: "func" appears as one kind id.
	fn, ok := g.KindID("func", false)
	if !ok || g.Canonical(fn) != fn {
		t.Errorf("anonymous kind func: %d %v", fn, ok)
	}
}

func TestDebugString(t *testing.T) {
	g := mustGrammar(t, "go")
	p := NewParser()
	defer p.Close()
	src := []byte("package p\n// c\nvar x = 1\n")
	tr, err := p.Parse(g, src, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := DebugString(g, tr, src)
	want := `(source_file [0:0-3:25]
  (package_clause [0:0-0:9]
    "package"
    (package_identifier [0:8-0:9] "p"))
  "\n"
  ~(comment [1:10-1:14] "// c")
  (var_declaration [2:15-2:24]
    "var"
    (var_spec [2:19-2:24]
      name: (identifier [2:19-2:20] "x")
      "="
      value: (expression_list [2:23-2:24]
        (int_literal [2:23-2:24] "1"))))
  "\n")
`
	if got != want {
		t.Errorf("DebugString:\n%s\nwant:\n%s", got, want)
	}
}

func TestEmptySource(t *testing.T) {
	p := NewParser()
	defer p.Close()
	for _, name := range Names() {
		g := mustGrammar(t, name)
		for _, src := range [][]byte{nil, {}} {
			tr, err := p.Parse(g, src, ParseOptions{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := Check(g, tr, src); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			if tr.NodeCount != 1 {
				t.Errorf("%s: empty source gave %d nodes:\n%s", name, tr.NodeCount, DebugString(g, tr, src))
			}
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	g := mustGrammar(t, "go")
	p := NewParser()
	defer p.Close()
	for _, src := range []string{
		"package main\nfunc (",
		"package main\nfunc main() { x := }\n",
		"package main\nfunc main() { if x { }\n",
		")))(((",
	} {
		for _, named := range []bool{false, true} {
			tr, err := p.Parse(g, []byte(src), ParseOptions{NamedOnly: named})
			if err != nil {
				t.Fatalf("%q: %v", src, err)
			}
			if !tr.HasError {
				t.Errorf("%q: HasError false:\n%s", src, DebugString(g, tr, []byte(src)))
			}
			if err := Check(g, tr, []byte(src)); err != nil {
				t.Errorf("%q: %v\n%s", src, err, DebugString(g, tr, []byte(src)))
			}
			flagged := false
			for i := range tr.NodeCount {
				flagged = flagged || decode(tr.Records, i).flags&(FlagError|FlagMissing) != 0
			}
			if !flagged && !named {
				t.Errorf("%q: no ERROR or MISSING node:\n%s", src, DebugString(g, tr, []byte(src)))
			}
		}
	}
}

func TestHostileBytes(t *testing.T) {
	inputs := [][]byte{
		[]byte("\xff\xfe\x00package\x00 main\n\xc3("),
		[]byte("package main\n\nfunc main() { s := \"\xe2\x82\" }\n"),
		bytes.Repeat([]byte{0}, 1000),
		bytes.Repeat([]byte("\x80\n\r\t{"), 500),
		[]byte(strings.Repeat("(", 5000)),
		[]byte(strings.Repeat("{[\"'`", 300)),
	}
	p := NewParser()
	defer p.Close()
	for _, name := range Names() {
		g := mustGrammar(t, name)
		for i, src := range inputs {
			for _, named := range []bool{false, true} {
				tr, err := p.Parse(g, src, ParseOptions{NamedOnly: named, Timeout: 10 * time.Second})
				if err != nil {
					t.Errorf("%s input %d: %v", name, i, err)
					continue
				}
				if err := Check(g, tr, src); err != nil {
					t.Errorf("%s input %d named=%v: %v", name, i, named, err)
				}
			}
		}
	}
}

func bigGo(n int) []byte {
	var b bytes.Buffer
	b.WriteString("package big\n")
	for b.Len() < n {
		b.WriteString("func f(a, b int) int { if a > b { return a - b }; return g(a, b, []int{1, 2, 3}) }\n")
	}
	return b.Bytes()
}

func TestTimeout(t *testing.T) {
	g := mustGrammar(t, "go")
	p := NewParser()
	defer p.Close()
	big := bigGo(4 << 20)
	_, err := p.Parse(g, big, ParseOptions{Timeout: time.Microsecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("got %v, want ErrTimeout", err)
	}
	// The parser is reset and usable afterwards, also without a timeout.
	src := []byte(snippets["go"].src)
	tr, err := p.Parse(g, src, ParseOptions{})
	if err != nil || tr.HasError {
		t.Fatalf("parse after timeout: %v %v", err, tr.HasError)
	}
	if err := Check(g, tr, src); err != nil {
		t.Fatal(err)
	}
	// A generous timeout does not fire.
	if _, err := p.Parse(g, big[:64<<10], ParseOptions{Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
}

func TestReuseAcrossGrammars(t *testing.T) {
	ref := map[string][]byte{}
	for _, name := range Names() {
		p := NewParser()
		tr, err := p.Parse(mustGrammar(t, name), []byte(snippets[name].src), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ref[name] = tr.Clone().Records
		p.Close()
	}
	p := NewParser()
	defer p.Close()
	for range 2 {
		for _, name := range Names() {
			g := mustGrammar(t, name)
			if err := p.ParseOnly(g, bigGo(10000)); err != nil {
				t.Fatal(err)
			}
			tr, err := p.Parse(g, []byte(snippets[name].src), ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(tr.Records, ref[name]) {
				t.Errorf("%s: reused parser gives different records", name)
			}
		}
	}
}

func TestClosed(t *testing.T) {
	p := NewParser()
	p.Close()
	p.Close()
	if _, err := p.Parse(mustGrammar(t, "go"), nil, ParseOptions{}); !errors.Is(err, ErrClosed) {
		t.Errorf("got %v, want ErrClosed", err)
	}
	if _, err := p.Parse(nil, nil, ParseOptions{}); err == nil {
		t.Error("nil grammar accepted")
	}
}

func TestConcurrentParsers(t *testing.T) {
	g := mustGrammar(t, "go")
	src := bigGo(200 << 10)
	p := NewParser()
	want, err := p.Parse(g, src, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want = want.Clone()
	p.Close()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			p := NewParser()
			defer p.Close()
			for i := range 3 {
				name := Names()[(w+i)%len(Names())]
				if _, err := p.Parse(mustGrammar(t, name), []byte(snippets[name].src), ParseOptions{}); err != nil {
					t.Error(err)
					return
				}
				tr, err := p.Parse(g, src, ParseOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				if !bytes.Equal(tr.Records, want.Records) {
					t.Error("concurrent parse differs")
				}
			}
		})
	}
	wg.Wait()
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(snippets["go"].src))
	f.Add([]byte("package p\nfunc (r *T) M(a ...int) (x, y int) { defer func() { recover() }(); go g(); select {} }\n"))
	f.Add([]byte("package p\ntype T[K comparable, V any] struct{ m map[K]V }\nvar _ = `raw\nstring`\n"))
	f.Add([]byte("package main\nfunc ("))
	f.Add([]byte("\xff\x00\n"))
	g := mustGrammar(f, "go")
	p := NewParser()
	f.Cleanup(p.Close)
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, named := range []bool{false, true} {
			tr, err := p.Parse(g, src, ParseOptions{NamedOnly: named, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(g, tr, src); err != nil {
				t.Fatalf("named=%v: %v", named, err)
			}
		}
	})
}

func TestReleaseBuffers(t *testing.T) {
	g := mustGrammar(t, "go")
	p := NewParser()
	defer p.Close()
	src := bigGo(1 << 20)
	if _, err := p.Parse(g, src, ParseOptions{}); err != nil {
		t.Fatal(err)
	}
	if p.BufferBytes() < 1<<20 {
		t.Errorf("BufferBytes %d after a 1 MB file", p.BufferBytes())
	}
	if st := p.Stats(); st.Files != 1 || st.Nodes < 1000 || st.ParseCPU <= 0 {
		t.Errorf("Stats after one parse: %+v", st)
	}
	p.ReleaseBuffers()
	if p.BufferBytes() != 0 {
		t.Errorf("BufferBytes %d after ReleaseBuffers", p.BufferBytes())
	}
	small := []byte(snippets["go"].src)
	tr, err := p.Parse(g, small, ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(g, tr, small); err != nil {
		t.Fatal(err)
	}
}

// TestScannerStateDoesNotLeak parses a source, then one that ends inside a
// long string or comment (leaving a scanner mid-token), then the first
// again: the two trees of the first must be equal. The lua scanner keeps
// its state in C globals that tree-sitter's reset does not clear.
func TestScannerStateDoesNotLeak(t *testing.T) {
	poison := map[string]string{
		"lua": "s = \"never closed",
	}
	for _, name := range Names() {
		g := mustGrammar(t, name)
		src := []byte(snippets[name].src)
		if name == "lua" {
			src = []byte("local s = [[a]] .. \"b\" -- c\n--[[ d ]] print(s)\n")
		}
		p := NewParser()
		want, err := p.Parse(g, src, ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want = want.Clone()
		bad := poison[name]
		if bad == "" {
			bad = string(src[:len(src)/2])
		}
		for range 2 {
			if err := p.ParseOnly(g, []byte(bad)); err != nil {
				t.Fatal(err)
			}
			got, err := p.Parse(g, src, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Records, want.Records) {
				t.Errorf("%s: the same source parses differently after a parse that ended mid-token", name)
				break
			}
		}
		p.Close()
	}
}
