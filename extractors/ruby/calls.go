package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// call handles one call node: the forms Ruby spells as calls but that
// declare (require, include, attr_*, private, describe/it) and plain calls.
func (x *state) call(n node) {
	t, g := x.t, x.g
	m, recv, args := t.Child(n, g.fMethod), t.Child(n, g.fReceiver), t.Child(n, g.fArguments)
	if t.Kind(m) == g.super {
		x.superCall(n, m)
		x.walkExcept(n, g.fMethod)
		return
	}
	name := t.Text(m)
	if name == "" {
		x.walk(n)
		return
	}
	if recv == None && x.declaration(n, name, args) {
		return
	}
	if recv != None && t.Text(recv) == "RSpec" && isGroup(name) && x.example(n, name, args, true) {
		return
	}
	x.dynamic(name, args, t.StartLine(m))
	x.crossLang(name, recv, args, t.StartLine(m))
	c := abi.Call{Caller: x.caller(), Name: name, Line: t.StartLine(m), Col: t.StartCol(m)}
	x.receiver(&c, recv)
	x.emit(c)
	x.walkExcept(n, g.fMethod)
}

// declaration handles receiverless calls that declare something; false
// when name is an ordinary call.
func (x *state) declaration(n node, name string, args node) bool {
	t := x.t
	switch name {
	case "require", "require_relative", "load":
		x.require(name, args, t.StartLine(n))
		return true
	case "autoload":
		x.require(name, nthNamed(t, args, 1), t.StartLine(n))
		return true
	case "include", "extend", "prepend":
		if s := x.typeScope(); s != nil || name == "include" {
			x.mixins(args)
			return true
		}
	case "attr_accessor", "attr_reader", "attr_writer", "attr":
		if x.typeScope() != nil {
			x.attrs(name, args)
			return true
		}
	case "private", "protected", "public", "module_function", "private_class_method", "public_class_method":
		if s := x.scope(); s != nil && x.fn < 0 {
			x.visibility(s, name, args)
			return true
		}
	}
	if isGroup(name) || isExample(name) {
		return x.example(n, name, args, false)
	}
	return false
}

// receiver fills c's Receiver and ReceiverType from the receiver node (or
// its absence).
func (x *state) receiver(c *abi.Call, recv node) {
	t, g := x.t, x.g
	self := ""
	if s := x.typeScope(); s != nil {
		self = s.name
	}
	switch k := t.Kind(recv); {
	case recv == None:
		if c.Name == "new" && self != "" {
			c.Name = lastSegment(self) // new(…) inside a class method
			return
		}
		if self != "" && !x.topDefs[c.Name] {
			c.ReceiverType = self
		}
	case k == g.self:
		c.Receiver, c.ReceiverType = "self", self
		if c.Name == "new" && self != "" {
			c.Name, c.Receiver, c.ReceiverType = lastSegment(self), "", ""
		}
	case k == g.ivar:
		c.Receiver = t.Text(recv)
		if s := x.typeScope(); s != nil {
			c.ReceiverType = s.ivars[c.Receiver]
		}
	case k == g.constant || k == g.scopeResolution:
		written := x.typeName(recv)
		if isCore(written) {
			c.Receiver = written // URI::Parser.new: Ruby's, never a same-named class here
			return
		}
		if c.Name == "new" {
			c.Name = lastSegment(written)
			return
		}
		c.Receiver, c.ReceiverType = written, written
	case k == g.identifier:
		c.Receiver = t.Text(recv)
		if c.Receiver == "new" && self != "" && x.locals["new"] == "" {
			c.ReceiverType = self // new.run inside a class method
			return
		}
		if typ, local := x.locals[c.Receiver]; local {
			c.ReceiverType = typ
		} else if s := x.typeScope(); s != nil && s.attrs[c.Receiver] {
			c.ReceiverType = s.ivars["@"+c.Receiver] // an attr reader returns its ivar
		}
	default:
		c.Receiver = extract.Receiver(t.Text(recv))
	}
}

// bareIdentifier reports an identifier that names no local: Ruby calls a
// method there (`helper`, `total`).
func (x *state) bareIdentifier(n node) {
	name := x.t.Text(n)
	if _, local := x.locals[name]; local || keywords[name] || name == "" {
		return
	}
	if x.t.IsError(x.t.Parent(n)) && (x.erb == nil || x.afterDot(n)) {
		// Error recovery's loose words (def's name in `def f(`) are no
		// calls, except in a template, where the HTML around the tags
		// breaks the parse and a loose word in a tag is mostly a helper
		// call (link_to); one right after a '.' is a method of a receiver
		// the recovery lost.
		return
	}
	if s := x.scope(); s != nil && x.fn < 0 && isVisibility(name) {
		x.visibility(s, name, None)
		return
	}
	c := abi.Call{Caller: x.caller(), Name: name, Line: x.t.StartLine(n), Col: x.t.StartCol(n)}
	x.receiver(&c, None)
	x.emit(c)
}

