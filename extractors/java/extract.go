package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one Java file:
//
//   - the package declaration (Facts.Package);
//   - classes, records (kind class), interfaces and annotation types (kind
//     interface), enums, with nested and local types parented to their
//     enclosing symbol;
//   - methods and annotation elements (method), constructors (constructor),
//     fields (field; static final fields, interface constants and enum
//     constants are constant), record components (private fields);
//   - calls: plain m(), member calls with the receiver as written, new X()
//     (name X), this(…)/super(…) (the class/superclass name);
//   - imports: single-type, on-demand (Names "*") and static ones (Path is the
//     class, Names the member or "*");
//   - extends (inherits), implements, and type references from signatures
//     and fields (parameter_type, return_type, field, generic_arg) and
//     annotations (attribute).
//
// Visibility comes from the modifiers. Without one a member is package-private,
// reported as "internal" (visible to the package, like Go's lowercase names
// are to theirs), except interface members and enum constants (implicitly
// public), enum constructors (implicitly private) and members of local classes
// ("", they are not reachable by name from outside the method).
//
// Members of anonymous classes are not reported as symbols (they have no
// name to hang them on); calls inside them, like calls inside lambdas, belong
// to the enclosing named callable.
type Extractor struct{}

// action is what the walk does on meeting a node kind; kinds map to actions
// once per grammar so the walk never compares kind names.
type action uint8

const (
	actNone         action = iota
	actSkip                // subtree holds nothing to report
	actPackage             // package_declaration
	actImport              // import_declaration
	actType                // class/interface/enum/record/annotation type declarations
	actCallable            // methods, constructors, annotation elements
	actField               // field_declaration, constant_declaration
	actEnumConstant        // enum_constant
	actCall                // method_invocation
	actNew                 // object_creation_expression
	actCtorCall            // explicit_constructor_invocation: this(…), super(…)
	actLocal               // local_variable_declaration
	actTypedVar            // enhanced_for_statement, resource: type + name
)

type (
	kind  = extract.KindID
	field = extract.FieldID
	node  = extract.Node
)

// grammar holds the ids the extractor needs, resolved once per grammar.
type grammar struct {
	act *extract.KindTable // action by kind

	classDecl, ifaceDecl, enumDecl, recordDecl, annotDecl  kind
	methodDecl, ctorDecl, compactCtorDecl, annotElemDecl   kind
	fieldDecl, constDecl, enumBodyDecls                    kind
	modifiers, markerAnnotation, annotation                kind
	formalParam, spreadParam, varDeclarator                kind
	typeParam, typeIdent, scopedTypeIdent, genericType     kind
	typeArgs, arrayType, wildcard, annotatedType, typeList kind
	extendsIfaces, identifier, scopedIdentifier, asterisk  kind
	this, super, fieldAccess, classBody, objectCreation    kind
	integralType, floatType, booleanType, voidType         kind
	methodInvocation, parenthesized                        kind

	kwPublic, kwProtected, kwPrivate, kwStatic, kwFinal kind

	fName, fBody, fType, fDeclarator, fParameters, fTypeParameters field
	fSuperclass, fInterfaces, fObject, fValue, fField, fScope      field
	fConstructor, fDimensions, fElement                            field
}

var grammars extract.Tables[grammar]

// grammarFor returns the resolved ids for g, building them on first use.
func grammarFor(g *extract.Grammar) *grammar { return grammars.For(g, newGrammar) }

