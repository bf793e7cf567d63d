package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one Rust file:
//
//   - items: mod (module, also `mod foo;`), struct and union (struct), enum
//     with its variants (constant), trait, fn (function; method inside a
//     trait or impl), const (constant), static (variable), type aliases and
//     associated types (type_alias), macro_rules! (macro), named struct
//     fields (field);
//   - impl-block items have Parent -1 and Receiver = the bare self type (the
//     type is declared elsewhere, as with Go methods); trait items have the
//     trait as Parent;
//   - calls: f(), recv.m() (ReceiverType from self, Self or a typed
//     parameter/let), path calls a::b::f() (Receiver "a::b"), user macros
//     (name!), and calls found in the arguments of the std formatting and
//     assertion macros; Some/Ok/Err constructors are left out;
//   - imports: every use form (groups, nested groups, globs, self, aliases)
//     flattened into one Import per module path, and extern crate;
//   - `impl Trait for Type` as implements From -1, Target Trait, Context
//     "for:Type"; trait supertraits as inherits; references from parameter,
//     return and field types and their type arguments (generic_arg),
//     skipping primitives, Self, type parameters and the prelude types
//     Option, Result, Vec, String and Box.
//
// Visibility: pub is public, pub(crate)/pub(super)/pub(in …) internal,
// pub(self) and no modifier private. Trait items take the trait's
// visibility, enum variants the enum's, and items of `impl Trait for` blocks
// are public (they are reachable wherever the trait is). A macro_rules! is
// public with #[macro_export], private otherwise.
//
// Tests: #[test] functions (any attribute path ending in test, such as
// #[tokio::test]), #[cfg(test)] modules and functions, and everything
// declared inside a #[cfg(test)] module.
type Extractor struct{}

// action is what the walk does on meeting a node kind; kinds map to actions
// once per grammar so the walk never compares kind names.
type action uint8

const (
	actNone        action = iota
	actSkip               // subtree holds nothing to report
	actComment            // comments: may sit between attributes and their item
	actAttr               // attribute_item: applies to the next item
	actInnerAttr          // inner_attribute_item: #![cfg(…)] at file level is a build variant
	actMod                // mod_item
	actStruct             // struct_item, union_item
	actEnum               // enum_item
	actTrait              // trait_item
	actImpl               // impl_item
	actFn                 // function_item, function_signature_item
	actConst              // const_item, static_item
	actTypeAlias          // type_item, associated_type
	actMacro              // macro_definition
	actUse                // use_declaration
	actExternCrate        // extern_crate_declaration
	actCall               // call_expression
	actMacroCall          // macro_invocation
	actLet                // let_declaration
)

type (
	kind  = extract.KindID
	field = extract.FieldID
	node  = extract.Node
)

// grammar holds the ids the extractor needs, resolved once per grammar.
type grammar struct {
	act *extract.KindTable // action by kind

	staticItem, unionItem, visibility, attribute, primitiveType  kind
	identifier, scopedIdentifier, typeIdent, scopedTypeIdent     kind
	fieldIdent, self, crate, super, metavariable, genericType    kind
	genericFunction, fieldExpr, tokenTree, structExpr, callExpr  kind
	fieldDecl, fieldDeclList, orderedFieldDeclList, enumVariant  kind
	parameter, selfParameter, typeParams, constrainedTypeParam   kind
	optionalTypeParam, refType, pointerType, arrayType           kind
	tupleType, abstractType, dynamicType, boundedType, fnType    kind
	typeBinding, useAsClause, useList, scopedUseList, useWildard kind

	anonParen, anonDot, anonPath, anonBang, anonComma kind

	fName, fBody, fType, fTrait, fTypeParameters, fParameters, fReturnType field
	fFunction, fValue, fField, fPath, fPattern, fMacro, fArgument, fList   field
	fAlias, fBounds, fElement, fTypeArguments, fLeft, fArguments           field
}

var grammars extract.Tables[grammar]

// grammarFor returns the resolved ids for g, building them on first use.
func grammarFor(g *extract.Grammar) *grammar { return grammars.For(g, newGrammar) }

