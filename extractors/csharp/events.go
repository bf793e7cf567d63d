package main

import (
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// C# events are channels: `ev += handler` registers a handler and
// `ev?.Invoke(…)` / `ev(…)` raises the event. Both ends are named
// "Type.Event" after the type that declares the event, so a subscription
// in one file meets the raise in another.

// ownEvent returns the name of the enclosing types' event that n (Ev or
// this.Ev) reads, or "".
func (w *walker) ownEvent(n node) string {
	t, g := w.t, w.g
	name := ""
	switch t.Kind(n) {
	case g.identifier:
		name = w.text(n)
	case g.memberAccess:
		if w.isThis(t.Child(n, g.fExpression)) {
			name = w.text(w.nameOf(t.Child(n, g.fName)))
		}
	}
	for i := len(w.events) - 1; i >= 0 && name != ""; i-- {
		if w.events[i] == name {
			return name
		}
	}
	return ""
}

// raise reports a raise of one of the enclosing type's events.
func (w *walker) raise(n node) {
	tf := w.typeFrame()
	if tf == nil {
		return
	}
	if ev := w.ownEvent(n); ev != "" {
		w.f.ChannelSite(abi.ChannelSite{From: w.parent(), Kind: abi.ChannelEvent, Role: abi.ChannelSend, Name: tf.name + "." + ev, Line: w.t.StartLine(n)})
	}
}

// assign reports `ev += handler` as a handler registration: on an event
// of the enclosing type, or on x.Ev of a typed x when the right side is a
// handler (a lambda, an anonymous method, a delegate creation or a method
// named, not a variable): `total += price` is arithmetic.
func (w *walker) assign(i node) {
	t, g := w.t, w.g
	if t.Kind(t.Child(i, g.fOperator)) != g.kwPlusEq {
		return
	}
	left, right := t.Child(i, g.fLeft), t.Child(i, g.fRight)
	name := ""
	if ev := w.ownEvent(left); ev != "" {
		if tf := w.typeFrame(); tf != nil {
			name = tf.name + "." + ev
		}
	} else if t.Kind(left) == g.memberAccess && w.isHandler(right) {
		owner := w.exprType(t.Child(left, g.fExpression), 0)
		if ev := w.text(w.nameOf(t.Child(left, g.fName))); owner != "" && !strings.Contains(owner, "#") && ev != "" {
			name = owner + "." + ev
		}
	}
	if name == "" {
		return
	}
	site := abi.ChannelSite{From: w.parent(), Kind: abi.ChannelEvent, Role: abi.ChannelHandle, Name: name, Line: t.StartLine(i)}
	switch t.Kind(right) {
	case g.identifier:
		site.Handler = w.text(right)
	case g.memberAccess:
		if w.isThis(t.Child(right, g.fExpression)) {
			site.Handler = w.text(w.nameOf(t.Child(right, g.fName)))
		}
	}
	w.f.ChannelSite(site)
}

// isHandler reports an expression that can only be a delegate: a lambda,
// an anonymous method, new EventHandler(…), or a name that is not a
// variable in scope (a method group).
func (w *walker) isHandler(n node) bool {
	t, g := w.t, w.g
	switch t.KindName(n) {
	case "lambda_expression", "anonymous_method_expression", "object_creation_expression":
		return true
	}
	switch t.Kind(n) {
	case g.identifier:
		return !w.declared(w.text(n))
	case g.memberAccess:
		return w.isThis(t.Child(n, g.fExpression)) && !w.declared(w.text(w.nameOf(t.Child(n, g.fName))))
	}
	return false
}

// reflectiveCalls are .NET reflection entry points that find a type or
// member by a name given at run time; the name is their first argument.
var reflectiveCalls = map[string]bool{
	"GetType": true, "GetMethod": true, "GetProperty": true, "GetField": true,
	"GetEvent": true, "GetMember": true, "InvokeMember": true, "CreateInstance": true,
}

// dynamic records a reflective lookup (Type.GetType("A.B"),
// t.GetMethod("Run")) and MethodInfo.Invoke, whose target is opaque.
func (w *walker) dynamic(call node, name string) {
	site := abi.DynamicSite{From: w.parent(), Kind: abi.DynamicReflection, Line: w.t.StartLine(call)}
	switch {
	case reflectiveCalls[name]:
		site.Key = w.firstStringArg(call)
		if site.Key == "" && name == "GetType" {
			return // obj.GetType(): no lookup by name
		}
	case name == "DynamicInvoke":
	default:
		return
	}
	w.f.DynamicSite(site)
}

// firstStringArg is the call's first argument when it is a plain string
// literal, else "".
func (w *walker) firstStringArg(call node) string {
	t, g := w.t, w.g
	args := t.Child(call, g.fArguments)
	for a := range t.NamedChildren(args) {
		lit := firstNamedChild(t, a)
		if t.KindName(lit) != "string_literal" {
			return ""
		}
		s, err := strconv.Unquote(w.text(lit))
		if err != nil {
			return ""
		}
		return s
	}
	return ""
}

// cleanDocs turns the XML doc comments FillDocs found into text: the
// <summary> when there is one, tags dropped, <see cref="X"/> kept as X.
func (w *walker) cleanDocs() {
	syms := w.f.Symbols()
	for i := range syms {
		if d := syms[i].Doc; strings.ContainsRune(d, '<') {
			syms[i].Doc = extract.DocText([]string{xmlText(d)})
		}
	}
}

// xmlText is the text of an XML doc fragment.
func xmlText(s string) string {
	if i := strings.Index(s, "<summary>"); i >= 0 {
		s = s[i+len("<summary>"):]
		if j := strings.Index(s, "</summary>"); j >= 0 {
			s = s[:j]
		}
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		tag := s[i : i+j+1]
		if k := strings.Index(tag, `="`); k >= 0 && strings.HasSuffix(tag, "/>") {
			v := tag[k+2:]
			if e := strings.IndexByte(v, '"'); e >= 0 {
				b.WriteString(lastSegment(strings.TrimPrefix(v[:e], "T:")))
			}
		}
		s = s[i+j+1:]
	}
	return b.String()
}