func newGrammar(g *extract.Grammar) *grammar {
	k := &grammar{
		classDecl: g.Kind("class_declaration"), ifaceDecl: g.Kind("interface_declaration"),
		enumDecl: g.Kind("enum_declaration"), recordDecl: g.Kind("record_declaration"),
		annotDecl:  g.Kind("annotation_type_declaration"),
		methodDecl: g.Kind("method_declaration"), ctorDecl: g.Kind("constructor_declaration"),
		compactCtorDecl: g.Kind("compact_constructor_declaration"),
		annotElemDecl:   g.Kind("annotation_type_element_declaration"),
		fieldDecl:       g.Kind("field_declaration"), constDecl: g.Kind("constant_declaration"),
		enumBodyDecls: g.Kind("enum_body_declarations"),
		modifiers:     g.Kind("modifiers"), markerAnnotation: g.Kind("marker_annotation"),
		annotation:  g.Kind("annotation"),
		formalParam: g.Kind("formal_parameter"), spreadParam: g.Kind("spread_parameter"),
		varDeclarator: g.Kind("variable_declarator"),
		typeParam:     g.Kind("type_parameter"), typeIdent: g.Kind("type_identifier"),
		scopedTypeIdent: g.Kind("scoped_type_identifier"), genericType: g.Kind("generic_type"),
		typeArgs: g.Kind("type_arguments"), arrayType: g.Kind("array_type"),
		wildcard: g.Kind("wildcard"), annotatedType: g.Kind("annotated_type"),
		typeList: g.Kind("type_list"), extendsIfaces: g.Kind("extends_interfaces"),
		identifier: g.Kind("identifier"), scopedIdentifier: g.Kind("scoped_identifier"),
		asterisk: g.Kind("asterisk"),
		this:     g.Kind("this"), super: g.Kind("super"), fieldAccess: g.Kind("field_access"),
		classBody: g.Kind("class_body"), objectCreation: g.Kind("object_creation_expression"),
		integralType: g.Kind("integral_type"), floatType: g.Kind("floating_point_type"),
		booleanType: g.Kind("boolean_type"), voidType: g.Kind("void_type"),
		methodInvocation: g.Kind("method_invocation"), parenthesized: g.Kind("parenthesized_expression"),

		kwPublic: g.Anon("public"), kwProtected: g.Anon("protected"), kwPrivate: g.Anon("private"),
		kwStatic: g.Anon("static"), kwFinal: g.Anon("final"),

		fName: g.Field("name"), fBody: g.Field("body"), fType: g.Field("type"),
		fDeclarator: g.Field("declarator"), fParameters: g.Field("parameters"),
		fTypeParameters: g.Field("type_parameters"), fSuperclass: g.Field("superclass"),
		fInterfaces: g.Field("interfaces"), fObject: g.Field("object"), fValue: g.Field("value"),
		fField: g.Field("field"), fScope: g.Field("scope"), fConstructor: g.Field("constructor"),
		fDimensions: g.Field("dimensions"), fElement: g.Field("element"),
	}
	acts := map[string]action{
		"package_declaration":                 actPackage,
		"import_declaration":                  actImport,
		"class_declaration":                   actType,
		"interface_declaration":               actType,
		"enum_declaration":                    actType,
		"record_declaration":                  actType,
		"annotation_type_declaration":         actType,
		"method_declaration":                  actCallable,
		"constructor_declaration":             actCallable,
		"compact_constructor_declaration":     actCallable,
		"annotation_type_element_declaration": actCallable,
		"field_declaration":                   actField,
		"constant_declaration":                actField,
		"enum_constant":                       actEnumConstant,
		"method_invocation":                   actCall,
		"object_creation_expression":          actNew,
		"explicit_constructor_invocation":     actCtorCall,
		"local_variable_declaration":          actLocal,
		"enhanced_for_statement":              actTypedVar,
		"resource":                            actTypedVar,
		// Annotations are read with their declaration; comments and
		// literals hold nothing.
		"modifiers":      actSkip,
		"line_comment":   actSkip,
		"block_comment":  actSkip,
		"string_literal": actSkip,
	}
	k.act = extract.KindsOf(g, acts)
	return k
}

func (k *grammar) action(id kind) action { return action(k.act[id]) }

// frameKind tells what an open scope is.
type frameKind uint8

const (
	frameType     frameKind = iota // a named class-like declaration
	frameAnon                      // an anonymous class body: `this` has no name we know
	frameCallable                  // a method or constructor
)

// frame is an open scope of the walk: a declaration whose subtree has not
// ended yet.
type frame struct {
	end   node
	kind  frameKind
	sym   int32  // Parent/Caller for what the frame encloses; anonymous frames inherit it
	name  string // type frames: the class name
	super string // type frames: the superclass as written, without type arguments
	iface bool   // interface or annotation type: members are public by default
	// records: the component list, which is also the parameter list of a
	// compact constructor
	params node
	// lengths of walker.vars and walker.tparams when the frame opened;
	// closing the frame truncates them back.
	vars, tparams int
}

// variable is a name with a declared type, used to type call receivers.
type variable struct {
	name string
	typ  string // base type name; "" when not a class type (primitive, array, var)
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
	pkg     string // the package declaration, "" for the default package
}

