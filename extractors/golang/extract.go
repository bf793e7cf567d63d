package main

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// Extractor reports the facts of one Go file. It is stateless; everything
// per file lives in a walker.
type Extractor struct{}

// Extract walks f's tree once, in preorder, and reports its facts.
func (Extractor) Extract(f *extract.File) error {
	t := f.Tree
	if t.Len() == 0 {
		return nil
	}
	w, _ := walkers.Get().(*walker)
	if w == nil {
		w = &walker{}
	}
	defer walkers.Put(w)
	clear(w.fields)
	*w = walker{
		f:      f,
		t:      t,
		k:      kindsFor(t.Grammar),
		src:    t.SourceString(),
		isTest: strings.HasSuffix(f.Path, "_test.go"),
		// The scratch slices and map of the previous file, emptied: under
		// wasm, growing them afresh for every file was a good part of the
		// allocations.
		frames: w.frames[:0], vars: w.vars[:0], tparams: w.tparams[:0],
		shadowed: w.shadowed[:0], fields: w.fields, relKeys: w.relKeys[:0],
		asserts: w.asserts[:0], params: w.params[:0], imported: w.imported[:0],
		valueOwner: -1,
	}
	w.prescan()
	w.walk()
	w.assertions()
	w.fileFacts(f)
	returnRefs(f.Symbols())
	f.FillDocs(extract.DocSlashes)
	return nil
}

// walkers keeps walkers for reuse across files.
var walkers sync.Pool

// roles say what the main walk does at a node kind; most kinds have none.
const (
	roleNone uint8 = iota
	rolePackage
	roleImport
	roleTypeDecl
	roleFunc
	roleMethod
	roleFuncLit
	roleVarDecl
	roleConstDecl
	roleShortVar
	roleCall
	roleTypeConv
	roleBindLeft   // range_clause, receive_statement: names on the left are locals
	roleTypeSwitch // type_switch_statement: its alias is a local
	roleValues     // argument_list, return_statement, literal_value, assignment_statement: function values (values.go)
	roleError      // ERROR nodes, so the walk tests for them in the same lookup
)

// kinds holds the grammar's kind and field ids, resolved once per grammar so
// the walk compares small integers, never names.
type kinds struct {
	roles    *extract.KindTable // what the walk does at each kind
	refKinds *extract.KindTable // the kinds refs looks at
	values   valueKinds         // what the function-value pass reads (values.go)

	packageIdent, importSpec                                       extract.KindID
	typeSpec, typeAlias, structType, interfaceType, functionType   extract.KindID
	fieldDeclList, fieldDecl, fieldIdent, methodElem, methodSpec   extract.KindID
	typeElem, constraintElem                                       extract.KindID
	paramDecl, variadicParamDecl, typeParamDecl                    extract.KindID
	identifier, typeIdent, qualifiedType, pointerType, genericType extract.KindID
	parenType, typeArgs, varSpec, constSpec                        extract.KindID
	compositeLit, unaryExpr, callExpr, selectorExpr, parenExpr     extract.KindID
	typeAssertion                                                  extract.KindID

	fName, fType, fPath, fBody, fReceiver, fParams, fResult, fTypeParams extract.FieldID
	fFunction, fOperand, fField, fArguments, fLeft, fRight, fValue       extract.FieldID
	fPackage, fAlias                                                     extract.FieldID
}

var kindsCache extract.Tables[kinds]

// kindsFor returns the ids for g, resolving them on first use. The host
// hands each plugin instance its grammars once, so this runs once per
// instance.
func kindsFor(g *extract.Grammar) *kinds { return kindsCache.For(g, newKinds) }

func newKinds(g *extract.Grammar) *kinds {
	k := &kinds{packageIdent: g.Kind("package_identifier"),
		importSpec: g.Kind("import_spec"),
		typeSpec:   g.Kind("type_spec"), typeAlias: g.Kind("type_alias"),
		structType: g.Kind("struct_type"), interfaceType: g.Kind("interface_type"),
		functionType:  g.Kind("function_type"),
		fieldDeclList: g.Kind("field_declaration_list"), fieldDecl: g.Kind("field_declaration"),
		fieldIdent: g.Kind("field_identifier"),
		// method_elem is the current name; older grammars call it method_spec.
		methodElem: g.Kind("method_elem"), methodSpec: g.Kind("method_spec"),
		typeElem: g.Kind("type_elem"), constraintElem: g.Kind("constraint_elem"),
		paramDecl:         g.Kind("parameter_declaration"),
		variadicParamDecl: g.Kind("variadic_parameter_declaration"),
		typeParamDecl:     g.Kind("type_parameter_declaration"),
		identifier:        g.Kind("identifier"), typeIdent: g.Kind("type_identifier"),
		qualifiedType: g.Kind("qualified_type"), pointerType: g.Kind("pointer_type"),
		genericType: g.Kind("generic_type"), parenType: g.Kind("parenthesized_type"),
		typeArgs: g.Kind("type_arguments"), varSpec: g.Kind("var_spec"), constSpec: g.Kind("const_spec"), compositeLit: g.Kind("composite_literal"),
		unaryExpr: g.Kind("unary_expression"), callExpr: g.Kind("call_expression"),
		selectorExpr: g.Kind("selector_expression"), parenExpr: g.Kind("parenthesized_expression"),
		typeAssertion: g.Kind("type_assertion_expression"),

		fName: g.Field("name"), fType: g.Field("type"), fPath: g.Field("path"), fBody: g.Field("body"),
		fReceiver: g.Field("receiver"), fParams: g.Field("parameters"), fResult: g.Field("result"),
		fTypeParams: g.Field("type_parameters"), fFunction: g.Field("function"),
		fOperand: g.Field("operand"), fField: g.Field("field"), fArguments: g.Field("arguments"),
		fLeft: g.Field("left"), fRight: g.Field("right"), fValue: g.Field("value"),
		fPackage: g.Field("package"), fAlias: g.Field("alias"),
		values: newValueKinds(g),
	}
	roles := map[string]uint8{
		"package_clause":             rolePackage,
		"import_declaration":         roleImport,
		"type_declaration":           roleTypeDecl,
		"function_declaration":       roleFunc,
		"method_declaration":         roleMethod,
		"func_literal":               roleFuncLit,
		"var_declaration":            roleVarDecl,
		"const_declaration":          roleConstDecl,
		"short_var_declaration":      roleShortVar,
		"call_expression":            roleCall,
		"type_conversion_expression": roleTypeConv,
		"range_clause":               roleBindLeft,
		"receive_statement":          roleBindLeft,
		"type_switch_statement":      roleTypeSwitch,
		"argument_list":              roleValues,
		"return_statement":           roleValues,
		"literal_value":              roleValues,
		"assignment_statement":       roleValues,
		"composite_literal":          roleValues,
	}
	k.refKinds = new(extract.KindTable)
	for _, id := range []extract.KindID{k.typeArgs, k.typeIdent, k.qualifiedType, errorKind} {
		if id != 0 {
			k.refKinds[id] = 1
		}
	}
	k.roles = new(extract.KindTable)
	k.roles[errorKind] = roleError
	for name, r := range roles {
		if id := g.Kind(name); id != 0 {
			k.roles[id] = r
		}
	}
	return k
}

