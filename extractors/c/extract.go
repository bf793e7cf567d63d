package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one C or C++ file:
//
//   - function definitions (function), with static ones file-private;
//     prototypes are not definitions and are not reported, so a call links
//     to the body, not to the header line that declares it;
//   - struct, union (kind struct), class and enum definitions, their fields
//     (field, typed for receiver chains) and enumerators (constant);
//     typedefs and using-aliases (type_alias), a typedef of an anonymous
//     struct or enum naming the struct or enum itself;
//   - object-like macros (constant) and function-like macros (function);
//   - file-level variables (variable; extern declarations are not
//     definitions and are not reported);
//   - C++ methods defined in their class and out of it (void T::m() has
//     Receiver T), constructors, pure virtual methods (their only
//     declaration), namespaces as the file's Package, base classes
//     (inherits);
//   - #include "x" (Path "./x", searched next to the including file first)
//     and #include <x> (Path x), each binding the header's names;
//   - calls: f() (never when f is a local, parameter or file variable: a
//     call through a function pointer has no static target), s->f() and
//     s.f() with the receiver's declared type, this->m(), T::m(), implicit
//     this calls of methods the file knows, new T(…);
//   - gtest TEST/TEST_F/TEST_P/TYPED_TEST and Catch2 TEST_CASE/SCENARIO
//     bodies as test functions, gMock MOCK_METHODs as methods;
//   - ABI v2: File.Scope (the namespace), Modules (the file's path), Test,
//     Import.Keys (project.go) and TypeRefs for receivers and types.
//
// Code in every #if/#ifdef branch is read: the preprocessor's choice is
// unknown here, so each branch's definitions and calls are reported. A
// class behind an export macro, which the grammar misreads as a function,
// is recovered (recoverClass). docs/c-cpp.md has the rules.
type Extractor struct{}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	w := &walker{f: f, t: t, g: grammarFor(t.Grammar), cpp: f.Language() == "cpp",
		fileVars: map[string]string{}, namespaces: map[string]bool{}, members: map[string]map[string]string{},
		results: map[string]map[string]string{}, templateParams: map[string]bool{},
		incDirs: includeDirs(extract.Project())}
	w.collect(0)
	w.walk(0, ctx{class: -1, fn: -1})
	f.ReportSyntaxErrors(func(n extract.Node) bool { return w.inMacroTest(w.t.StartByte(n)) })
	ff := abi.FileFacts{Modules: []string{f.Path}, Test: w.hasTests || isTestFile(f.Path)}
	if w.pkg != "" && !w.mixedNS {
		f.SetPackage(w.pkg)
		ff.Scope = w.pkg
	}
	f.SetFile(ff)
	return nil
}

// ctx is where the walk is: the enclosing class (symbol index and name)
// and function (symbol index), -1 when none.
type ctx struct {
	class     int32
	className string
	fn        int32
	ns        string           // the enclosing namespace path, "a::b"
	anonNS    bool             // inside an anonymous namespace: internal linkage
	access    abi.Visibility   // the access of class members here
	recovered bool             // in a class the grammar misread as a block (recoverClass)
	cond      []abi.Constraint // the #if branches around here (variants.go)
}

type walker struct {
	f   *extract.File
	t   *extract.Tree
	g   *grammar
	cpp bool

	// locals maps the current function's parameters and locals to their
	// type name ("" when no named type).
	locals map[string]string
	// fileVars maps file-level variables (extern ones included) to their
	// type name: a call of one goes through a function pointer.
	fileVars map[string]string
	// namespaces are the namespace names the file opens or uses.
	namespaces map[string]bool
	// members maps class name → member name → its type name ("()" marks
	// a method), from every class body and T::m definition of the file.
	members map[string]map[string]string
	// results maps class name ("" for free functions) → function name →
	// the named type it returns, from every declaration of the file.
	results map[string]map[string]string
	// templateParams are the file's template type parameters (T): names
	// of no type.
	templateParams map[string]bool

	lines []int // byte offset of each line, built on first need

	depth   int  // the walk's recursion depth
	tooDeep bool // maxDepth was reached once (reported once)
	// macroTests are the byte ranges of Catch2 TEST_CASE(…) statements,
	// where the parser's "missing ;" is the macro's doing, not an error.
	macroTests [][2]int

	incDirs  []string // include directories from the project info
	hasTests bool     // a gtest or Catch2 test is defined here

	pkg     string // the file's first top-level namespace
	mixedNS bool   // the file opens more than one top-level namespace
}

func (w *walker) text(n extract.Node) string { return w.t.Text(n) }

// maxDepth bounds the walk's recursion: deeper nesting is not read, and
// the file says so, rather than the plugin exhausting its stack.
const maxDepth = 1000

// walk visits n's subtree.
func (w *walker) walk(n extract.Node, c ctx) {
	t := w.t
	if w.depth >= maxDepth {
		if !w.tooDeep {
			w.tooDeep = true
			w.f.Errorf("nesting deeper than %d at L%d: the rest of that subtree is not read", maxDepth, t.StartLine(n))
		}
		return
	}
	w.depth++
	w.visit(n, c)
	w.depth--
}

