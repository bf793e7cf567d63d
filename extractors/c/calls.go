package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// maxReceiver caps a receiver expression's text (extract.ReceiverText).
const maxReceiver = 80

// maxTypeDepth bounds how many links of a.b.c a receiver type follows.
const maxTypeDepth = 8

// methodMark is the members value of a method (fields hold their type).
const methodMark = "()"

// caller is the symbol calls at c belong to: the function, else the class
// (a member initializer), else the file.
func (c ctx) caller() int32 {
	if c.fn >= 0 {
		return c.fn
	}
	return c.class
}

// call reports one call expression.
func (w *walker) call(n extract.Node, c ctx) {
	t, g := w.t, w.g
	if c.recovered && c.fn < 0 {
		return // a member declaration misread as a call
	}
	fn := t.Child(n, g.fFunction)
	if t.Kind(fn) == g.templateFunc {
		fn = t.Child(fn, g.fName) // f<int>(x)
	}
	switch t.Kind(fn) {
	case g.identifier:
		w.plainCall(fn, c)
	case g.fieldExpr:
		arg, name := t.Child(fn, g.fArgument), t.Child(fn, g.fField)
		if name == extract.None || arg == extract.None {
			return
		}
		if t.Kind(name) == g.templateFunc {
			name = t.Child(name, g.fName)
		}
		rt := w.exprType(arg, c, 0)
		w.f.Call(abi.Call{Caller: c.caller(), Name: w.text(name), Receiver: extract.ReceiverText(w.text(arg), maxReceiver),
			ReceiverType: rt, ReceiverRef: typeRef(rt), Line: t.StartLine(name), Col: t.StartCol(name)})
	case g.qualifiedIdent:
		w.qualifiedCall(fn, c)
	default:
		w.pointerCall(n, fn, c)
	}
	// Anything else — (*fp)(x), table[i](x), f()(x) — goes through a
	// pointer the syntax does not name: no static target.
}

// plainCall reports f(), unless f is a variable (a function pointer) or,
// inside a method, a member of its class.
func (w *walker) plainCall(id extract.Node, c ctx) {
	name := w.text(id)
	if _, local := w.locals[name]; local && c.fn >= 0 {
		return
	}
	call := abi.Call{Caller: c.caller(), Name: name, Line: w.t.StartLine(id), Col: w.t.StartCol(id)}
	if c.className != "" {
		switch typ, member := w.members[c.className][name]; {
		case member && typ == methodMark:
			call.Receiver, call.ReceiverType, call.ReceiverRef = "this", c.className, typeRef(c.className) // an implicit this->m()
		case member:
			return // a callable field: a function pointer or functor
		}
	}
	if _, v := w.fileVars[name]; v && call.Receiver == "" {
		return
	}
	w.f.Call(call)
}

// qualifiedCall reports T::m() and ns::f(): a name of a namespace the
// file opens or uses is a plain call, std:: is left unresolved (the
// standard library is never here), and anything else is a class.
func (w *walker) qualifiedCall(n extract.Node, c ctx) {
	t := w.t
	scope, name := w.splitQualified(n)
	last := n
	for range maxDeclaratorDepth {
		if t.Kind(last) != w.g.qualifiedIdent {
			break
		}
		last = t.Child(last, w.g.fName)
	}
	call := abi.Call{Caller: c.caller(), Name: name, Line: t.StartLine(last), Col: t.StartCol(last)}
	q := bareName(scope)
	switch {
	case name == "":
		return
	case scope == "" || q == "":
		// ::f(): the global f
	case scope == "std" || strings.HasPrefix(scope, "std::"):
		call.Receiver = scope
	case w.namespaces[q]:
		// a function of a namespace: found by its name
	default:
		call.Receiver, call.ReceiverType, call.ReceiverRef = q, q, typeRef(q)
	}
	w.f.Call(call)
}

// newCall reports new T(…) as a call of T.
func (w *walker) newCall(n extract.Node, c ctx) {
	if name := w.typeName(w.t.Child(n, w.g.fType)); name != "" {
		w.f.Call(abi.Call{Caller: c.caller(), Name: name, Line: w.t.StartLine(n), Col: w.t.StartCol(n)})
	}
}

// forRange records for (T x : xs) as a local.
func (w *walker) forRange(n extract.Node) {
	if w.locals == nil {
		return
	}
	d := w.unwrap(w.t.Child(n, w.g.fDeclarator))
	if d.name != extract.None {
		w.locals[w.text(d.name)] = w.typeName(w.t.Child(n, w.g.fType))
	}
}

