package resolve

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// A toy language through ABI v2: nothing in these facts is known to the
// resolver by language; scopes, module keys, type references, test
// markers and semantics say everything.
func v2Fixture(sem Semantics) []File {
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	file := func(p string, facts *abi.Facts) File {
		return File{Path: p, Language: "toy", Family: "toy", ABI: 2, Semantics: sem, Facts: facts}
	}
	return []File{
		file("a/one.toy", &abi.Facts{
			File: abi.FileFacts{Scope: "m/a"},
			Symbols: []abi.Symbol{
				{Name: "F", Kind: "function", Parent: -1, Span: sp(1)},
				{Name: "New", Kind: "function", Parent: -1, Span: sp(3), Signature: &abi.Signature{Return: "*Conn", ReturnRef: named("Conn")}},
			},
		}),
		file("a/two.toy", &abi.Facts{
			File: abi.FileFacts{Scope: "m/a"},
			Symbols: []abi.Symbol{
				{Name: "Conn", Kind: "struct", Parent: -1, Span: sp(1)},
				{Name: "inner", Kind: "field", Parent: 0, Span: sp(2), Signature: &abi.Signature{ReturnRef: named("Conn")}},
				{Name: "Close", Kind: "method", Parent: 0, Span: sp(3)},
				{Name: "Reset", Kind: "method", Parent: 0, Span: sp(5)},
			},
			Calls: []abi.Call{
				{Caller: 2, Name: "F", Line: 4},                        // same scope, other file
				{Caller: 2, Name: "Reset", Receiver: "self", Line: 4},  // self name
				{Caller: 2, Name: "Flush", Receiver: "w", Line: 4},     // unknown receiver
				{Caller: 2, Name: "Conn", Line: 4},                     // calling a type
				{Caller: 2, Name: "loose", Line: 4},                    // unique elsewhere, not imported
				{Caller: 3, Name: "Reset", Receiver: "other", Line: 6}, // unknown receiver, unique method
			},
		}),
		file("lib/util.toy", &abi.Facts{
			File:    abi.FileFacts{Modules: []string{"lib/util"}},
			Symbols: []abi.Symbol{{Name: "helper", Kind: "function", Parent: -1, Span: sp(1)}, {Name: "loose", Kind: "function", Parent: -1, Span: sp(2)}},
		}),
		file("lib/flush.toy", &abi.Facts{
			Symbols: []abi.Symbol{{Name: "Writer", Kind: "class", Parent: -1, Span: sp(1)}, {Name: "Flush", Kind: "method", Parent: 0, Span: sp(2)}},
		}),
		file("b/main_test.toy", &abi.Facts{
			File: abi.FileFacts{Scope: "m/b", Test: false},
			Imports: []abi.Import{
				{Path: "m/a", Keys: []string{"m/a"}, Kind: abi.ImportModule, Line: 1},
				{Path: "./../lib/util", Keys: []string{"nope", "lib/util"}, Kind: abi.ImportSymbols, Names: []abi.ImportName{{Name: "helper", Alias: "h"}}, Line: 2},
				{Path: "ext/thing", Keys: []string{"ext/thing"}, Kind: abi.ImportModule, Line: 3},
			},
			Symbols: []abi.Symbol{{Name: "main", Kind: "function", Parent: -1, Span: sp(5)}},
			Calls: []abi.Call{
				{Caller: 0, Name: "F", Receiver: "a", Line: 6},
				{Caller: 0, Name: "h", Line: 7},
				{Caller: 0, Name: "Close", Receiver: "c", Line: 8, ReceiverRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: "a.New"}, {Op: abi.StepField, Name: "inner"}}}},
				{Caller: 0, Name: "Do", Receiver: "thing", Line: 9},
			},
		}),
		file("spec/check.toy", &abi.Facts{File: abi.FileFacts{Test: true}}),
	}
}

