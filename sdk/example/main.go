// Command toy is the example extractor of docs/plugin-authoring.md: a
// whole plugin for "toy", Lua with LuaLS annotations in .toy files,
// written against sdk/ alone.
//
//   - ---@class Name [: Base] declares a class (and inherits Base);
//   - function Name.f() and function Name:f() are methods of Name (its
//     children when Name is a class of the file, else attached by
//     Receiver), other functions are functions; ---@return T above one
//     gives its result type;
//   - local m = require("a.b") imports module a/b.toy as m;
//   - f(), m.f() and obj:f() are calls; self is the enclosing class, and
//     a local set from a call (local b = Box.new()) has that call's
//     result type, so b:area() resolves through Box.new's ---@return;
//   - files named *_spec.toy are tests (the busted convention).
package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// ids are the grammar names the extractor uses, bound once per grammar.
type ids struct {
	FunctionStatement extract.KindID  `kind:"function_statement"`
	FunctionName      extract.KindID  `kind:"function_name"`
	FunctionCall      extract.KindID  `kind:"function_call"`
	Identifier        extract.KindID  `kind:"identifier"`
	VariableDecl      extract.KindID  `kind:"variable_declaration"`
	Declarator        extract.KindID  `kind:"variable_declarator"`
	EmmyClass         extract.KindID  `kind:"emmy_class"`
	EmmyReturn        extract.KindID  `kind:"emmy_return"`
	EmmyType          extract.KindID  `kind:"emmy_type"`
	String            extract.KindID  `kind:"string"`
	Arguments         extract.KindID  `kind:"function_arguments"`
	TableColon        extract.KindID  `kind:"table_colon"`
	SelfCallColon     extract.KindID  `kind:"self_call_colon"`
	Name              extract.FieldID `field:"name"`
	Prefix            extract.FieldID `field:"prefix"`
	Args              extract.FieldID `field:"args"`
	Value             extract.FieldID `field:"value"`
	Type              extract.FieldID `field:"type"`
	Parent            extract.FieldID `field:"parent"`
	Documentation     extract.FieldID `field:"documentation"`
	Content           extract.FieldID `field:"content"`
}

var tables extract.Tables[ids]

type toy struct{}

func init() { extract.Register(toy{}) }

func main() {}

// frame is one open function: its symbol, its class (for self) and the
// locals whose type the extractor knows.
type frame struct {
	sym    int32
	class  string
	locals map[string]*abi.TypeRef
}

type walker struct {
	f       *extract.File
	t       *extract.Tree
	id      *ids
	classes map[string]int32 // class name -> symbol, for this file
	scopes  extract.Scopes[frame]
	modules map[string]bool // locals bound by require
}

// Extract implements extract.Extractor.
func (toy) Extract(f *extract.File) error {
	w := &walker{f: f, t: f.Tree, id: tables.For(f.Tree.Grammar, extract.MustBind[ids]),
		classes: map[string]int32{}, modules: map[string]bool{}}
	stem := strings.TrimSuffix(f.Path, path.Ext(f.Path))
	f.SetFile(abi.FileFacts{Modules: []string{stem}, Test: strings.HasSuffix(stem, "_spec")})
	for n := extract.Node(0); int(n) < w.t.Len(); n++ {
		w.scopes.Leave(n)
		switch w.t.Kind(n) {
		case w.id.EmmyClass:
			w.class(n)
		case w.id.FunctionStatement:
			w.function(n)
		case w.id.VariableDecl:
			w.local(n)
		case w.id.FunctionCall:
			w.call(n)
		}
	}
	return nil
}

// class reports ---@class Name [: Base].
func (w *walker) class(n extract.Node) {
	t := w.t
	name := t.Child(n, w.id.Type)
	if name == extract.None {
		return
	}
	sym := w.f.Symbol(abi.Symbol{Name: t.Text(name), Kind: abi.KindClass, Parent: -1, Visibility: abi.VisPublic, Span: t.Span(name)})
	w.classes[t.Text(name)] = sym
	if base := t.Child(n, w.id.Parent); base != extract.None {
		w.f.Relation(abi.Relation{From: sym, Kind: abi.RelInherits, Target: t.Text(base), Line: t.StartLine(base)})
	}
}