// errorKind is the kind id the host gives ERROR nodes.
const errorKind extract.KindID = 0xFFFF

// binding is a name in scope with the named type it was declared with ("" if
// unknown or not a named type). Strings are views into the file's source.
type binding struct{ name, typ string }

// frame is a callable being walked: a function, method or func literal
// (which shares its enclosing function's symbol).
type frame struct {
	end     extract.Node
	sym     int32
	vars    int    // len(walker.vars) at entry
	tparams int    // len(walker.tparams) at entry
	varMask uint64 // walker.varMask at entry
}

// assertion is a `var _ I = (*T)(nil)` compile-time interface check.
type assertion struct {
	typ, iface string
	line       uint32
}

type walker struct {
	f       *extract.File
	t       *extract.Tree
	k       *kinds
	src     string // the source as one string: names are substrings, not copies
	isTest  bool   // a _test.go file
	pkgName string // the package clause's name

	frames  []frame
	vars    []binding // globals first (vars[:globals]), then locals of open frames
	globals int
	// varMask has nameBit set for every name in vars (and maybe for names
	// gone out of scope), so most lookups of a name that is not a
	// variable, such as a package name, skip scanning vars.
	varMask uint64
	tparams []string // type parameter names in scope
	// typeDepth bounds the receiver-type recursion (exprType through
	// valueType and resultOf): a generated 5,000-link chain
	// a.b().c()… would otherwise build a type string per link that spells
	// the whole chain below it, cubic in the chain's length.
	typeDepth int
	// shadowed lists builtins the file redeclares as top-level functions
	// (pre-1.21 code often has its own min/max), so calls to them are kept.
	shadowed []string
	// fields maps {struct, field} to the field's named type, for the
	// structs declared in this file.
	fields map[[2]string]string

	// imported holds the names the file's imports bind (alias, else the
	// path's last element), which are no receivers of their own.
	imported []string

	params  []abi.Param    // scratch for signature
	relFrom int32          // symbol whose references relKeys dedupes
	relKeys []abi.Relation // references already reported for relFrom

	asserts []assertion

	// valueOwner is the package variable whose initializer ends before
	// node valueOwnerEnd (-1: the file), see packageValues.
	valueOwner    int32
	valueOwnerEnd extract.Node
}

// text is n's source text, a substring of the source ("" for None).
func (w *walker) text(n extract.Node) string {
	s, e := w.t.ByteRange(n)
	if s > e || e > len(w.src) {
		return ""
	}
	return w.src[s:e]
}

func (w *walker) is(n extract.Node, k extract.KindID) bool {
	return n != extract.None && k != 0 && w.t.Kind(n) == k
}

// caller is the symbol calls are attributed to right now.
func (w *walker) caller() int32 {
	if len(w.frames) == 0 {
		return -1
	}
	return w.frames[len(w.frames)-1].sym
}

// prescan reads only the file's top-level declarations: package-level
// variables with an explicit type and struct field types (receivers of
// calls anywhere in the file), and top-level functions that shadow builtins.
func (w *walker) prescan() {
	t, k := w.t, w.k
	for c := range t.Children(0) {
		switch k.roles[t.Kind(c)] {
		case roleFunc:
			if name := w.text(t.Child(c, k.fName)); isBuiltinFunc(name) {
				w.shadowed = append(w.shadowed, name)
			}
		case roleVarDecl:
			w.eachSpec(c, k.varSpec, func(spec extract.Node) { w.bindVarSpec(spec) })
		case roleTypeDecl:
			for spec := range t.NamedChildren(c) {
				if t.Kind(spec) == k.typeSpec {
					w.bindFields(spec)
				}
			}
		}
	}
	w.globals = len(w.vars)
}

// bindFields records the named types of a struct's fields, so `s.db.Query()`
// gets the type of db when s is typed and its struct is declared here.
func (w *walker) bindFields(spec extract.Node) {
	t, k := w.t, w.k
	st := t.Child(spec, k.fType)
	if !w.is(st, k.structType) {
		return
	}
	list := t.ChildOfKind(st, k.fieldDeclList)
	if list == extract.None {
		return
	}
	owner := w.text(t.Child(spec, k.fName))
	mark := len(w.tparams)
	w.bindTypeParams(t.Child(spec, k.fTypeParams))
	defer func() { w.tparams = w.tparams[:mark] }()
	for fd := range t.NamedChildren(list) {
		if t.Kind(fd) != k.fieldDecl {
			continue
		}
		typ := w.baseType(t.Child(fd, k.fType))
		if typ == "" {
			continue
		}
		for c := range t.Children(fd) {
			if t.Field(c) == k.fName && t.Kind(c) == k.fieldIdent {
				if w.fields == nil {
					w.fields = map[[2]string]string{}
				}
				w.fields[[2]string{owner, w.text(c)}] = typ
			}
		}
	}
}

// eachSpec calls fn for every spec of kind spec in a declaration, grouped
// (`var ( … )`) or not.
func (w *walker) eachSpec(decl extract.Node, spec extract.KindID, fn func(extract.Node)) {
	for c := range w.t.NamedChildren(decl) {
		if w.t.Kind(c) == spec {
			fn(c)
			continue
		}
		for s := range w.t.NamedChildren(c) { // var_spec_list
			if w.t.Kind(s) == spec {
				fn(s)
			}
		}
	}
}

