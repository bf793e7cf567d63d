package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

// Aliases. A name assigned a bare dotted name (F = fractions.Fraction at
// module level, check = self.check_match in a test) is another name for
// what that expression names: calling it calls the target, and a member
// call on it (F.from_float(x)) is a member call on the target. Python
// binds names so, and the plugin knows it; the host does not know that F
// holds a class. So the plugin reports such calls as calls of the target
// itself, at the alias's call site: F(1, 2) is reported as
// fractions.Fraction(1, 2), check('a', 'b') as self.check_match('a', 'b').
//
// Only an alias assigned once counts: a name given a second, different
// value is no alias from then on (which value a call sees depends on the
// run), nor is a module-level name some function declares global (it is
// rebound at run time: logging's _logRecordFactory). An alias of an alias
// is recorded as its final target.

// aliasTarget returns the expression right names when it can be an
// alias: an identifier or a chain of attributes on one (after looking
// through an alias it already is), not a builtin or keyword.
func (x *state) aliasTarget(right extract.Node) extract.Node {
	t, l := x.t, x.l
	if right == extract.None || !x.isDotted(right) {
		return extract.None
	}
	if t.Kind(right) == l.identifier {
		name := t.Text(right)
		if x.isBuiltin(name) || keywords[name] {
			return extract.None
		}
		if a := x.aliasOf(name); a != extract.None {
			return a
		}
	}
	return right
}

// noteAlias records, after the assignment name = right has bound name
// in x.vars (its last entry at or after from, the scope's first var),
// whether name is now an alias: it is when this is its only binding in
// the scope, or a rebinding to the same expression.
func (x *state) noteAlias(name string, right extract.Node, from int) {
	target := x.aliasTarget(right)
	if from == 0 && x.rebound[name] {
		target = extract.None
	}
	if target != extract.None && x.t.Kind(target) == x.l.identifier && x.t.Text(target) == name {
		target = extract.None // x = x
	}
	last, earlier := -1, false
	for j := from; j < len(x.vars); j++ {
		if x.vars[j].name == name {
			earlier = last >= 0
			last = j
		}
	}
	if last < 0 {
		return
	}
	v := &x.vars[last]
	switch {
	case !earlier && !v.aliasSet:
		v.alias = target
	case v.aliasSet && x.sameText(v.alias, target):
	default:
		v.alias = extract.None
	}
	v.aliasSet = true
}

// assignedVar is the var an assignment binds: whether it is an alias is
// still to be decided (noteAlias).
func assignedVar(name, typ string) typedVar {
	return typedVar{name: name, typ: typ, alias: extract.None}
}

// maxAliasDepth bounds how many aliases one expression is looked
// through (F = G; G = F must not loop).
const maxAliasDepth = 4

// callAlias returns the expression an identifier callee or receiver
// named name stands for, or None.
func (x *state) callAlias(name string) extract.Node {
	if x.aliasDepth >= maxAliasDepth || name == "self" || name == "cls" {
		return extract.None
	}
	return x.aliasOf(name)
}

// aliasOf returns the expression that name, as seen at the current point
// of the walk (the innermost binding), is an alias of, or None.
func (x *state) aliasOf(name string) extract.Node {
	for j := len(x.vars) - 1; j >= 0; j-- {
		if x.vars[j].name == name {
			return x.vars[j].alias
		}
	}
	return extract.None
}

// sameText reports whether a and b are the same expression text (None
// matches nothing).
func (x *state) sameText(a, b extract.Node) bool {
	return a != extract.None && b != extract.None && string(x.t.Bytes(a)) == string(x.t.Bytes(b))
}

// findRebound records the names the file's global statements declare:
// functions rebind them, so none is an alias.
func (x *state) findRebound() {
	t := x.t
	clear(x.rebound)
	end := extract.Node(t.Len())
	for i := t.Seek(1, end, &x.l.globals); i < end; i = t.Seek(i+1, end, &x.l.globals) {
		if x.l.globals[t.Kind(i)] == 0 {
			continue // an ERROR or MISSING node
		}
		for c := range t.NamedChildren(i) {
			if t.Kind(c) == x.l.identifier {
				if x.rebound == nil {
					x.rebound = map[string]bool{}
				}
				x.rebound[t.Text(c)] = true
			}
		}
	}
}