func newGrammar(g *extract.Grammar) *grammar {
	k := &grammar{
		staticItem: g.Kind("static_item"), unionItem: g.Kind("union_item"), primitiveType: g.Kind("primitive_type"),
		visibility: g.Kind("visibility_modifier"), attribute: g.Kind("attribute"),
		identifier: g.Kind("identifier"), scopedIdentifier: g.Kind("scoped_identifier"),
		typeIdent: g.Kind("type_identifier"), scopedTypeIdent: g.Kind("scoped_type_identifier"),
		fieldIdent: g.Kind("field_identifier"), self: g.Kind("self"), crate: g.Kind("crate"),
		super: g.Kind("super"), metavariable: g.Kind("metavariable"), genericType: g.Kind("generic_type"),
		genericFunction: g.Kind("generic_function"), fieldExpr: g.Kind("field_expression"),
		tokenTree: g.Kind("token_tree"), structExpr: g.Kind("struct_expression"), callExpr: g.Kind("call_expression"),
		fieldDecl: g.Kind("field_declaration"), fieldDeclList: g.Kind("field_declaration_list"),
		orderedFieldDeclList: g.Kind("ordered_field_declaration_list"), enumVariant: g.Kind("enum_variant"),
		parameter: g.Kind("parameter"), selfParameter: g.Kind("self_parameter"),
		typeParams: g.Kind("type_parameters"), constrainedTypeParam: g.Kind("constrained_type_parameter"),
		optionalTypeParam: g.Kind("optional_type_parameter"),
		refType:           g.Kind("reference_type"), pointerType: g.Kind("pointer_type"), arrayType: g.Kind("array_type"),
		tupleType: g.Kind("tuple_type"), abstractType: g.Kind("abstract_type"), dynamicType: g.Kind("dynamic_type"),
		boundedType: g.Kind("bounded_type"), fnType: g.Kind("function_type"), typeBinding: g.Kind("type_binding"),
		useAsClause: g.Kind("use_as_clause"), useList: g.Kind("use_list"), scopedUseList: g.Kind("scoped_use_list"),
		useWildard: g.Kind("use_wildcard"),

		anonParen: g.Anon("("), anonDot: g.Anon("."), anonPath: g.Anon("::"), anonBang: g.Anon("!"), anonComma: g.Anon(","),

		fName: g.Field("name"), fBody: g.Field("body"), fType: g.Field("type"), fTrait: g.Field("trait"),
		fTypeParameters: g.Field("type_parameters"), fParameters: g.Field("parameters"),
		fReturnType: g.Field("return_type"), fFunction: g.Field("function"), fValue: g.Field("value"),
		fField: g.Field("field"), fPath: g.Field("path"), fPattern: g.Field("pattern"), fMacro: g.Field("macro"),
		fArgument: g.Field("argument"), fList: g.Field("list"), fAlias: g.Field("alias"), fBounds: g.Field("bounds"),
		fElement: g.Field("element"), fTypeArguments: g.Field("type_arguments"), fLeft: g.Field("left"),
		fArguments: g.Field("arguments"),
	}
	acts := map[string]action{
		"line_comment":             actComment,
		"block_comment":            actComment,
		"attribute_item":           actAttr,
		"inner_attribute_item":     actInnerAttr,
		"mod_item":                 actMod,
		"struct_item":              actStruct,
		"union_item":               actStruct,
		"enum_item":                actEnum,
		"trait_item":               actTrait,
		"impl_item":                actImpl,
		"function_item":            actFn,
		"function_signature_item":  actFn,
		"const_item":               actConst,
		"static_item":              actConst,
		"type_item":                actTypeAlias,
		"associated_type":          actTypeAlias,
		"macro_definition":         actMacro,
		"use_declaration":          actUse,
		"extern_crate_declaration": actExternCrate,
		"call_expression":          actCall,
		"macro_invocation":         actMacroCall,
		"let_declaration":          actLet,
		"string_literal":           actSkip,
		"raw_string_literal":       actSkip,
	}
	k.act = extract.KindsOf(g, acts)
	return k
}

func (k *grammar) action(id kind) action { return action(k.act[id]) }

// frameKind tells what an open scope is.
type frameKind uint8

const (
	frameMod frameKind = iota
	frameTrait
	frameImpl
	frameFn
)

// frame is an open scope of the walk: an item whose subtree has not ended.
type frame struct {
	end       node
	kind      frameKind
	sym       int32          // Parent/Caller for what the frame encloses (-1 in an impl)
	selfType  string         // impl: the bare self type; trait: the trait name
	vis       abi.Visibility // trait: the visibility its items inherit
	traitImpl bool           // impl Trait for Type
	test      bool           // inside a #[cfg(test)] module
	// lengths of walker.vars and walker.tparams when the frame opened;
	// closing the frame truncates them back.
	vars, tparams int
}

// variable is a binding with a known type, used to type call receivers.
type variable struct {
	name string
	typ  string // type name without references and type arguments
}

// attrs is what the attributes in front of an item say.
type attrs struct {
	test    bool // #[test], #[tokio::test], …
	cfgTest bool // #[cfg(test)]
	export  bool // #[macro_export]
}

type walker struct {
	f       *extract.File
	t       *extract.Tree
	g       *grammar
	src     string // the source as one string: names are substrings, not copies
	frames  []frame
	vars    []variable
	tparams []string // type parameters in scope: not references to real types
	seen    []seenRef
	dyns    []dynParam
	toks    []node // scratch stack for scanning macro token trees

	// pending holds the imports of the use declaration being read, so
	// names from one path merge into one Import.
	pending []abi.Import

	// Attributes are siblings of the item they annotate, so they are
	// collected as the walk meets them and taken by the item that starts
	// where they end.
	attrEnd node
	attrs   attrs

	// variants are the file's build constraints, from #![cfg(…)];
	// cfgTest is a file-level #![cfg(test)].
	variants []abi.Constraint
	cfgTest  bool

	// loc is where the file sits in its crate's module tree (v2 keys).
	loc modLoc

	// pathRoots are the path roots (crate, super, super::super) bound
	// for calls like crate::a::f() (bindPathRoot).
	pathRoots []string
}

// seenRef dedups references per symbol: f(a: Bar, b: Bar) references Bar once.
type seenRef struct {
	from   int32
	target string
	ctx    abi.RelationContext
}

// Extract implements extract.Extractor.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	if t.Len() == 0 {
		return nil
	}
	w := &walker{f: f, t: t, g: grammarFor(t.Grammar), src: string(t.Source()), attrEnd: -1, loc: locate(f.Path)}
	w.walk()
	w.fileFacts()
	f.ReportSyntaxErrors(nil)
	f.FillDocs(extract.DocTriple)
	return nil
}

// walk visits the tree once in preorder. Items push frames that close when
// the walk passes their end; handlers return the next node to visit, which
// lets them skip subtrees they have fully read.
func (w *walker) walk() {
	t, g := w.t, w.g
	n := node(t.Len())
	for i := node(1); i < n; {
		for len(w.frames) > 0 && i >= w.frames[len(w.frames)-1].end {
			w.pop()
		}
		next := i + 1
		switch g.action(t.Kind(i)) {
		case actSkip:
			next = t.End(i)
		case actComment:
			if i == w.attrEnd {
				w.attrEnd = t.End(i)
			}
			next = t.End(i)
		case actAttr:
			w.attribute(i)
			next = t.End(i)
		case actInnerAttr:
			w.innerAttribute(i)
			next = t.End(i)
		case actMod:
			next = w.mod(i)
		case actStruct:
			next = w.structItem(i)
		case actEnum:
			next = w.enumItem(i)
		case actTrait:
			next = w.trait(i)
		case actImpl:
			next = w.impl(i)
		case actFn:
			next = w.fn(i)
		case actConst:
			w.constItem(i)
		case actTypeAlias:
			w.typeAlias(i)
			next = t.End(i)
		case actMacro:
			w.macroDef(i)
			next = t.End(i)
		case actUse:
			w.use(i)
			next = t.End(i)
		case actExternCrate:
			w.externCrate(i)
			next = t.End(i)
		case actCall:
			w.call(i)
		case actMacroCall:
			w.macroCall(i)
			next = t.End(i)
		case actLet:
			w.let(i)
		}
		i = next
	}
}

