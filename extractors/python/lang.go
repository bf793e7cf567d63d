package main

import (
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// action is what the main pass does when it meets a node kind. The pass
// looks actions up in a table indexed by kind id, so it never compares kind
// names per node.
type action uint8

const (
	actNone action = iota
	actFunction
	actClass
	actDecorated
	actDecorator
	actCall
	actImport
	actFromImport
	actFutureImport
	actAssignment
	actTypeAlias
	actBindLeft   // for_statement, for_in_clause: the targets are locals
	actBindName   // named_expression (walrus): its name is a local
	actBindAll    // as_pattern_target (with … as x): every name in it is a local
	actBindExcept // except_clause: `except E as e` makes e a local
	actBindComp   // comprehensions: their for … in targets, before the body is walked
	actDefault    // default_parameter, typed_default_parameter: a function value (values.go)
	actBinary     // binary_operator: a + b runs __add__ (operators.go)
	actCompare    // comparison_operator: a < b runs __lt__
	actUnary      // unary_operator: -x runs __neg__
	actAugmented  // augmented_assignment: a += b runs __iadd__
	actSubscript  // subscript: x[k] runs __getitem__
	actWithItem   // with_item: with X as v runs X.__enter__ and X.__exit__ (with.go)
)

// lang holds the kind and field ids the extractor needs for one grammar,
// resolved once: kind ids depend on the grammar build, names do not.
type lang struct {
	act [1 << 16]action
	// globals marks global_statement, which a prescan seeks (aliases.go).
	globals extract.KindTable
	// builtinValue names the builtin type of a literal's kind ("dict" for
	// {…} and dict comprehensions, …), "" for other kinds (builtins.go).
	builtinValue map[extract.KindID]string

	identifier, attribute, call, dottedName, aliasedImport, wildcardImport,
	relativeImport, patternList, tuplePattern, typ, genericType,
	typeParameter, subscript, unionType, binaryOperator, str, stringContent,
	none, list, memberType, typedParameter, defaultParameter,
	typedDefaultParameter, listSplatPattern, dictSplatPattern,
	keywordArgument, listSplat, dictSplat, comment, decorator,
	decoratedDefinition, functionDefinition, classDefinition, block,
	forInClause, expressionStatement, assignment, augmentedAssignment,
	deleteStatement, argumentList, parenthesizedExpression, unaryOperator,
	withItem, asPattern, returnStatement, yield, lambda extract.KindID

	fName, fParameters, fReturnType, fBody, fSuperclasses, fDefinition,
	fFunction, fObject, fAttribute, fLeft, fRight, fType, fValue, fSubscript,
	fModuleName, fAlias, fTypeParameters, fArguments, fArgument extract.FieldID
}

var langs extract.Tables[lang]

// langFor returns the cached ids for g, resolving them on first use.
func langFor(g *extract.Grammar) *lang { return langs.For(g, newLang) }

func newLang(g *extract.Grammar) *lang {
	l := &lang{}
	k := g.Kind
	set := func(kind string, a action) {
		if id := k(kind); id != 0 {
			l.act[id] = a
		}
	}
	set("function_definition", actFunction)
	set("class_definition", actClass)
	set("decorated_definition", actDecorated)
	set("decorator", actDecorator)
	set("call", actCall)
	set("import_statement", actImport)
	set("import_from_statement", actFromImport)
	set("future_import_statement", actFutureImport)
	set("assignment", actAssignment)
	set("type_alias_statement", actTypeAlias)
	set("for_statement", actBindLeft)
	set("for_in_clause", actBindLeft)
	set("named_expression", actBindName)
	set("as_pattern_target", actBindAll)
	set("except_clause", actBindExcept)
	set("default_parameter", actDefault)
	set("typed_default_parameter", actDefault)
	l.builtinValue = map[extract.KindID]string{}
	for kind, typ := range literalTypes {
		if id := k(kind); id != 0 {
			l.builtinValue[id] = typ
		}
	}
	if id := k("global_statement"); id != 0 {
		l.globals[id] = 1
	}
	set("binary_operator", actBinary)
	set("comparison_operator", actCompare)
	set("unary_operator", actUnary)
	set("augmented_assignment", actAugmented)
	set("subscript", actSubscript)
	set("with_item", actWithItem)
	for _, c := range []string{"list_comprehension", "set_comprehension", "dictionary_comprehension", "generator_expression"} {
		set(c, actBindComp)
	}

	l.identifier = k("identifier")
	l.block = k("block")
	l.forInClause = k("for_in_clause")
	l.expressionStatement = k("expression_statement")
	l.assignment = k("assignment")
	l.augmentedAssignment = k("augmented_assignment")
	l.deleteStatement = k("delete_statement")
	l.argumentList = k("argument_list")
	l.parenthesizedExpression = k("parenthesized_expression")
	l.unaryOperator = k("unary_operator")
	l.withItem = k("with_item")
	l.asPattern = k("as_pattern")
	l.returnStatement = k("return_statement")
	l.yield = k("yield")
	l.lambda = k("lambda")
	l.attribute = k("attribute")
	l.call = k("call")
	l.dottedName = k("dotted_name")
	l.aliasedImport = k("aliased_import")
	l.wildcardImport = k("wildcard_import")
	l.relativeImport = k("relative_import")
	l.patternList = k("pattern_list")
	l.tuplePattern = k("tuple_pattern")
	l.typ = k("type")
	l.genericType = k("generic_type")
	l.typeParameter = k("type_parameter")
	l.subscript = k("subscript")
	l.unionType = k("union_type")
	l.binaryOperator = k("binary_operator")
	l.str = k("string")
	l.stringContent = k("string_content")
	l.none = k("none")
	l.list = k("list")
	l.memberType = k("member_type")
	l.typedParameter = k("typed_parameter")
	l.defaultParameter = k("default_parameter")
	l.typedDefaultParameter = k("typed_default_parameter")
	l.listSplatPattern = k("list_splat_pattern")
	l.dictSplatPattern = k("dictionary_splat_pattern")
	l.keywordArgument = k("keyword_argument")
	l.listSplat = k("list_splat")
	l.dictSplat = k("dictionary_splat")
	l.comment = k("comment")
	l.decorator = k("decorator")
	l.decoratedDefinition = k("decorated_definition")
	l.functionDefinition = k("function_definition")
	l.classDefinition = k("class_definition")

	f := g.Field
	l.fName = f("name")
	l.fParameters = f("parameters")
	l.fReturnType = f("return_type")
	l.fBody = f("body")
	l.fSuperclasses = f("superclasses")
	l.fDefinition = f("definition")
	l.fFunction = f("function")
	l.fObject = f("object")
	l.fAttribute = f("attribute")
	l.fLeft = f("left")
	l.fRight = f("right")
	l.fType = f("type")
	l.fValue = f("value")
	l.fSubscript = f("subscript")
	l.fModuleName = f("module_name")
	l.fAlias = f("alias")
	l.fTypeParameters = f("type_parameters")
	l.fArguments = f("arguments")
	l.fArgument = f("argument")
	return l
}
