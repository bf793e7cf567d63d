package main

import (
	"bytes"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// None is the absent node.
const None = extract.None

// lastSegment is the part after the last "::": "A::B::C" → "C".
func lastSegment(s string) string {
	if i := strings.LastIndex(s, "::"); i >= 0 {
		return s[i+2:]
	}
	return s
}

func firstNamed(t *extract.Tree, n node) node { return nthNamed(t, n, 0) }

// nthNamed is n's i-th named child that is no comment, or None.
func nthNamed(t *extract.Tree, n node, i int) node {
	if n == None {
		return None
	}
	for c := range t.NamedChildren(n) {
		if t.KindName(c) == "comment" {
			continue
		}
		if i == 0 {
			return c
		}
		i--
	}
	return None
}

// typeName is a constant path as written on one line, without a leading
// "::" ("::Foo::Bar" → "Foo::Bar").
func (x *state) typeName(n node) string {
	return strings.TrimPrefix(extract.OneLine(x.t.Text(n)), "::")
}

// stringLit is the value of a string literal without interpolation.
func (x *state) stringLit(n node) (string, bool) {
	t, g := x.t, x.g
	if t.Kind(n) != g.str {
		return "", false
	}
	var parts []string
	for c := range t.NamedChildren(n) {
		if t.Kind(c) != g.strContent {
			return "", false // interpolation or escapes: computed
		}
		parts = append(parts, t.Text(c))
	}
	return strings.Join(parts, ""), true
}

// symbolLit is the name of :sym (or "sym", as attr_* accept both).
func (x *state) symbolLit(n node) (string, bool) {
	t := x.t
	if t.Kind(n) == x.g.simpleSymbol {
		return strings.TrimPrefix(t.Text(n), ":"), true
	}
	return x.stringLit(n)
}

// collectTopDefs notes the file-level defs: receiverless calls to them
// stay plain calls of a function rather than calls on self.
func (x *state) collectTopDefs() {
	t, g := x.t, x.g
	x.topDefs = map[string]bool{}
	for c := range t.NamedChildren(0) {
		if t.Kind(c) == g.method {
			x.topDefs[t.Text(t.Child(c, g.fName))] = true
		}
	}
}

// ivarTypes maps the instance variables a class body assigns X.new to X,
// over all its defs (nested classes and class << self excluded); an ivar
// assigned two different classes maps to "".
func (x *state) ivarTypes(body node) map[string]string {
	t, g := x.t, x.g
	out := map[string]string{}
	for i, end := body+1, t.End(body); body != None && i < end; i++ {
		switch t.Kind(i) {
		case g.class, g.module, g.singletonClass:
			i = t.End(i) - 1
		case g.assignment, g.opAssignment:
			left := t.Child(i, g.fLeft)
			if t.Kind(left) != g.ivar {
				continue
			}
			name, typ := t.Text(left), x.newType(t.Child(i, g.fRight))
			if prev, seen := out[name]; seen && prev != typ {
				typ = ""
			}
			out[name] = typ
		}
	}
	return out
}

// explicitVisibility reads `private :a, :b` (and protected/public) in a
// body: the visibility of those methods wherever they are defined.
func (x *state) explicitVisibility(body node) map[string]abi.Visibility {
	t, g := x.t, x.g
	out := map[string]abi.Visibility{}
	for c := range t.NamedChildren(body) {
		if t.Kind(c) != g.call || t.Child(c, g.fReceiver) != None {
			continue
		}
		vis := t.Text(t.Child(c, g.fMethod))
		switch vis {
		case "private_class_method":
			vis = "private"
		case "private", "protected", "public":
		default:
			continue
		}
		for a := range t.NamedChildren(t.Child(c, g.fArguments)) {
			if name, ok := x.symbolLit(a); ok {
				out[name] = abi.Visibility(vis)
			}
		}
	}
	return out
}

// docAbove is the # comment block ending on the line above the one where
// a definition starts, as DocText; magic comments, shebangs and rubocop
// directives are not docs. (The sdk's DocAbove knows // and /** only.)
func docAbove(src []byte, start int) string {
	if start < 0 || start > len(src) {
		return ""
	}
	end := bytes.LastIndexByte(src[:start], '\n') + 1
	var lines []string // bottom-up
	for end > 0 {
		ls := bytes.LastIndexByte(src[:end-1], '\n') + 1
		line := strings.TrimSpace(string(src[ls : end-1]))
		if !strings.HasPrefix(line, "#") || isDirective(line) {
			break
		}
		lines = append(lines, strings.TrimPrefix(line[1:], " "))
		end = ls
	}
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	return extract.DocText(lines)
}

// isDirective reports a comment that speaks to a tool, not a reader.
func isDirective(line string) bool {
	l := strings.ToLower(line)
	for _, p := range []string{"#!", "# frozen_string_literal:", "# encoding:", "# -*-", "# rubocop:", "# typed:", "# :nodoc:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// coreNamespaces are Ruby's core and standard-library namespaces. A
// constant path under one (URI::Parser, Net::HTTP) is Ruby's own: typing
// it by its last segment would let the host link it to a same-named class
// of the repository (rack's Multipart::Parser for URI::Parser.new).
var coreNamespaces = map[string]bool{
	"URI": true, "Net": true, "OpenSSL": true, "JSON": true, "YAML": true, "Psych": true,
	"File": true, "FileUtils": true, "Dir": true, "IO": true, "Process": true, "Signal": true,
	"Socket": true, "Zlib": true, "Digest": true, "CGI": true, "ERB": true, "Encoding": true,
	"Errno": true, "Etc": true, "Gem": true, "Kernel": true, "Math": true, "ObjectSpace": true,
	"Thread": true, "Time": true, "Date": true, "DateTime": true, "Struct": true, "Comparable": true,
	"Enumerable": true, "Enumerator": true, "Marshal": true, "Ractor": true, "Fiber": true,
	"Rational": true, "Complex": true, "Random": true, "Regexp": true, "RbConfig": true,
	"StringIO": true, "Tempfile": true, "Logger": true, "Monitor": true, "Open3": true,
	"Pathname": true, "Ripper": true, "Coverage": true, "Benchmark": true, "Base64": true,
	"SecureRandom": true, "Timeout": true, "Set": true, "Shellwords": true, "WEBrick": true,
}

// isCore reports a qualified constant path (A::B) under one of Ruby's own
// namespaces.
func isCore(path string) bool {
	first, _, qualified := strings.Cut(path, "::")
	return qualified && coreNamespaces[first]
}
