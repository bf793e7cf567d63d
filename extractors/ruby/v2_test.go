//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestFileFacts pins the ABI v2 file facts, which the golden dump does not
// show: module keys, the test marker, import keys and kinds, and the
// structured receiver types.
func TestFileFacts(t *testing.T) {
	tests := []struct {
		path, src   string
		modules     []string
		test        bool
		keys        [][]string // per import
		receiverRef string     // of the first typed call, as TypeRef.String
	}{
		{path: "lib/shop/invoice.rb", src: "require 'json'\nrequire_relative '../util'\nclass A\n  def m\n    @x = B.new\n    @x.go\n  end\nend\n",
			modules: []string{"lib/shop/invoice", "shop/invoice"}, keys: [][]string{{"json"}, {"lib/util"}}, receiverRef: "B"},
		{path: "spec/a_spec.rb", src: "require File.expand_path('../helper', __FILE__)\n",
			modules: []string{"spec/a_spec"}, test: true, keys: [][]string{{"spec/helper"}}},
		{path: "app.rb", src: "load 'tasks.rake'\nautoload :X, 'x/y.rb'\n",
			modules: []string{"app"}, keys: [][]string{{"tasks.rake"}, {"x/y"}}},
		{path: "lib/a/b.rb", src: "module A\n  class B\n    def m\n      self.n\n    end\n  end\nend\n",
			modules: []string{"lib/a/b", "a/b"}, receiverRef: "B"},
		{path: "Rakefile.rake", src: "task :x\n", modules: []string{"Rakefile.rake"}},
		{path: "vendor/gems/foo/lib/foo.rb", src: "", modules: []string{"vendor/gems/foo/lib/foo", "foo"}},
		{path: "app/views/a.html.erb", src: "<%= x %>", modules: nil},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			f := plugintest.ExtractSource(t, Extractor{}, tc.path, []byte(tc.src))
			if !slices.Equal(f.File.Modules, tc.modules) || f.File.Test != tc.test {
				t.Errorf("file facts = %+v, want modules %q test %v", f.File, tc.modules, tc.test)
			}
			var keys [][]string
			for _, im := range f.Imports {
				keys = append(keys, im.Keys)
				if im.Kind != abi.ImportWildcard {
					t.Errorf("import %q has kind %q, want wildcard (require makes the file's constants visible)", im.Path, im.Kind)
				}
			}
			if !slices.EqualFunc(keys, tc.keys, slices.Equal) {
				t.Errorf("import keys = %q, want %q", keys, tc.keys)
			}
			got := ""
			for _, c := range f.Calls {
				if c.ReceiverType != "" {
					if c.ReceiverRef == nil || c.ReceiverRef.String() != c.ReceiverType {
						t.Errorf("call %s: ReceiverRef %v does not match ReceiverType %q", c.Name, c.ReceiverRef, c.ReceiverType)
					}
					if got == "" {
						got = c.ReceiverType
					}
				}
			}
			if got != tc.receiverRef {
				t.Errorf("first receiver type = %q, want %q", got, tc.receiverRef)
			}
		})
	}
}