func (w *walker) pop() {
	fr := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	w.vars = w.vars[:fr.vars]
	w.tparams = w.tparams[:fr.tparams]
}

// open returns a frame with the current scope lengths recorded; it inherits
// the test mark of the enclosing frame.
func (w *walker) open(end node, k frameKind, sym int32) frame {
	return frame{end: end, kind: k, sym: sym, test: w.inTest(), vars: len(w.vars), tparams: len(w.tparams)}
}

func (w *walker) push(fr frame) { w.frames = append(w.frames, fr) }

// enterBody pushes the scope of item i (a trait or an impl) and returns
// where the walk goes next: into its body, or past it when it has none.
func (w *walker) enterBody(fr frame, i node) node {
	w.push(fr)
	if body := w.t.Child(i, w.g.fBody); body != extract.None {
		return body
	}
	return w.t.End(i)
}

func (w *walker) top() *frame {
	if len(w.frames) == 0 {
		return nil
	}
	return &w.frames[len(w.frames)-1]
}

// parent is the symbol enclosing the current node, -1 at file level.
func (w *walker) parent() int32 {
	if fr := w.top(); fr != nil {
		return fr.sym
	}
	return -1
}

func (w *walker) inTest() bool {
	fr := w.top()
	return fr != nil && fr.test
}

// selfType is the type `self` and `Self` stand for: the innermost impl's
// type or trait's name.
func (w *walker) selfType() string {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if k := w.frames[i].kind; k == frameImpl || k == frameTrait {
			return w.frames[i].selfType
		}
	}
	return ""
}

func (w *walker) text(n node) string {
	if n == extract.None {
		return ""
	}
	s, e := w.t.StartByte(n), w.t.EndByte(n)
	if s < 0 || e > len(w.src) || s > e {
		return ""
	}
	return w.src[s:e]
}

// innerAttribute reads a file-level #![cfg(…)]: the targets the file is
// built for, or #![cfg(test)], a file of tests.
func (w *walker) innerAttribute(i node) {
	t, g := w.t, w.g
	a := t.ChildOfKind(i, g.attribute)
	if len(w.frames) > 0 || a == extract.None {
		return
	}
	for c := range t.NamedChildren(a) {
		if w.text(c) != "cfg" {
			return
		}
		break
	}
	args := extract.OneLine(w.text(t.Child(a, g.fArguments)))
	if args == "(test)" {
		w.cfgTest = true
		return
	}
	w.variants = append(w.variants, cfgConstraints(args)...)
}

// attribute records what an attribute_item says about the next item.
func (w *walker) attribute(i node) {
	t, g := w.t, w.g
	if i != w.attrEnd {
		w.attrs = attrs{}
	}
	w.attrEnd = t.End(i)
	a := t.ChildOfKind(i, g.attribute)
	if a == extract.None {
		return
	}
	var path node = extract.None
	for c := range t.NamedChildren(a) {
		path = c
		break
	}
	name := w.text(path)
	if t.Kind(path) == g.scopedIdentifier {
		name = w.text(t.Child(path, g.fName))
	}
	switch name {
	case "test":
		w.attrs.test = true
	case "macro_export":
		w.attrs.export = true
	case "cfg":
		if extract.OneLine(w.text(t.Child(a, g.fArguments))) == "(test)" {
			w.attrs.cfgTest = true
		}
	}
}

// takeAttrs returns the attributes written right in front of item.
func (w *walker) takeAttrs(item node) attrs {
	if item != w.attrEnd {
		return attrs{}
	}
	a := w.attrs
	w.attrs, w.attrEnd = attrs{}, -1
	return a
}

// visibility maps an item's visibility modifier; "" when it has none.
func (w *walker) visibility(item node) abi.Visibility {
	v := w.t.ChildOfKind(item, w.g.visibility)
	if v == extract.None {
		return ""
	}
	s := w.text(v)
	if s == "pub" {
		return abi.VisPublic
	}
	if i := strings.IndexByte(s, '('); i >= 0 && strings.TrimSpace(strings.Trim(s[i:], "()")) == "self" {
		return abi.VisPrivate
	}
	return abi.VisInternal
}

// itemVisibility is the visibility of an item in the current scope: its
// modifier, else what the enclosing trait or trait impl implies, else private.
func (w *walker) itemVisibility(item node) abi.Visibility {
	if v := w.visibility(item); v != "" {
		return v
	}
	if fr := w.top(); fr != nil {
		switch {
		case fr.kind == frameTrait:
			return fr.vis
		case fr.kind == frameImpl && fr.traitImpl:
			return abi.VisPublic
		}
	}
	return abi.VisPrivate
}

func (w *walker) mod(i node) node {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return i + 1
	}
	test := a.cfgTest || w.inTest()
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindModule, Parent: w.parent(), Visibility: w.itemVisibility(i), Span: t.Span(i), Test: test})
	body := t.Child(i, g.fBody)
	if body == extract.None {
		// mod foo; — the module's items are in another file, which this
		// one reaches as foo: an import of self::foo.
		im := w.keyed(abi.Import{Path: "self::" + name, Line: t.StartLine(i)})
		im.Keys = im.Keys[:1] // the child's file, or nothing: never this file's own names
		w.f.Import(im)
		return t.End(i)
	}
	fr := w.open(t.End(i), frameMod, sym)
	fr.test = test
	w.push(fr)
	return body
}