// walk is the single linear pass. Handlers return the next node to visit:
// past a subtree they fully handled, or into it to find calls.
func (w *walker) walk() {
	t, k := w.t, w.k
	n := extract.Node(t.Len())
	end := w.frameEnd()
	for i := extract.Node(0); i < n; {
		// Most nodes play no role and are fine: Seek jumps over them in
		// one tight loop (roles marks ERROR nodes too). Frames that close
		// among them are popped at the next node handled, before any
		// handler looks at the scope.
		if i = t.Seek(i, n, k.roles); i >= n {
			break
		}
		if i >= end {
			for len(w.frames) > 0 && i >= w.frames[len(w.frames)-1].end {
				fr := w.frames[len(w.frames)-1]
				w.frames = w.frames[:len(w.frames)-1]
				w.vars, w.tparams, w.varMask = w.vars[:fr.vars], w.tparams[:fr.tparams], fr.varMask
			}
			end = w.frameEnd()
		}
		h := t.Header(i)
		id := h.Kind()
		role := k.roles[id]
		if id == errorKind || h.IsError() {
			w.f.Errorf("syntax error at L%d:%d", t.StartLine(i), t.StartCol(i))
			if i == 0 { // a wholly broken file: salvage what its children hold
				i++
			} else {
				i = t.End(i)
			}
			continue
		}
		// Only named MISSING nodes are reported: a missing ")" is not sent
		// to named-only plugins, and the facts must not depend on that.
		if h.IsMissing() && h.IsNamed() {
			w.f.Errorf("syntax error at L%d:%d: missing %s", t.StartLine(i), t.StartCol(i), t.KindName(i))
		}
		switch role {
		case rolePackage:
			if p := t.ChildOfKind(i, k.packageIdent); p != extract.None {
				w.pkgName = w.text(p)
				w.f.SetPackage(w.pkgName)
			}
			w.f.SetDoc(extract.DocAbove(t.Source(), t.StartByte(i), extract.DocSlashes))
			i = t.End(i)
		case roleImport:
			w.imports(i)
			i = t.End(i)
		case roleTypeDecl:
			w.typeDecl(i) // then walk in: array lengths may call, errors may hide
			i++
		case roleFunc, roleMethod:
			i = w.function(i)
		case roleFuncLit:
			w.pushFrame(i, w.caller())
			w.bindParams(t.Child(i, k.fParams))
			w.bindParams(t.Child(i, k.fResult)) // named results
			i++
		case roleVarDecl:
			w.varDecl(i)
			i++
		case roleConstDecl:
			if len(w.frames) == 0 {
				w.constDecl(i)
			}
			i++
		case roleShortVar:
			w.shortVar(i)
			i++
		case roleBindLeft:
			w.bindLocals(t.Child(i, k.fLeft))
			w.valueRef(t.Child(i, k.fRight)) // range tests: a package table
			i++
		case roleTypeSwitch:
			w.bindLocals(t.Child(i, k.fAlias))
			i++
		case roleCall:
			w.call(i)
			i++
		case roleValues:
			w.values(i)
			i++
		case roleTypeConv:
			w.genericCall(i)
			i++
		default:
			i++
		}
		end = w.frameEnd() // the handler may have opened a frame
	}
}

// frameEnd is where the innermost open frame ends; past every node when
// none is open.
func (w *walker) frameEnd() extract.Node {
	if len(w.frames) == 0 {
		return math.MaxInt32
	}
	return w.frames[len(w.frames)-1].end
}

func (w *walker) pushFrame(n extract.Node, sym int32) {
	w.frames = append(w.frames, frame{end: w.t.End(n), sym: sym, vars: len(w.vars), tparams: len(w.tparams), varMask: w.varMask})
}

func (w *walker) imports(decl extract.Node) {
	t, k := w.t, w.k
	for s := range t.Descendants(decl) {
		if t.Kind(s) != k.importSpec {
			continue
		}
		path := unquote(w.text(t.Child(s, k.fPath)))
		if path == "" {
			continue
		}
		alias := w.text(t.Child(s, k.fName))
		w.f.Import(abi.Import{Path: path, Alias: alias, Line: t.StartLine(s)})
		if alias == "" {
			alias = importName(path)
		}
		w.imported = append(w.imported, alias)
	}
}

// importName guesses the name an import path binds: its last element,
// skipping a major-version element (example.com/x/v2 is x) and a
// gopkg.in-style ".vN" suffix. A wrong guess only means the host tells
// the package name from a variable by the file's imports instead.
func importName(path string) string {
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	return name
}

// isImported reports whether name is bound by an import of the file.
func (w *walker) isImported(name string) bool {
	for _, n := range w.imported {
		if n == name {
			return true
		}
	}
	return false
}

// declSpan is the span of a spec's definition: the whole declaration when it
// declares this one spec without parentheses (`type T struct{…}` starts at
// "type"), else the spec. A grouped declaration ends with its ")" after the
// last spec; comparing ends needs no keyword or punctuation nodes, which a
// named-only host does not send.
func (w *walker) declSpan(decl, spec extract.Node) abi.Span {
	if w.t.EndByte(spec) == w.t.EndByte(decl) {
		return w.t.Span(decl)
	}
	return w.t.Span(spec)
}

func (w *walker) typeDecl(decl extract.Node) {
	t, k := w.t, w.k
	for spec := range t.NamedChildren(decl) {
		switch t.Kind(spec) {
		case k.typeSpec, k.typeAlias:
			w.typeSpec(decl, spec)
		}
	}
}