// seenRef dedups references per symbol: foo(Bar a, Bar b) references Bar once.
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
	w := &walker{f: f, t: t, g: grammarFor(t.Grammar), src: string(t.Source())}
	w.walk()
	f.SetFile(fileFacts(f, w.pkg))
	f.ReportSyntaxErrors(nil)
	f.FillDocs(extract.DocBlockStar)
	return nil
}

// walk visits the tree once in preorder. Declarations push frames that close
// when the walk passes their end; handlers return the next node to visit,
// which lets them skip subtrees they have fully read.
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
		case actPackage:
			w.packageDecl(i)
			next = t.End(i)
		case actImport:
			w.importDecl(i)
			next = t.End(i)
		case actType:
			next = w.typeDecl(i)
		case actCallable:
			next = w.callable(i)
		case actField:
			w.fieldDecl(i)
		case actEnumConstant:
			w.enumConstant(i)
		case actCall:
			w.call(i)
		case actNew:
			w.newCall(i)
		case actCtorCall:
			w.ctorCall(i)
		case actLocal:
			w.local(i)
		case actTypedVar:
			w.typedVar(i)
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

func (w *walker) push(fr frame) { w.frames = append(w.frames, fr) }

// mark returns a frame with the current scope lengths recorded.
func (w *walker) mark(end node, k frameKind, sym int32) frame {
	return frame{end: end, kind: k, sym: sym, params: extract.None, vars: len(w.vars), tparams: len(w.tparams)}
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

// parent is the symbol enclosing the current node, -1 at file level.
func (w *walker) parent() int32 {
	if len(w.frames) == 0 {
		return -1
	}
	return w.frames[len(w.frames)-1].sym
}

// typeFrame is the innermost class-like frame (named or anonymous), or nil.
func (w *walker) typeFrame() *frame {
	for i := len(w.frames) - 1; i >= 0; i-- {
		if w.frames[i].kind != frameCallable {
			return &w.frames[i]
		}
	}
	return nil
}

// defaultVisibility is the visibility of a declaration without an access
// modifier in the current scope.
func (w *walker) defaultVisibility() abi.Visibility {
	if len(w.frames) == 0 {
		return abi.VisInternal
	}
	switch top := w.frames[len(w.frames)-1]; {
	case top.kind == frameCallable:
		return "" // local class: not reachable from outside its method
	case top.iface:
		return abi.VisPublic
	}
	return abi.VisInternal
}

func (w *walker) packageDecl(i node) {
	for c := range w.t.NamedChildren(i) {
		if k := w.t.Kind(c); k == w.g.identifier || k == w.g.scopedIdentifier {
			w.pkg = extract.OneLine(w.text(c))
			w.f.SetPackage(w.pkg)
			return
		}
	}
}

// importDecl reports `import a.b.C;` as Path "a.b.C", `import a.b.*;` as
// Path "a.b" with Names "*", and static imports as the class path with the
// member (or "*") in Names, so an unqualified call can be traced to them.
func (w *walker) importDecl(i node) {
	t, g := w.t, w.g
	static, wildcard, path := false, false, extract.None
	for c := range t.Children(i) {
		switch t.Kind(c) {
		case g.kwStatic:
			static = true
		case g.asterisk:
			wildcard = true
		case g.identifier, g.scopedIdentifier:
			path = c
		}
	}
	if path == extract.None {
		return
	}
	im := abi.Import{Path: extract.OneLine(w.text(path)), Line: t.StartLine(i)}
	switch {
	case wildcard:
		im.Names = []abi.ImportName{{Name: "*"}}
	case static:
		if scope, name := t.Child(path, g.fScope), t.Child(path, g.fName); scope != extract.None && name != extract.None {
			im.Path = extract.OneLine(w.text(scope))
			im.Names = []abi.ImportName{{Name: w.text(name)}}
		}
	}
	importKeys(&im, static)
	w.f.Import(im)
}

// mods is what a declaration's modifiers say.
type mods struct {
	node          node
	vis           abi.Visibility // explicit access modifier, "" if none
	static, final bool
	test          bool // a JUnit test annotation
}

func (w *walker) modifiers(decl node) mods {
	t, g := w.t, w.g
	m := mods{node: t.ChildOfKind(decl, g.modifiers)}
	if m.node == extract.None {
		return m
	}
	for c := range t.Children(m.node) {
		switch t.Kind(c) {
		case g.kwPublic:
			m.vis = abi.VisPublic
		case g.kwProtected:
			m.vis = abi.VisProtected
		case g.kwPrivate:
			m.vis = abi.VisPrivate
		case g.kwStatic:
			m.static = true
		case g.kwFinal:
			m.final = true
		case g.markerAnnotation, g.annotation:
			if testAnnotations[lastSegment(w.text(t.Child(c, g.fName)))] {
				m.test = true
			}
		}
	}
	return m
}

// testAnnotations mark JUnit 4/5 (and TestNG) test methods.
var testAnnotations = map[string]bool{
	"Test": true, "ParameterizedTest": true, "RepeatedTest": true,
	"TestFactory": true, "TestTemplate": true,
}

// langAnnotations are java.lang annotations: compiler hints, not references
// to anything in the code base.
var langAnnotations = map[string]bool{
	"Override": true, "Deprecated": true, "SuppressWarnings": true,
	"FunctionalInterface": true, "SafeVarargs": true,
}

// annotationRefs reports the annotations of a declaration as references
// with context attribute.
func (w *walker) annotationRefs(m mods, from int32) {
	t, g := w.t, w.g
	if m.node == extract.None {
		return
	}
	for c := range t.Children(m.node) {
		if k := t.Kind(c); k == g.markerAnnotation || k == g.annotation {
			name := t.Child(c, g.fName)
			if target := extract.OneLine(w.text(name)); target != "" && !langAnnotations[target] {
				w.ref(from, target, abi.CtxAttribute, name)
			}
		}
	}
}

func (w *walker) typeDecl(i node) node {
	t, g := w.t, w.g
	name := w.text(t.Child(i, g.fName))
	if name == "" {
		return i + 1
	}
	kindName := abi.KindClass
	switch t.Kind(i) {
	case g.ifaceDecl, g.annotDecl:
		kindName = abi.KindInterface
	case g.enumDecl:
		kindName = abi.KindEnum
	}
	m := w.modifiers(i)
	vis := m.vis
	if vis == "" {
		vis = w.defaultVisibility()
	}
	sym := w.f.Symbol(abi.Symbol{Name: name, Kind: kindName, Parent: w.parent(), Visibility: vis, Span: t.Span(i)})
	w.annotationRefs(m, sym)

	fr := w.mark(t.End(i), frameType, sym)
	fr.name, fr.iface = name, kindName == abi.KindInterface
	w.typeParams(t.Child(i, g.fTypeParameters))
	if sc := t.Child(i, g.fSuperclass); sc != extract.None {
		for c := range t.NamedChildren(sc) {
			fr.super = w.supertype(sym, c, abi.RelInherits)
		}
	}
	w.supertypes(sym, t.Child(i, g.fInterfaces), abi.RelImplements)
	w.supertypes(sym, t.ChildOfKind(i, g.extendsIfaces), abi.RelInherits)
	fr.params = t.Child(i, g.fParameters)
	w.push(fr)
	if fr.params != extract.None {
		w.recordComponents(fr.params, sym)
	}
	body := t.Child(i, g.fBody)
	if body == extract.None {
		return t.End(i)
	}
	w.fieldVars(body)
	return body
}

// supertypes reports each type of a super_interfaces/extends_interfaces
// clause.
func (w *walker) supertypes(from int32, clause node, rel abi.RelationKind) {
	if clause == extract.None {
		return
	}
	t := w.t
	for c := range t.NamedChildren(clause) {
		if t.Kind(c) == w.g.typeList {
			for ty := range t.NamedChildren(c) {
				w.supertype(from, ty, rel)
			}
		}
	}
}

// supertype reports an inherits/implements relation to ty (type arguments
// dropped; they become generic_arg references) and returns the target.
func (w *walker) supertype(from int32, ty node, rel abi.RelationKind) string {
	t, g := w.t, w.g
	head, args := ty, extract.None
	if t.Kind(ty) == g.genericType {
		for c := range t.NamedChildren(ty) {
			if t.Kind(c) == g.typeArgs {
				args = c
			} else {
				head = c
			}
		}
	}
	target := baseName(extract.OneLine(w.text(head)))
	if target != "" {
		w.f.Relation(abi.Relation{From: from, Kind: rel, Target: target, Line: t.StartLine(head)})
	}
	if args != extract.None {
		w.typeArgRefs(args, from)
	}
	return target
}

func (w *walker) typeParams(n node) {
	if n == extract.None {
		return
	}
	t := w.t
	for c := range t.NamedChildren(n) {
		if t.Kind(c) == w.g.typeParam {
			if id := t.ChildOfKind(c, w.g.typeIdent); id != extract.None {
				w.tparams = append(w.tparams, w.text(id))
			}
		}
	}
}

// recordComponents reports the components of a record as its private
// fields (the compiler generates them) and makes them known as variables.
func (w *walker) recordComponents(params node, rec int32) {
	t, g := w.t, w.g
	for c := range t.NamedChildren(params) {
		if t.Kind(c) != g.formalParam {
			continue
		}
		name := w.text(t.Child(c, g.fName))
		if name == "" {
			continue
		}
		ty := t.Child(c, g.fType)
		typ := w.varType(ty, t.Child(c, g.fDimensions))
		sym := w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindField, Parent: rec, Visibility: abi.VisPrivate, Span: t.Span(c), Signature: w.fieldType(typ)})
		w.typeRefs(ty, sym, abi.CtxField)
		w.vars = append(w.vars, variable{name, typ})
	}
}

