package main

import (
	"sync"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

type (
	kind = extract.KindID
	node = extract.Node
)

// action is what the walk does on meeting a node kind; kinds map to actions
// once per grammar so the walk never compares kind names.
type action uint8

const (
	actNone          action = iota
	actSkip                 // subtree holds nothing to report
	actPackage              // package_header
	actImport               // import_header
	actType                 // class_declaration, object_declaration, companion_object
	actAlias                // type_alias
	actFunction             // function_declaration
	actSecondary            // secondary_constructor
	actInit                 // anonymous_initializer: its calls belong to the class
	actProperty             // property_declaration
	actEnumEntry            // enum_entry
	actCall                 // call_expression
	actDelegation           // constructor_delegation_call: this(…), super(…)
	actFor                  // for_statement
	actCatch                // catch_block
	actLambda               // lambda_literal
	actObjectLiteral        // object_literal: an anonymous class
	actAccessor             // getter, setter
)

// grammar holds the ids the extractor needs, resolved once per grammar.
// The Kotlin grammar names few fields, so children are found by kind.
type grammar struct {
	act *extract.KindTable // action by kind

	classDecl, objectDecl, companion, classBody, enumBody              kind
	typeIdent, simpleIdent, identifier, userType, nullableType         kind
	typeArgs, typeProjection, typeParams, typeParam, functionType      kind
	modifiers, annotation, classModifier, visibility, propertyModifier kind
	inheritanceModifier, memberModifier, constructorInvocation         kind
	delegationSpec, explicitDelegation, primaryCtor, classParam        kind
	bindingKind, functionParams, parameter, functionBody               kind
	variableDecl, multiVariableDecl, navigation, navigationSuffix      kind
	callExpr, callSuffix, thisExpr, superExpr, parenthesized           kind
	postfix, asExpr, lambdaParams, wildcardImport, importAlias         kind
	valueArguments, valueArgument, stringLiteral, parenthesizedType    kind
	functionDecl, propertyDecl, getter, setter, typeAliasDecl          kind

	kwInterface, kwFun, kwEnum, kwThis, kwSuper, kwEq, kwLBrace kind
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
		classDecl: g.Kind("class_declaration"), objectDecl: g.Kind("object_declaration"),
		companion: g.Kind("companion_object"), classBody: g.Kind("class_body"), enumBody: g.Kind("enum_class_body"),
		typeIdent: g.Kind("type_identifier"), simpleIdent: g.Kind("simple_identifier"),
		identifier: g.Kind("identifier"), userType: g.Kind("user_type"), nullableType: g.Kind("nullable_type"),
		typeArgs: g.Kind("type_arguments"), typeProjection: g.Kind("type_projection"),
		typeParams: g.Kind("type_parameters"), typeParam: g.Kind("type_parameter"),
		functionType: g.Kind("function_type"),
		modifiers:    g.Kind("modifiers"), annotation: g.Kind("annotation"),
		classModifier: g.Kind("class_modifier"), visibility: g.Kind("visibility_modifier"),
		propertyModifier:    g.Kind("property_modifier"),
		inheritanceModifier: g.Kind("inheritance_modifier"), memberModifier: g.Kind("member_modifier"),
		constructorInvocation: g.Kind("constructor_invocation"),
		delegationSpec:        g.Kind("delegation_specifier"), explicitDelegation: g.Kind("explicit_delegation"),
		primaryCtor: g.Kind("primary_constructor"), classParam: g.Kind("class_parameter"),
		bindingKind: g.Kind("binding_pattern_kind"), functionParams: g.Kind("function_value_parameters"),
		parameter: g.Kind("parameter"), functionBody: g.Kind("function_body"),
		variableDecl: g.Kind("variable_declaration"), multiVariableDecl: g.Kind("multi_variable_declaration"),
		navigation: g.Kind("navigation_expression"), navigationSuffix: g.Kind("navigation_suffix"),
		callExpr: g.Kind("call_expression"), callSuffix: g.Kind("call_suffix"),
		thisExpr: g.Kind("this_expression"), superExpr: g.Kind("super_expression"),
		parenthesized: g.Kind("parenthesized_expression"), postfix: g.Kind("postfix_expression"),
		asExpr: g.Kind("as_expression"), lambdaParams: g.Kind("lambda_parameters"),
		wildcardImport: g.Kind("wildcard_import"), importAlias: g.Kind("import_alias"),
		valueArguments: g.Kind("value_arguments"), valueArgument: g.Kind("value_argument"),
		stringLiteral: g.Kind("string_literal"), parenthesizedType: g.Kind("parenthesized_type"),
		functionDecl: g.Kind("function_declaration"), propertyDecl: g.Kind("property_declaration"),
		typeAliasDecl: g.Kind("type_alias"), getter: g.Kind("getter"), setter: g.Kind("setter"),

		kwInterface: g.Anon("interface"), kwFun: g.Anon("fun"), kwEnum: g.Anon("enum"),
		kwThis: g.Anon("this"), kwSuper: g.Anon("super"), kwEq: g.Anon("="), kwLBrace: g.Anon("{"),
	}
	acts := map[string]action{
		"package_header":              actPackage,
		"import_header":               actImport,
		"class_declaration":           actType,
		"object_declaration":          actType,
		"companion_object":            actType,
		"type_alias":                  actAlias,
		"function_declaration":        actFunction,
		"secondary_constructor":       actSecondary,
		"anonymous_initializer":       actInit,
		"property_declaration":        actProperty,
		"enum_entry":                  actEnumEntry,
		"call_expression":             actCall,
		"constructor_delegation_call": actDelegation,
		"for_statement":               actFor,
		"catch_block":                 actCatch,
		"lambda_literal":              actLambda,
		"object_literal":              actObjectLiteral,
		"getter":                      actAccessor,
		"setter":                      actAccessor,
		// Annotations are read with their declaration; comments and
		// string contents hold nothing.
		"modifiers":         actSkip,
		"line_comment":      actSkip,
		"multiline_comment": actSkip,
		"comment":           actSkip,
		"shebang_line":      actSkip,
		"file_annotation":   actSkip,
	}
	k.act = extract.KindsOf(g, acts)
	return k
}

func (k *grammar) action(id kind) action { return action(k.act[id]) }