func TestResolveV2(t *testing.T) {
	g, _ := Build(v2Fixture(Semantics{Unqualified: UnqualifiedScope, TypeCall: TypeCallNone, SelfNames: []string{"self"}}))
	byID := func(id string) graph.Node {
		for _, n := range g.Nodes {
			if n.ID == id {
				return n
			}
		}
		return graph.Node{}
	}
	id := func(label, file string) string {
		t.Helper()
		for _, n := range g.Nodes {
			if n.Label == label && n.SourceFile == file {
				return n.ID
			}
		}
		t.Fatalf("no node %s in %s", label, file)
		return ""
	}
	calls := func(from string) []string {
		var out []string
		for _, e := range g.Edges {
			if e.Source == from && e.Relation == "calls" {
				out = append(out, byID(e.Target).Label+"@"+byID(e.Target).SourceFile+":"+string(e.Confidence))
			}
		}
		slices.Sort(out)
		return out
	}
	main := id("main()", "b/main_test.toy")
	want := []string{".Close()@a/two.toy:EXTRACTED", "F()@a/one.toy:EXTRACTED", "helper()@lib/util.toy:EXTRACTED"}
	if got := calls(main); !slices.Equal(got, want) {
		t.Errorf("main calls %v, want %v", got, want)
	}
	closeM := id(".Close()", "a/two.toy")
	if got, want := calls(closeM), []string{".Reset()@a/two.toy:EXTRACTED", "F()@a/one.toy:EXTRACTED"}; !slices.Equal(got, want) {
		t.Errorf("Close calls %v, want %v (no type call, no unknown receiver, no unique-name guess under scope)", got, want)
	}
	imports := map[string]bool{}
	for _, e := range g.Edges {
		if e.Source == id("main_test.toy", "b/main_test.toy") && (e.Relation == "imports_from" || e.Relation == "imports") {
			imports[byID(e.Target).Label+":"+e.Relation] = true
		}
	}
	for _, w := range []string{"a:imports_from", "util.toy:imports_from", "ext/thing:imports"} {
		if !imports[w] {
			t.Errorf("import edge %s missing; have %v", w, imports)
		}
	}
	for _, n := range g.Nodes {
		switch n.SourceFile {
		case "spec/check.toy", "b/main_test.toy":
			if want := n.SourceFile == "spec/check.toy"; n.Kind == "file" && n.IsTest != want {
				t.Errorf("%s: is_test %v, want %v (the plugin's marker, not the path)", n.SourceFile, n.IsTest, want)
			}
		}
	}

	// The defaults: a plain name unique in the family is guessed, calling
	// a type constructs it, and with unique_method a receiver of unknown
	// type (self too, now that no self names are declared) reaches the
	// only method of that name.
	g, _ = Build(v2Fixture(Semantics{ReceiverFallback: ReceiverFallbackUniqueMethod}))
	want = []string{".Flush()@lib/flush.toy:INFERRED", ".Reset()@a/two.toy:INFERRED", "Conn@a/two.toy:EXTRACTED", "F()@a/one.toy:EXTRACTED", "loose()@lib/util.toy:INFERRED"}
	if got := calls(id(".Close()", "a/two.toy")); !slices.Equal(got, want) {
		t.Errorf("Close calls %v with default semantics, want %v", got, want)
	}
	if got, want := calls(id(".Reset()", "a/two.toy")), []string{".Reset()@a/two.toy:INFERRED"}; !slices.Equal(got, want) {
		t.Errorf("Reset calls %v, want %v", got, want)
	}
}

