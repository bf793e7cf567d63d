package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one Ruby file.
//
// Conventions chosen where Ruby leaves room (the goldens pin them):
//   - module → kind module, class → kind class, named by their last
//     segment (`class A::B::C` is C) and reported at file level however
//     they nest: Ruby nesting is a constant namespace, like a package,
//     not containment, and the host finds types by name at file level.
//     The qualified name lives in relation texts; receiver types are the
//     bare name, which the host matches in the file first, then by a
//     unique name. `X = Struct.new(…)`, `Class.new`, `Data.define`
//     make a class X whose block's defs are its methods.
//   - def inside a class or module is a method (initialize a constructor),
//     `def self.m` and defs in `class << self` too (their Parent is the
//     class); a def at file level is a function. Visibility follows
//     private/protected/public (bare, `private def`, `private :m`);
//     initialize is private; singleton methods stay public.
//   - attr_accessor/attr_reader/attr_writer/attr make fields; constants
//     assigned in a class, module or at file level are constants.
//   - require "x" is an import of "x"; require_relative "x" and
//     require File.expand_path("x", __dir__) import "./x.rb" (relative to
//     the file, so the host resolves it to the file); a computed require is
//     a dynamic_import site.
//   - `< Base` is inherits; include/extend/prepend are embeds (the module's
//     methods join the class's, which the host follows like Go embedding).
//   - Calls: Name is the method; Receiver as written. ReceiverType is the
//     enclosing class for self and for receiverless calls inside a class
//     (Ruby sends them to self), the class X for `@ivar.m` when the class
//     assigns `@ivar = X.new` (and only X), for a local assigned `X.new`,
//     and for an attr reader backed by such an ivar; X itself for X.m and
//     A::B.m (class methods); the superclass for super. `X.new` is a
//     constructor call named X. A bare identifier that is no local is a
//     call (Ruby's parenthesis-free call).
//   - Tests: describe/context blocks (RSpec, minitest/spec) are test
//     classes named "describe <arg>", it/specify/example/scenario/test
//     blocks test methods named "it <description>"; in *_spec.rb,
//     *_test.rb, test_*.rb or under spec/ or test/ only (RSpec.describe
//     anywhere). Classes deriving from *Test/*TestCase and their test_*
//     methods are tests.
//   - Docs: the # comment block right above a definition (magic comments
//     and rubocop directives are not docs).
type Extractor struct{}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	if f.Tree.Len() == 0 {
		return nil
	}
	x := &state{f: f, t: f.Tree, g: grammarFor(f.Tree.Grammar), fn: -1, errEnd: -1,
		locals: map[string]string{}, testFile: isTestPath(f.Path)}
	if f.Language() == "erb" {
		x.erb = append([]span{}, erbCode(f.Source())...) // non-nil: a template without tags has no code
		x.errEnd = node(f.Tree.Len())                    // the HTML around the tags is no Ruby error
		f.Errorf("%s", erbNote)
	}
	x.collectTopDefs()
	x.walk(0)
	if x.erb == nil {
		f.SetFile(abi.FileFacts{Test: x.testFile, Modules: modules(f.Path)})
	} else {
		f.SetFile(abi.FileFacts{Test: x.testFile})
	}
	return nil
}

type scopeKind uint8

const (
	scopeModule scopeKind = iota + 1
	scopeClass
	scopeSpec // an RSpec example group
)

// scope is an open module, class or example group.
type scope struct {
	kind       scopeKind
	sym        int32
	name       string                    // qualified, "Shop::Billing::Invoice"
	super      string                    // superclass as written
	visibility abi.Visibility            // of the next def: public, private or protected
	explicit   map[string]abi.Visibility // `private :m` visibility by method name
	ivars      map[string]string         // @x -> class, from @x = X.new ("" when ambiguous)
	attrs      map[string]bool           // attr readers
	test       bool                      // a test class: its test_* methods are tests
}

func newScope(k scopeKind, name string) scope {
	return scope{kind: k, name: name, visibility: abi.VisPublic, explicit: map[string]abi.Visibility{},
		ivars: map[string]string{}, attrs: map[string]bool{}}
}

type state struct {
	f *extract.File
	t *extract.Tree
	g *grammar

	scopes    []scope
	fn        int32             // enclosing def or example symbol, -1 outside
	fnName    string            // its method name, for super
	locals    map[string]string // locals of the enclosing def -> class ("" unknown)
	topDefs   map[string]bool   // defs at file level: receiverless calls to them stay plain
	singleton int               // depth inside class << self
	testFile  bool
	errEnd    node
	erb       []span // code regions of an ERB template; nil for Ruby
}

func (x *state) walk(n node) {
	for c := range x.t.Children(n) {
		x.visit(c)
	}
}

