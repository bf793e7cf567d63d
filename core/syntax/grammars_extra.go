//go:build !synaptic_coregrammars

package syntax

/*
#include "shim.h"
const TSLanguage *tree_sitter_bash(void);
const TSLanguage *tree_sitter_c(void);
const TSLanguage *tree_sitter_cpp(void);
const TSLanguage *tree_sitter_c_sharp(void);
const TSLanguage *tree_sitter_css(void);
const TSLanguage *tree_sitter_dockerfile(void);
const TSLanguage *tree_sitter_groovy(void);
const TSLanguage *tree_sitter_hcl(void);
const TSLanguage *tree_sitter_html(void);
const TSLanguage *tree_sitter_kotlin(void);
const TSLanguage *tree_sitter_lua(void);
const TSLanguage *tree_sitter_php(void);
const TSLanguage *tree_sitter_proto(void);
const TSLanguage *tree_sitter_ruby(void);
const TSLanguage *tree_sitter_scala(void);
const TSLanguage *tree_sitter_sql(void);
const TSLanguage *tree_sitter_swift(void);
const TSLanguage *tree_sitter_toml(void);
const TSLanguage *tree_sitter_yaml(void);

// The lua scanner's state: C globals of its scanner.c (see sharedScanner).
extern char ending_char;
extern uint8_t level_count;
static void syn_lua_scanner_reset(void) { ending_char = 0; level_count = 0; }
*/
import "C"

import (
	"unsafe"

	_ "github.com/smacker/go-tree-sitter/bash"
	_ "github.com/smacker/go-tree-sitter/c"
	_ "github.com/smacker/go-tree-sitter/cpp"
	_ "github.com/smacker/go-tree-sitter/csharp"
	_ "github.com/smacker/go-tree-sitter/css"
	_ "github.com/smacker/go-tree-sitter/dockerfile"
	_ "github.com/smacker/go-tree-sitter/groovy"
	_ "github.com/smacker/go-tree-sitter/hcl"
	_ "github.com/smacker/go-tree-sitter/html"
	_ "github.com/smacker/go-tree-sitter/kotlin"
	_ "github.com/smacker/go-tree-sitter/lua"
	_ "github.com/smacker/go-tree-sitter/php"
	_ "github.com/smacker/go-tree-sitter/protobuf"
	_ "github.com/smacker/go-tree-sitter/ruby"
	_ "github.com/smacker/go-tree-sitter/scala"
	_ "github.com/smacker/go-tree-sitter/sql"
	_ "github.com/smacker/go-tree-sitter/swift"
	_ "github.com/smacker/go-tree-sitter/toml"
	_ "github.com/smacker/go-tree-sitter/yaml"
)

// Extra grammars for user-written plugins. Build with the tag
// synaptic_coregrammars to leave them out (much faster cold builds).
//
// Shipped by smacker but not registered, to bound the cold build: ocaml
// (largest parser.c, 34 MB), elixir (13 MB), elm, cue, svelte, markdown and
// markdown-inline. Adding one is a blank import, a prototype and a register
// line here.
func init() {
	register("bash", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_bash()) })
	register("c", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_c()) })
	register("cpp", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_cpp()) })
	register("csharp", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_c_sharp()) })
	register("css", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_css()) })
	register("dockerfile", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_dockerfile()) })
	register("groovy", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_groovy()) })
	register("hcl", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_hcl()) })
	register("html", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_html()) })
	register("kotlin", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_kotlin()) })
	registerShared("lua", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_lua()) },
		&sharedScanner{reset: func() { C.syn_lua_scanner_reset() }})
	register("php", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_php()) })
	register("protobuf", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_proto()) })
	register("ruby", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_ruby()) })
	register("scala", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_scala()) })
	register("sql", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_sql()) })
	register("swift", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_swift()) })
	register("toml", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_toml()) })
	register("yaml", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_yaml()) })
}
