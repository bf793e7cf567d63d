//go:build !wasip1

package main

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// TestProjectIncludeDirs: the project entry point reads include
// directories from compile_commands.json and CMakeLists.txt, keeps those
// inside the root, and answers them sorted.
func TestProjectIncludeDirs(t *testing.T) {
	in := &abi.ProjectInput{Root: "/work/app", Files: []abi.ProjectFile{
		{Path: "CMakeLists.txt", Data: []byte(`
project(app C)
include_directories(include "${CMAKE_CURRENT_SOURCE_DIR}/third_party/zlib")
target_include_directories(app PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/api> PRIVATE src ${OTHER_DIR} /usr/include)
`)},
		{Path: "lib/CMakeLists.txt", Data: []byte(`include_directories(../common priv)`)},
		{Path: "build/compile_commands.json", Data: []byte(`[
 {"directory": "/work/app/build", "command": "cc -I../gen -I /work/app/vendor/inc -isystem /usr/lib/x -c ../src/a.c", "file": "../src/a.c"},
 {"directory": "/work/app", "arguments": ["cc", "-iquote", "quoted", "-I/elsewhere", "-c", "b.c"], "file": "b.c"}
]`)},
		{Path: "other/compile_commands.json", Data: []byte(`not json`)},
	}}
	info, err := extract.RunProject(project, in)
	if err != nil {
		t.Fatal(err)
	}
	want := "api\ncommon\ngen\ninclude\nlib/priv\nquoted\nsrc\nthird_party/zlib\nvendor/inc"
	if string(info) != want {
		t.Errorf("project info:\n%s\nwant:\n%s", info, want)
	}
}

// TestIncludeKeys: keys follow the compiler's search order and never
// leave the root.
func TestIncludeKeys(t *testing.T) {
	dirs := includeDirs([]byte("api\nsrc"))
	tests := []struct {
		from, spec string
		quoted     bool
		want       []string
	}{
		{"src/net/conn.c", "conn.h", true, []string{"src/net/conn.h", "api/conn.h", "src/conn.h", "include/conn.h", "conn.h"}},
		{"src/net/conn.c", "../util.h", true, []string{"src/util.h", "util.h"}},
		{"src/net/conn.c", "app/api.h", false, []string{"api/app/api.h", "src/app/api.h", "include/app/api.h", "app/api.h"}},
		{"main.c", "main.h", true, []string{"main.h", "api/main.h", "src/main.h", "include/main.h"}},
		{"a.c", "../../etc/passwd", true, nil},
	}
	for _, tt := range tests {
		if got := includeKeys(tt.from, tt.spec, tt.quoted, dirs); !slices.Equal(got, tt.want) {
			t.Errorf("includeKeys(%q, %q, %v) = %q, want %q", tt.from, tt.spec, tt.quoted, got, tt.want)
		}
	}
}

// TestFileFacts: the v2 file facts — module key, scope (a C++ file's one
// namespace), test marker — and the include keys that use the project info.
func TestFileFacts(t *testing.T) {
	extract.SetProject([]byte("api"))
	defer extract.SetProject(nil)
	tests := []struct {
		name, src string
		want      abi.FileFacts
		keys      []string
	}{
		{"src/a.c", "#include \"a.h\"\nint f(void) { return 0; }\n",
			abi.FileFacts{Modules: []string{"src/a.c"}}, []string{"src/a.h", "api/a.h", "include/a.h", "a.h"}},
		{"lib/box.cpp", "namespace shop { class Box {}; }\n",
			abi.FileFacts{Modules: []string{"lib/box.cpp"}, Scope: "shop"}, nil},
		{"lib/two.cpp", "namespace a { int f(); }\nnamespace b { int g(); }\n",
			abi.FileFacts{Modules: []string{"lib/two.cpp"}}, nil},
		{"lib/box_test.cc", "int helper() { return 1; }\n",
			abi.FileFacts{Modules: []string{"lib/box_test.cc"}, Test: true}, nil},
		{"lib/check.cc", "TEST(Box, Empty) { ok(); }\n",
			abi.FileFacts{Modules: []string{"lib/check.cc"}, Test: true}, nil},
		{"include/x.h", "#include <sys/x.h>\n",
			abi.FileFacts{Modules: []string{"include/x.h"}}, []string{"api/sys/x.h", "include/sys/x.h", "sys/x.h"}},
	}
	for _, tt := range tests {
		f := plugintest.ExtractSource(t, Extractor{}, tt.name, []byte(tt.src))
		if f.File.Scope != tt.want.Scope || f.File.Test != tt.want.Test || !slices.Equal(f.File.Modules, tt.want.Modules) {
			t.Errorf("%s: file facts %+v, want %+v", tt.name, f.File, tt.want)
		}
		var keys []string
		for _, im := range f.Imports {
			keys = append(keys, im.Keys...)
			if im.Kind != abi.ImportWildcard {
				t.Errorf("%s: import %q kind %q, want wildcard", tt.name, im.Path, im.Kind)
			}
		}
		if !slices.Equal(keys, tt.keys) {
			t.Errorf("%s: keys %q, want %q", tt.name, keys, tt.keys)
		}
	}
}