func (x *state) visit(n node) {
	t, g := x.t, x.g
	h := t.Header(n)
	if x.erb != nil && !x.inCode(n) {
		x.walk(n)
		return
	}
	if h.IsError() || h.IsMissing() {
		x.syntaxError(n)
	}
	switch h.Kind() {
	case g.comment:
	case g.module:
		x.namespace(n, scopeModule)
	case g.class:
		x.namespace(n, scopeClass)
	case g.singletonClass:
		x.singletonClass(n)
	case g.method, g.singletonMethod:
		x.def(n, "")
	case g.call:
		x.call(n)
	case g.identifier:
		x.bareIdentifier(n)
	case g.assignment, g.opAssignment:
		x.assignment(n)
	case g.super:
		x.superCall(n, n)
	case g.methodParams, g.blockParams, g.lambdaParams:
		x.params(n)
	case g.exceptionVar, g.leftList:
		x.declareLocals(n)
	case g.forLoop:
		x.declareLocals(t.Child(n, g.fPattern))
		x.walkExcept(n, g.fPattern)
	case g.alias, g.undef:
	default:
		x.walk(n)
	}
}

// walkExcept visits n's children but those in field skip.
func (x *state) walkExcept(n node, skip ...field) {
	for c := range x.t.Children(n) {
		if f := x.t.Field(c); f == 0 || !contains(skip, f) {
			x.visit(c)
		}
	}
}

func contains(fs []field, f field) bool {
	for _, g := range fs {
		if g == f {
			return true
		}
	}
	return false
}

// syntaxError reports the outermost ERROR nodes and every MISSING node;
// the walk goes on inside them, since tree-sitter keeps whole statements
// there.
func (x *state) syntaxError(n node) {
	t := x.t
	if t.IsMissing(n) && !t.IsNamed(n) {
		return // a missing ")" or "end": named-only trees drop it, so facts must not depend on it
	}
	if t.IsMissing(n) && x.erb == nil {
		x.f.Errorf("syntax error at L%d:%d: missing %s", t.StartLine(n), t.StartCol(n), t.KindName(n))
		return
	}
	if n < x.errEnd {
		return
	}
	x.errEnd = t.End(n)
	x.f.Errorf("syntax error at L%d:%d", t.StartLine(n), t.StartCol(n))
}

// scope returns the innermost open scope, or nil at file level.
func (x *state) scope() *scope {
	if len(x.scopes) == 0 {
		return nil
	}
	return &x.scopes[len(x.scopes)-1]
}

// typeScope returns the innermost module or class, or nil.
func (x *state) typeScope() *scope {
	for i := len(x.scopes) - 1; i >= 0; i-- {
		if x.scopes[i].kind != scopeSpec {
			return &x.scopes[i]
		}
	}
	return nil
}

// parent is the symbol new definitions hang under.
func (x *state) parent() int32 {
	if s := x.scope(); s != nil {
		return s.sym
	}
	return -1
}

// caller is the symbol a call here belongs to.
func (x *state) caller() int32 {
	if x.fn >= 0 {
		return x.fn
	}
	return x.parent()
}

// symbol reports s with the doc comment above node n.
func (x *state) symbol(n node, s abi.Symbol) int32 {
	s.Span = x.t.Span(n)
	s.Doc = docAbove(x.t.Source(), x.t.StartByte(n))
	return x.f.Symbol(s)
}

// enter opens a scope and runs body in it, with calls in it belonging to
// the scope's symbol rather than to an enclosing def.
func (x *state) enter(s scope, body func()) {
	fn, fnName, locals, singleton := x.fn, x.fnName, x.locals, x.singleton
	x.fn, x.fnName, x.locals, x.singleton = -1, "", map[string]string{}, 0
	x.scopes = append(x.scopes, s)
	body()
	x.scopes = x.scopes[:len(x.scopes)-1]
	x.fn, x.fnName, x.locals, x.singleton = fn, fnName, locals, singleton
}

// namespace reports a module or class and walks its body.
func (x *state) namespace(n node, k scopeKind) {
	t, g := x.t, x.g
	written := t.Text(t.Child(n, g.fName))
	if written == "" {
		x.walk(n)
		return
	}
	s := newScope(k, x.qualify(written))
	sym := abi.Symbol{Name: lastSegment(written), Kind: abi.KindModule, Parent: -1, Visibility: abi.VisPublic}
	if k == scopeClass {
		sym.Kind = abi.KindClass
		if sup := t.Child(n, g.fSuperclass); sup != None {
			s.super = x.typeName(firstNamed(t, sup))
			s.test = isTestBase(s.super)
		}
		s.test = s.test || x.testFile && strings.HasSuffix(sym.Name, "Test")
		sym.Test = s.test
	}
	s.sym = x.symbol(n, sym)
	if s.super != "" {
		x.f.Relation(abi.Relation{From: s.sym, Kind: abi.RelInherits, Target: s.super, Line: t.StartLine(t.Child(n, g.fSuperclass))})
	}
	body := t.Child(n, g.fBody)
	s.ivars, s.explicit = x.ivarTypes(body), x.explicitVisibility(body)
	x.enter(s, func() {
		if k == scopeClass {
			if sup := t.Child(n, g.fSuperclass); sup != None {
				x.walk(sup) // Struct.new(:a) as a superclass calls Struct.new
			}
		}
		x.walk(body)
	})
}