func (w *walker) typeSpec(decl, spec extract.Node) {
	t, k := w.t, w.k
	nameNode := t.Child(spec, k.fName)
	name := w.text(nameNode)
	if name == "" || name == "_" || t.IsMissing(nameNode) {
		return
	}
	typ := t.Child(spec, k.fType)
	kind := abi.KindTypeAlias
	switch {
	case t.Kind(spec) == k.typeAlias:
	case w.is(typ, k.structType):
		kind = abi.KindStruct
	case w.is(typ, k.interfaceType):
		kind = abi.KindInterface
	}
	sym := w.f.Symbol(abi.Symbol{
		Name: name, Kind: kind, Parent: w.caller(),
		Visibility: w.visibility(name), Span: w.declSpan(decl, spec),
	})
	mark := len(w.tparams)
	w.bindTypeParams(t.Child(spec, k.fTypeParams))
	defer func() { w.tparams = w.tparams[:mark] }()
	switch {
	case t.Kind(spec) == k.typeAlias:
	case w.is(typ, k.structType):
		w.structFields(sym, typ)
	case w.is(typ, k.interfaceType):
		w.interfaceElems(sym, typ)
	case w.is(typ, k.functionType):
		w.refs(sym, t.Child(typ, k.fParams), abi.CtxParameterType)
		w.refs(sym, t.Child(typ, k.fResult), abi.CtxReturnType)
	}
}

func (w *walker) structFields(sym int32, st extract.Node) {
	t, k := w.t, w.k
	list := t.ChildOfKind(st, k.fieldDeclList)
	if list == extract.None {
		return
	}
	for fd := range t.NamedChildren(list) {
		if t.Kind(fd) != k.fieldDecl {
			continue
		}
		typ := t.Child(fd, k.fType)
		named := false
		for c := range t.Children(fd) {
			if t.Field(c) != k.fName || t.Kind(c) != k.fieldIdent {
				continue
			}
			named = true
			if name := w.text(c); name != "_" {
				// The field's type, so the host can follow x.f.M() across files.
				var sig *abi.Signature
				if base := w.baseType(typ); base != "" {
					sig = &abi.Signature{Return: base}
				}
				w.f.Symbol(abi.Symbol{Name: name, Kind: abi.KindField, Parent: sym, Visibility: w.visibility(name), Span: t.Span(fd), Signature: sig})
			}
		}
		if named {
			w.refs(sym, typ, abi.CtxField)
			continue
		}
		// An embedded field: `T`, `*T`, `pkg.T`, `T[U]`. A lone name that
		// error recovery cut from the rest of its line (`y int =`) is more
		// likely a broken named field than an embedding: skip it.
		if next := t.End(fd); int(next) < t.Len() && t.IsError(next) && t.StartLine(next) == t.StartLine(fd) {
			continue
		}
		if target := w.baseType(typ); target != "" {
			w.f.Relation(abi.Relation{From: sym, Kind: abi.RelEmbeds, Target: target, Line: t.StartLine(typ)})
		}
		w.typeArgRefs(sym, typ)
	}
}

func (w *walker) interfaceElems(sym int32, it extract.Node) {
	t, k := w.t, w.k
	for el := range t.NamedChildren(it) {
		switch id := t.Kind(el); id {
		case k.methodElem, k.methodSpec:
			name := w.text(t.Child(el, k.fName))
			if name == "" {
				continue
			}
			params, result := t.Child(el, k.fParams), t.Child(el, k.fResult)
			m := w.f.Symbol(abi.Symbol{
				Name: name, Kind: abi.KindMethod, Parent: sym, Visibility: w.visibility(name),
				Span: t.Span(el), Signature: w.signature(el, params, result, extract.None),
			})
			w.refs(m, params, abi.CtxParameterType)
			w.refs(m, result, abi.CtxReturnType)
		case k.typeElem, k.constraintElem:
			// One plain type is an embedded interface; unions and ~T are
			// type sets, not embedding.
			if t.ChildCount(el) != 1 {
				continue
			}
			if target := w.baseType(el + 1); target != "" {
				w.f.Relation(abi.Relation{From: sym, Kind: abi.RelEmbeds, Target: target, Line: t.StartLine(el)})
			}
			w.typeArgRefs(sym, el+1)
		case k.typeIdent, k.qualifiedType: // older grammars embed without type_elem
			if target := w.baseType(el); target != "" {
				w.f.Relation(abi.Relation{From: sym, Kind: abi.RelEmbeds, Target: target, Line: t.StartLine(el)})
			}
		}
	}
}

// function reports a function or method declaration and opens its frame.
// It returns the node after n: the walk goes on through the header (to
// report syntax errors there) and the body (for calls).
func (w *walker) function(n extract.Node) extract.Node {
	t, k := w.t, w.k
	body := t.Child(n, k.fBody)
	next := n + 1
	nameNode := t.Child(n, k.fName)
	name := w.text(nameNode)
	if name == "" || t.IsMissing(nameNode) {
		w.pushFrame(n, w.caller())
		return next
	}
	params, result := t.Child(n, k.fParams), t.Child(n, k.fResult)
	sym := abi.Symbol{Name: name, Kind: abi.KindFunction, Parent: -1, Visibility: w.visibility(name), Span: t.Span(n)}
	sym.Signature = w.signature(n, params, result, body)
	var recvName, recvType string
	recv := t.Child(n, k.fReceiver)
	mark := len(w.tparams)
	if recv != extract.None {
		sym.Kind = abi.KindMethod
		if pd := t.ChildOfKind(recv, k.paramDecl); pd != extract.None {
			recvName = w.text(t.Child(pd, k.fName))
			rt := t.Child(pd, k.fType)
			w.bindReceiverTypeParams(rt)
			recvType = w.baseType(rt)
		}
		sym.Receiver = recvType
	} else {
		w.bindTypeParams(t.Child(n, k.fTypeParams))
		sym.Test = w.isTest && isTestFunc(name, sym.Signature)
	}
	idx := w.f.Symbol(sym)
	w.refs(idx, params, abi.CtxParameterType)
	w.refs(idx, result, abi.CtxReturnType)
	// The frame spans the whole declaration; the type parameters bound above
	// belong to it.
	w.frames = append(w.frames, frame{end: t.End(n), sym: idx, vars: len(w.vars), tparams: mark, varMask: w.varMask})
	if recvName != "" && recvName != "_" {
		w.bind(recvName, recvType)
	}
	w.bindParams(params)
	w.bindParams(result) // named results; a bare result type binds nothing
	return next
}

