package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// lastSegment is the part after the last backslash: `A\B\C` → "C".
func lastSegment(s string) string {
	if i := strings.LastIndexByte(s, '\\'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// firstNamed is n's first named child that is no comment, or None.
func firstNamed(t *extract.Tree, n node) node {
	if n == None {
		return None
	}
	for c := range t.NamedChildren(n) {
		if t.KindName(c) != "comment" {
			return c
		}
	}
	return None
}

// firstArg is the expression of a call's first argument, or None.
func firstArg(t *extract.Tree, g *grammar, args node) node {
	a := firstNamed(t, args)
	if t.Kind(a) == g.argument {
		return firstNamed(t, a)
	}
	return a
}

// scalars are PHP's built-in types: no class to link.
var scalars = map[string]bool{
	"int": true, "float": true, "string": true, "bool": true, "array": true, "callable": true,
	"iterable": true, "object": true, "mixed": true, "void": true, "null": true, "never": true,
	"false": true, "true": true, "integer": true, "double": true, "boolean": true, "resource": true,
}

// shortType is the class a type as written names, by its short name: the
// leading "?" and namespace dropped (an alias stays: the import binds
// it), self and static the enclosing class, parent its parent; "" for
// scalars. A global
// class named from a namespace (\DateTime, or `use DateTime;`) keeps its
// backslash, so that the host never takes it for a same-named class of
// the repository (it is PHP's, or a global one it cannot tell apart).
func (x *state) shortType(s string) string {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "?"))
	if s == "" || strings.ContainsAny(s, "|&()$ ") {
		return ""
	}
	lower := strings.ToLower(s)
	switch lower {
	case "self", "static", "$this":
		if x.cls != nil {
			return x.cls.name
		}
		return ""
	case "parent":
		if x.cls != nil {
			return x.cls.parent
		}
		return ""
	}
	if scalars[lower] {
		return ""
	}
	if !strings.Contains(s, `\`) {
		if orig, ok := x.uses[s]; ok {
			s = orig
		}
	}
	if x.namespace != "" && strings.HasPrefix(s, `\`) && strings.Count(s, `\`) == 1 {
		return s // \Exception in a namespace: PHP's global class, never a same-named one here
	}
	return lastSegment(s)
}

// typeOf is the class of a type node: a named or nullable type, the one
// class of a union with null; "" for scalars and other unions.
func (x *state) typeOf(n node) string {
	t, g := x.t, x.g
	switch t.Kind(n) {
	case g.optionalType, g.nullableType:
		return x.typeOf(firstNamed(t, n))
	case g.unionType:
		one := ""
		for c := range t.NamedChildren(n) {
			switch typ := x.typeOf(c); {
			case typ == "":
			case one != "":
				return "" // two classes: no single type
			default:
				one = typ
			}
		}
		return one
	case g.namedType, g.name, g.qualifiedName:
		return x.shortType(t.Text(n))
	}
	return ""
}

// stringLit is the value of a quoted string without interpolation.
func (x *state) stringLit(n node) (string, bool) {
	t, g := x.t, x.g
	if k := t.Kind(n); k != g.str && k != g.encapsed {
		return "", false
	}
	var parts []string
	for c := range t.NamedChildren(n) {
		if t.Kind(c) != g.strContent {
			return "", false
		}
		parts = append(parts, t.Text(c))
	}
	return strings.Join(parts, ""), true
}

// isTestPath reports PHPUnit's conventions: *Test.php, or a file under
// tests/ or test/.
func isTestPath(p string) bool {
	dir, base := path.Split(p)
	if strings.HasSuffix(strings.TrimSuffix(base, path.Ext(base)), "Test") {
		return true
	}
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		if seg == "tests" || seg == "test" || seg == "Tests" {
			return true
		}
	}
	return false
}

// docTag returns the type a docblock gives with tag: "@var Foo", or
// "@param Foo $name" for the parameter name; "" when there is none.
func docTag(doc, tag, name string) string {
	for _, line := range strings.Split(doc, "\n") {
		_, rest, ok := strings.Cut(line, tag+" ")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		if name == "" || len(f) > 1 && f[1] == name {
			return f[0]
		}
	}
	return ""
}

// docType is the one class a docblock type names: "Foo", "?Foo",
// "Foo|null"; "" for scalars, arrays (Foo[]), generics and unions of two
// classes.
func (x *state) docType(s string) string {
	if strings.ContainsAny(s, "[]<>{}()") {
		return ""
	}
	one := ""
	for _, part := range strings.Split(s, "|") {
		switch typ := x.shortType(part); {
		case typ == "":
		case one != "":
			return ""
		default:
			one = typ
		}
	}
	return one
}

// inlineVar reads `/** @var Foo $x */` inside a function: the type of the
// local $x from there on (PHP's common hint for values the code cannot
// type, such as an array element).
func (x *state) inlineVar(n node) {
	if x.fn < 0 {
		return
	}
	doc := x.t.Text(n)
	for _, line := range strings.Split(doc, "\n") {
		_, rest, ok := strings.Cut(line, "@var ")
		if !ok {
			continue
		}
		if f := strings.Fields(rest); len(f) > 1 && strings.HasPrefix(f[1], "$") {
			if typ := x.docType(f[0]); typ != "" {
				x.locals[f[1]] = typ
				x.hinted[f[1]] = true
			}
		}
	}
}
