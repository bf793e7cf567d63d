package main

import (
	"sync"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

type (
	kind  = extract.KindID
	field = extract.FieldID
	node  = extract.Node
)

// action is what the walk does on meeting a node kind; kinds map to actions
// once per grammar so the walk never compares kind names.
type action uint8

const (
	actNone       action = iota
	actSkip              // subtree holds nothing to report
	actUsing             // using_directive
	actNamespace         // namespace_declaration (block)
	actFileNS            // file_scoped_namespace_declaration
	actType              // class/struct/record/interface/enum declarations
	actDelegate          // delegate_declaration
	actCallable          // methods, constructors, destructors, operators
	actField             // field_declaration, event_field_declaration
	actProperty          // property_declaration, event_declaration, indexer_declaration
	actEnumMember        // enum_member_declaration
	actCall              // invocation_expression
	actNew               // object_creation_expression
	actCtorInit          // constructor_initializer: base(…), this(…)
	actLocal             // variable_declaration in a body (locals, using, for)
	actTypedVar          // foreach, catch, declaration patterns: type + name
	actAssign            // assignment_expression: event subscriptions
	actLambda            // lambda parameters are untyped locals
)

// grammar holds the ids the extractor needs, resolved once per grammar.
type grammar struct {
	act *extract.KindTable // action by kind

	classDecl, structDecl, recordDecl, ifaceDecl, enumDecl   kind
	recordStructDecl                                         kind
	ctorDecl, dtorDecl, operatorDecl, convDecl, indexerDecl  kind
	eventFieldDecl, eventDecl, fieldDecl                     kind
	modifier, attributeList, attribute, baseList             kind
	primaryBase, typeParamList, typeParam, parameterList     kind
	parameter, variableDecl, variableDeclarator, identifier  kind
	qualifiedName, genericName, typeArgList, aliasQualified  kind
	predefinedType, implicitType, arrayType, nullableType    kind
	memberAccess, conditionalAccess, memberBinding, invoke   kind
	objectCreation, parenthesized, elementAccess, this, base kind
	awaitExpr, castExpr, declarationList, arrowClause        kind
	pointerType, tupleType, refType, localFunc               kind

	kwStatic, kwThis, kwBase, kwStruct, kwEvent, kwPlusEq, kwMinusEq kind

	fName, fBody, fType, fReturns, fParameters, fTypeParameters field
	fFunction, fExpression, fCondition, fLeft, fRight, fValue   field
	fOperator, fAccessors, fArguments, fQualifier, fAlias       field
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
	k := &grammar{
		classDecl: g.Kind("class_declaration"), structDecl: g.Kind("struct_declaration"),
		recordDecl: g.Kind("record_declaration"), recordStructDecl: g.Kind("record_struct_declaration"), ifaceDecl: g.Kind("interface_declaration"),
		enumDecl: g.Kind("enum_declaration"),
		ctorDecl: g.Kind("constructor_declaration"), dtorDecl: g.Kind("destructor_declaration"),
		operatorDecl: g.Kind("operator_declaration"), convDecl: g.Kind("conversion_operator_declaration"),
		indexerDecl:    g.Kind("indexer_declaration"),
		eventFieldDecl: g.Kind("event_field_declaration"), eventDecl: g.Kind("event_declaration"),
		fieldDecl: g.Kind("field_declaration"),
		modifier:  g.Kind("modifier"), attributeList: g.Kind("attribute_list"), attribute: g.Kind("attribute"),
		baseList: g.Kind("base_list"), primaryBase: g.Kind("primary_constructor_base_type"),
		typeParamList: g.Kind("type_parameter_list"), typeParam: g.Kind("type_parameter"),
		parameterList: g.Kind("parameter_list"), parameter: g.Kind("parameter"),
		variableDecl: g.Kind("variable_declaration"), variableDeclarator: g.Kind("variable_declarator"),
		identifier: g.Kind("identifier"), qualifiedName: g.Kind("qualified_name"),
		genericName: g.Kind("generic_name"), typeArgList: g.Kind("type_argument_list"),
		aliasQualified: g.Kind("alias_qualified_name"),
		predefinedType: g.Kind("predefined_type"), implicitType: g.Kind("implicit_type"),
		arrayType: g.Kind("array_type"), nullableType: g.Kind("nullable_type"),
		memberAccess: g.Kind("member_access_expression"), conditionalAccess: g.Kind("conditional_access_expression"),
		memberBinding: g.Kind("member_binding_expression"), invoke: g.Kind("invocation_expression"),
		objectCreation: g.Kind("object_creation_expression"), parenthesized: g.Kind("parenthesized_expression"),
		elementAccess: g.Kind("element_access_expression"),
		this:          g.Kind("this_expression"), base: g.Kind("base_expression"),
		awaitExpr: g.Kind("await_expression"), castExpr: g.Kind("cast_expression"),
		declarationList: g.Kind("declaration_list"), arrowClause: g.Kind("arrow_expression_clause"),
		pointerType: g.Kind("pointer_type"), tupleType: g.Kind("tuple_type"), refType: g.Kind("ref_type"),
		localFunc: g.Kind("local_function_statement"),

		kwStatic: g.Anon("static"), kwThis: g.Anon("this"), kwBase: g.Anon("base"),
		kwStruct: g.Anon("struct"), kwEvent: g.Anon("event"), kwPlusEq: g.Anon("+="), kwMinusEq: g.Anon("-="),

		fName: g.Field("name"), fBody: g.Field("body"), fType: g.Field("type"), fReturns: g.Field("returns"),
		fParameters: g.Field("parameters"), fTypeParameters: g.Field("type_parameters"),
		fFunction: g.Field("function"), fExpression: g.Field("expression"), fCondition: g.Field("condition"),
		fLeft: g.Field("left"), fRight: g.Field("right"), fValue: g.Field("value"),
		fOperator: g.Field("operator"), fAccessors: g.Field("accessors"), fArguments: g.Field("arguments"),
		fQualifier: g.Field("qualifier"), fAlias: g.Field("alias"),
	}
	acts := map[string]action{
		"using_directive":                   actUsing,
		"namespace_declaration":             actNamespace,
		"file_scoped_namespace_declaration": actFileNS,
		"class_declaration":                 actType,
		"struct_declaration":                actType,
		"record_declaration":                actType,
		"record_struct_declaration":         actType,
		"interface_declaration":             actType,
		"enum_declaration":                  actType,
		"delegate_declaration":              actDelegate,
		"method_declaration":                actCallable,
		"constructor_declaration":           actCallable,
		"destructor_declaration":            actCallable,
		"operator_declaration":              actCallable,
		"conversion_operator_declaration":   actCallable,
		"local_function_statement":          actCallable,
		"field_declaration":                 actField,
		"event_field_declaration":           actField,
		"property_declaration":              actProperty,
		"event_declaration":                 actProperty,
		"indexer_declaration":               actProperty,
		"enum_member_declaration":           actEnumMember,
		"invocation_expression":             actCall,
		"object_creation_expression":        actNew,
		"constructor_initializer":           actCtorInit,
		"variable_declaration":              actLocal,
		"foreach_statement":                 actTypedVar,
		"catch_declaration":                 actTypedVar,
		"declaration_pattern":               actTypedVar,
		"assignment_expression":             actAssign,
		"lambda_expression":                 actLambda,
		// Attributes are read with their declaration; comments, literals
		// and preprocessor lines hold nothing.
		"attribute_list":                    actSkip,
		"comment":                           actSkip,
		"string_literal":                    actSkip,
		"verbatim_string_literal":           actSkip,
		"raw_string_literal":                actSkip,
		"preproc_pragma":                    actSkip,
		"preproc_define":                    actSkip,
		"preproc_undef":                     actSkip,
		"preproc_region":                    actSkip,
		"preproc_endregion":                 actSkip,
		"preproc_error":                     actSkip,
		"preproc_warning":                   actSkip,
		"preproc_line":                      actSkip,
		"preproc_nullable":                  actSkip,
		"type_parameter_constraints_clause": actSkip,
	}
	k.act = extract.KindsOf(g, acts)
	return k
}

func (k *grammar) action(id kind) action { return action(k.act[id]) }