// signature builds a callable's header. Params keep their types as written;
// Raw is everything before the body with whitespace collapsed.
func (w *walker) signature(n, params, result, body extract.Node) *abi.Signature {
	t, k := w.t, w.k
	sig := &abi.Signature{Return: collapse(w.text(result))}
	// Params are gathered in w.params and copied once at their final
	// size, rather than grown one append at a time in every signature.
	ps := w.params[:0]
	if params != extract.None {
		for pd := range t.NamedChildren(params) {
			id := t.Kind(pd)
			if id != k.paramDecl && id != k.variadicParamDecl {
				continue
			}
			typ := t.Child(pd, k.fType)
			typText := w.text(typ)
			if id == k.variadicParamDecl && typ != extract.None {
				// "...T": from the ellipsis to the type's end, found in the
				// source since the host may not send the "..." token.
				head := w.src[t.StartByte(pd):t.StartByte(typ)]
				if e := strings.LastIndex(head, "..."); e >= 0 {
					typText = w.src[t.StartByte(pd)+e : t.EndByte(typ)]
				}
			}
			typText = collapse(typText)
			named := false
			for c := range t.Children(pd) {
				if t.Field(c) == k.fName && t.Kind(c) == k.identifier {
					ps = append(ps, abi.Param{Name: w.text(c), Type: typText})
					named = true
				}
			}
			if !named {
				ps = append(ps, abi.Param{Type: typText})
			}
		}
	}
	if len(ps) > 0 {
		sig.Params = slices.Clone(ps)
	}
	w.params = ps
	end := t.EndByte(n)
	if body != extract.None {
		end = t.StartByte(body)
	}
	sig.Raw = collapse(w.src[t.StartByte(n):end])
	return sig
}

// bindParams puts a parameter list's names in scope with their named types,
// so calls through them get a ReceiverType and calls of them are not
// mistaken for calls of package functions.
func (w *walker) bindParams(params extract.Node) {
	t, k := w.t, w.k
	if params == extract.None {
		return
	}
	for pd := range t.NamedChildren(params) {
		id := t.Kind(pd)
		if id != k.paramDecl && id != k.variadicParamDecl {
			continue
		}
		typ := ""
		if id == k.paramDecl {
			typ = w.baseType(t.Child(pd, k.fType))
		}
		for c := range t.Children(pd) {
			if t.Field(c) == k.fName && t.Kind(c) == k.identifier {
				w.bind(w.text(c), typ)
			}
		}
	}
}

func (w *walker) bindTypeParams(list extract.Node) {
	if list == extract.None {
		return
	}
	for pd := range w.t.NamedChildren(list) {
		if w.t.Kind(pd) != w.k.typeParamDecl {
			continue
		}
		for c := range w.t.Children(pd) {
			if w.t.Field(c) == w.k.fName {
				w.tparams = append(w.tparams, w.text(c))
			}
		}
	}
}

// bindReceiverTypeParams binds T and K of a receiver `*Gen[T, K]`.
func (w *walker) bindReceiverTypeParams(rt extract.Node) {
	t, k := w.t, w.k
	for rt != extract.None && t.Kind(rt) == k.pointerType {
		rt = firstNamed(t, rt)
	}
	if !w.is(rt, k.genericType) {
		return
	}
	args := t.ChildOfKind(rt, k.typeArgs)
	if args == extract.None {
		return
	}
	for a := range t.Descendants(args) {
		if t.Kind(a) == k.typeIdent {
			w.tparams = append(w.tparams, w.text(a))
		}
	}
}

// firstNamed returns n's first named child, or None (also for n == None:
// the Tree API does not accept None).
func firstNamed(t *extract.Tree, n extract.Node) extract.Node {
	if n == extract.None {
		return extract.None
	}
	for c := range t.NamedChildren(n) {
		return c
	}
	return extract.None
}

// varDecl reports package-level variables as symbols and binds local ones.
func (w *walker) varDecl(decl extract.Node) {
	k := w.k
	w.eachSpec(decl, k.varSpec, func(spec extract.Node) {
		if len(w.frames) > 0 {
			w.valueList(w.t.Child(spec, k.fValue))
			w.bindVarSpec(spec)
			return
		}
		first := len(w.f.Symbols())
		w.valueSymbols(decl, spec, "variable")
		w.packageValues(spec, first)
		w.checkAssertion(spec)
	})
}

func (w *walker) constDecl(decl extract.Node) {
	w.eachSpec(decl, w.k.constSpec, func(spec extract.Node) { w.valueSymbols(decl, spec, "constant") })
}

func (w *walker) valueSymbols(decl, spec extract.Node, kind abi.SymbolKind) {
	t, k := w.t, w.k
	declared := w.baseType(t.Child(spec, k.fType))
	values := t.Child(spec, k.fValue)
	i := 0
	for c := range t.Children(spec) {
		if t.Field(c) != k.fName || t.Kind(c) != k.identifier {
			continue
		}
		if name := w.text(c); name != "_" {
			s := abi.Symbol{Name: name, Kind: kind, Parent: -1, Visibility: w.visibility(name), Span: w.declSpan(decl, spec)}
			if kind == abi.KindVariable {
				// A package variable's type, so pkg.V.M() resolves in other
				// packages (http.DefaultClient.Do): a type name only, never a
				// chain, so following it can never loop.
				typ := declared
				if typ == "" && values != extract.None {
					typ = w.valueType(nthNamed(t, values, i))
				}
				if typ != "" && !strings.ContainsAny(typ, "#()") {
					s.Signature = &abi.Signature{Return: typ}
				} else if ref := resultRef(typ); ref != nil {
					s.Signature = &abi.Signature{Return: typ, ReturnRef: ref}
				}
			}
			w.f.Symbol(s)
		}
		i++
	}
}

// bindVarSpec binds `var x T` to T, and `var x = T{}` / `&T{}` / `new(T)`
// to T; other initial values bind the name with an unknown type.
func (w *walker) bindVarSpec(spec extract.Node) {
	t, k := w.t, w.k
	declared := w.baseType(t.Child(spec, k.fType))
	values := t.Child(spec, k.fValue)
	i := 0
	for c := range t.Children(spec) {
		if t.Field(c) != k.fName || t.Kind(c) != k.identifier {
			continue
		}
		typ := declared
		if typ == "" && values != extract.None {
			typ = w.valueType(nthNamed(t, values, i))
		}
		w.bind(w.text(c), typ)
		i++
	}
}