// keywords are words error recovery may turn into identifiers; they are
// never calls. __method__ and friends are Kernel methods but say nothing.
var keywords = map[string]bool{
	"end": true, "do": true, "then": true, "else": true, "elsif": true, "when": true,
	"rescue": true, "ensure": true, "begin": true, "def": true, "class": true, "module": true,
	"if": true, "unless": true, "while": true, "until": true, "case": true, "in": true,
	"__method__": true, "__dir__": true, "binding": true, "block_given?": true,
}

// superCall reports super as a call of the enclosing def's name on the
// superclass.
func (x *state) superCall(n, at node) {
	s := x.typeScope()
	if x.fnName == "" || s == nil {
		return
	}
	x.emit(abi.Call{Caller: x.caller(), Name: x.fnName, Receiver: "super", ReceiverType: s.super,
		Line: x.t.StartLine(at), Col: x.t.StartCol(at)})
}

// assignment declares locals and constants and records local types.
func (x *state) assignment(n node) {
	t, g := x.t, x.g
	left, right := t.Child(n, g.fLeft), t.Child(n, g.fRight)
	switch t.Kind(left) {
	case g.identifier:
		name := t.Text(left)
		if _, known := x.locals[name]; !known || t.Kind(n) == g.assignment {
			x.locals[name] = x.newType(right)
		}
		x.visit(right)
	case g.constant:
		x.constant(n, left, right)
	case g.ivar:
		x.visit(right)
	default:
		x.visit(left)
		x.visit(right)
	}
}

// constant reports X = …; X = Struct.new(…) do … end is a class.
func (x *state) constant(n, left, right node) {
	t := x.t
	sym := abi.Symbol{Name: t.Text(left), Kind: abi.KindConstant, Parent: x.parent(), Visibility: abi.VisPublic}
	if x.fn >= 0 {
		x.visit(right) // constants cannot be assigned in a def; a parse of broken code
		return
	}
	if !x.classFactory(right) {
		x.symbol(n, sym)
		x.visit(right)
		return
	}
	sym.Kind, sym.Parent = abi.KindClass, -1
	s := newScope(scopeClass, x.qualify(sym.Name))
	s.sym = x.symbol(n, sym)
	x.enter(s, func() { x.visit(right) })
}

// classFactory reports Struct.new(…), Class.new(…) and Data.define(…).
func (x *state) classFactory(n node) bool {
	t, g := x.t, x.g
	if t.Kind(n) != g.call {
		return false
	}
	recv, m := t.Text(t.Child(n, g.fReceiver)), t.Text(t.Child(n, g.fMethod))
	return (recv == "Struct" || recv == "Class") && m == "new" || recv == "Data" && m == "define"
}

// newType is the class of X.new(…) or A::B.new(…), else "".
func (x *state) newType(n node) string {
	t, g := x.t, x.g
	if t.Kind(n) != g.call || t.Text(t.Child(n, g.fMethod)) != "new" {
		return ""
	}
	recv := t.Child(n, g.fReceiver)
	if k := t.Kind(recv); k != g.constant && k != g.scopeResolution {
		return ""
	}
	if typ := x.typeName(recv); !isCore(typ) {
		return typ
	}
	return ""
}

// require reports require/require_relative/load/autoload of a literal
// path, and a computed one as a dynamic import.
func (x *state) require(kw string, arg node, line uint32) {
	t := x.t
	if t.Kind(arg) == x.g.argList {
		arg = firstNamed(t, arg)
	}
	spec, ok := x.stringLit(arg)
	if !ok {
		if rel, ok := x.expandPath(arg); ok {
			x.f.Import(abi.Import{Path: rel, Line: line, Keys: []string{x.fromHere(rel)}, Kind: abi.ImportWildcard})
			return
		}
		x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: abi.DynamicImport, Line: line})
		x.walk(arg)
		return
	}
	if spec == "" {
		return
	}
	im := abi.Import{Path: spec, Line: line, Kind: abi.ImportWildcard, Keys: []string{moduleKey(spec)}}
	if kw == "require_relative" {
		im.Path = relativeRB(spec)
		im.Keys = []string{x.fromHere(im.Path)}
	}
	x.f.Import(im)
}

