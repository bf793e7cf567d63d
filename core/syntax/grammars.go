package syntax

/*
#include "shim.h"
const TSLanguage *tree_sitter_go(void);
const TSLanguage *tree_sitter_python(void);
const TSLanguage *tree_sitter_javascript(void);
const TSLanguage *tree_sitter_typescript(void);
const TSLanguage *tree_sitter_tsx(void);
const TSLanguage *tree_sitter_java(void);
const TSLanguage *tree_sitter_rust(void);
*/
import "C"

import (
	"unsafe"

	// Grammar packages are imported for their cgo objects (parser.c and
	// scanner.c); the tree_sitter_<lang> constructors are called directly.
	_ "github.com/smacker/go-tree-sitter/golang"
	_ "github.com/smacker/go-tree-sitter/java"
	_ "github.com/smacker/go-tree-sitter/javascript"
	_ "github.com/smacker/go-tree-sitter/python"
	_ "github.com/smacker/go-tree-sitter/rust"
	_ "github.com/smacker/go-tree-sitter/typescript/tsx"
	_ "github.com/smacker/go-tree-sitter/typescript/typescript"
)

// The core grammars: the languages of our own extractor plugins.
func init() {
	register("go", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_go()) })
	register("python", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_python()) })
	register("javascript", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_javascript()) })
	register("typescript", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_typescript()) })
	register("tsx", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_tsx()) })
	register("java", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_java()) })
	register("rust", func() unsafe.Pointer { return unsafe.Pointer(C.tree_sitter_rust()) })
}