// fieldVars makes the fields of a class body known as variables before its
// methods are walked: methods may use fields declared below them.
func (w *walker) fieldVars(body node) {
	t, g := w.t, w.g
	for c := range t.NamedChildren(body) {
		switch t.Kind(c) {
		case g.enumBodyDecls:
			w.fieldVars(c)
		case g.fieldDecl, g.constDecl:
			typ := w.varType(t.Child(c, g.fType), extract.None)
			for d := range t.Children(c) {
				if t.Field(d) == g.fDeclarator {
					if name := w.text(t.Child(d, g.fName)); name != "" {
						w.vars = append(w.vars, variable{name, typ})
					}
				}
			}
		}
	}
}

func (w *walker) callable(i node) node {
	t, g := w.t, w.g
	body := t.Child(i, g.fBody)
	next := body
	if body == extract.None {
		next = t.End(i)
	}
	name := w.text(t.Child(i, g.fName))
	if top := len(w.frames) - 1; name == "" || top >= 0 && w.frames[top].kind == frameAnon {
		// A method of an anonymous class: its parameters are in scope for
		// its body, its calls belong to the enclosing callable.
		w.push(w.mark(t.End(i), frameCallable, w.parent()))
		w.params(t.Child(i, g.fParameters), -1, nil)
		return next
	}
	k := t.Kind(i)
	kindName := abi.KindMethod
	if k == g.ctorDecl || k == g.compactCtorDecl {
		kindName = abi.KindConstructor
	}
	m := w.modifiers(i)
	vis := m.vis
	if vis == "" {
		vis = w.defaultVisibility()
		if tf := w.typeFrame(); kindName == abi.KindConstructor && tf != nil && w.isEnum(tf.sym) {
			vis = abi.VisPrivate
		}
	}
	sig := &abi.Signature{Raw: w.header(i, m, body)}
	if ret := t.Child(i, g.fType); ret != extract.None {
		sig.Return = extract.OneLine(w.text(ret))
	}
	sym := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kindName, Parent: w.parent(), Visibility: vis,
		Span: t.Span(i), Signature: sig, Test: m.test && kindName == abi.KindMethod,
	})
	w.annotationRefs(m, sym)
	w.springRoutes(m, i, sym)
	w.nativeMethod(m, name, sym)
	w.push(w.mark(t.End(i), frameCallable, sym))
	w.typeParams(t.Child(i, g.fTypeParameters))
	sig.ReturnRef = w.namedRef(w.varType(t.Child(i, g.fType), extract.None))
	params := t.Child(i, g.fParameters)
	if k == g.compactCtorDecl {
		if tf := w.typeFrame(); tf != nil {
			params = tf.params // the record header declares them
		}
	}
	w.params(params, sym, sig)
	w.typeRefs(t.Child(i, g.fType), sym, abi.CtxReturnType)
	return next
}

