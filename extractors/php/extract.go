package main

import (
	"cmp"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one PHP file, HTML around <?php ?> tags
// included (the grammar keeps it as text).
//
// Conventions chosen where PHP leaves room (the goldens pin them):
//   - The file's first namespace is its Package ("App\Models"), so files
//     of one namespace see each other's names as PHP does.
//   - Types are named as PHP code writes them after `use` (an alias
//     stays, the import binds it), \Foo\Bar (fully qualified) by its short
//     name Bar; a global class named from a namespace (\DateTime, `use
//     DateTime;`) keeps its backslash, so it never matches a class here.
//   - `use` (classes, functions, constants, aliases, groups) is one import
//     per name: Path and Keys the fully qualified name (the module key of
//     the file declaring it), Names the short name and its alias.
//     require/include of a literal path is an import of it as written;
//     __DIR__ . '/x.php' and dirname(__FILE__) . '/x.php' are relative to
//     the file ("./x.php"), dirname(__DIR__) . '/x.php' to its parent
//     ("../x.php"); a computed path is a dynamic_import site.
//   - class/interface/trait/enum; methods (__construct a constructor),
//     properties and promoted constructor parameters (fields typed by
//     their declaration), class constants and enum cases (constants),
//     functions. Visibility from the modifiers, public by default.
//   - extends is inherits, implements is implements, a trait `use` in a
//     class body is embeds (its methods join the class's).
//   - Calls: f() by its short name; $this->m(), self::m(), static::m() are
//     typed by the enclosing class, parent::m() by its parent; Foo::m() by
//     Foo; $x->m() by $x's type when a typed parameter or `$x = new Foo`
//     gives it ("Foo#make()" for `$x = Foo::make()`, which the host reads
//     from make's declared return type); $this->p->m() by p's declared
//     type, by `$this->p = new Foo` in the class, else "Class#p" for the
//     host. new Foo() is a constructor call named Foo. $o->$m(),
//     call_user_func and new $cls are reflection sites.
//   - Tests: classes extending *TestCase (or named *Test in a test file),
//     and their test* methods, methods with @test in their docblock or a
//     #[Test] attribute.
//   - References: parameter, return and property types that are classes.
type Extractor struct{}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	if f.Tree.Len() == 0 {
		return nil
	}
	x := &state{f: f, t: f.Tree, g: grammarFor(f.Tree.Grammar), fn: -1, errEnd: -1,
		uses: map[string]string{}, locals: map[string]string{}, hinted: map[string]bool{}, testFile: isTestPath(f.Path)}
	x.walk(0)
	f.FillDocs(extract.DocBlockStar)
	f.SetFile(abi.FileFacts{Scope: x.scope, Modules: append(x.modules, f.Path), Test: x.testFile})
	return nil
}

// class is the class-like declaration being walked.
type class struct {
	sym    int32
	name   string            // short name
	parent string            // extends, short name
	props  map[string]string // property -> class, from declarations and `$this->p = new X`
	test   bool              // a PHPUnit test class
}

type state struct {
	f *extract.File
	t *extract.Tree
	g *grammar

	namespace string
	uses      map[string]string // local name of a global class `use`d -> `\X`
	cls       *class            // nil outside a class
	fn        int32             // enclosing function or method, -1 outside
	locals    map[string]string // $var -> class ("" unknown)
	hinted    map[string]bool   // locals typed by an inline /** @var */
	testFile  bool
	pkgSet    bool
	scope     string   // the first namespace: File.Scope
	modules   []string // fully qualified names of what the file declares
	errEnd    node
}

func (x *state) walk(n node) {
	for c := range x.t.Children(n) {
		x.visit(c)
	}
}

