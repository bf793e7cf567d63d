package main

import (
	"slices"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Build variants: a file-level `#![cfg(…)]` says which targets the file
// is built for, as ABI constraints on the axes target_family, target_os
// and target_arch (`unix`, `windows`, `target_os = "linux"`, combined with
// not, any and all). Same-named definitions in mutually exclusive files are
// then twins, and a call links to every twin its own file can be built
// with. What cannot be said exactly on these axes (features, pointer
// widths, a not over several axes) is left out: the file then counts as
// built everywhere, which never makes two files exclusive wrongly.

// The axes, named as Rust's cfg keys.
const (
	axisFamily = "target_family"
	axisOS     = "target_os"
	axisArch   = "target_arch"
)

// cfgConstraints reads the arguments of a file-level cfg attribute
// ("(unix)", "(all(unix, not(target_os = \"macos\")))").
func cfgConstraints(args string) []abi.Constraint {
	p := &cfgParser{toks: cfgTokens(args)}
	if !p.eat("(") {
		return nil
	}
	pred := p.pred(0)
	if !p.eat(")") || p.i != len(p.toks) || pred == nil {
		return nil
	}
	if pred.all != nil {
		return pred.all
	}
	if pred.c != nil {
		return []abi.Constraint{*pred.c}
	}
	return nil
}

// cfgPred is one parsed predicate: a constraint on one axis, or (for all)
// several that hold at once; nil fields for what no constraint states.
type cfgPred struct {
	c   *abi.Constraint
	all []abi.Constraint
}

type cfgParser struct {
	toks []string
	i    int
}

func (p *cfgParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return ""
}

func (p *cfgParser) eat(tok string) bool {
	if p.peek() == tok {
		p.i++
		return true
	}
	return false
}

// maxCfgDepth bounds nesting: cfg attributes nest a few levels at most.
const maxCfgDepth = 8

// pred parses one predicate; it returns nil for a malformed one.
func (p *cfgParser) pred(depth int) *cfgPred {
	name := p.peek()
	if name == "" || strings.ContainsAny(name, "(),=\"") || depth > maxCfgDepth {
		return nil
	}
	p.i++
	switch {
	case p.eat("="):
		val := p.peek()
		if !strings.HasPrefix(val, "\"") {
			return nil
		}
		p.i++
		switch v := strings.Trim(val, "\""); name {
		case axisFamily, axisOS, axisArch:
			return &cfgPred{c: &abi.Constraint{Axis: name, Values: []string{v}}}
		}
		return &cfgPred{}
	case p.eat("("):
		var args []*cfgPred
		for !p.eat(")") {
			a := p.pred(depth + 1)
			if a == nil {
				return nil
			}
			args = append(args, a)
			if !p.eat(",") && p.peek() != ")" {
				return nil
			}
		}
		return combine(name, args)
	}
	if name == "unix" || name == "windows" {
		return &cfgPred{c: &abi.Constraint{Axis: axisFamily, Values: []string{name}}}
	}
	return &cfgPred{}
}

// combine states not, any and all of already parsed predicates, where the
// axes allow it exactly.
func combine(op string, args []*cfgPred) *cfgPred {
	switch op {
	case "not":
		if len(args) == 1 && args[0].c != nil && !args[0].c.Negated {
			c := *args[0].c
			c.Negated = true
			return &cfgPred{c: &c}
		}
	case "any":
		var u *abi.Constraint
		for _, a := range args {
			if a.c == nil || a.c.Negated || u != nil && a.c.Axis != u.Axis {
				return &cfgPred{} // any over unknowns or several axes: built anywhere, for all we can say
			}
			if u == nil {
				u = &abi.Constraint{Axis: a.c.Axis}
			}
			for _, v := range a.c.Values {
				if !slices.Contains(u.Values, v) {
					u.Values = append(u.Values, v)
				}
			}
		}
		return &cfgPred{c: u}
	case "all":
		out := &cfgPred{all: []abi.Constraint{}}
		for _, a := range args {
			switch {
			case a.c != nil:
				out.all = append(out.all, *a.c)
			case a.all != nil:
				out.all = append(out.all, a.all...)
			} // an unknown conjunct is dropped: fewer constraints, never a wrong one
		}
		return out
	}
	return &cfgPred{}
}

// cfgTokens splits cfg arguments into identifiers, strings and ( ) , =.
func cfgTokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.IndexByte("(),=", c) >= 0:
			out = append(out, s[i:i+1])
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return append(out, "(") // unterminated: make the parse fail
			}
			out = append(out, s[i:i+j+2])
			i += j + 2
		default:
			j := i
			for j < len(s) && strings.IndexByte(" \t\n\r(),=\"", s[j]) < 0 {
				j++
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}
