package main

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extract"
)

// maxTestName bounds the description part of an example's name.
const maxTestName = 80

func isGroup(name string) bool {
	switch name {
	case "describe", "context", "feature", "shared_examples", "shared_examples_for", "shared_context", "experiment":
		return true
	}
	return false
}

func isExample(name string) bool {
	switch name {
	case "it", "specify", "example", "scenario", "test", "its", "xit", "fit":
		return true
	}
	return false
}

// example reports an RSpec/minitest-spec group or example with a block:
// groups are test classes, examples test methods, named after the call
// ("describe Invoice", "it pays"). Outside test files it only counts
// under RSpec.describe (anywhere says it is a spec). false when n is an
// ordinary call.
func (x *state) example(n node, kw string, args node, rspec bool) bool {
	t, g := x.t, x.g
	blk := t.Child(n, g.fBlock)
	s := x.scope()
	inGroup := s != nil && s.kind == scopeSpec
	if blk == None || !(rspec || x.testFile || inGroup) || isExample(kw) && !inGroup && !x.testFile {
		return false
	}
	name := kw
	if d := x.description(args); d != "" {
		name += " " + d
	}
	sym := abi.Symbol{Name: name, Kind: abi.KindMethod, Parent: x.parent(), Test: true}
	if isGroup(kw) {
		sym.Kind = abi.KindClass
		sc := newScope(scopeSpec, name)
		sc.sym = x.symbol(n, sym)
		x.enter(sc, func() { x.walk(blk) })
		return true
	}
	if s == nil {
		sym.Kind = abi.KindFunction
	}
	idx := x.symbol(n, sym)
	fn, fnName, locals := x.fn, x.fnName, x.locals
	x.fn, x.fnName, x.locals = idx, "", map[string]string{}
	x.walk(blk)
	x.fn, x.fnName, x.locals = fn, fnName, locals
	return true
}

// description is the first argument of describe/it: a string's text, or
// the constant or expression as written, on one line and clipped.
func (x *state) description(args node) string {
	a := firstNamed(x.t, args)
	if a == None {
		return ""
	}
	s, ok := x.stringLit(a)
	if !ok {
		s = x.t.Text(a)
	}
	return extract.ReceiverText(s, maxTestName)
}

// isTestPath reports Ruby's test file conventions: *_spec.rb, *_test.rb,
// test_*.rb, or a file under spec/ or test/.
func isTestPath(p string) bool {
	dir, base := path.Split(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.HasSuffix(stem, "_spec") || strings.HasSuffix(stem, "_test") || strings.HasPrefix(stem, "test_") {
		return true
	}
	for _, seg := range strings.Split(strings.Trim(dir, "/"), "/") {
		if seg == "spec" || seg == "test" {
			return true
		}
	}
	return false
}

// isTestBase reports a minitest/test-unit base class: Minitest::Test,
// Test::Unit::TestCase, ActiveSupport::TestCase, ActionDispatch::IntegrationTest…
func isTestBase(super string) bool {
	last := lastSegment(super)
	return strings.HasSuffix(last, "Test") || strings.HasSuffix(last, "TestCase")
}
