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

// None is the absent node.
const None = extract.None

// grammar holds the node kinds and fields the extractor reads, resolved
// once per grammar so the walk compares ids, never names.
type grammar struct {
	comment, namespaceDef, namespaceUse, useClause, useGroup, useGroupClause, aliasing kind
	namespaceName, qualifiedName, name, classDecl, ifaceDecl, traitDecl, enumDecl      kind
	baseClause, ifaceClause, traitUse, declList, enumDeclList, methodDecl, funcDef     kind
	propDecl, propElement, constDecl, constElement, enumCase, visibility, staticMod    kind
	simpleParam, variadicParam, promotedParam, varName, namedType, optionalType        kind
	unionType, primitiveType, relativeScope, funcCall, memberCall, nullsafeCall        kind
	scopedCall, objectCreation, assignment, memberAccess, nullsafeAccess, str          kind
	encapsed, strContent, binary, require, requireOnce, include, includeOnce           kind
	attributeList, attribute, anonFunc, arrowFunc, useVars, compound, argument         kind
	intersectionType, nullableType                                                     kind

	fName, fBody, fParameters, fReturnType, fType, fObject, fScope, fFunction field
	fArguments, fLeft, fRight, fDefault, fAttributes, fValue                  field
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
	k := &grammar{
		comment: kindOf(g, "comment"), namespaceDef: kindOf(g, "namespace_definition"),
		namespaceUse: kindOf(g, "namespace_use_declaration"), useClause: kindOf(g, "namespace_use_clause"),
		useGroup: kindOf(g, "namespace_use_group"), useGroupClause: kindOf(g, "namespace_use_group_clause"),
		aliasing: kindOf(g, "namespace_aliasing_clause"), namespaceName: kindOf(g, "namespace_name"),
		qualifiedName: kindOf(g, "qualified_name"), name: kindOf(g, "name"),
		classDecl: kindOf(g, "class_declaration"), ifaceDecl: kindOf(g, "interface_declaration"),
		traitDecl: kindOf(g, "trait_declaration"), enumDecl: kindOf(g, "enum_declaration"),
		baseClause: kindOf(g, "base_clause"), ifaceClause: kindOf(g, "class_interface_clause"),
		traitUse: kindOf(g, "use_declaration"), declList: kindOf(g, "declaration_list"),
		enumDeclList: kindOf(g, "enum_declaration_list"), methodDecl: kindOf(g, "method_declaration"),
		funcDef: kindOf(g, "function_definition"), propDecl: kindOf(g, "property_declaration"),
		propElement: kindOf(g, "property_element"), constDecl: kindOf(g, "const_declaration"),
		constElement: kindOf(g, "const_element"), enumCase: kindOf(g, "enum_case"),
		visibility: kindOf(g, "visibility_modifier"), staticMod: kindOf(g, "static_modifier"),
		simpleParam: kindOf(g, "simple_parameter"), variadicParam: kindOf(g, "variadic_parameter"),
		promotedParam: kindOf(g, "property_promotion_parameter"), varName: kindOf(g, "variable_name"),
		namedType: kindOf(g, "named_type"), optionalType: kindOf(g, "optional_type"),
		unionType: kindOf(g, "union_type"), primitiveType: kindOf(g, "primitive_type"),
		intersectionType: kindOf(g, "intersection_type"), nullableType: kindOf(g, "nullable_type"),
		relativeScope: kindOf(g, "relative_scope"), funcCall: kindOf(g, "function_call_expression"),
		memberCall: kindOf(g, "member_call_expression"), nullsafeCall: kindOf(g, "nullsafe_member_call_expression"),
		scopedCall: kindOf(g, "scoped_call_expression"), objectCreation: kindOf(g, "object_creation_expression"),
		assignment: kindOf(g, "assignment_expression"), memberAccess: kindOf(g, "member_access_expression"),
		nullsafeAccess: kindOf(g, "nullsafe_member_access_expression"), str: kindOf(g, "string"),
		encapsed: kindOf(g, "encapsed_string"), strContent: kindOf(g, "string_content"),
		binary: kindOf(g, "binary_expression"), require: kindOf(g, "require_expression"),
		requireOnce: kindOf(g, "require_once_expression"), include: kindOf(g, "include_expression"),
		includeOnce: kindOf(g, "include_once_expression"), attributeList: kindOf(g, "attribute_list"),
		attribute: kindOf(g, "attribute"), anonFunc: kindOf(g, "anonymous_function_creation_expression"),
		arrowFunc: kindOf(g, "arrow_function"), useVars: kindOf(g, "anonymous_function_use_clause"),
		compound: kindOf(g, "compound_statement"), argument: kindOf(g, "argument"),

		fName: g.Field("name"), fBody: g.Field("body"), fParameters: g.Field("parameters"),
		fReturnType: g.Field("return_type"), fType: g.Field("type"), fObject: g.Field("object"),
		fScope: g.Field("scope"), fFunction: g.Field("function"), fArguments: g.Field("arguments"),
		fLeft: g.Field("left"), fRight: g.Field("right"), fDefault: g.Field("default_value"),
		fAttributes: g.Field("attributes"), fValue: g.Field("value"),
	}
	grammars[g] = k
	return k
}

// noKind stands for a kind the grammar lacks. It is never a node's kind,
// unlike 0, which None reads as: a lacking kind must not match None.
const noKind kind = 0xFFFE

func kindOf(g *extract.Grammar, name string) kind {
	if k := g.Kind(name); k != 0 {
		return k
	}
	return noKind
}