func (w *walker) isEnum(sym int32) bool {
	if sym < 0 {
		return false
	}
	return w.f.Symbols()[sym].Kind == abi.KindEnum
}

// params reads formal parameters into sig (when not nil), reports their
// types as references from sym (when >= 0) and declares them as variables.
func (w *walker) params(list node, sym int32, sig *abi.Signature) {
	if list == extract.None {
		return
	}
	t, g := w.t, w.g
	for c := range t.NamedChildren(list) {
		var nameN, ty, dims node = extract.None, extract.None, extract.None
		spread := false
		switch t.Kind(c) {
		case g.formalParam:
			nameN, ty, dims = t.Child(c, g.fName), t.Child(c, g.fType), t.Child(c, g.fDimensions)
		case g.spreadParam:
			spread = true
			for d := range t.NamedChildren(c) {
				switch t.Kind(d) {
				case g.modifiers:
				case g.varDeclarator:
					nameN = t.Child(d, g.fName)
				default:
					if ty == extract.None {
						ty = d
					}
				}
			}
		default:
			continue // receiver parameter, comments
		}
		name := w.text(nameN)
		if sig != nil {
			typ := extract.OneLine(w.text(ty))
			if dims != extract.None {
				typ += extract.OneLine(w.text(dims))
			}
			if spread {
				typ += "..."
			}
			sig.Params = append(sig.Params, abi.Param{Name: name, Type: typ})
		}
		if sym >= 0 {
			w.typeRefs(ty, sym, abi.CtxParameterType)
		}
		if name != "" {
			if spread {
				dims = c // varargs are arrays
			}
			w.vars = append(w.vars, variable{name, w.varType(ty, dims)})
		}
	}
}