// qualify prefixes a written constant path with the enclosing scopes.
func (x *state) qualify(written string) string {
	if q, ok := strings.CutPrefix(written, "::"); ok {
		return q
	}
	if s := x.typeScope(); s != nil {
		return s.name + "::" + written
	}
	return written
}

// singletonClass walks `class << self`: its defs are class methods.
func (x *state) singletonClass(n node) {
	t, g := x.t, x.g
	if t.Kind(t.Child(n, g.fValue)) != g.self {
		x.walk(n)
		return
	}
	x.singleton++
	x.walk(t.Child(n, g.fBody))
	x.singleton--
}

// def reports a method or function; vis overrides its visibility
// (`private def m`).
func (x *state) def(n node, vis abi.Visibility) {
	t, g := x.t, x.g
	nameNode := t.Child(n, g.fName)
	name := t.Text(nameNode)
	if name == "" {
		return
	}
	singleton := t.Kind(n) == g.singletonMethod || x.singleton > 0
	sym := abi.Symbol{Name: name, Kind: abi.KindFunction, Parent: x.parent(), Visibility: abi.VisPublic}
	if s := x.scope(); s != nil {
		sym.Kind = abi.KindMethod
		switch {
		case vis != "":
			sym.Visibility = vis
		case s.explicit[name] != "":
			sym.Visibility = s.explicit[name]
		case singleton:
		case name == "initialize":
			sym.Kind, sym.Visibility = abi.KindConstructor, abi.VisPrivate
		default:
			sym.Visibility = s.visibility
		}
		sym.Test = strings.HasPrefix(name, "test_") && (s.test || x.testFile && s.kind == scopeClass)
	}
	params := t.Child(n, g.fParameters)
	sym.Signature = x.signature(n, nameNode, params)
	idx := x.symbol(n, sym)
	x.dynamicDef(name, idx, t.StartLine(n))
	fn, fnName, locals := x.fn, x.fnName, x.locals
	x.fn, x.fnName, x.locals = idx, name, map[string]string{}
	x.walkExcept(n, g.fName, g.fObject)
	x.fn, x.fnName, x.locals = fn, fnName, locals
}

// signature is a def's header: its parameters as written (defaults
// dropped) and the source up to the parameter list's end, on one line.
func (x *state) signature(n, name, params node) *abi.Signature {
	t, g := x.t, x.g
	end := t.EndByte(name)
	sig := &abi.Signature{}
	if params != None {
		end = t.EndByte(params)
		for p := range t.NamedChildren(params) {
			if t.Kind(p) == g.comment {
				continue
			}
			sig.Params = append(sig.Params, abi.Param{Name: paramText(t, g, p)})
		}
	}
	src := t.Source()
	if start := t.StartByte(n); start <= end && end <= len(src) {
		sig.Raw = extract.OneLine(string(src[start:end]))
	}
	return sig
}

// paramText is a parameter as written without its default value:
// "x", "*rest", "**opts", "&blk", "key:".
func paramText(t *extract.Tree, g *grammar, p node) string {
	v := t.Child(p, g.fValue)
	if v == None {
		return extract.OneLine(t.Text(p))
	}
	src := t.Source()
	s := strings.TrimSpace(string(src[t.StartByte(p):t.StartByte(v)]))
	return strings.TrimSpace(strings.TrimSuffix(s, "="))
}

// params declares a parameter list's names as locals and walks default
// values, which are calls of the def.
func (x *state) params(n node) {
	t, g := x.t, x.g
	for c := range t.Children(n) {
		switch {
		case t.Field(c) == g.fValue:
			x.visit(c)
		case t.Kind(c) == g.identifier:
			x.locals[t.Text(c)] = ""
		default:
			x.params(c)
		}
	}
}

// declareLocals declares every identifier under n (rescue => e, a, b = …,
// for x in …) as a local.
func (x *state) declareLocals(n node) {
	t := x.t
	if t.Kind(n) == x.g.identifier {
		x.locals[t.Text(n)] = ""
		return
	}
	for c := range t.Descendants(n) {
		if t.Kind(c) == x.g.identifier {
			x.locals[t.Text(c)] = ""
		}
	}
}