// bindLocals binds the identifiers of an expression list (for k, v :=
// range …, case v := <-ch, switch v := x.(type)) with unknown types: they
// are locals, which shadow names of the package. A range with = rebinds
// names already in scope, which only forgets their type.
func (w *walker) bindLocals(list extract.Node) {
	if list == extract.None {
		return
	}
	t, k := w.t, w.k
	for c := range t.NamedChildren(list) {
		if t.Kind(c) == k.identifier {
			if name := w.text(c); name != "_" {
				w.bind(name, "")
			}
		}
	}
}

// shortVar binds `x := T{}` / `&T{}` / `new(T)` to T and every other name on
// the left with an unknown type, which shadows outer bindings.
func (w *walker) shortVar(n extract.Node) {
	t, k := w.t, w.k
	left, right := t.Child(n, k.fLeft), t.Child(n, k.fRight)
	w.valueList(right)
	if left == extract.None {
		return
	}
	i := 0
	for c := range t.NamedChildren(left) {
		if t.Kind(c) == k.identifier {
			if name := w.text(c); name != "_" {
				w.bind(name, w.valueType(nthNamed(t, right, i)))
			}
		}
		i++
	}
}

func nthNamed(t *extract.Tree, list extract.Node, i int) extract.Node {
	if list == extract.None {
		return extract.None
	}
	for c := range t.NamedChildren(list) {
		if i == 0 {
			return c
		}
		i--
	}
	return extract.None
}

// valueType is the named type of a value written as T{…}, &T{…} or new(T).
func (w *walker) valueType(v extract.Node) string {
	t, k := w.t, w.k
	if v == extract.None {
		return ""
	}
	switch t.Kind(v) {
	case k.unaryExpr:
		if op := t.Child(v, k.fOperand); w.is(op, k.compositeLit) && strings.HasPrefix(w.text(v), "&") {
			return w.baseType(t.Child(op, k.fType))
		}
	case k.compositeLit:
		return w.baseType(t.Child(v, k.fType))
	case k.callExpr:
		fn := t.Child(v, k.fFunction)
		if w.is(fn, k.identifier) && w.text(fn) == "new" && !w.isShadowed("new") {
			return w.baseType(firstNamed(t, t.Child(v, k.fArguments)))
		}
		return w.resultOf(fn)
	case k.selectorExpr:
		return w.exprType(v) // x := y.f, x := f().f: "T#f"
	case k.typeAssertion:
		return w.baseType(w.t.Child(v, k.fType)) // x := y.(*T)
	case k.identifier:
		typ, _ := w.lookup(w.text(v), false) // x := y copies y's type
		return typ
	}
	return ""
}

// resultOf names the value of calling fn as "F()" or "pkg.F()": the host
// resolves the function and takes its first result type, so x := NewT()
// and NewT().M() still know their receiver. Builtins, conversions to
// predeclared types, local func values and method calls give "".
func (w *walker) resultOf(fn extract.Node) string {
	t, k := w.t, w.k
	switch {
	case w.is(fn, k.identifier):
		name := w.text(fn)
		if w.builtinCall(name) || isPredeclaredType(name) {
			return ""
		}
		if _, local := w.lookup(name, true); local {
			return ""
		}
		return w.spelled(fn, extract.None, true)
	case w.is(fn, k.selectorExpr):
		op, field := t.Child(fn, k.fOperand), t.Child(fn, k.fField)
		if field == extract.None {
			return ""
		}
		if w.is(op, k.identifier) && !w.isVar(w.text(op)) {
			return w.spelled(op, field, true)
		}
		// x.M(): the result of method M of x's type, "T#M()".
		if owner := w.exprType(op); owner != "" {
			return owner + "#" + w.text(field) + "()"
		}
	}
	return ""
}

// spelled is text(x), then "." and text(f) unless f is None, then "()" if
// call: "F()", "pkg.F()", "pkg.V". When the source spells exactly that
// (no spaces, comments or arguments) it is returned as a substring of the
// source, saving the allocation of concatenating.
func (w *walker) spelled(x, f extract.Node, call bool) string {
	start, end := w.t.ByteRange(x)
	ok := start <= end
	if f != extract.None {
		fs, fe := w.t.ByteRange(f)
		ok = ok && fs == end+1 && fs <= fe && fe <= len(w.src) && w.src[end] == '.'
		end = fe
	}
	if call {
		ok = ok && end+2 <= len(w.src) && w.src[end] == '(' && w.src[end+1] == ')'
		end += 2
	}
	if ok && end <= len(w.src) {
		return w.src[start:end]
	}
	switch {
	case f != extract.None && call:
		return w.text(x) + "." + w.text(f) + "()"
	case f != extract.None:
		return w.text(x) + "." + w.text(f)
	case call:
		return w.text(x) + "()"
	}
	return w.text(x)
}

// isVar reports whether name is a variable in scope (so x.M is a method or
// field of x, not something of package x).
func (w *walker) isVar(name string) bool {
	if w.varMask&nameBit(name) == 0 {
		return false
	}
	for _, b := range w.vars {
		if b.name == name {
			return true
		}
	}
	return false
}

func (w *walker) call(n extract.Node) {
	t, k := w.t, w.k
	fn := t.Child(n, k.fFunction)
	switch {
	case w.is(fn, k.identifier):
		name := w.text(fn)
		if w.builtinCall(name) || isPredeclaredType(name) {
			return
		}
		if _, local := w.lookup(name, true); local {
			return // a closure or func-typed parameter, not a named function
		}
		w.f.Call(abi.Call{Caller: w.caller(), Name: name, Line: t.StartLine(fn), Col: t.StartCol(fn)})
	case w.is(fn, k.selectorExpr):
		op, field := t.Child(fn, k.fOperand), t.Child(fn, k.fField)
		if op == extract.None || field == extract.None {
			return
		}
		// A short identifier, the usual receiver, is already what
		// receiverText would make of it.
		recv := w.text(op)
		if !w.is(op, k.identifier) || len(recv) > maxReceiver {
			recv = receiverText(recv)
		}
		name := w.text(field)
		w.dynamic(n, recv, name)
		w.route(n, recv, name)
		w.crossLang(n, recv, name)
		w.f.Call(abi.Call{
			Caller: w.caller(), Name: name,
			Receiver: recv, ReceiverType: w.exprType(op),
			Line: t.StartLine(field), Col: t.StartCol(field),
		})
	}
}