// header is a callable's declaration up to its body (or up to the closing
// semicolon), without annotations, on one line.
func (w *walker) header(decl node, m mods, body node) string {
	t := w.t
	start := t.StartByte(decl)
	if m.node != extract.None {
		start = t.EndByte(m.node)
		for c := range t.Children(m.node) {
			if !t.IsNamed(c) {
				start = t.StartByte(c)
				break
			}
		}
		// Skip whitespace between the annotations and the rest.
		for start < len(w.src) && extract.IsSpace(w.src[start]) {
			start++
		}
	}
	end := t.EndByte(decl)
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

func (w *walker) fieldDecl(i node) {
	t, g := w.t, w.g
	if top := len(w.frames) - 1; top < 0 || w.frames[top].kind != frameType {
		return // anonymous class or syntax error: no named owner
	}
	m := w.modifiers(i)
	kindName := abi.KindField
	if t.Kind(i) == g.constDecl || m.static && m.final || w.frames[len(w.frames)-1].iface {
		kindName = abi.KindConstant
	}
	vis := m.vis
	if vis == "" {
		vis = w.defaultVisibility()
	}
	ty := t.Child(i, g.fType)
	for d := range t.Children(i) {
		if t.Field(d) != g.fDeclarator {
			continue
		}
		name := w.text(t.Child(d, g.fName))
		if name == "" {
			continue
		}
		sym := w.f.Symbol(abi.Symbol{Name: name, Kind: kindName, Parent: w.parent(), Visibility: vis, Span: t.Span(i),
			Signature: w.fieldType(w.varType(ty, t.Child(d, g.fDimensions)))})
		w.annotationRefs(m, sym)
		w.typeRefs(ty, sym, abi.CtxField)
	}
}

func (w *walker) enumConstant(i node) {
	t, g := w.t, w.g
	if name := w.text(t.Child(i, g.fName)); name != "" && w.parent() >= 0 {
		w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindConstant, Parent: w.parent(), Visibility: abi.VisPublic, Span: t.Span(i)})
	}
	if body := t.Child(i, g.fBody); body != extract.None {
		w.anonymousBody(body)
	}
}

// anonymousBody opens a scope for the class body of `new X() {…}` or of an
// enum constant.
func (w *walker) anonymousBody(body node) {
	w.push(w.mark(w.t.End(body), frameAnon, w.parent()))
	w.fieldVars(body)
}

func (w *walker) call(i node) {
	t, g := w.t, w.g
	nameN := t.Child(i, g.fName)
	name := w.text(nameN)
	if name == "" {
		return
	}
	w.dynamic(i, name)
	w.crossLang(i, name)
	c := abi.Call{Caller: w.parent(), Name: name, Line: t.StartLine(nameN), Col: t.StartCol(nameN)}
	if obj := t.Child(i, g.fObject); obj != extract.None {
		c.Receiver = receiverText(w.text(obj))
		c.ReceiverType = w.receiverType(obj)
		c.ReceiverRef = typeRef(c.ReceiverType)
	}
	w.f.Call(c)
}

