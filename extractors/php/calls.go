package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// maxSteps bounds the members a receiver type chains (a#b()#c()…): the
// host follows a few, and a long chain would make facts quadratic.
const maxSteps = 4

// functionCall reports f(…) and \ns\f(…) by the function's short name;
// call_user_func is a reflection site, $f(…) calls a value.
func (x *state) functionCall(n node) {
	t, g := x.t, x.g
	fn := t.Child(n, g.fFunction)
	switch t.Kind(fn) {
	case g.name, g.qualifiedName:
		name := lastSegment(t.Text(fn))
		if name == "call_user_func" || name == "call_user_func_array" {
			key, _ := x.stringLit(firstArg(t, g, t.Child(n, g.fArguments)))
			x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: abi.DynamicReflection, Key: key, Line: t.StartLine(fn)})
		}
		x.crossLang(n, name)
		x.f.Call(abi.Call{Caller: x.caller(), Name: name, Line: t.StartLine(fn), Col: t.StartCol(fn)})
	default:
		x.visit(fn)
	}
	x.walkField(n, g.fArguments)
}

// memberCall reports $obj->m(…) and $obj?->m(…).
func (x *state) memberCall(n node) {
	t, g := x.t, x.g
	obj, m := t.Child(n, g.fObject), t.Child(n, g.fName)
	if t.Kind(m) != g.name {
		x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: abi.DynamicReflection, Line: t.StartLine(m)})
		x.walk(n)
		return
	}
	x.emit(abi.Call{Caller: x.caller(), Name: t.Text(m), Receiver: extract.Receiver(t.Text(obj)),
		ReceiverType: x.exprType(obj), Line: t.StartLine(m), Col: t.StartCol(m)})
	x.visit(obj)
	x.walkField(n, g.fArguments)
}

