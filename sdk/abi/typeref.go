package abi

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseTypeRef reads the v1 receiver-type mini-language of
// Call.ReceiverType into a TypeRef. It is the one parser of that form:
//
//	T, pkg.T       the named type          [named T]
//	F(), pkg.F()   the first result of F   [result F]
//	F@i.j          parameter j of the function type of F's parameter i
//	                                       [callback_param F i j]
//	X#f            field f of X            [X..., field f]
//	X#M()          first result of method M of X
//	                                       [X..., result M]
//
// where X is any of these forms. The result satisfies Validate.
func ParseTypeRef(s string) (*TypeRef, error) {
	parts := strings.Split(s, "#")
	if len(parts) > MaxTypeSteps {
		return nil, fmt.Errorf("abi: receiver type %q chains more than %d members", truncate(s), MaxTypeSteps)
	}
	r := &TypeRef{Steps: make([]TypeStep, 0, len(parts))}
	base, err := parseBase(parts[0])
	if err != nil {
		return nil, fmt.Errorf("abi: receiver type %q: %w", truncate(s), err)
	}
	r.Steps = append(r.Steps, base)
	for _, m := range parts[1:] {
		step := TypeStep{Op: StepField, Name: m}
		if name, ok := strings.CutSuffix(m, "()"); ok {
			step = TypeStep{Op: StepResult, Name: name}
		}
		r.Steps = append(r.Steps, step)
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("receiver type %q: %w", truncate(s), err)
	}
	return r, nil
}

func parseBase(s string) (TypeStep, error) {
	if i := strings.LastIndexByte(s, '@'); i > 0 {
		is, js, ok := strings.Cut(s[i+1:], ".")
		a, err1 := strconv.ParseUint(is, 10, 32)
		p, err2 := strconv.ParseUint(js, 10, 32)
		if !ok || err1 != nil || err2 != nil {
			return TypeStep{}, fmt.Errorf("callback position %q is not <arg>.<param>", s[i+1:])
		}
		return TypeStep{Op: StepCallbackParam, Name: s[:i], Arg: uint32(a), Param: uint32(p)}, nil
	}
	if name, ok := strings.CutSuffix(s, "()"); ok {
		return TypeStep{Op: StepResult, Name: name}, nil
	}
	return TypeStep{Op: StepNamed, Name: s}, nil
}

// String writes r in the v1 mini-language ParseTypeRef reads (elem,
// which v1 cannot say, as "[]"), for messages and for v1 consumers.
func (r *TypeRef) String() string {
	var b strings.Builder
	for i, s := range r.Steps {
		if i > 0 {
			b.WriteByte('#')
		}
		switch s.Op {
		case StepResult:
			b.WriteString(s.Name + "()")
		case StepCallbackParam:
			fmt.Fprintf(&b, "%s@%d.%d", s.Name, s.Arg, s.Param)
		case StepElem:
			b.WriteString("[]")
		default:
			b.WriteString(s.Name)
		}
	}
	return b.String()
}

func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
