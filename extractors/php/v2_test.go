//go:build !wasip1

package main

import (
	"slices"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// TestFileFacts pins the ABI v2 facts the golden dump does not show: the
// namespace scope, module keys (fully qualified names, then the path),
// the test marker, import keys and kinds, and structured types.
func TestFileFacts(t *testing.T) {
	type imp struct {
		keys []string
		kind abi.ImportKind
	}
	tests := []struct {
		path, src string
		scope     string
		modules   []string
		test      bool
		imports   []imp
		refs      []string // TypeRef.String of each typed call's receiver
	}{
		{path: "src/Models/User.php",
			src:   "<?php\nnamespace App\\Models;\nuse App\\Support\\Str as S;\nrequire __DIR__ . '/../boot.php';\ninclude 'lib/x.php';\nclass User {\n  function m(Repo $r): Repo { $r->find(); $x = Foo::make(); $x->go(); return $r; }\n}\nfunction helper() {}\n",
			scope: `App\Models`, modules: []string{`App\Models\User`, `App\Models\helper`, "src/Models/User.php"},
			imports: []imp{{[]string{`App\Support\Str`}, abi.ImportSymbols}, {[]string{"src/boot.php"}, abi.ImportWildcard}, {[]string{"src/Models/lib/x.php", "lib/x.php"}, abi.ImportWildcard}},
			refs:    []string{"Repo", "Foo", "Foo#make()"}},
		{path: "tests/UserTest.php", src: "<?php\nclass UserTest extends TestCase {}\n",
			modules: []string{"UserTest", "tests/UserTest.php"}, test: true},
		{path: "index.php", src: "<html><?php require '/etc/app.php'; ?></html>",
			modules: []string{"index.php"}, imports: []imp{{nil, abi.ImportWildcard}}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			f := plugintest.ExtractSource(t, Extractor{}, tc.path, []byte(tc.src))
			if f.File.Scope != tc.scope || !slices.Equal(f.File.Modules, tc.modules) || f.File.Test != tc.test {
				t.Errorf("file facts = %+v, want scope %q modules %q test %v", f.File, tc.scope, tc.modules, tc.test)
			}
			var imps []imp
			for _, im := range f.Imports {
				imps = append(imps, imp{im.Keys, im.Kind})
			}
			if !slices.EqualFunc(imps, tc.imports, func(a, b imp) bool { return a.kind == b.kind && slices.Equal(a.keys, b.keys) }) {
				t.Errorf("imports = %v, want %v", imps, tc.imports)
			}
			var refs []string
			for _, c := range f.Calls {
				if c.ReceiverType == "" {
					continue
				}
				if c.ReceiverRef == nil || c.ReceiverRef.String() != c.ReceiverType {
					t.Errorf("call %s: ReceiverRef %v does not match ReceiverType %q", c.Name, c.ReceiverRef, c.ReceiverType)
				}
				refs = append(refs, c.ReceiverType)
			}
			if !slices.Equal(refs, tc.refs) {
				t.Errorf("receiver types = %q, want %q", refs, tc.refs)
			}
			for _, s := range f.Symbols {
				if sig := s.Signature; sig != nil && sig.Return != "" && (sig.ReturnRef == nil || sig.ReturnRef.String() != sig.Return) {
					t.Errorf("%s: ReturnRef %v does not match Return %q", s.Name, sig.ReturnRef, sig.Return)
				}
			}
		})
	}
}