// scopedCall reports self::m(), static::m(), parent::m() and Foo::m().
func (x *state) scopedCall(n node) {
	t, g := x.t, x.g
	scope, m := t.Child(n, g.fScope), t.Child(n, g.fName)
	if t.Kind(m) != g.name {
		x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: abi.DynamicReflection, Line: t.StartLine(m)})
		x.walk(n)
		return
	}
	c := abi.Call{Caller: x.caller(), Name: t.Text(m), Line: t.StartLine(m), Col: t.StartCol(m)}
	switch k := t.Kind(scope); {
	case k == g.relativeScope || k == g.name || k == g.qualifiedName:
		c.Receiver = strings.TrimPrefix(t.Text(scope), `\`)
		c.ReceiverType = x.shortType(c.Receiver)
	default:
		c.Receiver = extract.Receiver(t.Text(scope))
		c.ReceiverType = x.exprType(scope)
		x.visit(scope)
	}
	x.emit(c)
	x.walkField(n, g.fArguments)
}

// newCall reports new Foo(…) as a constructor call named Foo; new $cls is
// a reflection site; an anonymous class's methods are walked for calls.
func (x *state) newCall(n node) {
	t, g := x.t, x.g
	for c := range t.NamedChildren(n) {
		switch k := t.Kind(c); {
		case k == g.name || k == g.qualifiedName || k == g.relativeScope:
			if typ := x.shortType(t.Text(c)); typ != "" {
				x.f.Call(abi.Call{Caller: x.caller(), Name: typ, Line: t.StartLine(c), Col: t.StartCol(c)})
			}
		case k == g.varName || k == g.memberAccess:
			x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: abi.DynamicReflection, Line: t.StartLine(c)})
			x.visit(c)
		case k == g.declList:
			saved := x.cls
			x.cls = nil
			x.walk(c)
			x.cls = saved
		default:
			x.visit(c)
		}
	}
}

// assignment records the type a local gets from new Foo / Foo::make() /
// a typed property.
func (x *state) assignment(n node) {
	t, g := x.t, x.g
	left, right := t.Child(n, g.fLeft), t.Child(n, g.fRight)
	if t.Kind(left) == g.varName {
		// An inline @var hint above the assignment says what the value
		// is; only `new X` says better.
		if name := t.Text(left); !x.hinted[name] || t.Kind(right) == g.objectCreation {
			x.locals[name] = x.exprType(right)
		}
	} else {
		x.visit(left)
	}
	x.visit(right)
}

// exprType is the class an expression evaluates to, when the syntax says.
func (x *state) exprType(n node) string { return x.typeAt(n, 0) }

// typeAt is exprType for a receiver depth links down a call chain; past
// maxSteps it gives up, so a long chain costs linear time.
func (x *state) typeAt(n node, depth int) string {
	t, g := x.t, x.g
	switch t.Kind(n) {
	case g.varName:
		if name := t.Text(n); name == "$this" {
			if x.cls != nil {
				return x.cls.name
			}
		} else {
			return x.locals[name]
		}
	case g.memberAccess, g.nullsafeAccess:
		obj, prop := t.Child(n, g.fObject), t.Text(t.Child(n, g.fName))
		if t.Text(obj) == "$this" && x.cls != nil && prop != "" {
			if typ := x.cls.props[prop]; typ != "" {
				return typ
			}
			return x.cls.name + "#" + prop
		}
	case g.objectCreation:
		return x.newType(n)
	case g.memberCall, g.nullsafeCall:
		// $this->repo->find(): the first result of Repo's find, which the
		// host reads from its declared return type.
		if depth >= maxSteps || t.Kind(t.Child(n, g.fName)) != g.name {
			return ""
		}
		if obj := x.typeAt(t.Child(n, g.fObject), depth+1); obj != "" {
			return obj + "#" + t.Text(t.Child(n, g.fName)) + "()"
		}
	case g.scopedCall:
		scope, m := t.Child(n, g.fScope), t.Child(n, g.fName)
		if k := t.Kind(scope); (k == g.name || k == g.qualifiedName || k == g.relativeScope) && t.Kind(m) == g.name {
			if typ := x.shortType(t.Text(scope)); typ != "" {
				return typ + "#" + t.Text(m) + "()"
			}
		}
	}
	return ""
}

// newType is the class of new Foo(…), else "".
func (x *state) newType(n node) string {
	t, g := x.t, x.g
	if t.Kind(n) != g.objectCreation {
		return ""
	}
	for c := range t.NamedChildren(n) {
		if k := t.Kind(c); k == g.name || k == g.qualifiedName || k == g.relativeScope {
			return x.shortType(t.Text(c))
		}
	}
	return ""
}

// require reports require/include of a literal or __DIR__-relative path,
// and a computed one as a dynamic import.
func (x *state) require(n node) {
	t := x.t
	arg := firstNamed(t, n)
	if p, ok := x.includePath(arg); ok {
		x.f.Import(abi.Import{Path: p, Line: t.StartLine(n), Keys: x.includeKeys(p), Kind: abi.ImportWildcard})
		return
	}
	x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: abi.DynamicImport, Line: t.StartLine(n)})
	x.visit(arg)
}

// includePath reads 'x.php' (as written) and DIR . '/x.php', where DIR
// is __DIR__, dirname(__FILE__) (the file's directory) or
// dirname(__DIR__) (its parent): those are made relative to the file.
func (x *state) includePath(n node) (string, bool) {
	t, g := x.t, x.g
	if s, ok := x.stringLit(n); ok {
		return s, s != ""
	}
	if t.Kind(n) != g.binary {
		return "", false
	}
	left, right := t.Child(n, g.fLeft), t.Child(n, g.fRight)
	rest, ok := x.stringLit(right)
	if !ok || !strings.HasPrefix(rest, "/") {
		return "", false
	}
	var dir string
	switch strings.ReplaceAll(t.Text(left), " ", "") {
	case "__DIR__", "dirname(__FILE__)":
		dir = "."
	case "dirname(__DIR__)", "dirname(dirname(__FILE__))":
		dir = ".."
	default:
		return "", false
	}
	p := path.Join(dir, rest)
	if !strings.HasPrefix(p, "../") && p != ".." {
		p = "./" + p
	}
	return p, true
}
