package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// declarator is what a declarator chain names: the name node, and the
// function declarator when the name is a function (int *f(void)), not a
// pointer to one (int (*f)(void)).
type declarator struct {
	name  extract.Node
	fn    extract.Node // None unless the name is declared a function
	stars string       // "*", "&", "**": what the chain adds to the type
}

// maxDeclaratorDepth bounds the walk down a declarator chain.
const maxDeclaratorDepth = 64

// unwrap follows a declarator chain down to the name it declares.
func (w *walker) unwrap(n extract.Node) declarator {
	t, g := w.t, w.g
	d := declarator{name: extract.None, fn: extract.None}
	for range maxDeclaratorDepth {
		if n == extract.None {
			return d
		}
		switch k := t.Kind(n); k {
		case g.identifier, g.fieldIdent, g.typeIdent, g.qualifiedIdent, g.destructorName, g.operatorName, g.templateFunc:
			if !t.IsMissing(n) && t.EndByte(n) > t.StartByte(n) {
				d.name = n // error recovery inserts empty names: none is a name
			}
			return d
		case g.funcDecl:
			d.fn = n
		case g.pointerDecl:
			d.fn, d.stars = extract.None, d.stars+"*"
		case g.referenceDecl:
			d.fn, d.stars = extract.None, d.stars+"&"
		case g.parenDecl, g.arrayDecl:
			d.fn = extract.None
		}
		next := t.Child(n, g.fDeclarator)
		if next == extract.None {
			next = w.firstNamed(n)
		}
		n = next
	}
	return d
}

// firstNamed returns n's first named child that is no comment, or None.
func (w *walker) firstNamed(n extract.Node) extract.Node {
	for c := range w.t.NamedChildren(n) {
		if w.t.Kind(c) != w.g.comment {
			return c
		}
	}
	return extract.None
}

// declarators iterates over the declarator fields of a declaration.
func (w *walker) declarators(n extract.Node, yield func(full extract.Node, d declarator)) {
	for c := range w.t.Children(n) {
		if w.t.Field(c) == w.g.fDeclarator {
			yield(c, w.unwrap(c))
		}
	}
}

// typeName is the named type a type node spells, bare ("Repo" for
// ns::Repo, Box for Box<int>, point for struct point); "" for a builtin or
// auto.
func (w *walker) typeName(n extract.Node) string {
	t, g := w.t, w.g
	for range maxDeclaratorDepth {
		switch t.Kind(n) {
		case g.typeIdent, g.identifier, g.namespaceIdent:
			if name := w.text(n); !w.templateParams[name] {
				return name
			}
			return "" // a template parameter: no type to look up
		case g.qualifiedIdent, g.templateType, g.structSpec, g.classSpec, g.unionSpec, g.enumSpec:
			n = t.Child(n, g.fName)
			continue
		}
		return ""
	}
	return ""
}