// exprType is the named type of a receiver expression when it is written
// down locally: a typed name, a field of a typed name whose struct is
// declared in this file, a type assertion x.(T), or a literal T{} / &T{}.
func (w *walker) exprType(op extract.Node) string {
	if w.typeDepth >= maxTypeDepth {
		return ""
	}
	w.typeDepth++
	typ := w.exprTypeAt(op)
	w.typeDepth--
	return typ
}

// exprTypeAt is exprType one link deeper.
func (w *walker) exprTypeAt(op extract.Node) string {
	t, k := w.t, w.k
	for w.is(op, k.parenExpr) {
		op = firstNamed(t, op)
	}
	if op == extract.None {
		return ""
	}
	switch t.Kind(op) {
	case k.identifier:
		name := w.text(op)
		typ, _ := w.lookup(name, false)
		if typ == "" && !w.isVar(name) && !w.isImported(name) {
			// Declared in no scope of this file: a variable of the
			// package's other files or of a dot import, a type (T.M(x)),
			// or an import's name (pkg.F(), which the host tells apart by
			// the file's imports). The host looks the name up.
			return name
		}
		return typ
	case k.selectorExpr:
		// x.f: the field's type when its struct is declared in this file,
		// else "T#f" for the host, which knows every struct's fields.
		x, f := t.Child(op, k.fOperand), t.Child(op, k.fField)
		if f == extract.None {
			return ""
		}
		if w.is(x, k.identifier) && !w.isVar(w.text(x)) {
			// pkg.V: a variable of an imported package; the host reads its
			// declared type there.
			return w.spelled(x, f, false)
		}
		owner := w.exprType(x)
		if owner == "" {
			return ""
		}
		if typ := w.fields[[2]string{owner, w.text(f)}]; typ != "" {
			return typ
		}
		return owner + "#" + w.text(f)
	case k.typeAssertion:
		return w.baseType(t.Child(op, k.fType))
	case k.compositeLit, k.unaryExpr, k.callExpr:
		return w.valueType(op)
	}
	return ""
}

// maxTypeDepth is how many links of a receiver chain exprType follows.
const maxTypeDepth = 16

// genericCall reports F[T](x) and pkg.F[T](x), which the grammar parses as
// conversions to a generic type; conversions to non-generic types are not calls.
func (w *walker) genericCall(n extract.Node) {
	t, k := w.t, w.k
	g := t.Child(n, k.fType)
	if !w.is(g, k.genericType) {
		return
	}
	fn := t.Child(g, k.fType)
	switch {
	case w.is(fn, k.typeIdent):
		w.f.Call(abi.Call{Caller: w.caller(), Name: w.text(fn), Line: t.StartLine(fn), Col: t.StartCol(fn)})
	case w.is(fn, k.qualifiedType):
		name := t.Child(fn, k.fName)
		w.f.Call(abi.Call{Caller: w.caller(), Name: w.text(name), Receiver: w.text(t.Child(fn, k.fPackage)), Line: t.StartLine(name), Col: t.StartCol(name)})
	}
}

// lookup finds the innermost binding of name: its type, and whether it is
// local to the open frames (as opposed to a package-level variable).
func (w *walker) lookup(name string, localOnly bool) (typ string, local bool) {
	if w.varMask&nameBit(name) == 0 {
		return "", false
	}
	for i := len(w.vars) - 1; i >= 0; i-- {
		if localOnly && i < w.globals {
			break
		}
		if w.vars[i].name == name {
			return w.vars[i].typ, i >= w.globals
		}
	}
	return "", false
}

// bind puts name in scope with type typ ("" if unknown).
func (w *walker) bind(name, typ string) {
	w.vars = append(w.vars, binding{name, typ})
	w.varMask |= nameBit(name)
}

// nameBit is name's bit in walker.varMask: a hash of its length and
// first and last bytes.
func nameBit(name string) uint64 {
	h := uint(len(name))
	if len(name) > 0 {
		h = h*31 + uint(name[0])*7 + uint(name[len(name)-1])
	}
	return 1 << (h & 63)
}

// builtinCall reports whether a plain call of name is the builtin: not
// when this file declares a function of that name, and not for the
// builtins Go 1.21 added, which code written before then often declares
// in another file of its package. Such a call is reported; the host links
// it to the package's function and leaves it unresolved where the
// package has none.
func (w *walker) builtinCall(name string) bool {
	return isBuiltinFunc(name) && !w.isShadowed(name) && !go121Builtins[name]
}

// go121Builtins are the builtins added in Go 1.21.
var go121Builtins = map[string]bool{"min": true, "max": true, "clear": true}

func (w *walker) isShadowed(name string) bool {
	for _, s := range w.shadowed {
		if s == name {
			return true
		}
	}
	return false
}

// baseType is the named type under pointers and type arguments, as written:
// *pkg.T[U] → "pkg.T". Predeclared types and type parameters give "".
func (w *walker) baseType(n extract.Node) string {
	t, k := w.t, w.k
	for n != extract.None {
		switch t.Kind(n) {
		case k.pointerType, k.parenType:
			n = firstNamed(t, n)
		case k.genericType:
			n = t.Child(n, k.fType)
		case k.typeIdent:
			name := w.text(n)
			if isPredeclaredType(name) || w.isTypeParam(name) {
				return ""
			}
			return name
		case k.qualifiedType:
			return collapse(w.text(n))
		default:
			return ""
		}
	}
	return ""
}

func (w *walker) isTypeParam(name string) bool {
	for _, p := range w.tparams {
		if p == name {
			return true
		}
	}
	return false
}