// exprType is the type of a receiver expression as the host reads it:
// "T" when declared here, "T#f" for field f of T (resolved where T is
// declared), "" when unknown.
func (w *walker) exprType(n extract.Node, c ctx, depth int) string {
	t, g := w.t, w.g
	if depth > maxTypeDepth {
		return ""
	}
	switch t.Kind(n) {
	case g.this:
		return c.className
	case g.identifier:
		name := w.text(n)
		if typ, ok := w.locals[name]; ok && c.fn >= 0 {
			return typ
		}
		if c.className != "" {
			if typ, ok := w.members[c.className][name]; ok && typ != methodMark {
				return typ
			}
		}
		if typ, ok := w.fileVars[name]; ok {
			return typ
		}
		if c.className != "" {
			return c.className + "#" + name // a member declared where the class is (void T::m() in a .cc)
		}
		return ""
	case g.fieldExpr:
		owner := w.exprType(t.Child(n, g.fArgument), c, depth+1)
		fieldNode := t.Child(n, g.fField)
		if owner == "" || fieldNode == extract.None {
			return ""
		}
		name := w.text(fieldNode)
		if typ, ok := w.members[owner][name]; ok {
			if typ == methodMark {
				return ""
			}
			return typ
		}
		return owner + "#" + name
	case g.parenExpr, g.pointerExpr:
		if inner := w.firstNamed(n); inner != extract.None {
			return w.exprType(inner, c, depth+1)
		}
	case g.callExpr:
		return w.resultType(t.Child(n, g.fFunction), c, depth)
	}
	return ""
}

// resultType is the type of what a call returns, as the host reads it:
// "f()" (the first result of function f, from its declaration) or "T#m()"
// (of method m of T); "" when the callee has no name to look up.
func (w *walker) resultType(fn extract.Node, c ctx, depth int) string {
	t, g := w.t, w.g
	switch t.Kind(fn) {
	case g.identifier:
		name := w.text(fn)
		if _, local := w.locals[name]; local && c.fn >= 0 {
			return "" // a function pointer: no declaration to read
		}
		if c.className != "" && w.members[c.className][name] == methodMark {
			if rt := w.result(c.className, name); rt != "" {
				return rt
			}
			return c.className + "#" + name + "()"
		}
		if rt := w.result("", name); rt != "" {
			return rt
		}
		return name + "()"
	case g.fieldExpr:
		owner := w.exprType(t.Child(fn, g.fArgument), c, depth+1)
		if name := t.Child(fn, g.fField); owner != "" && t.Kind(name) == g.fieldIdent {
			if rt := w.result(owner, w.text(name)); rt != "" {
				return rt
			}
			return owner + "#" + w.text(name) + "()"
		}
	}
	return ""
}

// catchTest reports a Catch2 TEST_CASE("name") { … } at the top level
// (a call statement followed by a block) as a test function; it returns
// whether n started one and the block was consumed.
func (w *walker) catchTest(n, block extract.Node, c ctx) bool {
	t, g := w.t, w.g
	if block == extract.None || t.Kind(block) != g.compound {
		return false
	}
	call := w.firstNamed(n)
	if t.Kind(call) != g.callExpr {
		return false
	}
	fn := t.Child(call, g.fFunction)
	if t.Kind(fn) != g.identifier || !catchMacros[w.text(fn)] {
		return false
	}
	args := t.Child(call, g.fArguments)
	name := w.text(fn)
	for a := range t.NamedChildren(args) {
		if t.Kind(a) == g.stringLit {
			if s := strings.Trim(w.text(a), `"`); s != "" {
				name = s
			}
			break
		}
	}
	w.macroTests = append(w.macroTests, [2]int{t.StartByte(n), t.EndByte(n)})
	sp, end := t.Span(n), t.Span(block)
	sp.EndLine, sp.EndCol = end.EndLine, end.EndCol
	w.hasTests = true
	idx := w.symbol(abi.Symbol{Name: name, Kind: abi.KindFunction, Span: sp, Visibility: abi.VisPublic, Test: true,
		Signature: &abi.Signature{Raw: extract.OneLine(w.text(call))}}, c)
	saved := w.locals
	w.locals = map[string]string{}
	w.walkBody(block, c, idx)
	w.locals = saved
	return true
}

// typeRef is the structured form of an exprType answer ("T#a#m()": the
// type named T, its field a, what a's method m returns), read by the one
// parser of that form, abi.ParseTypeRef; nil for "".
func typeRef(typ string) *abi.TypeRef {
	if typ == "" {
		return nil
	}
	r, err := abi.ParseTypeRef(typ)
	if err != nil {
		return nil
	}
	return r
}
