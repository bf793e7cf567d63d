package main

import (
	"sync"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

type (
	kind  = extract.KindID
	field = extract.FieldID
)

// grammar holds the node-kind and field ids the walk compares, resolved
// once per grammar (C and C++ number their kinds differently; a kind the
// C grammar lacks, like class_specifier, is 0 there and never matches).
type grammar struct {
	comment, stringLit, rawStringLit, charLit, include, sysLib, define, defineFn kind
	funcDef, funcDecl, structSpec, unionSpec, classSpec, enumSpec, typedef       kind
	aliasDecl, namespaceDef, usingDecl, declaration, fieldDecl, callExpr         kind
	newExpr, forRange, paramDecl, optParamDecl, exprStmt, compound               kind
	identifier, fieldIdent, typeIdent, qualifiedIdent, templateType              kind
	templateFunc, destructorName, operatorName, namespaceIdent                   kind
	fieldExpr, this, enumerator, baseClause, templateDecl                        kind
	storageClass, pureVirtual, accessSpec, initDecl, pointerDecl                 kind
	referenceDecl                                                                kind
	parenDecl, arrayDecl                                                         kind
	labeled, statementIdent                                                      kind
	parenExpr, pointerExpr, variadicParam, ellipsis                              kind
	ppIf, ppIfdef, ppElse, ppElifdef, ppDefined, unaryExpr, binaryExpr           kind

	fLabel                                                                      field
	fName, fBody, fType, fDeclarator, fParameters, fValue, fPath, fDefaultValue field
	fFunction, fArgument, fField, fScope, fArguments                            field
	fCondition, fAlternative, fLeft, fRight                                     field
}

var (
	grammarsMu sync.Mutex
	grammars   = map[*extract.Grammar]*grammar{}
)

// grammarFor returns the resolved ids for g, building them on first use.
func grammarFor(g *extract.Grammar) *grammar {
	grammarsMu.Lock()
	defer grammarsMu.Unlock()
	if k := grammars[g]; k != nil {
		return k
	}
	k := newGrammar(g)
	grammars[g] = k
	return k
}

func newGrammar(g *extract.Grammar) *grammar {
	return &grammar{
		comment: g.Kind("comment"), stringLit: g.Kind("string_literal"),
		rawStringLit: g.Kind("raw_string_literal"), charLit: g.Kind("char_literal"),
		include: g.Kind("preproc_include"), sysLib: g.Kind("system_lib_string"),
		define: g.Kind("preproc_def"), defineFn: g.Kind("preproc_function_def"),
		funcDef: g.Kind("function_definition"), funcDecl: g.Kind("function_declarator"),
		structSpec: g.Kind("struct_specifier"), unionSpec: g.Kind("union_specifier"),
		classSpec: g.Kind("class_specifier"), enumSpec: g.Kind("enum_specifier"),
		typedef: g.Kind("type_definition"), aliasDecl: g.Kind("alias_declaration"),
		namespaceDef: g.Kind("namespace_definition"), usingDecl: g.Kind("using_declaration"),
		declaration: g.Kind("declaration"), fieldDecl: g.Kind("field_declaration"),
		callExpr: g.Kind("call_expression"), newExpr: g.Kind("new_expression"),
		forRange: g.Kind("for_range_loop"), paramDecl: g.Kind("parameter_declaration"),
		optParamDecl: g.Kind("optional_parameter_declaration"), exprStmt: g.Kind("expression_statement"),
		compound: g.Kind("compound_statement"), identifier: g.Kind("identifier"),
		fieldIdent: g.Kind("field_identifier"), typeIdent: g.Kind("type_identifier"),
		qualifiedIdent: g.Kind("qualified_identifier"), templateType: g.Kind("template_type"),
		templateFunc: g.Kind("template_function"), destructorName: g.Kind("destructor_name"),
		operatorName: g.Kind("operator_name"), namespaceIdent: g.Kind("namespace_identifier"), fieldExpr: g.Kind("field_expression"),
		this: g.Kind("this"), enumerator: g.Kind("enumerator"), baseClause: g.Kind("base_class_clause"),
		templateDecl: g.Kind("template_declaration"),
		storageClass: g.Kind("storage_class_specifier"), pureVirtual: g.Kind("pure_virtual_clause"), accessSpec: g.Kind("access_specifier"),
		initDecl: g.Kind("init_declarator"), pointerDecl: g.Kind("pointer_declarator"),
		referenceDecl: g.Kind("reference_declarator"),
		parenDecl:     g.Kind("parenthesized_declarator"), arrayDecl: g.Kind("array_declarator"),
		parenExpr: g.Kind("parenthesized_expression"), pointerExpr: g.Kind("pointer_expression"), variadicParam: g.Kind("variadic_parameter"), ellipsis: g.Kind("variadic_parameter_declaration"),

		labeled: g.Kind("labeled_statement"), statementIdent: g.Kind("statement_identifier"),
		ppIf: g.Kind("preproc_if"), ppIfdef: g.Kind("preproc_ifdef"), ppElse: g.Kind("preproc_else"),
		ppElifdef: g.Kind("preproc_elifdef"), ppDefined: g.Kind("preproc_defined"),
		unaryExpr: g.Kind("unary_expression"), binaryExpr: g.Kind("binary_expression"),
		fCondition: g.Field("condition"), fAlternative: g.Field("alternative"), fLeft: g.Field("left"), fRight: g.Field("right"),
		fLabel: g.Field("label"),
		fName:  g.Field("name"), fBody: g.Field("body"), fType: g.Field("type"),
		fDeclarator: g.Field("declarator"), fParameters: g.Field("parameters"),
		fValue: g.Field("value"), fDefaultValue: g.Field("default_value"), fPath: g.Field("path"), fFunction: g.Field("function"),
		fArgument: g.Field("argument"), fField: g.Field("field"), fScope: g.Field("scope"), fArguments: g.Field("arguments"),
	}
}