// receiverType is the class of a receiver when it is known from this file:
// this, super, a typed parameter/local/field, or this.field.
func (w *walker) receiverType(obj node) string { return w.exprType(obj, 0) }

// maxTypeDepth is how many links of a receiver chain exprType follows: a
// generated chain of thousands would otherwise spell the whole chain below
// every link.
const maxTypeDepth = 16

// exprType is the type of a receiver expression: this/super, a typed
// variable or field in scope, Outer.this, and beyond what is declared here
// "T#f" (field f of T) or "T#m()" (what method m of T returns), which the
// host follows wherever T is declared: repo.getClient().send().
func (w *walker) exprType(obj node, depth int) string {
	t, g := w.t, w.g
	for t.Kind(obj) == g.parenthesized {
		obj = firstNamedChild(t, obj)
	}
	if obj == extract.None || depth >= maxTypeDepth {
		return ""
	}
	switch t.Kind(obj) {
	case g.methodInvocation:
		name, o := t.Child(obj, g.fName), t.Child(obj, g.fObject)
		if name == extract.None || o == extract.None {
			return "" // a plain m() call: its class is not known here
		}
		if owner := w.exprType(o, depth+1); owner != "" {
			return owner + "#" + w.text(name) + "()"
		}
		return ""
	case g.this:
		if tf := w.typeFrame(); tf != nil {
			return tf.name
		}
	case g.super:
		if tf := w.typeFrame(); tf != nil {
			return tf.super
		}
	case g.identifier:
		return w.lookup(w.text(obj))
	case g.objectCreation: // new T(…).m()
		if t.ChildOfKind(obj, g.classBody) == extract.None {
			return baseName(extract.OneLine(w.text(w.typeHead(t.Child(obj, g.fType)))))
		}
	case g.fieldAccess:
		o, fld := t.Child(obj, g.fObject), t.Child(obj, g.fField)
		switch {
		case t.Kind(o) == g.this: // this.field
			if typ := w.lookup(w.text(fld)); typ != "" {
				return typ
			}
		case t.Kind(fld) == g.this: // Outer.this
			return extract.OneLine(w.text(o))
		}
		if fld == extract.None {
			return ""
		}
		if owner := w.exprType(o, depth+1); owner != "" {
			return owner + "#" + w.text(fld)
		}
	}
	return ""
}

func firstNamedChild(t *extract.Tree, n node) node {
	for c := range t.NamedChildren(n) {
		return c
	}
	return extract.None
}

// lookup finds the declared type of a variable in scope, innermost first.
func (w *walker) lookup(name string) string {
	for i := len(w.vars) - 1; i >= 0; i-- {
		if w.vars[i].name == name {
			return w.vars[i].typ
		}
	}
	return ""
}

// newCall reports `new X(…)` as a call to X, and opens the scope of an
// anonymous class body.
func (w *walker) newCall(i node) {
	t, g := w.t, w.g
	if id := w.typeHead(t.Child(i, g.fType)); id != extract.None {
		w.f.Call(abi.Call{Caller: w.parent(), Name: w.text(id), Line: t.StartLine(id), Col: t.StartCol(id)})
	}
	if body := t.ChildOfKind(i, g.classBody); body != extract.None {
		w.anonymousBody(body)
	}
}

// typeHead returns the identifier naming a class type: the last segment of
// a qualified type, without type arguments.
func (w *walker) typeHead(ty node) node {
	t, g := w.t, w.g
	for ty != extract.None {
		switch t.Kind(ty) {
		case g.typeIdent:
			return ty
		case g.genericType:
			first := extract.None
			for c := range t.NamedChildren(ty) {
				first = c
				break
			}
			ty = first
		case g.scopedTypeIdent, g.annotatedType:
			last := extract.None
			for c := range t.NamedChildren(ty) {
				last = c
			}
			ty = last
		default:
			return extract.None
		}
	}
	return extract.None
}