// visit is walk's body: what n's kind asks for.
func (w *walker) visit(n extract.Node, c ctx) {
	t, g := w.t, w.g
	switch k := t.Kind(n); {
	case k == g.comment, k == g.stringLit, k == g.rawStringLit, k == g.charLit:
		return
	case k == g.include:
		w.include(n)
		return
	case k == g.define:
		w.macro(n, false)
		return
	case k == g.defineFn:
		w.macro(n, true)
		return
	case k == g.funcDef:
		w.function(n, c)
		return
	case k != 0 && (k == g.ppIf || k == g.ppIfdef):
		w.branch(n, c)
		return
	case k == g.structSpec || k == g.unionSpec || k == g.classSpec || k == g.enumSpec:
		w.typeSpec(n, c, "")
		return
	case k == g.typedef:
		w.typedef(n, c)
		return
	case k == g.aliasDecl:
		w.alias(n, c)
		return
	case k == g.namespaceDef:
		w.namespace(n, c)
		return
	case k == g.usingDecl:
		w.using(n)
		return
	case k == g.declaration || k == g.fieldDecl:
		w.declaration(n, c)
		return
	case k == g.callExpr:
		w.call(n, c)
	case k == g.newExpr:
		w.newCall(n, c)
	case k == g.forRange:
		w.forRange(n)
	case k == g.paramDecl || k == g.optParamDecl:
		w.param(n)
		return
	}
	w.walkChildren(n, c)
}

// walkChildren walks n's children; at the top level a Catch2 test macro
// and the block after it are one test function.
func (w *walker) walkChildren(n extract.Node, c ctx) { w.walkChildrenExcept(n, c, extract.None) }

// walkChildrenExcept is walkChildren leaving out the child skip.
func (w *walker) walkChildrenExcept(n extract.Node, c ctx, skip extract.Node) {
	t := w.t
	pending := extract.None // a top-level statement that may start a Catch2 test
	for ch := range t.Children(n) {
		if ch == skip {
			continue
		}
		if pending != extract.None {
			p := pending
			pending = extract.None
			if w.catchTest(p, ch, c) {
				continue
			}
			w.walk(p, c)
		}
		if c.fn < 0 && c.class < 0 && t.Kind(ch) == w.g.exprStmt {
			pending = ch
			continue
		}
		w.walk(ch, c)
	}
	if pending != extract.None {
		w.walk(pending, c)
	}
}

// symbol reports s inside the context's function or class, if any, with
// the doc comment above it.
func (w *walker) symbol(s abi.Symbol, c ctx) int32 {
	s.Parent = c.caller()
	s.Variants = c.cond
	if s.Name == "" {
		return -1 // nothing to name it by (error recovery); its contents join the enclosing scope
	}
	if s.Doc == "" && s.Span.StartLine > 0 {
		s.Doc = docAbove(w.t.Source(), w.lineStart(s.Span.StartLine))
	}
	return w.f.Symbol(s)
}

// visibility is a file-level definition's visibility: static (and an
// anonymous namespace) keep it to the file.
func (w *walker) visibility(n extract.Node, c ctx) abi.Visibility {
	if c.anonNS || w.hasStorage(n, "static") {
		return abi.VisPrivate
	}
	return abi.VisPublic
}

// hasStorage reports a storage class specifier (static, extern) among n's
// direct children.
func (w *walker) hasStorage(n extract.Node, word string) bool {
	for ch := range w.t.Children(n) {
		if w.t.Kind(ch) == w.g.storageClass && w.text(ch) == word {
			return true
		}
	}
	return false
}

// include reports #include "x" and #include <x>.
func (w *walker) include(n extract.Node) {
	t := w.t
	p := t.Child(n, w.g.fPath)
	if p == extract.None {
		return
	}
	spec := w.text(p)
	var name, path string
	quoted := false
	switch {
	case t.Kind(p) == w.g.sysLib:
		name = strings.TrimSpace(strings.Trim(spec, "<>"))
		path = name
	case strings.HasPrefix(spec, `"`):
		name, quoted = strings.Trim(spec, `"`), true
		path = name
		if !strings.HasPrefix(path, "../") && !strings.HasPrefix(path, "/") {
			path = "./" + path // v1 hosts: searched next to the including file
		}
	default:
		return // #include MACRO: computed, nothing to follow
	}
	if name == "" || strings.HasPrefix(name, "/") {
		return
	}
	w.f.Import(abi.Import{Path: path, Names: []abi.ImportName{{Name: "*"}}, Line: t.StartLine(n),
		Keys: includeKeys(w.f.Path, name, quoted, w.incDirs), Kind: abi.ImportWildcard})
}

// macro reports #define NAME (constant) and #define NAME(args) (function).
func (w *walker) macro(n extract.Node, fn bool) {
	t := w.t
	name := t.Child(n, w.g.fName)
	if name == extract.None || t.IsMissing(name) {
		return
	}
	s := abi.Symbol{Name: w.text(name), Kind: abi.KindConstant, Parent: -1, Visibility: abi.VisPublic, Span: macroSpan(t, n)}
	if fn {
		s.Kind = abi.KindFunction
		sig := &abi.Signature{}
		params := t.Child(n, w.g.fParameters)
		for p := range t.NamedChildren(params) {
			sig.Params = append(sig.Params, abi.Param{Name: w.text(p)})
		}
		sig.Raw = "#define " + s.Name + extract.OneLine(w.text(params))
		s.Signature = sig
	}
	w.f.Symbol(s)
}

// macroSpan is a #define's span without the newline that ends it.
func macroSpan(t *extract.Tree, n extract.Node) abi.Span {
	sp := t.Span(n)
	if sp.EndLine > sp.StartLine && sp.EndCol == 1 {
		end := t.EndByte(n) - 1
		src := t.Source()
		line := bytes1(src, end)
		sp.EndLine--
		sp.EndCol = uint32(end-line) + 1
	}
	return sp
}

// bytes1 returns the offset of the start of the line holding off.
func bytes1(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

func (w *walker) inMacroTest(off int) bool {
	for _, r := range w.macroTests {
		if off >= r[0] && off <= r[1] {
			return true
		}
	}
	return false
}