// relativeRB makes a require_relative argument a path relative to the
// file, with its .rb: "../lib/util" → "../lib/util.rb", "a" → "./a.rb".
func relativeRB(spec string) string {
	if path.Ext(spec) == "" {
		spec += ".rb"
	}
	if strings.HasPrefix(spec, "/") {
		return spec
	}
	if c := path.Clean(spec); strings.HasPrefix(c, "../") {
		return c
	} else {
		return "./" + c
	}
}

// expandPath reads File.expand_path("x", __dir__) and
// File.expand_path("../x", __FILE__): both name a file relative to this
// one.
func (x *state) expandPath(n node) (string, bool) {
	t, g := x.t, x.g
	if t.Kind(n) != g.call || t.Text(t.Child(n, g.fReceiver)) != "File" || t.Text(t.Child(n, g.fMethod)) != "expand_path" {
		return "", false
	}
	args := t.Child(n, g.fArguments)
	spec, ok := x.stringLit(firstNamed(t, args))
	if !ok {
		return "", false
	}
	switch t.Text(nthNamed(t, args, 1)) {
	case "__dir__", "File.dirname(__FILE__)":
	case "__FILE__":
		if spec = strings.TrimPrefix(spec, "../"); spec == ".." {
			return "", false
		}
	default:
		return "", false
	}
	return relativeRB(spec), true
}

// mixins reports include/extend/prepend M as embeds relations.
func (x *state) mixins(args node) {
	t, g := x.t, x.g
	from := int32(-1)
	if s := x.typeScope(); s != nil {
		from = s.sym
	}
	for a := range t.NamedChildren(args) {
		if k := t.Kind(a); k == g.constant || k == g.scopeResolution {
			x.f.Relation(abi.Relation{From: from, Kind: abi.RelEmbeds, Target: x.typeName(a), Line: t.StartLine(a)})
		} else {
			x.visit(a)
		}
	}
}

// attrs reports attr_* :a, :b as fields of the enclosing class.
func (x *state) attrs(kw string, args node) {
	t := x.t
	s := x.typeScope()
	for a := range t.NamedChildren(args) {
		name, ok := x.symbolLit(a)
		if !ok {
			x.visit(a)
			continue
		}
		sym := abi.Symbol{Name: name, Kind: abi.KindField, Parent: s.sym, Visibility: x.scope().visibility}
		if typ := s.ivars["@"+name]; typ != "" {
			sym.Signature = &abi.Signature{Return: lastSegment(typ), ReturnRef: typeRef(lastSegment(typ))}
		}
		x.symbol(a, sym)
		if kw != "attr_writer" {
			s.attrs[name] = true
		}
	}
}

// visibility applies private/protected/public: bare, it sets the default
// of the defs that follow; with a def, that def's.
func (x *state) visibility(s *scope, kw string, args node) {
	t, g := x.t, x.g
	vis := abi.Visibility(kw)
	switch kw {
	case "module_function", "public_class_method":
		vis = abi.VisPublic
	case "private_class_method":
		vis = abi.VisPrivate
	}
	if args == None {
		if kw != "private_class_method" && kw != "public_class_method" {
			s.visibility = vis
		}
		return
	}
	for a := range t.NamedChildren(args) {
		if k := t.Kind(a); k == g.method || k == g.singletonMethod {
			x.def(a, vis)
		} else if _, ok := x.symbolLit(a); !ok {
			x.visit(a)
		}
	}
}

// dynamic reports send/public_send/eval-style sites.
func (x *state) dynamic(name string, args node, line uint32) {
	if args == None {
		return // obj.method, instance_eval do … end: no name, ordinary code
	}
	var kind abi.DynamicKind
	switch name {
	case "send", "public_send", "__send__", "method", "const_get", "instance_variable_get", "define_method":
		kind = abi.DynamicReflection
	case "eval", "instance_eval", "class_eval", "module_eval", "instance_exec", "class_exec":
		kind = abi.DynamicEval
	default:
		return
	}
	first := firstNamed(x.t, args)
	key, ok := x.symbolLit(first)
	if !ok && kind == abi.DynamicReflection {
		key, _ = x.stringLit(first)
	}
	if kind == abi.DynamicEval {
		key = ""
	}
	x.f.DynamicSite(abi.DynamicSite{From: x.caller(), Kind: kind, Key: key, Line: line})
}

func isVisibility(name string) bool {
	switch name {
	case "private", "protected", "public", "module_function":
		return true
	}
	return false
}

// afterDot reports a node right after "." or "::" (spaces between).
func (x *state) afterDot(n node) bool {
	src := x.t.Source()
	i := x.t.StartByte(n) - 1
	for i >= 0 && (src[i] == ' ' || src[i] == '\t') {
		i--
	}
	return i >= 0 && (src[i] == '.' || src[i] == ':')
}