// bareName is the last component of a possibly qualified, templated name:
// "ns::Box<int>" → "Box".
func bareName(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

// stripTemplate drops template arguments: "ns::Other<T>" → "ns::Other".
func stripTemplate(s string) string {
	if i := strings.IndexByte(s, '<'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.TrimPrefix(s, "::"))
}

// gtestMacros are gtest's test-defining macros; TEST(Suite, Name) { … }
// parses as a function named TEST.
var gtestMacros = map[string]bool{
	"TEST": true, "TEST_F": true, "TEST_P": true, "TYPED_TEST": true, "TYPED_TEST_P": true,
}

// catchMacros are Catch2's (and doctest's) test-defining macros:
// TEST_CASE("name") { … } parses as a call statement and a block.
var catchMacros = map[string]bool{
	"TEST_CASE": true, "SCENARIO": true, "TEST_CASE_METHOD": true, "TEMPLATE_TEST_CASE": true,
	"TEMPLATE_PRODUCT_TEST_CASE": true, "TEST_CASE_FIXTURE": true,
}

// function reports a function or method definition and walks its body.
func (w *walker) function(n extract.Node, c ctx) {
	t, g := w.t, w.g
	d := w.unwrap(t.Child(n, g.fDeclarator))
	body := t.Child(n, g.fBody)
	if name, base, ok := w.macroClass(n); ok && c.fn < 0 {
		w.recoverClass(n, c, name, base)
		return
	}
	if d.name == extract.None || d.fn == extract.None {
		w.walkBody(body, c, c.fn) // a macro-made header: keep its calls
		return
	}
	s := abi.Symbol{Name: w.text(d.name), Kind: abi.KindFunction, Span: t.Span(n), Visibility: w.visibility(n, c)}
	inner := c
	switch {
	case c.class >= 0:
		s.Kind, s.Visibility = abi.KindMethod, c.access
		if bareName(s.Name) == c.className {
			s.Kind = abi.KindConstructor
		}
	case t.Kind(d.name) == g.qualifiedIdent:
		scope, name := w.splitQualified(d.name)
		s.Name = name
		if recv := bareName(scope); recv != "" && !w.namespaces[recv] {
			s.Kind, s.Receiver, s.Visibility = abi.KindMethod, recv, abi.VisNone
			if name == recv {
				s.Kind = abi.KindConstructor
			}
			inner.className = recv
		}
	case gtestMacros[s.Name] && t.Child(n, g.fType) == extract.None:
		w.gtest(&s, d.fn)
	}
	if body == extract.None {
		if c.class < 0 || t.ChildOfKind(n, g.pureVirtual) == extract.None {
			return // = default, = delete: nothing to link to
		}
	}
	if !s.Test {
		s.Signature = w.signature(n, d, body)
	}
	idx := w.symbol(s, c)
	saved := w.locals
	w.locals = map[string]string{}
	if !s.Test {
		w.params(d.fn)
	}
	inner.fn = idx
	w.walkBody(body, inner, idx)
	w.locals = saved
}

// walkBody walks a function body under the caller fn.
func (w *walker) walkBody(body extract.Node, c ctx, fn int32) {
	if body == extract.None {
		return
	}
	c.fn = fn
	w.walk(body, c)
}

// gtest turns TEST(Suite, Name) into the test function gtest generates,
// Suite_Name_Test.
func (w *walker) gtest(s *abi.Symbol, fd extract.Node) {
	var parts []string
	for p := range w.t.NamedChildren(w.t.Child(fd, w.g.fParameters)) {
		parts = append(parts, extract.OneLine(w.text(p)))
	}
	if len(parts) != 2 {
		return
	}
	s.Signature = &abi.Signature{Raw: s.Name + "(" + parts[0] + ", " + parts[1] + ")"}
	w.hasTests = true
	s.Name, s.Test, s.Visibility = parts[0]+"_"+parts[1]+"_Test", true, abi.VisPublic
}

// splitQualified returns a qualified name's scope as written and its last
// name: "ns::Box<T>::run" → "ns::Box<T>", "run".
func (w *walker) splitQualified(n extract.Node) (scope, name string) {
	t, g := w.t, w.g
	var scopes []string
	for range maxDeclaratorDepth {
		if t.Kind(n) != g.qualifiedIdent {
			break
		}
		if s := t.Child(n, g.fScope); s != extract.None {
			scopes = append(scopes, w.text(s))
		}
		n = t.Child(n, g.fName)
	}
	if t.Kind(n) == g.templateFunc {
		n = t.Child(n, g.fName)
	}
	return strings.Join(scopes, "::"), w.text(n)
}

// signature is a function's parameters, return type and header.
func (w *walker) signature(n extract.Node, d declarator, body extract.Node) *abi.Signature {
	t, g := w.t, w.g
	sig := &abi.Signature{}
	if typ := t.Child(n, g.fType); typ != extract.None {
		sig.ReturnRef = typeRef(w.typeName(typ))
		sig.Return = extract.OneLine(w.text(typ))
		if d.stars != "" {
			sig.Return += " " + d.stars
		}
	}
	for p := range t.Children(t.Child(d.fn, g.fParameters)) {
		switch k := t.Kind(p); {
		case k == g.paramDecl || k == g.optParamDecl:
			if param, ok := w.paramOf(p); ok {
				sig.Params = append(sig.Params, param)
			}
		case k != 0 && (k == g.variadicParam || k == g.ellipsis):
			sig.Params = append(sig.Params, abi.Param{Name: "..."})
		}
	}
	if len(sig.Params) == 1 && sig.Params[0].Name == "" && sig.Params[0].Type == "void" {
		sig.Params = nil // f(void): no parameters
	}
	end := t.EndByte(n)
	if body != extract.None {
		end = t.StartByte(body)
	}
	start := t.StartByte(n)
	if end > start {
		sig.Raw = extract.OneLine(string(t.Source()[start:end]))
	}
	return sig
}

// params records a function's parameters as locals.
func (w *walker) params(fd extract.Node) {
	for p := range w.t.NamedChildren(w.t.Child(fd, w.g.fParameters)) {
		w.param(p)
	}
}

// param records one parameter (of the function, a lambda or a catch) as a
// local of the current function.
func (w *walker) param(p extract.Node) {
	if w.locals == nil {
		return
	}
	d := w.unwrap(w.t.Child(p, w.g.fDeclarator))
	if d.name != extract.None {
		w.locals[w.text(d.name)] = w.typeName(w.t.Child(p, w.g.fType))
	}
}

// typeSpec reports a struct, union, class or enum definition (one with a
// body) and walks its members; name is a typedef's name for an anonymous
// one. It returns the symbol's index, or -1.
func (w *walker) typeSpec(n extract.Node, c ctx, name string) int32 {
	t, g := w.t, w.g
	body := t.Child(n, g.fBody)
	if body == extract.None {
		return -1 // struct point *p: a use, not a definition
	}
	if nm := t.Child(n, g.fName); nm != extract.None {
		name = bareName(w.text(nm))
	}
	if name == "" {
		w.walkMembers(body, c, abi.VisPublic) // union { … } inside a struct: its members are the struct's
		return -1
	}
	k := t.Kind(n)
	s := abi.Symbol{Name: name, Kind: abi.KindStruct, Span: t.Span(n), Visibility: abi.VisPublic}
	switch k {
	case g.classSpec:
		s.Kind = abi.KindClass
	case g.enumSpec:
		s.Kind = abi.KindEnum
	}
	if c.class >= 0 {
		s.Visibility = c.access
	}
	idx := w.symbol(s, c)
	if base := t.ChildOfKind(n, g.baseClause); base != extract.None {
		for b := range t.NamedChildren(base) {
			if bk := t.Kind(b); bk == g.typeIdent || bk == g.qualifiedIdent || bk == g.templateType {
				w.f.Relation(abi.Relation{From: idx, Kind: abi.RelInherits, Target: stripTemplate(w.text(b)), Line: t.StartLine(b)})
			}
		}
	}
	inner := ctx{class: idx, className: name, fn: -1, ns: c.ns, anonNS: c.anonNS}
	if k == g.enumSpec {
		for e := range t.NamedChildren(body) {
			if t.Kind(e) == g.enumerator {
				if nm := t.Child(e, g.fName); nm != extract.None {
					w.symbol(abi.Symbol{Name: w.text(nm), Kind: abi.KindConstant, Span: t.Span(e), Visibility: s.Visibility}, inner)
				}
			}
		}
		return idx
	}
	access := abi.VisPublic
	if k == g.classSpec {
		access = abi.VisPrivate
	}
	w.walkMembers(body, inner, access)
	return idx
}

// walkMembers walks a class body, following its access specifiers.
func (w *walker) walkMembers(body extract.Node, c ctx, access abi.Visibility) {
	for m := range w.t.Children(body) {
		if w.t.Kind(m) == w.g.accessSpec {
			if v := abi.Visibility(strings.TrimSuffix(strings.TrimSpace(w.text(m)), ":")); v.Valid() {
				access = v
			}
			continue
		}
		c.access = access
		w.walk(m, c)
	}
}

// typedef reports typedef T name: the struct or enum it defines, if any,
// and the alias.
func (w *walker) typedef(n extract.Node, c ctx) {
	t, g := w.t, w.g
	typ := t.Child(n, g.fType)
	var names []extract.Node
	w.declarators(n, func(_ extract.Node, d declarator) {
		if d.name != extract.None {
			names = append(names, d.name)
		}
	})
	defined := ""
	if k := t.Kind(typ); (k == g.structSpec || k == g.unionSpec || k == g.classSpec || k == g.enumSpec) && t.Child(typ, g.fBody) != extract.None {
		first := ""
		if len(names) > 0 && t.Child(typ, g.fName) == extract.None {
			first = w.text(names[0]) // typedef struct { … } name_t: the struct is name_t
		}
		if w.typeSpec(typ, c, first) >= 0 {
			defined = first
			if nm := t.Child(typ, g.fName); nm != extract.None {
				defined = bareName(w.text(nm))
			}
		}
	}
	for _, nm := range names {
		name := w.text(nm)
		if name == defined {
			continue
		}
		w.symbol(abi.Symbol{Name: name, Kind: abi.KindTypeAlias, Span: t.Span(n), Visibility: abi.VisPublic,
			Signature: &abi.Signature{Raw: extract.OneLine(w.text(n))}}, c)
	}
}

// alias reports using Name = Type;.
func (w *walker) alias(n extract.Node, c ctx) {
	nm := w.t.Child(n, w.g.fName)
	if nm == extract.None {
		return
	}
	w.symbol(abi.Symbol{Name: w.text(nm), Kind: abi.KindTypeAlias, Span: w.t.Span(n), Visibility: abi.VisPublic,
		Signature: &abi.Signature{Raw: extract.OneLine(w.text(n))}}, c)
}

// namespace walks a namespace's body; the file's first top-level
// namespace becomes its Package.
func (w *walker) namespace(n extract.Node, c ctx) {
	t := w.t
	inner := c
	nm := t.Child(n, w.g.fName)
	if nm == extract.None {
		inner.anonNS = true
	} else {
		name := strings.ReplaceAll(extract.OneLine(w.text(nm)), " ", "")
		for _, part := range strings.Split(name, "::") {
			w.namespaces[part] = true
		}
		if c.ns == "" {
			if w.pkg == "" {
				w.pkg = name
			} else if w.pkg != name {
				w.mixedNS = true
			}
			inner.ns = name
		} else {
			inner.ns = c.ns + "::" + name
		}
	}
	w.walk(t.Child(n, w.g.fBody), inner)
}

// using records the namespace of using namespace X; in a function,
// using std::swap makes swap(…) that function, not a member.
func (w *walker) using(n extract.Node) {
	txt := w.text(n)
	if !strings.Contains(txt, "namespace") {
		if nm := w.firstNamed(n); nm != extract.None && w.locals != nil {
			w.locals[bareName(w.text(nm))] = "" // a name from elsewhere, never resolvable here
		}
		return
	}
	if nm := w.firstNamed(n); nm != extract.None {
		w.namespaces[bareName(w.text(nm))] = true
	}
}

// declaration reports variables (file level), fields (class level) and
// locals (function level), and walks initializers for calls.
func (w *walker) declaration(n extract.Node, c ctx) {
	t, g := w.t, w.g
	typ := t.Child(n, g.fType)
	if k := t.Kind(typ); k == g.structSpec || k == g.unionSpec || k == g.classSpec || k == g.enumSpec {
		w.typeSpec(typ, c, "")
	}
	tn := w.typeName(typ)
	extern := w.hasStorage(n, "extern")
	broken := w.hasError(n) // error recovery glued tokens into it: its names are guesses
	pure := t.ChildOfKind(n, g.pureVirtual) != extract.None
	w.declarators(n, func(full extract.Node, d declarator) {
		if d.name == extract.None {
			return
		}
		name := w.text(d.name)
		switch {
		case c.fn >= 0:
			if d.fn == extract.None {
				w.locals[name] = w.localType(tn, full)
			}
		case c.class >= 0:
			if d.fn != extract.None {
				if mock := w.mockMethod(name, d.fn); mock != "" {
					w.symbol(abi.Symbol{Name: mock, Kind: abi.KindMethod, Span: t.Span(n), Visibility: c.access,
						Signature: &abi.Signature{Raw: extract.OneLine(w.text(n))}}, c)
					return
				}
				if pure {
					w.symbol(abi.Symbol{Name: name, Kind: abi.KindMethod, Span: t.Span(n), Visibility: c.access,
						Signature: w.signature(n, d, extract.None)}, c)
				}
				return // a prototype: the definition is the node
			}
			if broken {
				return
			}
			s := abi.Symbol{Name: name, Kind: abi.KindField, Span: t.Span(n), Visibility: c.access}
			if tn != "" {
				s.Signature = &abi.Signature{Return: tn, ReturnRef: typeRef(tn)} // the type a.f.m() chains through
			}
			w.symbol(s, c)
		default:
			if d.fn != extract.None || extern || broken || t.Kind(d.name) == g.qualifiedIdent {
				return // a prototype, an extern or a static member's definition
			}
			s := abi.Symbol{Name: name, Kind: abi.KindVariable, Span: t.Span(n), Visibility: w.visibility(n, c)}
			if tn != "" {
				s.Signature = &abi.Signature{Return: tn, ReturnRef: typeRef(tn)}
			}
			w.symbol(s, c)
		}
		if t.Kind(full) == g.initDecl {
			w.walk(t.Child(full, g.fValue), c)
		}
	})
}

// localType is a local's type: the declared one, else, for auto x = new
// T(…), T.
func (w *walker) localType(declared string, full extract.Node) string {
	t, g := w.t, w.g
	if declared != "" || t.Kind(full) != g.initDecl {
		return declared
	}
	if v := t.Child(full, g.fValue); t.Kind(v) == g.newExpr {
		return w.typeName(t.Child(v, g.fType))
	}
	return ""
}

// paramOf is one parameter: its name and its type as written without the
// name ("const rect_t *", "int (*)(int)").
func (w *walker) paramOf(p extract.Node) (abi.Param, bool) {
	t := w.t
	d := w.unwrap(t.Child(p, w.g.fDeclarator))
	start, end := t.StartByte(p), t.EndByte(p)
	src := t.Source()
	if start < 0 || end > len(src) || start > end {
		return abi.Param{}, false
	}
	if v := t.Child(p, w.g.fDefaultValue); v != extract.None {
		end = t.StartByte(v) // int n = 3: the type ends before the default
	}
	ref := typeRef(w.typeName(t.Child(p, w.g.fType)))
	if d.name == extract.None {
		return abi.Param{Type: strings.TrimRight(extract.OneLine(string(src[start:end])), " ="), TypeRef: ref}, true
	}
	ns, ne := t.StartByte(d.name), t.EndByte(d.name)
	if ns < start || ne > end {
		return abi.Param{}, false
	}
	typ := extract.OneLine(string(src[start:ns]) + string(src[ne:end]))
	return abi.Param{Name: w.text(d.name), Type: strings.TrimRight(typ, " ="), TypeRef: ref}, true
}

// mockMethod is the method a gMock macro defines in a class:
// MOCK_METHOD(int, Size, (), (const)) defines Size, MOCK_METHOD1(Size,
// int(int)) and MOCK_CONST_METHOD0(Size, int()) too; "" for anything else.
func (w *walker) mockMethod(macro string, fd extract.Node) string {
	arg := -1
	switch {
	case macro == "MOCK_METHOD":
		arg = 1
	case strings.HasPrefix(macro, "MOCK_METHOD") || strings.HasPrefix(macro, "MOCK_CONST_METHOD"):
		arg = 0
	default:
		return ""
	}
	i := 0
	for p := range w.t.NamedChildren(w.t.Child(fd, w.g.fParameters)) {
		if i == arg {
			if name := extract.OneLine(w.text(p)); isIdent(name) {
				return name
			}
			return ""
		}
		i++
	}
	return ""
}

// isIdent reports a C identifier.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range s {
		if c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && (i == 0 || !(c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}

// noKinds selects no kind: Seek with it stops only at ERROR and MISSING nodes.
var noKinds extract.KindTable

// hasError reports an ERROR or MISSING node inside n.
func (w *walker) hasError(n extract.Node) bool {
	end := w.t.End(n)
	return w.t.Seek(n, end, &noKinds) < end
}

// macroClass recognizes class EXPORT_MACRO Name { … }, which the grammar
// reads as a function named Name returning class EXPORT_MACRO, its body
// a block: the class is Name (with a base clause, `: public Base`, the
// grammar keeps Name in an ERROR and takes Base as the function name).
func (w *walker) macroClass(n extract.Node) (name, base string, ok bool) {
	t, g := w.t, w.g
	typ, decl, body := t.Child(n, g.fType), t.Child(n, g.fDeclarator), t.Child(n, g.fBody)
	if k := t.Kind(typ); (k != g.classSpec && k != g.structSpec) || t.Child(typ, g.fBody) != extract.None ||
		t.Kind(decl) != g.identifier || body == extract.None {
		return "", "", false
	}
	name = w.text(decl)
	for ch := range t.Children(n) {
		if t.IsError(ch) && t.StartByte(ch) < t.StartByte(decl) {
			if id := t.ChildOfKind(ch, g.identifier); id != extract.None {
				name, base = w.text(id), w.text(decl)
			}
		}
	}
	return name, base, isIdent(name)
}

// recoverClass reports a class the grammar misread (see macroClass): the
// class, its base, and the function definitions its block holds as its
// methods. Statements directly in the block are member declarations the
// grammar read as code: their "calls" are none.
func (w *walker) recoverClass(n extract.Node, c ctx, name, base string) {
	t, g := w.t, w.g
	kind := abi.KindClass
	access := abi.VisPrivate
	if t.Kind(t.Child(n, g.fType)) == g.structSpec {
		kind, access = abi.KindStruct, abi.VisPublic
	}
	idx := w.symbol(abi.Symbol{Name: name, Kind: kind, Span: t.Span(n), Visibility: abi.VisPublic}, c)
	if base != "" {
		w.f.Relation(abi.Relation{From: idx, Kind: abi.RelInherits, Target: base, Line: t.StartLine(n)})
	}
	inner := ctx{class: idx, className: name, fn: -1, ns: c.ns, anonNS: c.anonNS, access: access, recovered: true}
	w.recoverMembers(t.Child(n, g.fBody), &inner)
}

// recoverMembers walks the block of a misread class: "public:" reads as a
// label (of the next statement), and a method the grammar could not read
// as a definition is an ERROR holding its header, name(params), followed
// by its body block.
func (w *walker) recoverMembers(block extract.Node, c *ctx) {
	t, g := w.t, w.g
	pending := extract.None // an ERROR that may be a method's header
	for ch := range t.Children(block) {
		if pending != extract.None {
			p := pending
			pending = extract.None
			if t.Kind(ch) == g.compound && w.recoverMethod(p, ch, *c) {
				continue
			}
		}
		switch {
		case t.Kind(ch) == g.labeled:
			if v := abi.Visibility(w.text(t.Child(ch, g.fLabel))); v.Valid() && v != abi.VisNone {
				c.access = v
			}
			w.recoverMembers(ch, c)
		case t.IsError(ch):
			pending = ch
		case t.Kind(ch) != g.statementIdent:
			w.walk(ch, *c)
		}
	}
}

// recoverMethod reports header + body as a method when the header ends
// in name(params) (or name(params) const).
func (w *walker) recoverMethod(header, body extract.Node, c ctx) bool {
	t, g := w.t, w.g
	call := extract.None
	for ch := range t.NamedChildren(header) {
		if t.Kind(ch) == g.callExpr {
			call = ch
		}
	}
	if call == extract.None {
		return false
	}
	fn := t.Child(call, g.fFunction)
	if t.Kind(fn) != g.identifier {
		return false
	}
	sp, end := t.Span(header), t.Span(body)
	sp.EndLine, sp.EndCol = end.EndLine, end.EndCol
	s := abi.Symbol{Name: w.text(fn), Kind: abi.KindMethod, Span: sp, Visibility: c.access,
		Signature: &abi.Signature{Raw: extract.OneLine(w.text(header))}}
	if s.Name == c.className {
		s.Kind = abi.KindConstructor
	}
	idx := w.symbol(s, c)
	saved := w.locals
	w.locals = map[string]string{}
	w.walkBody(body, c, idx)
	w.locals = saved
	return true
}