// member returns Parent and Receiver for an item in the current scope:
// impl items hang off the self type by name, others off the enclosing symbol.
func (w *walker) member() (parent int32, recv string) {
	if fr := w.top(); fr != nil && fr.kind == frameImpl {
		return -1, fr.selfType
	}
	return w.parent(), ""
}

func (w *walker) structItem(i node) node {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return t.End(i)
	}
	parent, recv := w.member()
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindStruct, Parent: parent, Receiver: recv, Visibility: w.itemVisibility(i), Span: t.Span(i), Test: a.cfgTest || w.inTest()})
	mark := len(w.tparams)
	w.typeParams(t.Child(i, g.fTypeParameters))
	w.fields(t.Child(i, g.fBody), sym, true)
	w.tparams = w.tparams[:mark]
	return t.End(i)
}

// fields reports the named fields of a struct body as symbols (when
// symbols is set) and the types of all fields as field references.
func (w *walker) fields(body node, owner int32, symbols bool) {
	if body == extract.None {
		return
	}
	t, g := w.t, w.g
	switch t.Kind(body) {
	case g.fieldDeclList:
		for c := range t.NamedChildren(body) {
			if t.Kind(c) != g.fieldDecl {
				continue
			}
			from := owner
			if name := w.text(t.Child(c, g.fName)); symbols && name != "" {
				vis := w.visibility(c)
				if vis == "" {
					vis = abi.VisPrivate
				}
				fs := abi.Symbol{Name: name, Kind: abi.KindField, Parent: owner, Visibility: vis, Span: t.Span(c), Test: w.f.Symbols()[owner].Test}
				if typ := w.typeName(t.Child(c, g.fType)); typ != "" {
					fs.Signature = &abi.Signature{Return: typ, ReturnRef: namedRef(typ)} // followed by the host through x.f.m()
				}
				from = w.f.Symbol(fs)
			}
			w.typeRefs(t.Child(c, g.fType), from, abi.CtxField)
		}
	case g.orderedFieldDeclList:
		for c := range t.Children(body) {
			if t.Field(c) == g.fType {
				w.typeRefs(c, owner, abi.CtxField)
			}
		}
	}
}

func (w *walker) enumItem(i node) node {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return t.End(i)
	}
	parent, recv := w.member()
	vis, test := w.itemVisibility(i), a.cfgTest || w.inTest()
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindEnum, Parent: parent, Receiver: recv, Visibility: vis, Span: t.Span(i), Test: test})
	mark := len(w.tparams)
	w.typeParams(t.Child(i, g.fTypeParameters))
	if body := t.Child(i, g.fBody); body != extract.None {
		for v := range t.NamedChildren(body) {
			if t.Kind(v) != g.enumVariant {
				continue
			}
			if vname := w.text(t.Child(v, g.fName)); vname != "" {
				vs := w.f.Symbol(abi.Symbol{Name: vname, Kind: abi.KindConstant, Parent: sym, Visibility: vis, Span: t.Span(v), Test: test})
				w.fields(t.Child(v, g.fBody), vs, false)
			}
		}
	}
	w.tparams = w.tparams[:mark]
	return t.End(i)
}

func (w *walker) trait(i node) node {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return i + 1
	}
	parent, recv := w.member()
	vis, test := w.itemVisibility(i), a.cfgTest || w.inTest()
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindTrait, Parent: parent, Receiver: recv, Visibility: vis, Span: t.Span(i), Test: test})
	fr := w.open(t.End(i), frameTrait, sym)
	fr.selfType, fr.vis, fr.test = name, vis, test
	w.typeParams(t.Child(i, g.fTypeParameters))
	if bounds := t.Child(i, g.fBounds); bounds != extract.None {
		for b := range t.NamedChildren(bounds) {
			if target := w.pathName(b); target != "" {
				w.f.Relation(abi.Relation{From: sym, Kind: abi.RelInherits, Target: target, Line: t.StartLine(b)})
			}
		}
	}
	return w.enterBody(fr, i)
}

// impl opens the scope of an impl block. `impl Trait for Type` is reported
// as Type implementing Trait; the relation comes from the file (From -1)
// because the type is usually declared elsewhere, and names the type in
// Context "for:Type" for the core to attach.
func (w *walker) impl(i node) node {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	fr := w.open(t.End(i), frameImpl, -1)
	w.typeParams(t.Child(i, g.fTypeParameters))
	fr.selfType = w.selfName(t.Child(i, g.fType))
	fr.test = fr.test || a.cfgTest
	if tr := t.Child(i, g.fTrait); tr != extract.None {
		fr.traitImpl = true
		if target := w.pathName(tr); target != "" {
			ctx := abi.CtxNone
			if fr.selfType != "" {
				ctx = abi.ForType(fr.selfType)
			}
			w.f.Relation(abi.Relation{From: -1, Kind: abi.RelImplements, Target: target, Context: ctx, Line: t.StartLine(tr)})
		}
	}
	return w.enterBody(fr, i)
}

// selfName is the bare name of an impl's self type: `&'a mut foo::Bar<T>`
// → "Bar".
func (w *walker) selfName(ty node) string {
	t, g := w.t, w.g
	for ty != extract.None {
		switch t.Kind(ty) {
		case g.typeIdent, g.primitiveType:
			return w.text(ty)
		case g.scopedTypeIdent:
			ty = t.Child(ty, g.fName)
		case g.genericType, g.refType, g.pointerType:
			ty = t.Child(ty, g.fType)
		case g.dynamicType, g.abstractType:
			ty = t.Child(ty, g.fTrait)
		default:
			return ""
		}
	}
	return ""
}