// refs reports the named types used inside a type expression (or a
// parameter list) as references from sym: the base names as written,
// without pointers, slices or maps; type arguments get context generic_arg.
func (w *walker) refs(sym int32, n extract.Node, ctx abi.RelationContext) {
	if n == extract.None {
		return
	}
	t, k := w.t, w.k
	genericEnd := extract.None
	for i, end := n, t.End(n); i < end; {
		if i = t.Seek(i, end, k.refKinds); i >= end {
			break
		}
		h := t.Header(i)
		id := h.Kind()
		if id == errorKind || h.IsError() {
			i = t.End(i)
			continue
		}
		c := ctx
		if i < genericEnd {
			c = abi.CtxGenericArg
		}
		switch id {
		case k.typeArgs:
			if i >= genericEnd {
				genericEnd = t.End(i)
			}
		case k.typeIdent:
			if name := w.text(i); !isPredeclaredType(name) && !w.isTypeParam(name) {
				w.reference(sym, name, c, t.StartLine(i))
			}
		case k.qualifiedType:
			w.reference(sym, collapse(w.text(i)), c, t.StartLine(i))
			i = t.End(i)
			continue
		}
		i++
	}
}

// typeArgRefs reports the type arguments of an embedded generic type.
func (w *walker) typeArgRefs(sym int32, n extract.Node) {
	t, k := w.t, w.k
	for n != extract.None && t.Kind(n) == k.pointerType {
		n = firstNamed(t, n)
	}
	if w.is(n, k.genericType) {
		w.refs(sym, t.ChildOfKind(n, k.typeArgs), abi.CtxGenericArg)
	}
}

// reference reports one type use, once per (symbol, type, context).
func (w *walker) reference(sym int32, target string, ctx abi.RelationContext, line uint32) {
	if sym != w.relFrom {
		w.relFrom, w.relKeys = sym, w.relKeys[:0]
	}
	for _, r := range w.relKeys {
		if r.Target == target && r.Context == ctx {
			return
		}
	}
	r := abi.Relation{From: sym, Kind: abi.RelReferences, Target: target, Context: ctx, Line: line}
	w.relKeys = append(w.relKeys, r)
	w.f.Relation(r)
}

// checkAssertion records `var _ I = (*T)(nil)`, `T{}` or `&T{}`: Go's idiom
// for stating that T implements I.
func (w *walker) checkAssertion(spec extract.Node) {
	t, k := w.t, w.k
	name := t.Child(spec, k.fName)
	iface := w.baseType(t.Child(spec, k.fType))
	if w.text(name) != "_" || iface == "" {
		return
	}
	v := firstNamed(t, t.Child(spec, k.fValue))
	typ := w.valueType(v)
	if typ == "" && w.is(v, k.callExpr) { // (*T)(nil)
		if p := t.Child(v, k.fFunction); w.is(p, k.parenExpr) {
			if u := firstNamed(t, p); w.is(u, k.unaryExpr) && strings.HasPrefix(w.text(u), "*") {
				if op := t.Child(u, k.fOperand); w.is(op, k.identifier) || w.is(op, k.selectorExpr) {
					typ = collapse(w.text(op))
				}
			}
		}
	}
	if typ != "" {
		w.asserts = append(w.asserts, assertion{typ: typ, iface: iface, line: t.StartLine(spec)})
	}
}

// assertions reports the recorded interface checks as implements relations
// from the type when this file declares it, else from the file with
// Context "for:T" so the core can still attach them.
func (w *walker) assertions() {
	syms := w.f.Symbols()
	for _, a := range w.asserts {
		r := abi.Relation{From: -1, Kind: abi.RelImplements, Target: a.iface, Line: a.line}
		for i, s := range syms {
			if s.Parent == -1 && s.Name == a.typ && (s.Kind == abi.KindStruct || s.Kind == abi.KindTypeAlias || s.Kind == abi.KindInterface) {
				r.From = int32(i)
				break
			}
		}
		if r.From == -1 {
			r.Context = abi.ForType(a.typ)
		}
		w.f.Relation(r)
	}
}

// visibility follows Go's export rule for package-level names; everything
// declared inside a function is private to it.
func (w *walker) visibility(name string) abi.Visibility {
	if len(w.frames) > 0 {
		return abi.VisPrivate
	}
	r, _ := utf8.DecodeRuneInString(name)
	if unicode.IsUpper(r) {
		return abi.VisPublic
	}
	return abi.VisPrivate
}

// isTestFunc follows go test: a test, benchmark or fuzz target takes one
// parameter (*testing.T/B/F, or *testing.M for TestMain); an example takes
// none and returns nothing.
func isTestFunc(name string, sig *abi.Signature) bool {
	if !isTestName(name) {
		return false
	}
	if strings.HasPrefix(name, "Example") {
		return len(sig.Params) == 0 && sig.Return == ""
	}
	return len(sig.Params) == 1
}

// isTestName follows go test: Test, Benchmark, Fuzz or Example, optionally
// followed by a name that does not start with a lower-case letter.
func isTestName(name string) bool {
	for _, p := range [...]string{"Test", "Benchmark", "Fuzz", "Example"} {
		if rest, ok := strings.CutPrefix(name, p); ok {
			r, _ := utf8.DecodeRuneInString(rest)
			return rest == "" || !unicode.IsLower(r)
		}
	}
	return false
}

func isBuiltinFunc(name string) bool {
	switch name {
	case "append", "cap", "clear", "close", "complex", "copy", "delete", "imag", "len",
		"make", "max", "min", "new", "panic", "print", "println", "real", "recover":
		return true
	}
	return false
}

func isPredeclaredType(name string) bool {
	switch name {
	case "any", "bool", "byte", "comparable", "complex64", "complex128", "error",
		"float32", "float64", "int", "int8", "int16", "int32", "int64", "rune",
		"string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr":
		return true
	}
	return false
}

// unquote strips the quotes of an import path literal. Import paths never
// need escapes, so the text between the quotes is the path.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return ""
}

// maxReceiver is the sdk's one cap on receiver texts: a receiver that is
// itself a long call chain or literal carries no name the core could resolve.
const maxReceiver = extract.MaxReceiver

// receiverText is the receiver expression as written, on one line, capped.
func receiverText(s string) string { return extract.Receiver(s) }

// collapse is extract.Collapse: trimmed, each run of whitespace one space.
func collapse(s string) string { return extract.Collapse(s) }
