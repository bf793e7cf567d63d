package main

import (
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// role is what the walker does with a node kind. Kinds without a role are
// passed through: the walker scans their subtree for nodes that have one.
type role uint8

const (
	rNone      role = iota
	rError          // ERROR node: reported and skipped
	rType           // a type position: no calls or definitions inside, skipped
	rFuncDecl       // function_declaration, generator_function_declaration
	rFuncSig        // function_signature (overload or ambient declaration)
	rFuncExpr       // anonymous function/arrow: a callback, no symbol
	rObjMethod      // method_definition outside a class body (object literal)
	rClass          // class_declaration, abstract_class_declaration, class
	rInterface      // interface_declaration
	rTypeAlias      // type_alias_declaration
	rEnum           // enum_declaration
	rNamespace      // internal_module (namespace X {})
	rModule         // module (module X {}, declare module "x" {})
	rExport         // export_statement
	rImport         // import_statement
	rVarDecl        // lexical_declaration, variable_declaration
	rCall           // call_expression
	rNew            // new_expression
	rAssign         // assignment_expression (CommonJS exports, prototype methods)
	rJSX            // jsx_opening_element, jsx_self_closing_element
)

// lang holds the kind and field ids of one grammar, resolved once so the
// walk compares small integers instead of names.
type lang struct {
	roles [1 << 16]role

	// Kinds.
	identifier, typeIdentifier, nestedTypeIdentifier, genericType, nestedIdentifier extract.KindID
	propertyIdentifier, privatePropertyIdentifier                                   extract.KindID
	str, templateString, templateSubstitution, comment                              extract.KindID
	this, super, memberExpression, callExpression, importExpr, awaitExpression      extract.KindID
	parenthesized, arrowFunction, functionExpression, generatorFunction, class      extract.KindID
	functionDeclaration, functionSignature                                          extract.KindID
	classHeritage, extendsClause, implementsClause, extendsTypeClause               extract.KindID
	methodDefinition, methodSignature, abstractMethodSignature                      extract.KindID
	publicFieldDefinition, fieldDefinition, propertySignature                       extract.KindID
	enumAssignment, exportClause, exportSpecifier, namespaceExport                  extract.KindID
	importClause, namedImports, importSpecifier, namespaceImport                    extract.KindID
	importRequireClause, variableDeclarator, newExpression                          extract.KindID
	objectPattern, pairPattern, shorthandPattern, objectAssignmentPattern           extract.KindID
	arrayPattern, restPattern, unionType, nonNull                                   extract.KindID
	assignmentPattern, requiredParameter, optionalParameter                         extract.KindID
	accessibilityModifier, decorator                                                extract.KindID
	predefinedType, literalType, typeQuery, thisType, exportStatement               extract.KindID
	ambientDeclaration                                                              extract.KindID
	subscriptExpression, binaryExpression, object, pair                             extract.KindID // dynamic.go, route.go

	// Anonymous tokens.
	kwGet, kwSet, kwConst extract.KindID

	// Fields.
	fName, fValue, fBody, fParameters, fParameter, fReturnType, fType extract.FieldID
	fPattern, fLeft, fRight, fFunction, fArguments, fConstructor      extract.FieldID
	fObject, fProperty, fSource, fAlias, fDeclaration, fKind          extract.FieldID
	fTypeArguments, fTypeParameters, fKey                             extract.FieldID
	fIndex                                                            extract.FieldID // dynamic.go
}

var langs extract.Tables[lang]

// langOf returns the resolved ids for g, building them on first use.
func langOf(g *extract.Grammar) *lang { return langs.For(g, newLang) }

func newLang(g *extract.Grammar) *lang {
	k, a, f := g.Kind, g.Anon, g.Field
	l := &lang{
		identifier: k("identifier"), typeIdentifier: k("type_identifier"),
		nestedTypeIdentifier: k("nested_type_identifier"), genericType: k("generic_type"),
		nestedIdentifier: k("nested_identifier"), propertyIdentifier: k("property_identifier"),
		privatePropertyIdentifier: k("private_property_identifier"),
		str:                       k("string"), templateString: k("template_string"),
		templateSubstitution: k("template_substitution"), comment: k("comment"),
		this: k("this"), super: k("super"), memberExpression: k("member_expression"),
		callExpression: k("call_expression"), importExpr: k("import"), awaitExpression: k("await_expression"),
		parenthesized: k("parenthesized_expression"), arrowFunction: k("arrow_function"),
		functionExpression: k("function_expression"), generatorFunction: k("generator_function"),
		class: k("class"), functionDeclaration: k("function_declaration"),
		functionSignature: k("function_signature"),
		classHeritage:     k("class_heritage"), extendsClause: k("extends_clause"),
		implementsClause: k("implements_clause"), extendsTypeClause: k("extends_type_clause"),
		methodDefinition: k("method_definition"), methodSignature: k("method_signature"),
		abstractMethodSignature: k("abstract_method_signature"),
		publicFieldDefinition:   k("public_field_definition"), fieldDefinition: k("field_definition"),
		propertySignature: k("property_signature"), enumAssignment: k("enum_assignment"),
		exportClause: k("export_clause"), exportSpecifier: k("export_specifier"),
		namespaceExport: k("namespace_export"), importClause: k("import_clause"),
		namedImports: k("named_imports"), importSpecifier: k("import_specifier"),
		namespaceImport: k("namespace_import"), importRequireClause: k("import_require_clause"),
		variableDeclarator: k("variable_declarator"), newExpression: k("new_expression"),
		objectPattern: k("object_pattern"), pairPattern: k("pair_pattern"),
		arrayPattern: k("array_pattern"), restPattern: k("rest_pattern"), unionType: k("union_type"),
		nonNull:                 k("non_null_expression"),
		shorthandPattern:        k("shorthand_property_identifier_pattern"),
		objectAssignmentPattern: k("object_assignment_pattern"), assignmentPattern: k("assignment_pattern"),
		requiredParameter: k("required_parameter"), optionalParameter: k("optional_parameter"),
		accessibilityModifier: k("accessibility_modifier"), decorator: k("decorator"),
		predefinedType: k("predefined_type"),
		literalType:    k("literal_type"), typeQuery: k("type_query"), thisType: k("this_type"),
		exportStatement: k("export_statement"), ambientDeclaration: k("ambient_declaration"),

		kwGet: a("get"), kwSet: a("set"), kwConst: a("const"),

		fName: f("name"), fValue: f("value"), fBody: f("body"), fParameters: f("parameters"),
		fParameter: f("parameter"), fReturnType: f("return_type"), fType: f("type"),
		fPattern: f("pattern"), fLeft: f("left"), fRight: f("right"), fFunction: f("function"),
		fArguments: f("arguments"), fConstructor: f("constructor"), fObject: f("object"),
		fProperty: f("property"), fSource: f("source"), fAlias: f("alias"),
		fDeclaration: f("declaration"), fKind: f("kind"), fTypeArguments: f("type_arguments"),
		fTypeParameters: f("type_parameters"), fKey: f("key"),
		subscriptExpression: k("subscript_expression"), fIndex: f("index"),
		binaryExpression: k("binary_expression"), object: k("object"), pair: k("pair"),
	}
	set := func(r role, names ...string) {
		for _, n := range names {
			if id := k(n); id != 0 {
				l.roles[id] = r
			}
		}
	}
	set(rError, "ERROR")
	set(rType, "type_annotation", "type_arguments", "type_parameters", "asserts_annotation",
		"type_predicate_annotation", "opting_type_annotation", "omitting_type_annotation",
		"adding_type_annotation")
	set(rFuncDecl, "function_declaration", "generator_function_declaration")
	set(rFuncSig, "function_signature")
	set(rFuncExpr, "function_expression", "generator_function", "arrow_function", "function")
	set(rObjMethod, "method_definition")
	set(rClass, "class_declaration", "abstract_class_declaration", "class")
	set(rInterface, "interface_declaration")
	set(rTypeAlias, "type_alias_declaration")
	set(rEnum, "enum_declaration")
	set(rNamespace, "internal_module")
	set(rModule, "module")
	set(rExport, "export_statement")
	set(rImport, "import_statement")
	set(rVarDecl, "lexical_declaration", "variable_declaration")
	set(rCall, "call_expression")
	set(rNew, "new_expression")
	set(rAssign, "assignment_expression")
	set(rJSX, "jsx_opening_element", "jsx_self_closing_element")
	return l
}