func (x *state) visit(n node) {
	t, g := x.t, x.g
	h := t.Header(n)
	if h.IsError() || h.IsMissing() {
		x.syntaxError(n)
	}
	switch h.Kind() {
	case g.comment:
		x.inlineVar(n)
	case g.namespaceDef:
		x.namespaceDef(n)
	case g.namespaceUse:
		x.use(n)
	case g.classDecl, g.ifaceDecl, g.traitDecl, g.enumDecl:
		x.classLike(n)
	case g.funcDef:
		x.function(n, None)
	case g.methodDecl:
		x.method(n, None)
	case g.constDecl:
		x.constants(n)
	case g.funcCall:
		x.functionCall(n)
	case g.memberCall, g.nullsafeCall:
		x.memberCall(n)
	case g.scopedCall:
		x.scopedCall(n)
	case g.objectCreation:
		x.newCall(n)
	case g.assignment:
		x.assignment(n)
	case g.require, g.requireOnce, g.include, g.includeOnce:
		x.require(n)
	case g.simpleParam, g.variadicParam:
		x.locals[x.t.Text(x.t.Child(n, g.fName))] = x.typeOf(x.t.Child(n, g.fType))
		x.walkField(n, g.fDefault)
	case g.useVars:
		for v := range t.NamedChildren(n) {
			if _, ok := x.locals[t.Text(v)]; !ok {
				x.locals[t.Text(v)] = ""
			}
		}
	default:
		x.walk(n)
	}
}

// walkField visits n's child in field f, if any.
func (x *state) walkField(n node, f field) {
	if c := x.t.Child(n, f); c != None {
		x.visit(c)
	}
}

// syntaxError reports the outermost ERROR nodes and every named MISSING
// node; the walk goes on inside them.
func (x *state) syntaxError(n node) {
	t := x.t
	if t.IsMissing(n) {
		if t.IsNamed(n) { // a missing ";" is dropped from named-only trees: facts must not depend on it
			x.f.Errorf("syntax error at L%d:%d: missing %s", t.StartLine(n), t.StartCol(n), t.KindName(n))
		}
		return
	}
	if n < x.errEnd {
		return
	}
	x.errEnd = t.End(n)
	x.f.Errorf("syntax error at L%d:%d", t.StartLine(n), t.StartCol(n))
}

// caller is the symbol a call here belongs to.
func (x *state) caller() int32 {
	if x.fn >= 0 {
		return x.fn
	}
	if x.cls != nil {
		return x.cls.sym
	}
	return -1
}

// namespaceDef sets the namespace: the file's Package is its first.
func (x *state) namespaceDef(n node) {
	t, g := x.t, x.g
	x.namespace = t.Text(t.Child(n, g.fName))
	if x.namespace != "" && !x.pkgSet {
		x.f.SetPackage(x.namespace)
		x.pkgSet, x.scope = true, x.namespace
	}
	x.walkField(n, g.fBody)
}