// pathName is a trait or type path as written, without type arguments:
// `fmt::Display` → "fmt::Display", `From<u8>` → "From". Lifetimes, ?Sized
// and other non-path bounds give "".
func (w *walker) pathName(n node) string {
	t, g := w.t, w.g
	switch t.Kind(n) {
	case g.typeIdent, g.scopedTypeIdent:
		return extract.OneLine(w.text(n))
	case g.genericType:
		return w.pathName(t.Child(n, g.fType))
	}
	return ""
}

func (w *walker) typeParams(n node) {
	if n == extract.None {
		return
	}
	t, g := w.t, w.g
	for c := range t.NamedChildren(n) {
		switch t.Kind(c) {
		case g.typeIdent:
			w.tparams = append(w.tparams, w.text(c))
		case g.constrainedTypeParam:
			w.tparams = append(w.tparams, w.text(t.Child(c, g.fLeft)))
		case g.optionalTypeParam:
			// T = Default: the name is the first named child.
			for d := range t.NamedChildren(c) {
				w.tparams = append(w.tparams, w.text(d))
				break
			}
		}
	}
}

func (w *walker) fn(i node) node {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	body := t.Child(i, g.fBody)
	next := body
	if body == extract.None {
		next = t.End(i)
	}
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return next
	}
	kindName, parent, recv := abi.KindFunction, w.parent(), ""
	if fr := w.top(); fr != nil {
		switch fr.kind {
		case frameImpl:
			kindName, parent, recv = abi.KindMethod, -1, fr.selfType
		case frameTrait:
			kindName = abi.KindMethod
		}
	}
	sig := &abi.Signature{Raw: w.header(i, body)}
	sig.Return = extract.OneLine(w.text(t.Child(i, g.fReturnType)))
	sym := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kindName, Parent: parent, Receiver: recv,
		Visibility: w.itemVisibility(i), Span: t.Span(i), Signature: sig,
		Test: a.test || a.cfgTest || w.inTest(),
	})
	fr := w.open(t.End(i), frameFn, sym)
	w.push(fr)
	w.typeParams(t.Child(i, g.fTypeParameters))
	sig.ReturnRef = namedRef(w.resultName(t.Child(i, g.fReturnType)))
	w.params(t.Child(i, g.fParameters), sym, sig)
	w.typeRefs(t.Child(i, g.fReturnType), sym, abi.CtxReturnType)
	return next
}

// header is a function's declaration up to its body (or its semicolon),
// on one line. Attributes are siblings of the item and are not part of it.
func (w *walker) header(item, body node) string {
	t := w.t
	start, end := t.StartByte(item), t.EndByte(item)
	if body != extract.None {
		end = t.StartByte(body)
	}
	if end < start {
		return ""
	}
	s := extract.OneLine(w.src[start:end])
	if n := len(s); n > 0 && s[n-1] == ';' {
		s = extract.OneLine(s[:n-1])
	}
	return s
}

// params reads a parameter list into sig, reports parameter types as
// references from sym and declares typed parameters as variables.
func (w *walker) params(list node, sym int32, sig *abi.Signature) {
	if list == extract.None {
		return
	}
	t, g := w.t, w.g
	for c := range t.NamedChildren(list) {
		switch t.Kind(c) {
		case g.selfParameter:
			// &self, &mut self, mut self: the receiver as written.
			sig.Params = append(sig.Params, abi.Param{Name: extract.OneLine(w.text(c))})
		case g.parameter:
			pat, ty := t.Child(c, g.fPattern), t.Child(c, g.fType)
			name := extract.OneLine(w.text(pat))
			sig.Params = append(sig.Params, abi.Param{Name: name, Type: extract.OneLine(w.text(ty))})
			w.typeRefs(ty, sym, abi.CtxParameterType)
			if k := t.Kind(pat); k == g.identifier {
				w.vars = append(w.vars, variable{name, w.typeName(ty)})
				w.noteParam(name, ty)
			}
		}
	}
}

// resultName is the type a function's result is known by: as typeName,
// but `impl Trait` and `dyn Trait` results name no type whose methods the
// value has for sure, so none.
func (w *walker) resultName(ty node) string {
	for ty != extract.None {
		switch k := w.t.Kind(ty); k {
		case w.g.refType, w.g.pointerType:
			ty = w.t.Child(ty, w.g.fType)
		case w.g.dynamicType, w.g.abstractType:
			return ""
		default:
			return w.typeName(ty)
		}
	}
	return ""
}

// typeName is the name a receiver of type ty is known by: references,
// pointers and type arguments stripped, Self replaced by the impl type,
// impl/dyn Trait reduced to the trait. "" for other types.
func (w *walker) typeName(ty node) string {
	t, g := w.t, w.g
	for ty != extract.None {
		switch t.Kind(ty) {
		case g.typeIdent:
			switch s := w.text(ty); {
			case s == "Self":
				return w.selfType()
			case w.isTypeParam(s):
				return "" // any type: nothing to resolve against
			default:
				return s
			}
		case g.scopedTypeIdent:
			return extract.OneLine(w.text(ty))
		case g.genericType, g.refType, g.pointerType:
			ty = t.Child(ty, g.fType)
		case g.dynamicType, g.abstractType:
			ty = t.Child(ty, g.fTrait)
		default:
			return ""
		}
	}
	return ""
}

func (w *walker) constItem(i node) {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return
	}
	kindName := abi.KindConstant
	if t.Kind(i) == g.staticItem {
		kindName = abi.KindVariable // a static is a place in memory, possibly mutable
	}
	parent, recv := w.member()
	w.f.Symbol(abi.Symbol{Name: name, Kind: kindName, Parent: parent, Receiver: recv, Visibility: w.itemVisibility(i), Span: t.Span(i), Test: a.cfgTest || w.inTest()})
}

