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
		program: kindOf(g, "program"), module: kindOf(g, "module"), class: kindOf(g, "class"),
		singletonClass: kindOf(g, "singleton_class"), method: kindOf(g, "method"),
		singletonMethod: kindOf(g, "singleton_method"), call: kindOf(g, "call"),
		identifier: kindOf(g, "identifier"), constant: kindOf(g, "constant"),
		scopeResolution: kindOf(g, "scope_resolution"), self: kindOf(g, "self"),
		ivar: kindOf(g, "instance_variable"), cvar: kindOf(g, "class_variable"),
		assignment: kindOf(g, "assignment"), opAssignment: kindOf(g, "operator_assignment"),
		str: kindOf(g, "string"), strContent: kindOf(g, "string_content"),
		simpleSymbol: kindOf(g, "simple_symbol"), argList: kindOf(g, "argument_list"),
		methodParams: kindOf(g, "method_parameters"), blockParams: kindOf(g, "block_parameters"),
		lambdaParams: kindOf(g, "lambda_parameters"), superclass: kindOf(g, "superclass"),
		super: kindOf(g, "super"), comment: kindOf(g, "comment"),
		exceptionVar: kindOf(g, "exception_variable"), leftList: kindOf(g, "left_assignment_list"),
		pair: kindOf(g, "pair"), bodyStatement: kindOf(g, "body_statement"),
		block: kindOf(g, "block"), doBlock: kindOf(g, "do_block"), lambda: kindOf(g, "lambda"),
		forLoop: kindOf(g, "for"), alias: kindOf(g, "alias"), undef: kindOf(g, "undef"),
		interpolation: kindOf(g, "interpolation"), blockArgument: kindOf(g, "block_argument"),

		fName: g.Field("name"), fBody: g.Field("body"), fSuperclass: g.Field("superclass"),
		fReceiver: g.Field("receiver"), fMethod: g.Field("method"), fArguments: g.Field("arguments"),
		fBlock: g.Field("block"), fLeft: g.Field("left"), fRight: g.Field("right"),
		fObject: g.Field("object"), fValue: g.Field("value"), fScope: g.Field("scope"),
		fParameters: g.Field("parameters"), fPattern: g.Field("pattern"),
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
