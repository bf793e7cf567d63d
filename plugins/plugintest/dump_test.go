package plugintest

import (
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

func TestDumpV2Facts(t *testing.T) {
	named := func(n string) *abi.TypeRef { return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: n}}} }
	tests := []struct {
		name  string
		facts abi.Facts
		want  []string // lines the dump must hold
	}{
		{
			name: "file facts",
			facts: abi.Facts{File: abi.FileFacts{Scope: "example.com/a", Modules: []string{"a/b", "b"}, Test: true,
				Variants:    []abi.Constraint{{Axis: "goos", Values: []string{"linux", "android"}}, {Axis: "goarch", Values: []string{"wasm"}, Negated: true}},
				ProjectDeps: []string{"cfg:.", "pkg:zod"}}},
			want: []string{`file scope="example.com/a" modules=["a/b" "b"] test variants=goos=linux|android,goarch!=wasm project_deps=["cfg:." "pkg:zod"]`},
		},
		{
			name: "import keys and kind",
			facts: abi.Facts{Imports: []abi.Import{{Path: "./x", Names: []abi.ImportName{{Name: "f"}}, Line: 3,
				Keys: []string{"a/x", "a/x.ts"}, Kind: abi.ImportSymbols}}},
			want: []string{`import "./x" {f} L3 kind=symbols keys=["a/x" "a/x.ts"]`},
		},
		{
			name: "receiver reference",
			facts: abi.Facts{Symbols: []abi.Symbol{{Name: "main", Kind: abi.KindFunction, Parent: -1}},
				Calls: []abi.Call{{Caller: 0, Name: "M", Receiver: "x.a", Line: 4, Col: 2,
					ReceiverRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: "NewT"}, {Op: abi.StepField, Name: "a"}}}}}},
			want: []string{`call main -> x.a.M L4:2 ref=[result:NewT field:a]`},
		},
		{
			name: "result, parameter and callback types",
			facts: abi.Facts{Symbols: []abi.Symbol{{Name: "operate", Kind: abi.KindFunction, Parent: -1, Signature: &abi.Signature{
				Params: []abi.Param{
					{Name: "init", Type: "(s: Observable) => void", Callback: []*abi.TypeRef{named("Observable"), nil}},
					{Name: "n", Type: "number"},
					{Name: "t", Type: "T", TypeRef: named("T")},
				},
				ReturnRef: named("Operator"),
			}}}},
			want: []string{
				`ret operate [named:Operator]`,
				`param operate 0 "init" callback=([named:Observable], _)`,
				`param operate 2 "t" type=[named:T]`,
			},
		},
		{
			name: "callback parameter step",
			facts: abi.Facts{Calls: []abi.Call{{Caller: -1, Name: "next", Receiver: "s", Line: 1, Col: 1,
				ReceiverRef: &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepCallbackParam, Name: "operate", Arg: 0, Param: 1}}}}}},
			want: []string{`call <file> -> s.next L1:1 ref=[callback_param:operate@0.1]`},
		},
		{
			name: "symbol variants",
			facts: abi.Facts{Symbols: []abi.Symbol{{Name: "f", Kind: abi.KindFunction, Parent: -1,
				Variants: []abi.Constraint{{Axis: "defined:_WIN32", Values: []string{"1"}, Negated: true}}}}},
			want: []string{`sym function f L0:0-0:0 variants=defined:_WIN32!=1`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Dump(&tt.facts)
			lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
			for _, w := range tt.want {
				if !containsLine(lines, w) {
					t.Errorf("dump lacks %q:\n%s", w, got)
				}
			}
			if again := Dump(&tt.facts); again != got {
				t.Errorf("dump is not deterministic:\n%s\n---\n%s", got, again)
			}
		})
	}
}

// A v1 plugin's facts dump as before: no v2 line or field appears.
func TestDumpV1FactsUnchanged(t *testing.T) {
	f := &abi.Facts{
		Symbols: []abi.Symbol{{Name: "f", Kind: abi.KindFunction, Parent: -1, Signature: &abi.Signature{Params: []abi.Param{{Name: "x", Type: "int"}}, Return: "int", Raw: "f(x int) int"}}},
		Calls:   []abi.Call{{Caller: 0, Name: "g", Receiver: "t", ReceiverType: "T", Line: 2, Col: 3}},
		Imports: []abi.Import{{Path: "fmt", Line: 1}},
	}
	want := "sym function f L0:0-0:0 sig=(x int)->int raw=\"f(x int) int\"\n" +
		"call f -> t.g L2:3 type=T\n" +
		"import \"fmt\" L1\n"
	if got := Dump(f); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if l == want {
			return true
		}
	}
	return false
}
