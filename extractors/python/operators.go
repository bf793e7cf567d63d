package main

import (
	"bytes"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Operator protocols. Python runs a special method for every operator and
// for some builtins: a + b calls type(a).__add__ (then type(b).__radd__),
// a < b calls __lt__ (then b's __gt__), -x calls __neg__, x[k] calls
// __getitem__, len(x) calls __len__, math.ceil(x) calls __ceil__. No call
// is written there, so without these facts a changed __gt__ has no caller
// and no test reaches it. Each such site is reported as the member call
// it is (Name "__add__" on the operand as receiver), so the host links it
// when it knows the operand's type (self, a typed parameter) and
// otherwise records it as a call on a receiver of unknown type.
//
// Literal operands (1 + x, "%s" % x) and the results of builtins
// (len(x) + 1) have builtin types whose methods are not in any
// repository: no call is reported on them.

// binaryDunders maps an arithmetic operator to its method and its
// reflected method.
var binaryDunders = map[string][2]string{
	"+": {"__add__", "__radd__"}, "-": {"__sub__", "__rsub__"}, "*": {"__mul__", "__rmul__"},
	"/": {"__truediv__", "__rtruediv__"}, "//": {"__floordiv__", "__rfloordiv__"},
	"%": {"__mod__", "__rmod__"}, "**": {"__pow__", "__rpow__"}, "@": {"__matmul__", "__rmatmul__"},
	"&": {"__and__", "__rand__"}, "|": {"__or__", "__ror__"}, "^": {"__xor__", "__rxor__"},
	"<<": {"__lshift__", "__rlshift__"}, ">>": {"__rshift__", "__rrshift__"},
}

// compareDunders maps a comparison to the left operand's method and the
// right one's reflection; "in" is the right operand's __contains__.
var compareDunders = map[string][2]string{
	"<": {"__lt__", "__gt__"}, ">": {"__gt__", "__lt__"}, "<=": {"__le__", "__ge__"},
	">=": {"__ge__", "__le__"}, "==": {"__eq__", "__eq__"}, "!=": {"__ne__", "__ne__"},
}

// unaryDunders maps a unary operator to its method.
var unaryDunders = map[string]string{"-": "__neg__", "+": "__pos__", "~": "__invert__"}

// builtinDunders maps a builtin called on one value to the method it runs
// on it; moduleDunders the same for module functions.
var builtinDunders = map[string]string{
	"len": "__len__", "str": "__str__", "repr": "__repr__", "abs": "__abs__", "round": "__round__",
	"int": "__int__", "float": "__float__", "complex": "__complex__", "bool": "__bool__",
	"hash": "__hash__", "iter": "__iter__", "next": "__next__", "reversed": "__reversed__",
	"format": "__format__", "bytes": "__bytes__", "divmod": "__divmod__", "pow": "__pow__",
}

var moduleDunders = map[string]string{
	"math.floor": "__floor__", "math.ceil": "__ceil__", "math.trunc": "__trunc__",
	"copy.copy": "__copy__", "copy.deepcopy": "__deepcopy__", "operator.index": "__index__",
	"operator.neg": "__neg__", "operator.pos": "__pos__", "operator.abs": "__abs__", "operator.invert": "__invert__",
}

// operatorFunctions are the operator module's functions of two values:
// operator.gt(a, b) is a > b.
var operatorFunctions = map[string]string{
	"operator.lt": "<", "operator.le": "<=", "operator.eq": "==", "operator.ne": "!=", "operator.ge": ">=",
	"operator.gt": ">", "operator.add": "+", "operator.sub": "-", "operator.mul": "*", "operator.truediv": "/",
	"operator.floordiv": "//", "operator.mod": "%", "operator.pow": "**", "operator.matmul": "@",
	"operator.and_": "&", "operator.or_": "|", "operator.xor": "^", "operator.lshift": "<<", "operator.rshift": ">>",
}

// sameTypeBuiltins return a value of their arguments' type (abs of a
// Fraction is a Fraction): their results are operands like any other.
var sameTypeBuiltins = map[string]bool{"abs": true, "min": true, "max": true, "sum": true, "pow": true, "round": true}

// binaryOperator reports a + b (node i) as a.__add__(b) and b.__radd__(a).
func (x *state) binaryOperator(i extract.Node) {
	if x.inAnnotation(i) {
		return // A | None is a union type, not a call of __or__
	}
	left, right := x.t.Child(i, x.l.fLeft), x.t.Child(i, x.l.fRight)
	if d, ok := binaryDunders[x.operatorBetween(left, right)]; ok {
		x.protocolCall(i, left, d[0])
		x.protocolCall(i, right, d[1])
	}
}

// augmentedAssignment reports a += b (node i) as a.__iadd__(b), and as
// a.__add__(b), which runs when the type has no __iadd__.
func (x *state) augmentedAssignment(i extract.Node) {
	left, right := x.t.Child(i, x.l.fLeft), x.t.Child(i, x.l.fRight)
	op := x.operatorBetween(left, right)
	if d, ok := binaryDunders[string(bytes.TrimSuffix([]byte(op), []byte("=")))]; ok && len(op) > 1 {
		x.protocolCall(i, left, "__i"+d[0][2:])
		x.protocolCall(i, left, d[0])
	}
}

// comparison reports each comparison of a chain (a < b <= c, node i) as
// the left operand's method and the right operand's reflection, and
// `a in b` as b.__contains__(a).
func (x *state) comparison(i extract.Node) {
	var prev extract.Node = extract.None
	for c := range x.t.NamedChildren(i) {
		if x.t.Kind(c) == x.l.comment {
			continue
		}
		if prev != extract.None {
			op := x.operatorBetween(prev, c)
			switch {
			case op == "in" || op == "not in":
				x.protocolCall(i, c, "__contains__")
			default:
				if d, ok := compareDunders[op]; ok {
					x.protocolCall(i, prev, d[0])
					x.protocolCall(i, c, d[1])
				}
			}
		}
		prev = c
	}
}

// unaryOperator reports -x (node i) as x.__neg__().
func (x *state) unaryOperator(i extract.Node) {
	arg := x.t.Child(i, x.l.fArgument)
	if arg == extract.None {
		return
	}
	src := x.t.Source()
	op := string(bytes.TrimSpace(src[x.t.StartByte(i):x.t.StartByte(arg)]))
	if d, ok := unaryDunders[op]; ok {
		x.protocolCall(i, arg, d)
	}
}

// subscript reports x[k] (node i) as x.__getitem__(k), or __setitem__ /
// __delitem__ when it is assigned or deleted.
func (x *state) subscript(i extract.Node) {
	t, l := x.t, x.l
	name := "__getitem__"
	switch p := t.Parent(i); {
	case t.Kind(p) == l.assignment && t.Child(p, l.fLeft) == i,
		t.Kind(p) == l.augmentedAssignment && t.Child(p, l.fLeft) == i:
		name = "__setitem__"
	case t.Kind(p) == l.deleteStatement:
		name = "__delitem__"
	}
	if t.Kind(t.Parent(i)) == l.typ || t.Kind(t.Parent(i)) == l.argumentList && t.Kind(t.Parent(t.Parent(i))) == l.classDefinition {
		return // list[int] in an annotation, Generic[T] as a base: no call
	}
	x.protocolCall(i, t.Child(i, l.fValue), name)
}

// builtinProtocol reports len(x), str(x), math.ceil(x) (call node i of
// callee fn) as the method the builtin runs on its first argument.
func (x *state) builtinProtocol(i, fn extract.Node) {
	t, l := x.t, x.l
	var name string
	switch t.Kind(fn) {
	case l.identifier:
		if x.aliasOf(t.Text(fn)) != extract.None || x.localAt(i, t.Text(fn)) {
			return // a local or an alias hides the builtin
		}
		name = builtinDunders[t.Text(fn)]
	case l.attribute:
		if x.isDotted(fn) {
			name = moduleDunders[x.oneLine(fn)]
			if op, ok := operatorFunctions[x.oneLine(fn)]; ok {
				x.operatorFunction(i, op)
				return
			}
		}
	}
	if name == "" {
		return
	}
	args := t.Child(i, l.fArguments)
	if args == extract.None {
		return
	}
	for a := range t.NamedChildren(args) {
		if k := t.Kind(a); k != l.comment && k != l.keywordArgument {
			x.protocolCall(i, a, name)
		}
		return
	}
}

// protocolCall reports method name called on operand e at node at, unless
// e is of a builtin type (a literal, a builtin's result).
func (x *state) protocolCall(at, e extract.Node, name string) {
	t, l := x.t, x.l
	for e != extract.None && t.Kind(e) == l.parenthesizedExpression {
		e = x.firstNamed(e)
	}
	if e == extract.None {
		return
	}
	switch t.Kind(e) {
	case l.identifier:
		if n := t.Text(e); keywords[n] || x.isBuiltin(n) || isDunder(n) {
			return // __name__ is a str
		}
	case l.call:
		if fn := t.Child(e, l.fFunction); fn != extract.None && t.Kind(fn) == l.identifier && x.isBuiltin(t.Text(fn)) && !sameTypeBuiltins[t.Text(fn)] {
			return
		}
	case l.attribute, l.subscript, l.binaryOperator, l.unaryOperator:
	default:
		return // a literal, a comprehension, a lambda …
	}
	c := abi.Call{Caller: x.caller(at), Name: name, Line: t.StartLine(e), Col: t.StartCol(e), Implicit: true}
	c.Receiver, c.ReceiverType = x.receiver(at, e)
	switch t.Kind(e) {
	case l.binaryOperator, l.unaryOperator, l.subscript:
		c.ReceiverType = "" // the type of a result the plugin does not compute
	case l.call:
		// F(1, 2) < x: an instance of the class F names, or of what F returns.
		if fn := t.Child(e, l.fFunction); fn != extract.None && x.isDotted(fn) {
			c.ReceiverType = x.calleeText(fn) + "()"
		}
	}
	c.ReceiverRef = receiverRef(c.ReceiverType)
	x.f.Call(c)
}

// operatorBetween returns the operator text between two operands, with
// comments, line continuations and parentheses left out.
func (x *state) operatorBetween(a, b extract.Node) string {
	if a == extract.None || b == extract.None {
		return ""
	}
	src := x.t.Source()
	from, to := x.t.EndByte(a), x.t.StartByte(b)
	if from > to || to > len(src) {
		return ""
	}
	var out []byte
	for _, line := range bytes.Split(src[from:to], []byte("\n")) {
		if k := bytes.IndexByte(line, '#'); k >= 0 {
			line = line[:k]
		}
		for _, f := range bytes.Fields(bytes.Trim(bytes.TrimSpace(line), "()\\")) {
			if f = bytes.Trim(f, "()\\"); len(f) > 0 {
				if len(out) > 0 {
					out = append(out, ' ')
				}
				out = append(out, f...)
			}
		}
	}
	return string(out)
}

// constructorCall reports that constructing the class of scope cls runs
// its method name when that is __init__ or __new__: calling the class
// (Fraction(1, 2)) is the only call they get, so the class itself is
// reported as their caller, and whoever reaches the class reaches them.
func (x *state) constructorCall(cls *scope, nameNode extract.Node) {
	name := x.t.Text(nameNode)
	if name != "__init__" && name != "__new__" {
		return
	}
	c := abi.Call{Caller: cls.sym, Name: name, Receiver: "self", ReceiverType: cls.selfType, Implicit: true,
		Line: x.t.StartLine(nameNode), Col: x.t.StartCol(nameNode)}
	c.ReceiverRef = receiverRef(c.ReceiverType)
	x.f.Call(c)
}

// inAnnotation reports whether expression i is (part of) a type
// annotation.
func (x *state) inAnnotation(i extract.Node) bool {
	t, l := x.t, x.l
	for p := t.Parent(i); p != extract.None; p = t.Parent(p) {
		switch t.Kind(p) {
		case l.typ:
			return true
		case l.binaryOperator, l.parenthesizedExpression, l.subscript:
		default:
			return false
		}
	}
	return false
}

// operatorFunction reports operator.gt(a, b) (call node i) as a > b.
func (x *state) operatorFunction(i extract.Node, op string) {
	t, l := x.t, x.l
	args := t.Child(i, l.fArguments)
	if args == extract.None {
		return
	}
	var operands []extract.Node
	for a := range t.NamedChildren(args) {
		if k := t.Kind(a); k != l.comment && k != l.keywordArgument {
			operands = append(operands, a)
		}
	}
	if len(operands) != 2 {
		return
	}
	d, ok := binaryDunders[op]
	if !ok {
		d, ok = compareDunders[op]
	}
	if ok {
		x.protocolCall(i, operands[0], d[0])
		x.protocolCall(i, operands[1], d[1])
	}
}