// use reports `use A\B;`, `use A\B as C;`, `use function A\f;`, `use
// const A\X;` and `use A\{B, C as D};`, one import per name.
func (x *state) use(n node) {
	t, g := x.t, x.g
	kw := strings.TrimSpace(strings.TrimPrefix(t.Text(n), "use"))
	classes := !strings.HasPrefix(kw, "function ") && !strings.HasPrefix(kw, "const ")
	prefix := ""
	for c := range t.NamedChildren(n) {
		switch t.Kind(c) {
		case g.namespaceName:
			prefix = t.Text(c) + `\`
		case g.useClause:
			x.useClause(c, "", classes)
		case g.useGroup:
			for gc := range t.NamedChildren(c) {
				if t.Kind(gc) == g.useGroupClause {
					x.useClause(gc, prefix, classes)
				}
			}
		}
	}
}

// useClause reports one imported name under prefix; a global class
// (`use DateTime;`) is remembered, so that types written with its name
// keep the backslash.
func (x *state) useClause(c node, prefix string, classes bool) {
	t, g := x.t, x.g
	fqn, alias := "", ""
	for p := range t.NamedChildren(c) {
		switch t.Kind(p) {
		case g.qualifiedName, g.name, g.namespaceName:
			fqn = strings.TrimPrefix(t.Text(p), `\`)
		case g.aliasing:
			alias = t.Text(firstNamed(t, p))
		}
	}
	if fqn == "" {
		return
	}
	fqn = prefix + fqn
	if classes && !strings.Contains(fqn, `\`) {
		x.uses[cmp.Or(alias, fqn)] = `\` + fqn // `use DateTime;`: the global class
	}
	// The name is bound to the declaration the key finds: the class (or
	// function) in the file whose module key is its fully qualified name.
	x.f.Import(abi.Import{Path: fqn, Names: []abi.ImportName{{Name: lastSegment(fqn), Alias: alias}},
		Line: t.StartLine(c), Keys: []string{fqn}, Kind: abi.ImportSymbols})
}

// classLike reports a class, interface, trait or enum and walks its body.
func (x *state) classLike(n node) {
	t, g := x.t, x.g
	name := t.Text(t.Child(n, g.fName))
	if name == "" {
		x.walk(n)
		return
	}
	kind := abi.KindClass
	switch t.Kind(n) {
	case g.ifaceDecl:
		kind = abi.KindInterface
	case g.traitDecl:
		kind = abi.KindTrait
	case g.enumDecl:
		kind = abi.KindEnum
	}
	c := &class{name: name, props: map[string]string{}}
	var bases, ifaces []node
	for k := range t.NamedChildren(n) {
		switch t.Kind(k) {
		case g.baseClause:
			bases = namedTypes(t, g, k)
		case g.ifaceClause:
			ifaces = namedTypes(t, g, k)
		}
	}
	if len(bases) > 0 && kind == abi.KindClass {
		c.parent = x.shortType(t.Text(bases[0]))
	}
	c.test = strings.HasSuffix(c.parent, "TestCase") || x.testFile && strings.HasSuffix(name, "Test")
	x.modules = append(x.modules, x.qualify(name))
	c.sym = x.f.Symbol(abi.Symbol{Name: name, Kind: kind, Parent: -1, Visibility: abi.VisPublic, Span: t.Span(n), Test: c.test && kind == abi.KindClass})
	for _, b := range bases {
		x.relation(c.sym, abi.RelInherits, b, abi.CtxNone)
	}
	for _, i := range ifaces {
		x.relation(c.sym, abi.RelImplements, i, abi.CtxNone)
	}
	body := t.Child(n, g.fBody)
	x.propertyTypes(c, body)
	saved, fn, locals := x.cls, x.fn, x.locals
	x.cls, x.fn, x.locals = c, -1, map[string]string{}
	x.members(body)
	x.cls, x.fn, x.locals = saved, fn, locals
}

// members walks a class body, handing each method the doc comment right
// before it (for @test).
func (x *state) members(body node) {
	t, g := x.t, x.g
	doc := None
	for m := range t.Children(body) {
		switch t.Kind(m) {
		case g.comment:
			doc = m
			continue
		case g.methodDecl:
			x.method(m, doc)
		case g.propDecl:
			x.properties(m, doc)
		case g.traitUse:
			for _, tr := range namedTypes(t, g, m) {
				x.relation(x.cls.sym, abi.RelEmbeds, tr, abi.CtxNone)
			}
		case g.enumCase:
			if name := t.Text(t.Child(m, g.fName)); name != "" {
				x.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindConstant, Parent: x.cls.sym, Visibility: abi.VisPublic, Span: t.Span(m)})
			}
			x.walkField(m, g.fValue)
		default:
			x.visit(m)
		}
		doc = None
	}
}

// namedTypes lists the type names under n (extends/implements/use lists).
func namedTypes(t *extract.Tree, g *grammar, n node) []node {
	var out []node
	for c := range t.NamedChildren(n) {
		if k := t.Kind(c); k == g.name || k == g.qualifiedName {
			out = append(out, c)
		}
	}
	return out
}

// relation reports from → the type named by node n.
func (x *state) relation(from int32, kind abi.RelationKind, n node, ctx abi.RelationContext) {
	if target := x.shortType(x.t.Text(n)); target != "" {
		x.f.Relation(abi.Relation{From: from, Kind: kind, Target: target, Context: ctx, Line: x.t.StartLine(n)})
	}
}