func (w *walker) typeAlias(i node) {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return
	}
	parent, recv := w.member()
	w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindTypeAlias, Parent: parent, Receiver: recv, Visibility: w.itemVisibility(i), Span: t.Span(i), Test: a.cfgTest || w.inTest()})
}

func (w *walker) macroDef(i node) {
	t, g := w.t, w.g
	a := w.takeAttrs(i)
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return
	}
	vis := abi.VisPrivate
	if a.export {
		vis = abi.VisPublic
	}
	w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindMacro, Parent: w.parent(), Visibility: vis, Span: t.Span(i), Test: a.cfgTest || w.inTest()})
}

// builtinCalls are the prelude's enum constructors: calls to them are
// everywhere and name nothing in the code base.
var builtinCalls = map[string]bool{"Some": true, "Ok": true, "Err": true}

func (w *walker) call(i node) {
	t, g := w.t, w.g
	fn := t.Child(i, g.fFunction)
	if t.Kind(fn) == g.genericFunction { // f::<T>(), x.f::<T>()
		fn = t.Child(fn, g.fFunction)
	}
	var c abi.Call
	var nameN node
	switch t.Kind(fn) {
	case g.identifier:
		nameN = fn
	case g.fieldExpr:
		nameN = t.Child(fn, g.fField)
		value := t.Child(fn, g.fValue)
		c.Receiver = receiverText(w.text(value))
		c.ReceiverType = w.receiverType(value)
		c.ReceiverRef = typeRef(c.ReceiverType)
	case g.scopedIdentifier:
		nameN = t.Child(fn, g.fName)
		if path := t.Child(fn, g.fPath); path != extract.None {
			if t.Kind(path) == g.genericType { // Vec::<u8>::new()
				path = t.Child(path, g.fType)
			}
			c.Receiver = receiverText(w.text(path))
			if c.Receiver == "Self" {
				c.ReceiverType = w.selfType()
				c.ReceiverRef = typeRef(c.ReceiverType)
			}
		}
	default:
		return // a call of a computed value: (self.f)(), f()()
	}
	c.Name = w.text(nameN)
	if c.Name == "" || c.Receiver == "" && builtinCalls[c.Name] {
		return
	}
	c.Caller, c.Line, c.Col = w.parent(), t.StartLine(nameN), t.StartCol(nameN)
	w.dynamic(i, &c)
	if t.Kind(fn) == g.scopedIdentifier {
		w.bindPathRoot(c.Receiver, c.Line)
	}
	w.f.Call(c)
}

// receiverType is the type of a receiver when this file says it: self, or
// a parameter or let binding declared with (or initialized to) a type.
func (w *walker) receiverType(value node) string { return w.exprType(value, 0) }

// maxTypeDepth is how many links of a receiver chain exprType follows: a
// generated chain of thousands would otherwise spell the whole chain below
// every link.
const maxTypeDepth = 16

// exprType is receiverType for chains: beyond self and typed bindings,
// "T#f" (field f of T) and "T#m()" (what method m of T returns), which the
// host follows wherever T is declared: self.repo.client().send().
func (w *walker) exprType(value node, depth int) string {
	t, g := w.t, w.g
	if depth >= maxTypeDepth {
		return ""
	}
	switch t.Kind(value) {
	case g.self:
		return w.selfType()
	case g.identifier:
		name := w.text(value)
		for i := len(w.vars) - 1; i >= 0; i-- {
			if w.vars[i].name == name {
				return w.vars[i].typ
			}
		}
	case g.fieldExpr: // x.f
		f := t.Child(value, g.fField)
		if f == extract.None {
			return ""
		}
		if owner := w.exprType(t.Child(value, g.fValue), depth+1); owner != "" {
			return owner + "#" + w.text(f)
		}
	case g.callExpr: // x.m(…)
		fn := t.Child(value, g.fFunction)
		if t.Kind(fn) != g.fieldExpr {
			return ""
		}
		m := t.Child(fn, g.fField)
		if m == extract.None {
			return ""
		}
		if owner := w.exprType(t.Child(fn, g.fValue), depth+1); owner != "" {
			return owner + "#" + w.text(m) + "()"
		}
	}
	return ""
}

// let declares a binding whose type is written (`let x: Foo`) or evident
// from its initializer (`Foo { … }`, `Foo::new(…)`).
func (w *walker) let(i node) {
	t, g := w.t, w.g
	pat := t.Child(i, g.fPattern)
	if t.Kind(pat) != g.identifier {
		return
	}
	typ := ""
	if ty := t.Child(i, g.fType); ty != extract.None {
		typ = w.typeName(ty)
	} else if v := t.Child(i, g.fValue); v != extract.None {
		switch t.Kind(v) {
		case g.structExpr:
			typ = w.typeName(t.Child(v, g.fName))
		case g.callExpr:
			if fn := t.Child(v, g.fFunction); t.Kind(fn) == g.scopedIdentifier && w.text(t.Child(fn, g.fName)) == "new" {
				if p := t.Child(fn, g.fPath); t.Kind(p) == g.identifier {
					if typ = w.text(p); typ == "Self" {
						typ = w.selfType()
					}
				}
			}
		}
	}
	w.vars = append(w.vars, variable{w.text(pat), typ})
}

// stdMacros are the std macros: invoking them is not a call into the code
// base. For those whose arguments are expressions (exprMacros), the calls
// written in the arguments are recovered from the token tree.
var stdMacros = map[string]bool{
	"println": true, "print": true, "eprintln": true, "eprint": true, "format": true,
	"format_args": true, "write": true, "writeln": true, "panic": true, "assert": true,
	"assert_eq": true, "assert_ne": true, "debug_assert": true, "debug_assert_eq": true,
	"debug_assert_ne": true, "vec": true, "dbg": true, "todo": true, "unimplemented": true,
	"unreachable": true, "matches": true, "cfg": true, "env": true, "option_env": true,
	"concat": true, "stringify": true, "include": true, "include_str": true,
	"include_bytes": true, "file": true, "line": true, "column": true, "module_path": true,
	"compile_error": true, "thread_local": true,
}

