package main_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractCAndCpp: the built-in C/C++ plugin through the real binary —
// `synaptic plugins` lists it, a .h header is C++, a static function links
// within its file only (another file's call of that name is left unlinked,
// not guessed: file_private) unless the file is included, as a header's
// static inline is, an external one across files, a call of #ifdef twins
// to each branch its own code can be built with, #include "x.h" links to
// the header, C++ methods defined out of their class belong to it and
// this->/typed-field calls reach them, gtest bodies are tests.
func TestExtractCAndCpp(t *testing.T) {
	needBin(t)
	root := t.TempDir()
	write(t, root, map[string]string{
		"lib/util.h": "#ifndef UTIL_H\n#define UTIL_H\nint util_add(int a, int b);\n#endif\n",
		"lib/util.c": "#include \"util.h\"\nstatic int twice(int x) { return x * 2; }\nint util_add(int a, int b) { return twice(a) + b; }\n",
		"app/main.c": "#include \"../lib/util.h\"\nstatic int twice(int x) { return x + x; }\n" +
			"int main(int argc, char **argv) {\n  int (*fp)(int) = twice;\n  fp(1);\n  return util_add(twice(argc), 1);\n}\n",
		"cc/box.h": "#pragma once\nnamespace shop {\nclass Repo { public: void save(); };\nclass Box {\n public:\n  void run();\n  int size() const;\n private:\n  Repo repo_;\n};\n}\n",
		"cc/box.cc": "#include \"box.h\"\nnamespace shop {\nvoid Repo::save() {}\nint Box::size() const { return 0; }\n" +
			"void Box::run() { repo_.save(); this->size(); }\n}\n",
		"cc/box_test.cc": "#include \"box.h\"\nTEST(BoxTest, Runs) { shop::Box b; b.run(); }\n",
		"lib/hidden.c":   "static int hidden(void) { return 7; }\nint use_hidden(void) { return hidden(); }\n",
		"app/peek.c":     "int peek(void) { return hidden(); }\n",
		"lib/inl.h":      "static inline int inl(void) { return 1; }\n",
		"lib/mid.h":      "#include \"inl.h\"\n",
		"app/deep.c":     "#include \"../lib/mid.h\"\nint deep(void) { return inl(); }\n",
		"lib/sys.c": "#ifdef _WIN32\nstatic int sys_open(void) { return 1; }\n#else\nstatic int sys_open(void) { return 2; }\n#endif\n" +
			"int open_any(void) { return sys_open(); }\n#ifdef _WIN32\nint open_win(void) { return sys_open(); }\n#endif\n",
	})
	if out := run(t, root, false, "plugins"); !strings.Contains(out, "c(.c) cpp(.h,") {
		t.Errorf("synaptic plugins does not list the C/C++ plugin:\n%s", out)
	}
	out := run(t, root, false, "extract", ".")
	for _, want := range []string{"12 files", "c 6", "cpp 6"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	g := parseGraph(t, filepath.Join(root, "synaptic-out", "graph.json"))
	for _, e := range [][3]string{
		{"app_main_main", "calls", "app_main_twice"},                 // the static of its own file
		{"app_main_main", "calls", "lib_util_util_add"},              // external, defined in another .c
		{"lib_util_util_add", "calls", "lib_util_twice"},             // the other file's static
		{"lib_util_c", "imports_from", "lib_util_h"},                 // #include "util.h" next to it
		{"cc_box_box_run", "calls", "cc_box_repo_save"},              // repo_ is a Repo field
		{"cc_box_box_run", "calls", "cc_box_box_size"},               // this->size()
		{"cc_box_box", "method", "cc_box_box_run"},                   // void Box::run() belongs to Box
		{"cc_box_test_boxtest_runs_test", "calls", "cc_box_box_run"}, // typed local in a gtest body
		{"lib_hidden_use_hidden", "calls", "lib_hidden_hidden"},      // the only hidden(), static, own file
		{"app_deep_deep", "calls", "lib_inl_inl"},                    // a header's static, included through mid.h
		{"lib_sys_open_any", "calls", "lib_sys_sys_open"},            // #ifdef twins: each branch's definition
		{"lib_sys_open_any", "calls", "lib_sys_sys_open_overload_4"}, //
		{"lib_sys_open_win", "calls", "lib_sys_sys_open"},            // inside #ifdef _WIN32: that branch's
	} {
		if !hasEdge(g, e[0], e[1], e[2]) {
			t.Errorf("missing edge %s -%s-> %s", e[0], e[1], e[2])
		}
	}
	for _, l := range g.Links {
		if l.Relation == "calls" && l.Source == "app_main_main" && l.Target == "lib_util_twice" {
			t.Errorf("main links the other file's static twice()")
		}
		if l.Relation == "calls" && l.Source == "lib_sys_open_win" && l.Target == "lib_sys_sys_open_overload_4" {
			t.Errorf("open_win (#ifdef _WIN32) links the #else twin")
		}
		if l.Relation == "calls" && l.Source == "app_peek_peek" {
			t.Errorf("peek() links %s: a static of another file is not visible", l.Target)
		}
	}
}