// TestReceiverRefs: receiver types also travel as structured TypeRefs,
// a field of a type declared elsewhere as a field step.
func TestReceiverRefs(t *testing.T) {
	src := "class Svc {\n  Repo *repo_;\n  void run() { repo_->save(); repo_->conn.close(); this->run(); }\n};\n"
	f := plugintest.ExtractSource(t, Extractor{}, "svc.cpp", []byte(src))
	want := map[string]string{"save": "Repo", "close": "Repo#conn", "run": "Svc"}
	for _, c := range f.Calls {
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("unexpected call %q", c.Name)
			continue
		}
		if c.ReceiverRef == nil || c.ReceiverRef.String() != w || c.ReceiverType != w {
			t.Errorf("call %s: receiver %q ref %v, want %q", c.Name, c.ReceiverType, c.ReceiverRef, w)
		}
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Errorf("calls not reported: %v", want)
	}
}

// TestIfdefVariants: a definition in an #if branch carries the branch's
// condition as variant constraints; an #else the negation of a one-literal
// condition; conditions it cannot read (||, comparisons) add nothing but
// the chain's own axis.
func TestIfdefVariants(t *testing.T) {
	src := `#ifndef IO_H
#define IO_H
#ifdef _WIN32
static int sys_open(void) { return 1; }
#elif defined(__linux__) && !HAVE_POSIX
static int sys_open(void) { return 2; }
#else
static int sys_open(void) { return 3; }
#endif
#if A || B
int either(void) { return 0; }
#else
int neither(void) { return 0; }
#endif
int plain(void) { return sys_open(); }
#endif
`
	f := plugintest.ExtractSource(t, Extractor{}, "io.c", []byte(src))
	guard := abi.Constraint{Axis: "defined:IO_H", Values: []string{"1"}, Negated: true}
	win := abi.Constraint{Axis: "defined:_WIN32", Values: []string{"1"}}
	notWin := win
	notWin.Negated = true
	want := map[uint32][]abi.Constraint{
		4:  {guard, win},
		6:  {guard, notWin, {Axis: "defined:__linux__", Values: []string{"1"}}, {Axis: "if:HAVE_POSIX", Values: []string{"1"}, Negated: true}},
		8:  {guard, notWin}, // the #elif had two literals: its #else cannot negate them
		11: {guard},
		13: {guard},
		15: {guard},
	}
	// Each branch of a chain also has the chain's axis ("#if io.c:3") with
	// its ordinal: the three sys_open are 0, 1, 2 of one chain.
	const g = "#if io.c:1=0" // the include guard's chain, around everything
	chains := map[uint32]string{4: g + "#if io.c:3=0", 6: g + "#if io.c:3=1", 8: g + "#if io.c:3=2", 11: g + "#if io.c:10=0", 13: g + "#if io.c:10=1", 15: g}
	got := map[uint32][]abi.Constraint{}
	gotChain := map[uint32]string{}
	for _, s := range f.Symbols {
		if s.Kind != abi.KindFunction {
			continue
		}
		for _, c := range s.Variants {
			if strings.HasPrefix(c.Axis, "#if ") {
				gotChain[s.Span.StartLine] += c.Axis + "=" + strings.Join(c.Values, ",")
				continue
			}
			got[s.Span.StartLine] = append(got[s.Span.StartLine], c)
		}
	}
	for line, w := range want {
		if !reflect.DeepEqual(got[line], w) {
			t.Errorf("L%d: variants %+v, want %+v", line, got[line], w)
		}
		if gotChain[line] != chains[line] {
			t.Errorf("L%d: chain %q, want %q", line, gotChain[line], chains[line])
		}
	}
}