var exprMacros = map[string]bool{
	"println": true, "print": true, "eprintln": true, "eprint": true, "format": true,
	"format_args": true, "write": true, "writeln": true, "panic": true, "assert": true,
	"assert_eq": true, "assert_ne": true, "debug_assert": true, "debug_assert_eq": true,
	"debug_assert_ne": true, "vec": true, "dbg": true, "todo": true, "unimplemented": true,
	"unreachable": true,
}

// macroCall reports an invocation of a user macro as a call to it (by its
// bare name; a path prefix becomes the Receiver). The token trees of user
// macros are not read: they may be any language.
func (w *walker) macroCall(i node) {
	t, g := w.t, w.g
	m := t.Child(i, g.fMacro)
	nameN, recv := m, ""
	if t.Kind(m) == g.scopedIdentifier {
		nameN = t.Child(m, g.fName)
		recv = receiverText(w.text(t.Child(m, g.fPath)))
	}
	name := w.text(nameN)
	if name == "" {
		return
	}
	if recv == "" && stdMacros[name] || recv == "std" || recv == "core" {
		if tt := t.ChildOfKind(i, g.tokenTree); tt != extract.None && (exprMacros[name] || name == "matches") {
			w.tokenCalls(tt, name == "matches")
		}
		return
	}
	w.f.Call(abi.Call{Caller: w.parent(), Name: name, Receiver: recv, Line: t.StartLine(nameN), Col: t.StartCol(nameN)})
}

// tokenCalls finds calls in a macro's token tree, where the parser leaves
// expressions as flat tokens: an identifier followed by a parenthesized
// group is a call; a `a::b::` path or `x.` receiver in front of it is kept.
//
// With firstOnly, only the first argument is read: matches!(x.kind(), A(_))
// holds an expression, then a pattern (A(_) is not a call).
func (w *walker) tokenCalls(tt node, firstOnly bool) {
	t, g := w.t, w.g
	base := len(w.toks)
	for c := range t.Children(tt) {
		if firstOnly && t.Kind(c) == g.anonComma {
			break
		}
		w.toks = append(w.toks, c)
	}
	toks := w.toks[base:]
	for j, c := range toks {
		if t.Kind(c) != g.tokenTree {
			continue
		}
		if j > 0 && t.Kind(toks[j-1]) == g.identifier && t.ChildCount(c) > 0 && t.Kind(c+1) == g.anonParen {
			w.tokenCall(toks[:j])
		}
		firstOnly := false
		if j > 1 && t.Kind(toks[j-1]) == g.anonBang {
			// A nested macro's tokens are read only if it takes
			// expressions too.
			switch name := w.text(toks[j-2]); {
			case name == "matches":
				firstOnly = true
			case exprMacros[name]:
			case t.Kind(toks[j-2]) == g.identifier && !stdMacros[name]:
				w.tokenCall(toks[:j-1]) // a user macro: a call to it
				continue
			default:
				continue
			}
		}
		w.tokenCalls(c, firstOnly)
		toks = w.toks[base:] // the recursion may have grown the buffer
	}
	w.toks = w.toks[:base]
}

// tokenCall reports the call whose name is the last of toks.
func (w *walker) tokenCall(toks []node) {
	t, g := w.t, w.g
	n := len(toks) - 1
	nameN := toks[n]
	c := abi.Call{Name: w.text(nameN), Caller: w.parent(), Line: t.StartLine(nameN), Col: t.StartCol(nameN)}
	path := false // the receiver is a path (a::f()), not a value (a.f())
	// Walk back over `seg ::` or `seg .` pairs with one separator kind.
	if n >= 2 {
		sep := t.Kind(toks[n-1])
		path = sep == g.anonPath
		if sep == g.anonPath || sep == g.anonDot {
			first := n
			for k := n - 1; k >= 1 && t.Kind(toks[k]) == sep && w.segment(toks[k-1]); k -= 2 {
				first = k - 1
			}
			if first == n {
				return // a receiver we cannot name: `f().g()`, `x[0].g()`
			}
			c.Receiver = receiverText(w.src[t.StartByte(toks[first]):t.EndByte(toks[n-2])])
			if first == n-2 {
				switch {
				case c.Receiver == "self" || c.Receiver == "Self":
					c.ReceiverType = w.selfType()
				case sep == g.anonDot:
					c.ReceiverType = w.receiverType(toks[first])
				}
				c.ReceiverRef = typeRef(c.ReceiverType)
			}
		}
	}
	if c.Name == "" || c.Receiver == "" && builtinCalls[c.Name] {
		return
	}
	if path {
		w.bindPathRoot(c.Receiver, c.Line)
	}
	w.f.Call(c)
}

// segment reports whether n can be a path or receiver segment.
func (w *walker) segment(n node) bool {
	switch w.t.Kind(n) {
	case w.g.identifier, w.g.self, w.g.crate, w.g.super:
		return true
	}
	return false
}

// use flattens a use declaration into one Import per module path:
// `use a::b::{c, d as e, f::*};` → "a::b" {c, d as e} and "a::b::f" {*}.
// A single-segment `use foo;` imports the crate/module foo itself (Path
// "foo", Alias for `use foo as bar;`); `self` in a group is kept as the
// name "self".
func (w *walker) use(i node) {
	w.takeAttrs(i)
	w.pending = w.pending[:0]
	w.useTree(w.t.Child(i, w.g.fArgument), "", w.t.StartLine(i))
	for _, im := range w.pending {
		w.f.Import(w.keyed(im))
	}
}