// TestBuildVariantTwins: the issue-10 case. sysSocket is declared in two
// files built for disjoint GOOS sets; a call links to each twin its own
// file can be built with, instead of to none.
func TestBuildVariantTwins(t *testing.T) {
	goos := func(neg bool, v ...string) []abi.Constraint {
		return []abi.Constraint{{Axis: "goos", Values: v, Negated: neg}}
	}
	def := func(p string, v []abi.Constraint) File {
		return File{Path: p, Language: "go", Family: "go", Facts: &abi.Facts{Package: "net", File: abi.FileFacts{Variants: v},
			Symbols: []abi.Symbol{{Name: "sysSocket", Kind: "function", Parent: -1, Span: sp(3)}}}}
	}
	caller := func(p string, v []abi.Constraint) File {
		return File{Path: p, Language: "go", Family: "go", Facts: &abi.Facts{Package: "net", File: abi.FileFacts{Variants: v},
			Symbols: []abi.Symbol{{Name: "socket", Kind: "function", Parent: -1, Span: sp(3)}},
			Calls:   []abi.Call{{Caller: 0, Name: "sysSocket", Line: 4}}}}
	}
	files := []File{
		def("net/sys_cloexec.go", goos(false, "aix", "darwin")),
		def("net/sock_cloexec.go", goos(false, "linux", "freebsd")),
		caller("net/sock_posix.go", goos(false, "aix", "darwin", "linux", "freebsd", "windows")),
		caller("net/sock_linux.go", goos(false, "linux")),
		caller("net/sock_windows.go", goos(false, "windows")),
		caller("net/sock_any.go", goos(true, "plan9")),
	}
	g, _ := Build(files)
	got := map[string][]string{}
	for _, e := range g.Edges {
		if e.Relation == "calls" {
			got[e.SourceFile] = append(got[e.SourceFile], e.Target)
		}
	}
	for f := range got {
		slices.Sort(got[f])
	}
	want := map[string][]string{
		"net/sock_posix.go": {"net_sock_cloexec_syssocket", "net_sys_cloexec_syssocket"},
		"net/sock_linux.go": {"net_sock_cloexec_syssocket"},
		"net/sock_any.go":   {"net_sock_cloexec_syssocket", "net_sys_cloexec_syssocket"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls by file = %v, want %v (sock_windows.go: no twin for windows)", got, want)
	}

	// Not twins when one file says nothing of its variants: ambiguous, as before.
	files[1].Facts.File.Variants = nil
	g, _ = Build(files[:3])
	for _, e := range g.Edges {
		if e.Relation == "calls" {
			t.Errorf("without variants on one definition, a call was linked: %+v", e)
		}
	}
}

// TestBuildVariantMethodTwins: net's netFD is itself declared twice
// (fd_posix.go for unix and windows, fd_fake.go for js) and its accept
// method once per platform file. ln.fd.accept() in a file built for all
// three links to each accept; the same call in a linux file only to the
// unix one; and self calls inside a twin's method stay on its own build.
func TestBuildVariantMethodTwins(t *testing.T) {
	goos := func(v ...string) []abi.Constraint { return []abi.Constraint{{Axis: "goos", Values: v}} }
	file := func(p string, v []abi.Constraint, syms []abi.Symbol, calls ...abi.Call) File {
		return File{Path: p, Language: "go", Family: "go", Facts: &abi.Facts{Package: "net", File: abi.FileFacts{Variants: v}, Symbols: syms, Calls: calls}}
	}
	method := func(name string, line uint32) abi.Symbol {
		return abi.Symbol{Name: name, Kind: "method", Parent: -1, Receiver: "netFD", Span: sp(line)}
	}
	files := []File{
		file("net/fd_posix.go", goos("linux", "windows"), []abi.Symbol{{Name: "netFD", Kind: "struct", Parent: -1, Span: sp(1)}}),
		file("net/fd_fake.go", goos("js"), []abi.Symbol{{Name: "netFD", Kind: "struct", Parent: -1, Span: sp(1)}, method("accept", 5)}),
		file("net/fd_unix.go", goos("linux"), []abi.Symbol{method("accept", 5)}),
		file("net/fd_windows.go", goos("windows"), []abi.Symbol{method("accept", 5)}),
		file("net/sock_posix.go", goos("linux", "windows"), []abi.Symbol{method("dial", 3), method("connect", 9)},
			abi.Call{Caller: 0, Name: "connect", Receiver: "fd", ReceiverType: "netFD", Line: 4}),
		file("net/tcpsock.go", nil, []abi.Symbol{
			{Name: "TCPListener", Kind: "struct", Parent: -1, Span: sp(1)},
			{Name: "fd", Kind: "field", Parent: 0, Span: sp(2), Signature: &abi.Signature{Return: "netFD"}},
		}),
		file("net/tcpsock_posix.go", goos("linux", "windows", "js"), []abi.Symbol{{Name: "lnAccept", Kind: "function", Parent: -1, Span: sp(3)}},
			abi.Call{Caller: 0, Name: "accept", Receiver: "ln.fd", ReceiverType: "TCPListener#fd", Line: 4}),
		file("net/tcpsock_linux.go", goos("linux"), []abi.Symbol{{Name: "lnAcceptLinux", Kind: "function", Parent: -1, Span: sp(3)}},
			abi.Call{Caller: 0, Name: "accept", Receiver: "ln.fd", ReceiverType: "TCPListener#fd", Line: 4}),
	}
	g, _ := Build(files)
	fileOf := map[string]string{}
	for _, n := range g.Nodes {
		fileOf[n.ID] = n.SourceFile
	}
	got := map[string][]string{}
	for _, e := range g.Edges {
		if e.Relation == "calls" {
			got[e.SourceFile] = append(got[e.SourceFile], fileOf[e.Target])
		}
	}
	for f := range got {
		slices.Sort(got[f])
	}
	want := map[string][]string{
		"net/tcpsock_posix.go": {"net/fd_fake.go", "net/fd_unix.go", "net/fd_windows.go"},
		"net/tcpsock_linux.go": {"net/fd_unix.go"},
		"net/sock_posix.go":    {"net/sock_posix.go"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls by file = %v, want %v", got, want)
	}
}

// TestFilePrivate: with file_private, a static function is reached from
// its own file only; another file's call of that name stays unlinked
// rather than guessed as the family's unique definition.
func TestFilePrivate(t *testing.T) {
	file := func(p string, sem Semantics, syms []abi.Symbol, calls ...abi.Call) File {
		return File{Path: p, Language: "c", Family: "c", ABI: 2, Semantics: sem, Facts: &abi.Facts{Symbols: syms, Calls: calls}}
	}
	fn := func(name string, vis abi.Visibility, line uint32) abi.Symbol {
		return abi.Symbol{Name: name, Kind: "function", Parent: -1, Visibility: vis, Span: sp(line)}
	}
	for _, tc := range []struct {
		sem  Semantics
		want map[string][]string // calling file -> target ids
	}{
		{Semantics{}, map[string][]string{"a.c": {"a_helper"}, "b.c": {"a_helper"}}},
		{Semantics{FilePrivate: true}, map[string][]string{"a.c": {"a_helper"}}},
	} {
		files := []File{
			file("a.c", tc.sem, []abi.Symbol{fn("helper", abi.VisPrivate, 1), fn("a_api", abi.VisPublic, 3)}, abi.Call{Caller: 1, Name: "helper", Line: 4}),
			file("b.c", tc.sem, []abi.Symbol{fn("b_api", abi.VisPublic, 1)}, abi.Call{Caller: 0, Name: "helper", Line: 2}),
		}
		g, _ := Build(files)
		got := map[string][]string{}
		for _, e := range g.Edges {
			if e.Relation == "calls" {
				got[e.SourceFile] = append(got[e.SourceFile], e.Target)
			}
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("FilePrivate=%v: calls %v, want %v", tc.sem.FilePrivate, got, tc.want)
		}
	}
}

// TestSymbolVariantTwins: #ifdef twins in one file (C). Two definitions
// of sys_open, one per branch of #ifdef _WIN32, are twins: a call outside
// any branch links to both, one inside the _WIN32 branch to that twin
// only, and a call of another file reaching them as the family's only
// definitions of the name to both.
func TestSymbolVariantTwins(t *testing.T) {
	win := []abi.Constraint{{Axis: "defined:_WIN32", Values: []string{"1"}}}
	notWin := []abi.Constraint{{Axis: "defined:_WIN32", Values: []string{"1"}, Negated: true}}
	fn := func(name string, line uint32, v []abi.Constraint) abi.Symbol {
		return abi.Symbol{Name: name, Kind: "function", Parent: -1, Span: sp(line), Variants: v}
	}
	files := []File{{Path: "io.c", Language: "c", Family: "c", ABI: 2, Facts: &abi.Facts{
		Symbols: []abi.Symbol{fn("sys_open", 2, win), fn("sys_open", 5, notWin), fn("open_any", 8, nil), fn("open_win", 11, win)},
		Calls:   []abi.Call{{Caller: 2, Name: "sys_open", Line: 9}, {Caller: 3, Name: "sys_open", Line: 12}},
	}}, {Path: "main.c", Language: "c", Family: "c", ABI: 2, Facts: &abi.Facts{
		// Another file, no include: the family-wide guess finds the twins.
		Symbols: []abi.Symbol{fn("main", 1, nil)},
		Calls:   []abi.Call{{Caller: 0, Name: "sys_open", Line: 2}},
	}}}
	g, _ := Build(files)
	got := map[string][]string{}
	for _, e := range g.Edges {
		if e.Relation == "calls" {
			got[e.Source] = append(got[e.Source], e.Target)
		}
	}
	for k := range got {
		slices.Sort(got[k])
	}
	want := map[string][]string{
		"io_open_any": {"io_sys_open", "io_sys_open_overload_5"},
		"io_open_win": {"io_sys_open"},
		"main_main":   {"io_sys_open", "io_sys_open_overload_5"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls = %v, want %v", got, want)
	}
}

func TestCompatible(t *testing.T) {
	c := func(axis string, neg bool, v ...string) abi.Constraint {
		return abi.Constraint{Axis: axis, Values: v, Negated: neg}
	}
	tests := []struct {
		a, b []abi.Constraint
		want bool
	}{
		{nil, []abi.Constraint{c("goos", false, "linux")}, true},
		{[]abi.Constraint{c("goos", false, "linux")}, []abi.Constraint{c("goos", false, "windows")}, false},
		{[]abi.Constraint{c("goos", false, "linux", "darwin")}, []abi.Constraint{c("goos", false, "darwin")}, true},
		{[]abi.Constraint{c("goos", true, "js")}, []abi.Constraint{c("goos", false, "js")}, false},
		{[]abi.Constraint{c("goos", true, "js")}, []abi.Constraint{c("goos", true, "windows")}, true},
		{[]abi.Constraint{c("goos", false, "linux")}, []abi.Constraint{c("goarch", false, "arm64")}, true},
		{[]abi.Constraint{c("goos", false, "linux"), c("goarch", false, "amd64")}, []abi.Constraint{c("goarch", false, "arm64")}, false},
	}
	for i, tt := range tests {
		if got := compatible(tt.a, tt.b); got != tt.want {
			t.Errorf("%d: compatible(%v, %v) = %v, want %v", i, tt.a, tt.b, got, tt.want)
		}
		if got := compatible(tt.b, tt.a); got != tt.want {
			t.Errorf("%d: not symmetric", i)
		}
	}
}

// compatibleByMaps is compatible as it was first written, with a map of
// value sets per axis: the reference TestCompatibleRandom checks the
// allocation-free compatible against.
func compatibleByMaps(a, b []abi.Constraint) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	type axis struct{ pos, neg map[string]bool }
	axes := map[string]*axis{}
	for _, cs := range [][]abi.Constraint{a, b} {
		for _, c := range cs {
			ax := axes[c.Axis]
			if ax == nil {
				ax = &axis{neg: map[string]bool{}}
				axes[c.Axis] = ax
			}
			if c.Negated {
				for _, v := range c.Values {
					ax.neg[v] = true
				}
				continue
			}
			next := map[string]bool{}
			for _, v := range c.Values {
				if ax.pos == nil || ax.pos[v] {
					next[v] = true
				}
			}
			ax.pos = next
		}
	}
	for _, ax := range axes {
		if ax.pos == nil {
			continue
		}
		left := false
		for v := range ax.pos {
			if !ax.neg[v] {
				left = true
			}
		}
		if !left {
			return false
		}
	}
	return true
}

func TestCompatibleRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	list := func() []abi.Constraint {
		var cs []abi.Constraint
		for range r.IntN(4) {
			c := abi.Constraint{Axis: []string{"os", "arch"}[r.IntN(2)], Negated: r.IntN(3) == 0}
			for range r.IntN(4) {
				c.Values = append(c.Values, []string{"a", "b", "c"}[r.IntN(3)])
			}
			cs = append(cs, c)
		}
		return cs
	}
	for i := range 20000 {
		a, b := list(), list()
		if got, want := compatible(a, b), compatibleByMaps(a, b); got != want {
			t.Fatalf("%d: compatible(%v, %v) = %v, want %v", i, a, b, got, want)
		}
	}
}
