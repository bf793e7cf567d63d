package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// returnRefs gives every signature its ABI v2 type reference: a callable
// the named type of its first result, a field or variable its own type
// (already a bare type name), so the host never parses Go type syntax.
func returnRefs(syms []abi.Symbol) {
	for i := range syms {
		sig := syms[i].Signature
		if sig == nil || sig.Return == "" || sig.ReturnRef != nil {
			continue
		}
		name := sig.Return
		switch syms[i].Kind {
		case abi.KindFunction, abi.KindMethod:
			name = firstResultType(sig.Return)
		}
		if name != "" {
			sig.ReturnRef = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: name}}}
		}
	}
}

// firstResultType is the named type of a signature's first result as
// written: "(*Server, error)" -> "Server", "(s *pkg.T, err error)" ->
// "pkg.T", "[]T" -> "" (slices have no methods), "T[int]" -> "T".
func firstResultType(ret string) string {
	ret = strings.TrimSpace(ret)
	if strings.HasPrefix(ret, "(") {
		ret = strings.TrimSuffix(strings.TrimPrefix(ret, "("), ")")
		depth := 0
		for i, c := range ret {
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth--
			case ',':
				if depth == 0 {
					ret = ret[:i]
				}
			}
			if depth == 0 && c == ',' {
				break
			}
		}
		if f := strings.Fields(ret); len(f) == 2 {
			switch {
			case strings.ContainsAny(f[0], "()[]*"), f[0] == "chan", f[0] == "map", f[0] == "struct", f[0] == "interface":
				return "" // "func() error", "chan T": no methods to find
			}
			ret = f[1] // a named result: "s *Server"
		}
	}
	ret = strings.TrimLeft(strings.TrimSpace(ret), "*&")
	if i := strings.IndexAny(ret, "[<"); i >= 0 {
		ret = ret[:i]
	}
	if ret == "" || strings.ContainsAny(ret, " ()*{}") {
		return ""
	}
	return ret
}

// resultRef is the type reference of a package variable initialised by a
// call, var StdEncoding = NewEncoding(…): "F()" or "pkg.F()" is the first
// result of F, one step the host resolves through F's own declared
// result (never through another variable, so it cannot loop); nil for
// anything else (chains, fields, conversions of literals).
func resultRef(typ string) *abi.TypeRef {
	name, ok := strings.CutSuffix(typ, "()")
	if !ok || name == "" || strings.ContainsAny(name, "#()") {
		return nil
	}
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepResult, Name: name}}}
}