func (w *walker) useTree(n node, prefix string, line uint32) {
	t, g := w.t, w.g
	switch t.Kind(n) {
	case g.identifier, g.self, g.crate, g.super, g.metavariable:
		w.leaf(prefix, w.text(n), "", line)
	case g.scopedIdentifier:
		path := t.Child(n, g.fPath)
		if path == extract.None { // use ::foo;
			w.leaf(prefix, extract.OneLine(w.text(n)), "", line)
			return
		}
		w.leaf(join(prefix, extract.OneLine(w.text(path))), w.text(t.Child(n, g.fName)), "", line)
	case g.useAsClause:
		p, alias := t.Child(n, g.fPath), w.text(t.Child(n, g.fAlias))
		if pp := t.Child(p, g.fPath); t.Kind(p) == g.scopedIdentifier && pp != extract.None {
			w.leaf(join(prefix, extract.OneLine(w.text(pp))), w.text(t.Child(p, g.fName)), alias, line)
		} else {
			w.leaf(prefix, extract.OneLine(w.text(p)), alias, line)
		}
	case g.useWildard:
		p := prefix
		for c := range t.NamedChildren(n) {
			p = join(prefix, extract.OneLine(w.text(c)))
			break
		}
		w.leaf(p, "*", "", line)
	case g.scopedUseList:
		p := prefix
		if path := t.Child(n, g.fPath); path != extract.None {
			p = join(prefix, extract.OneLine(w.text(path)))
		}
		w.useTree(t.Child(n, g.fList), p, line)
	case g.useList:
		for c := range t.NamedChildren(n) {
			w.useTree(c, prefix, line)
		}
	}
}

func join(prefix, path string) string {
	if prefix == "" {
		return path
	}
	return prefix + "::" + path
}

// leaf adds one imported name to the declaration's pending imports,
// merging names imported from the same path.
func (w *walker) leaf(path, name, alias string, line uint32) {
	switch {
	case path == "": // use foo; — the module itself
		w.pending = append(w.pending, abi.Import{Path: name, Alias: alias, Line: line})
		return
	case name == "self": // use a::b::{self}; — module a::b as b
		w.pending = append(w.pending, abi.Import{Path: path, Alias: alias, Line: line})
		return
	}
	for k := range w.pending {
		if im := &w.pending[k]; im.Path == path && len(im.Names) > 0 {
			im.Names = append(im.Names, abi.ImportName{Name: name, Alias: alias})
			return
		}
	}
	w.pending = append(w.pending, abi.Import{Path: path, Names: []abi.ImportName{{Name: name, Alias: alias}}, Line: line})
}

// externCrate reports `extern crate foo as bar;` as an import of foo.
func (w *walker) externCrate(i node) {
	t, g := w.t, w.g
	w.takeAttrs(i)
	if name := w.text(t.Child(i, g.fName)); name != "" {
		w.f.Import(w.keyed(abi.Import{Path: name, Alias: w.text(t.Child(i, g.fAlias)), Line: t.StartLine(i)}))
	}
}

// builtinTypes are the prelude types every file sees: references to them
// say nothing about the code base (their type arguments still do).
var builtinTypes = map[string]bool{
	"Self": true, "Option": true, "Result": true, "Vec": true, "String": true, "Box": true,
}

// typeRefs reports the named types in a type as references: the type with
// ctx, its type arguments with generic_arg. Primitives, the prelude types,
// Self and type parameters in scope are skipped.
func (w *walker) typeRefs(ty node, from int32, ctx abi.RelationContext) {
	if ty == extract.None || from < 0 {
		return
	}
	t, g := w.t, w.g
	switch t.Kind(ty) {
	case g.typeIdent:
		if name := w.text(ty); !builtinTypes[name] && !w.isTypeParam(name) {
			w.ref(from, name, ctx, ty)
		}
	case g.scopedTypeIdent:
		// T::Item and Self::Item are associated types of a parameter.
		if p := w.text(t.Child(ty, g.fPath)); p != "Self" && !w.isTypeParam(p) {
			w.ref(from, extract.OneLine(w.text(ty)), ctx, ty)
		}
	case g.genericType:
		w.typeRefs(t.Child(ty, g.fType), from, ctx)
		w.typeArgRefs(t.Child(ty, g.fTypeArguments), from)
	case g.refType, g.pointerType, g.typeBinding:
		w.typeRefs(t.Child(ty, g.fType), from, ctx)
	case g.arrayType:
		w.typeRefs(t.Child(ty, g.fElement), from, ctx)
	case g.abstractType, g.dynamicType:
		w.typeRefs(t.Child(ty, g.fTrait), from, ctx)
	case g.tupleType, g.boundedType:
		for c := range t.NamedChildren(ty) {
			w.typeRefs(c, from, ctx)
		}
	case g.fnType:
		// Fn(A) -> B: the Fn traits are builtins; A and B are arguments.
		for c := range t.NamedChildren(t.Child(ty, g.fParameters)) {
			w.typeRefs(c, from, abi.CtxGenericArg)
		}
		w.typeRefs(t.Child(ty, g.fReturnType), from, abi.CtxGenericArg)
	}
}

func (w *walker) typeArgRefs(args node, from int32) {
	if args == extract.None {
		return
	}
	for c := range w.t.NamedChildren(args) {
		w.typeRefs(c, from, abi.CtxGenericArg)
	}
}

func (w *walker) isTypeParam(name string) bool {
	for _, p := range w.tparams {
		if p == name {
			return true
		}
	}
	return false
}

// ref reports a references relation once per (symbol, target, context).
func (w *walker) ref(from int32, target string, ctx abi.RelationContext, at node) {
	if len(w.seen) > 0 && w.seen[0].from != from {
		w.seen = w.seen[:0]
	}
	for _, s := range w.seen {
		if s.target == target && s.ctx == ctx {
			return
		}
	}
	w.seen = append(w.seen, seenRef{from, target, ctx})
	w.f.Relation(abi.Relation{From: from, Kind: abi.RelReferences, Target: target, Context: ctx, Line: w.t.StartLine(at)})
}
