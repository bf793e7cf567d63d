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

// grammar holds the node kinds and fields the extractor reads, resolved
// once per grammar so the walk compares ids, never names.
type grammar struct {
	program, module, class, singletonClass, method, singletonMethod     kind
	call, identifier, constant, scopeResolution, self, ivar, cvar       kind
	assignment, opAssignment, str, strContent, simpleSymbol, argList    kind
	methodParams, blockParams, lambdaParams, superclass, super, comment kind
	exceptionVar, leftList, pair, bodyStatement, block, doBlock, lambda kind
	forLoop, alias, undef, interpolation, blockArgument                 kind

	fName, fBody, fSuperclass, fReceiver, fMethod, fArguments, fBlock field
	fLeft, fRight, fObject, fValue, fScope, fParameters, fPattern     field
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
		program: g.Kind("program"), module: g.Kind("module"), class: g.Kind("class"),
		singletonClass: g.Kind("singleton_class"), method: g.Kind("method"),
		singletonMethod: g.Kind("singleton_method"), call: g.Kind("call"),
		identifier: g.Kind("identifier"), constant: g.Kind("constant"),
		scopeResolution: g.Kind("scope_resolution"), self: g.Kind("self"),
		ivar: g.Kind("instance_variable"), cvar: g.Kind("class_variable"),
		assignment: g.Kind("assignment"), opAssignment: g.Kind("operator_assignment"),
		str: g.Kind("string"), strContent: g.Kind("string_content"),
		simpleSymbol: g.Kind("simple_symbol"), argList: g.Kind("argument_list"),
		methodParams: g.Kind("method_parameters"), blockParams: g.Kind("block_parameters"),
		lambdaParams: g.Kind("lambda_parameters"), superclass: g.Kind("superclass"),
		super: g.Kind("super"), comment: g.Kind("comment"),
		exceptionVar: g.Kind("exception_variable"), leftList: g.Kind("left_assignment_list"),
		pair: g.Kind("pair"), bodyStatement: g.Kind("body_statement"),
		block: g.Kind("block"), doBlock: g.Kind("do_block"), lambda: g.Kind("lambda"),
		forLoop: g.Kind("for"), alias: g.Kind("alias"), undef: g.Kind("undef"),
		interpolation: g.Kind("interpolation"), blockArgument: g.Kind("block_argument"),

		fName: g.Field("name"), fBody: g.Field("body"), fSuperclass: g.Field("superclass"),
		fReceiver: g.Field("receiver"), fMethod: g.Field("method"), fArguments: g.Field("arguments"),
		fBlock: g.Field("block"), fLeft: g.Field("left"), fRight: g.Field("right"),
		fObject: g.Field("object"), fValue: g.Field("value"), fScope: g.Field("scope"),
		fParameters: g.Field("parameters"), fPattern: g.Field("pattern"),
	}
	grammars[g] = k
	return k
}
