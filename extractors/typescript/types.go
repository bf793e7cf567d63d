package main

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// ABI v2 type references: the plugin reads TypeScript's type syntax, the
// host only follows the named types.

// named is a one-step reference to type name, nil for "".
func named(name string) *abi.TypeRef {
	if name == "" {
		return nil
	}
	return &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: name}}}
}

// receiverRef is the TypeRef of a receiver form exprType writes ("T",
// "f()", "f@0.1", "x#a#m()"), nil for "" or a form that does not parse.
func receiverRef(form string) *abi.TypeRef {
	if form == "" {
		return nil
	}
	ref, err := abi.ParseTypeRef(form)
	if err != nil {
		return nil
	}
	return ref
}

// typeRefs gives every signature its references: a callable the named
// type of its result, a field or variable its own type (already a bare
// name), each parameter its type, and a function-typed parameter the
// types of the function's own parameters (what a callback passed there
// receives).
func typeRefs(syms []abi.Symbol) {
	for i := range syms {
		sig := syms[i].Signature
		if sig == nil {
			continue
		}
		if sig.Return != "" {
			name := sig.Return
			switch syms[i].Kind {
			case abi.KindFunction, abi.KindMethod, abi.KindConstructor:
				name = resultType(sig.Return)
			}
			sig.ReturnRef = named(name)
		}
		for j := range sig.Params {
			p := &sig.Params[j]
			if p.Type == "" {
				continue
			}
			p.TypeRef = named(resultType(p.Type))
			p.Callback = callbackTypes(p.Type)
		}
	}
}

// callbackTypes are the named types of the parameters of function type
// typ ("(source: Observable<T>, subscriber: Subscriber<R>) => void" gives
// Observable, Subscriber), nil when typ is no function type or names none.
func callbackTypes(typ string) []*abi.TypeRef {
	params := funcTypeParams(typ)
	if len(params) > abi.MaxCallbackParams {
		params = params[:abi.MaxCallbackParams]
	}
	var out []*abi.TypeRef
	any := false
	for _, p := range params {
		r := named(resultType(p))
		any = any || r != nil
		out = append(out, r)
	}
	if !any {
		return nil
	}
	return out
}

// funcTypeParams returns the parameter types of a function type as
// written, "(a: A, b: B<C>) => R" → ["A", "B<C>"] ("" for an untyped
// one); a leading this parameter types this, it takes no argument. Nil
// when typ is no function type.
func funcTypeParams(typ string) []string {
	typ = strings.TrimSpace(typ)
	if strings.HasPrefix(typ, "<") { // <T>(x: T) => U
		end := matching(typ, 0)
		if end < 0 {
			return nil
		}
		typ = strings.TrimSpace(typ[end+1:])
	}
	if !strings.HasPrefix(typ, "(") {
		return nil
	}
	end := matching(typ, 0)
	if end < 0 || !strings.HasPrefix(strings.TrimSpace(typ[end+1:]), "=>") {
		return nil
	}
	params := splitTop(typ[1:end], ',')
	if p := strings.TrimSpace(params[0]); strings.HasPrefix(p, "this:") || strings.HasPrefix(p, "this :") {
		params = params[1:]
	}
	out := make([]string, len(params))
	for j, p := range params {
		p = strings.TrimPrefix(strings.TrimSpace(p), "...")
		if colon := splitTop(p, ':'); len(colon) >= 2 {
			out[j] = strings.TrimSpace(strings.Join(colon[1:], ":"))
		}
	}
	return out
}

// matching returns the index of the bracket closing the one at s[open],
// or -1 if it is unbalanced (see bracketStep).
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		var d int
		d, i = bracketStep(s, i)
		if depth += d; d < 0 && depth == 0 {
			return i
		}
	}
	return -1
}

// splitTop splits s at sep where no bracket is open (see bracketStep).
func splitTop(s string, sep byte) []string {
	var out []string
	depth, from := 0, 0
	for i := 0; i < len(s); i++ {
		var d int
		if d, i = bracketStep(s, i); d == 0 && depth == 0 && s[i] == sep {
			out = append(out, s[from:i])
			from = i + 1
		}
		depth += d
	}
	return append(out, s[from:])
}

// bracketStep reads s at i for matching and splitTop: +1 for ( [ { <, -1
// for their closers, 0 otherwise; "=>" (an arrow, no closing '>') is
// skipped whole, so the index to continue from is returned too.
func bracketStep(s string, i int) (delta, at int) {
	switch c := s[i]; {
	case c == '=' && i+1 < len(s) && s[i+1] == '>':
		return 0, i + 1
	case c == '(' || c == '[' || c == '{' || c == '<':
		return 1, i
	case c == ')' || c == ']' || c == '}' || c == '>':
		return -1, i
	}
	return 0, i
}

// resultType is the named type a type as written denotes: "Observable<T>"
// → "Observable", "ns.T" → "ns.T", "(T)" → "T"; "" for a function,
// object, union or intersection type. An array "T[]" is read as T, as the
// host read it before ABI v2 (no elem steps are resolved yet).
func resultType(ret string) string {
	ret = strings.TrimSpace(ret)
	if strings.HasPrefix(ret, "(") && matching(ret, 0) == len(ret)-1 {
		ret = strings.TrimSpace(ret[1 : len(ret)-1])
	}
	if i := strings.IndexAny(ret, "[<"); i >= 0 {
		ret = ret[:i]
	}
	if ret == "" || strings.ContainsAny(ret, " ()*{}&|") {
		return ""
	}
	return ret
}