// ctorCall reports this(…) as a call to the class's constructor and
// super(…) as a call to the superclass's.
func (w *walker) ctorCall(i node) {
	t, g := w.t, w.g
	kw := t.Child(i, g.fConstructor)
	tf := w.typeFrame()
	if kw == extract.None || tf == nil {
		return
	}
	name := tf.name
	if t.Kind(kw) == g.super {
		name = lastSegment(tf.super)
	}
	if name != "" {
		w.f.Call(abi.Call{Caller: w.parent(), Name: name, Line: t.StartLine(kw), Col: t.StartCol(kw)})
	}
}

func (w *walker) local(i node) {
	t, g := w.t, w.g
	ty := t.Child(i, g.fType)
	typ := w.varType(ty, extract.None)
	infer := typ == "var"
	for d := range t.Children(i) {
		if t.Field(d) != g.fDeclarator {
			continue
		}
		name := w.text(t.Child(d, g.fName))
		if name == "" {
			continue
		}
		vt := typ
		if infer {
			// var x = new Foo<>(…) is a Foo; any other initializer is unknown.
			vt = ""
			if v := t.Child(d, g.fValue); v != extract.None && t.Kind(v) == g.objectCreation && t.ChildOfKind(v, g.classBody) == extract.None {
				vt = w.varType(t.Child(v, g.fType), extract.None)
			}
		}
		w.vars = append(w.vars, variable{name, vt})
	}
}

func (w *walker) typedVar(i node) {
	t, g := w.t, w.g
	if name := w.text(t.Child(i, g.fName)); name != "" {
		w.vars = append(w.vars, variable{name, w.varType(t.Child(i, g.fType), t.Child(i, g.fDimensions))})
	}
}

// fieldType carries a field's declared class type to the host, which
// follows x.f.m() through it ("T#f"); nil for none or a type parameter.
func (w *walker) fieldType(typ string) *abi.Signature {
	if typ == "" || w.isTypeParam(typ) {
		return nil
	}
	return &abi.Signature{Return: typ, ReturnRef: w.namedRef(typ)}
}

// namedRef is a declared class type as a v2 type reference: nil for none
// (primitives, arrays) and for a type parameter in scope.
func (w *walker) namedRef(typ string) *abi.TypeRef {
	if typ == "" || w.isTypeParam(typ) {
		return nil
	}
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: typ}}}
}

// varType is the base name of a declared class type, "" for primitives and
// arrays (nothing in the code base can be called on them).
func (w *walker) varType(ty, dims node) string {
	t, g := w.t, w.g
	if ty == extract.None || dims != extract.None {
		return ""
	}
	switch t.Kind(ty) {
	case g.typeIdent, g.scopedTypeIdent, g.genericType:
		return baseName(extract.OneLine(w.text(ty)))
	}
	return ""
}

// builtinTypes are java.lang types every file sees without an import;
// references to them say nothing about the code base.
var builtinTypes = map[string]bool{
	"String": true, "Object": true, "Integer": true, "Long": true, "Short": true,
	"Byte": true, "Character": true, "Boolean": true, "Double": true, "Float": true,
	"Void": true, "Number": true, "var": true,
}

// typeRefs reports the class types named in a type as references: the
// type itself with ctx, its type arguments with generic_arg. Primitives,
// java.lang basics and type parameters in scope are skipped.
func (w *walker) typeRefs(ty node, from int32, ctx abi.RelationContext) {
	if ty == extract.None || from < 0 {
		return
	}
	t, g := w.t, w.g
	switch t.Kind(ty) {
	case g.typeIdent:
		name := w.text(ty)
		if !builtinTypes[name] && !w.isTypeParam(name) {
			w.ref(from, name, ctx, ty)
		}
	case g.scopedTypeIdent:
		w.ref(from, extract.OneLine(w.text(ty)), ctx, ty)
	case g.genericType:
		for c := range t.NamedChildren(ty) {
			if t.Kind(c) == g.typeArgs {
				w.typeArgRefs(c, from)
			} else {
				w.typeRefs(c, from, ctx)
			}
		}
	case g.arrayType:
		w.typeRefs(t.Child(ty, g.fElement), from, ctx)
	case g.wildcard, g.annotatedType:
		for c := range t.NamedChildren(ty) {
			if k := t.Kind(c); k != g.markerAnnotation && k != g.annotation {
				w.typeRefs(c, from, ctx)
			}
		}
	}
}

func (w *walker) typeArgRefs(args node, from int32) {
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
