package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/extracttest"
)

// TestFixtures checks the want comments of testdata/*.txtar. In this
// repository the synaptic binary may not be built yet, so the test skips
// without one; a plugin of your own should let extracttest.Run fail
// instead (see docs/plugin-authoring.md).
func TestFixtures(t *testing.T) {
	if _, err := extracttest.Binary(); err != nil {
		t.Skip(err)
	}
	extracttest.Run(t, toy{})
}

// TestTypes checks in Go what want comments do not say: the classes'
// lines, the receiver types, the module keys.
func TestTypes(t *testing.T) {
	if _, err := extracttest.Binary(); err != nil {
		t.Skip(err)
	}
	facts, err := extracttest.Extract(".", toy{}, map[string][]byte{
		"app/main_spec.toy": []byte("---@class Box\nlocal Box = {}\n\nfunction Box:area()\n  local s = Box.new()\n  s:side()\n  self:side()\nend\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	f := facts["app/main_spec.toy"]
	if ff := f.File; !ff.Test || len(ff.Modules) != 1 || ff.Modules[0] != "app/main_spec" {
		t.Errorf("file facts = %+v, want a test file with module app/main_spec", ff)
	}
	want := map[uint32]string{6: "named:Box result:new", 7: "named:Box"}
	for _, c := range f.Calls {
		if w, ok := want[c.Line]; ok && refString(c.ReceiverRef) != w {
			t.Errorf("line %d %s.%s: receiver type %q, want %q", c.Line, c.Receiver, c.Name, refString(c.ReceiverRef), w)
		}
	}
}

func refString(r *abi.TypeRef) string {
	if r == nil {
		return ""
	}
	s := ""
	for i, st := range r.Steps {
		if i > 0 {
			s += " "
		}
		s += string(st.Op) + ":" + st.Name
	}
	return s
}
