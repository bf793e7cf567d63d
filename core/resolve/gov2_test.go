package resolve

import (
	"path"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// goFacts gives the Go files of a fixture the ABI v2 facts the go plugin
// (extractors/golang) computes, so the resolver tests written with Go
// fixtures run through the language-neutral rules the real plugin gets:
// scope "<dir>:<package>", the module key of the directory's import path
// (module + directory; the directory itself when module is ""), a program
// keyed "<path>:main", imports keyed by their path then "<path>:main", the
// first result type as ReturnRef, and the plugin's [semantics].
func goFacts(module string, files []File) []File {
	out := make([]File, len(files))
	for i, f := range files {
		out[i] = f
		if f.Family != "go" || f.ABI >= 2 {
			continue
		}
		facts := *f.Facts
		facts.Symbols = append([]abi.Symbol(nil), facts.Symbols...)
		facts.Imports = append([]abi.Import(nil), facts.Imports...)
		dir := path.Dir(f.Path)
		ip := dir
		if module != "" {
			ip = path.Join(module, dir)
		}
		ff := abi.FileFacts{Test: strings.HasSuffix(f.Path, "_test.go"), Variants: facts.File.Variants}
		if pkg := facts.Package; pkg != "" {
			ff.Scope = dir + ":" + pkg
			switch {
			case strings.HasSuffix(pkg, "_test"):
			case pkg == "main":
				ff.Modules = []string{ip + ":main"}
			default:
				ff.Modules = []string{ip}
			}
		}
		facts.File = ff
		for j := range facts.Imports {
			im := &facts.Imports[j]
			im.Keys = []string{im.Path, im.Path + ":main"}
			switch im.Alias {
			case ".":
				im.Kind = abi.ImportWildcard
			case "_":
				im.Kind = abi.ImportSideEffect
			default:
				im.Kind = abi.ImportModule
			}
		}
		for j := range facts.Symbols {
			s := &facts.Symbols[j]
			if s.Signature == nil || s.Signature.Return == "" {
				continue
			}
			sig := *s.Signature
			name := sig.Return
			if s.Kind == "function" || s.Kind == "method" {
				name = v1ResultType(sig.Return)
			}
			if name != "" {
				sig.ReturnRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: name}}}
			}
			s.Signature = &sig
		}
		out[i].Facts = &facts
		out[i].ABI = 2
		out[i].Semantics = Semantics{Unqualified: UnqualifiedScope, TypeCall: TypeCallNone, ImportStubKind: "package"}
	}
	return out
}