// function reports function f(), function T.f() and function T:f().
func (w *walker) function(n extract.Node) {
	t := w.t
	nameNode := t.Child(n, w.id.Name)
	if nameNode == extract.None {
		return
	}
	var owner, name string
	if t.Kind(nameNode) == w.id.FunctionName {
		var parts []string
		for c := range t.NamedChildren(nameNode) {
			if t.Kind(c) == w.id.Identifier {
				parts = append(parts, t.Text(c))
			}
		}
		if len(parts) == 0 {
			return
		}
		owner, name = strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1]
	} else {
		name = t.Text(nameNode)
	}
	s := abi.Symbol{Name: name, Kind: abi.KindFunction, Parent: -1, Visibility: abi.VisPublic, Span: t.Span(nameNode)}
	s.Span.EndLine, s.Span.EndCol = t.EndLine(n), t.EndCol(n)
	if owner != "" {
		s.Kind = abi.KindMethod
		if cls, ok := w.classes[owner]; ok {
			s.Parent = cls
		} else {
			s.Receiver = owner
		}
	}
	if ret := w.returnType(n); ret != "" {
		s.Signature = &abi.Signature{Return: ret, Raw: extract.OneLine(t.Text(nameNode)),
			ReturnRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: ret}}}}
	}
	sym := w.f.Symbol(s)
	w.scopes.Enter(t.End(n), frame{sym: sym, class: owner, locals: map[string]*abi.TypeRef{}})
}

// returnType is the type of the ---@return annotation of function n.
func (w *walker) returnType(n extract.Node) string {
	t := w.t
	doc := t.Child(n, w.id.Documentation)
	if doc == extract.None {
		return ""
	}
	for d := range t.Descendants(doc) {
		if t.Kind(d) == w.id.EmmyReturn {
			if typ := t.Child(d, w.id.Type); typ != extract.None {
				return t.Text(typ)
			}
		}
	}
	return ""
}

// local handles local x = require("m") (an import) and local x = f()
// (x gets f's result type).
func (w *walker) local(n extract.Node) {
	t := w.t
	decl, value := t.Child(n, w.id.Name), t.Child(n, w.id.Value)
	if decl == extract.None || value == extract.None || t.Kind(value) != w.id.FunctionCall {
		return
	}
	name := t.Text(decl)
	if spec, ok := w.require(value); ok {
		w.modules[name] = true
		w.f.Import(abi.Import{Path: spec, Alias: name, Line: t.StartLine(n),
			Kind: abi.ImportModule, Keys: []string{strings.ReplaceAll(spec, ".", "/")}})
		return
	}
	if fr := w.scopes.Top(); fr != nil {
		if recv, callee := w.callee(value); callee != "" {
			fr.locals[name] = w.resultRef(recv, callee)
		}
	}
}

// require returns the module of a require("m") call.
func (w *walker) require(call extract.Node) (string, bool) {
	t := w.t
	if recv, name := w.callee(call); recv != "" || name != "require" {
		return "", false
	}
	args := t.Child(call, w.id.Args)
	str := t.ChildOfKind(args, w.id.String)
	if str == extract.None {
		return "", false
	}
	return strings.Trim(t.Text(str), `"'`), true
}

// call reports a call; require is an import, not a call.
func (w *walker) call(n extract.Node) {
	recv, name := w.callee(n)
	if name == "" || recv == "" && name == "require" {
		return
	}
	c := abi.Call{Caller: -1, Name: name, Receiver: extract.Receiver(recv), Line: w.t.StartLine(n), Col: w.t.StartCol(n)}
	if fr := w.scopes.Top(); fr != nil {
		c.Caller = fr.sym
		switch {
		case recv == "self" && fr.class != "":
			c.ReceiverRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: fr.class}}}
		case fr.locals[recv] != nil:
			c.ReceiverRef = fr.locals[recv]
		}
	}
	w.f.Call(c)
}

// callee splits a call's prefix into receiver and name: f() is ("", "f"),
// a.b.f() is ("a.b", "f"), obj:m() is ("obj", "m").
func (w *walker) callee(n extract.Node) (recv, name string) {
	t := w.t
	var parts []string
	colon := false
	for c := range t.Children(n) {
		switch {
		case t.Kind(c) == w.id.SelfCallColon:
			colon = true
		case t.Kind(c) == w.id.Identifier && (t.Field(c) == w.id.Prefix || colon):
			parts = append(parts, t.Text(c))
		case t.Field(c) == w.id.Prefix && t.IsNamed(c):
			return "", "" // (expr)(), f()(): no name to resolve
		}
	}
	if len(parts) == 0 {
		return "", ""
	}
	return strings.Join(parts[:len(parts)-1], "."), parts[len(parts)-1]
}

// resultRef is the type of what calling recv.callee returns: a function's
// result when recv is a module or empty, a method's when recv is a class.
func (w *walker) resultRef(recv, callee string) *abi.TypeRef {
	if recv == "" || w.modules[recv] {
		name := callee
		if recv != "" {
			name = recv + "." + callee
		}
		return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: name}}}
	}
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: recv}, {Op: abi.StepResult, Name: callee}}}
}
