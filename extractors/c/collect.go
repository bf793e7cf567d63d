package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// collect reads, before the walk, what calls need to know about the whole
// file: its file-level variables (a call of one goes through a function
// pointer), the namespaces it opens, and every class's members, from class
// bodies and from T::m definitions (an unqualified m() in a method of T
// may be this->m()). Function bodies are not entered.
func (w *walker) collect(n extract.Node) { w.collectIn(n, "", 0) }

// maxCollectDepth bounds the collect recursion on pathological nesting.
const maxCollectDepth = 256

func (w *walker) collectIn(n extract.Node, class string, depth int) {
	t, g := w.t, w.g
	if depth > maxCollectDepth {
		return
	}
	switch k := t.Kind(n); k {
	case g.compound, g.comment, g.stringLit, g.define, g.defineFn, g.include:
		return
	case g.funcDef:
		if name, _, ok := w.macroClass(n); ok {
			w.collectRecovered(t.Child(n, g.fBody), name, depth+1)
			return
		}
		d := w.unwrap(t.Child(n, g.fDeclarator))
		if d.name == extract.None || d.fn == extract.None {
			return
		}
		rt := w.returnName(n, d)
		if t.Kind(d.name) == g.qualifiedIdent {
			scope, name := w.splitQualified(d.name)
			w.member(bareName(scope), name, methodMark)
			w.returns(bareName(scope), name, rt)
		} else if class != "" {
			w.member(class, w.text(d.name), methodMark)
			w.returns(class, w.text(d.name), rt)
		} else {
			w.returns("", w.text(d.name), rt)
		}
		return
	case g.structSpec, g.classSpec, g.unionSpec:
		name := class // an anonymous struct's members are its container's
		if nm := t.Child(n, g.fName); nm != extract.None {
			name = bareName(w.text(nm))
		}
		if body := t.Child(n, g.fBody); body != extract.None {
			for m := range t.Children(body) {
				w.collectIn(m, name, depth+1)
			}
		}
		return
	case g.namespaceDef:
		if nm := t.Child(n, g.fName); nm != extract.None {
			for _, part := range strings.Split(strings.ReplaceAll(w.text(nm), " ", ""), "::") {
				w.namespaces[part] = true
			}
		}
	case g.usingDecl:
		w.using(n)
		return
	case g.templateDecl:
		for p := range t.NamedChildren(t.Child(n, g.fParameters)) {
			if id := t.ChildOfKind(p, g.typeIdent); id != extract.None {
				w.templateParams[w.text(id)] = true
			}
		}
	case g.declaration, g.fieldDecl:
		if typ := t.Child(n, g.fType); typ != extract.None {
			w.collectIn(typ, class, depth+1)
		}
		tn := w.typeName(t.Child(n, g.fType))
		w.declarators(n, func(_ extract.Node, d declarator) {
			if d.name == extract.None {
				return
			}
			name := w.text(d.name)
			switch {
			case class != "" && d.fn != extract.None:
				w.member(class, name, methodMark)
				w.returns(class, name, w.returnName(n, d))
			case class != "":
				w.member(class, name, tn)
			case d.fn == extract.None && t.Kind(d.name) != g.qualifiedIdent:
				w.fileVars[name] = tn
			case d.fn != extract.None && t.Kind(d.name) != g.qualifiedIdent:
				w.returns("", name, w.returnName(n, d)) // a prototype
			}
		})
		return
	}
	for ch := range t.Children(n) {
		w.collectIn(ch, class, depth+1)
	}
}

// member records a member of class.
func (w *walker) member(class, name, typ string) {
	if class == "" || name == "" {
		return
	}
	m := w.members[class]
	if m == nil {
		m = map[string]string{}
		w.members[class] = m
	}
	if _, seen := m[name]; !seen || typ == methodMark {
		m[name] = typ
	}
}

// collectRecovered collects the members of a misread class (see
// recoverMembers): definitions, and the names of methods whose header
// is an ERROR before a block.
func (w *walker) collectRecovered(block extract.Node, class string, depth int) {
	t, g := w.t, w.g
	if depth > maxCollectDepth {
		return
	}
	for ch := range t.Children(block) {
		switch {
		case t.Kind(ch) == g.labeled:
			w.collectRecovered(ch, class, depth+1)
		case t.IsError(ch):
			for c := range t.NamedChildren(ch) {
				if t.Kind(c) == g.callExpr {
					if fn := t.Child(c, g.fFunction); t.Kind(fn) == g.identifier {
						w.member(class, w.text(fn), methodMark)
					}
				}
			}
		default:
			w.collectIn(ch, class, depth+1)
		}
	}
}

// returnName is the named type a function declaration returns, pointers
// and references stripped (Impl* impl() → "Impl"); "" for a builtin.
func (w *walker) returnName(n extract.Node, d declarator) string {
	return w.typeName(w.t.Child(n, w.g.fType))
}

// conflicting marks a name declared with two different return types
// (overloads): its result has no one type.
const conflicting = "\x00"

// returns records what function name (of class, or free when class is "")
// returns, so f()->m() and impl()->m() are typed from the file itself.
func (w *walker) returns(class, name, typ string) {
	if name == "" || typ == "" {
		return
	}
	m := w.results[class]
	if m == nil {
		m = map[string]string{}
		w.results[class] = m
	}
	if old, seen := m[name]; seen && old != typ {
		typ = conflicting
	}
	m[name] = typ
}

// result is what w.returns recorded, "" when unknown or overloaded.
func (w *walker) result(class, name string) string {
	if typ := w.results[class][name]; typ != conflicting {
		return typ
	}
	return ""
}
