package plugintest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// The ABI v2 lines of Dump: what the resolver links by (scope, module
// keys, import keys and kinds, parsed type references, callback
// parameters, build variants). A v1 plugin's facts have none, so its
// goldens read as before.

// dumpFileFacts writes the "file" line, when the file has v2 facts.
func dumpFileFacts(b *strings.Builder, ff *abi.FileFacts) {
	if ff.Scope == "" && len(ff.Modules) == 0 && !ff.Test && len(ff.Variants) == 0 && len(ff.ProjectDeps) == 0 {
		return
	}
	b.WriteString("file")
	if ff.Scope != "" {
		fmt.Fprintf(b, " scope=%s", strconv.Quote(ff.Scope))
	}
	if len(ff.Modules) > 0 {
		fmt.Fprintf(b, " modules=%s", quoteList(ff.Modules))
	}
	if ff.Test {
		b.WriteString(" test")
	}
	if len(ff.Variants) > 0 {
		fmt.Fprintf(b, " variants=%s", constraints(ff.Variants))
	}
	if len(ff.ProjectDeps) > 0 {
		fmt.Fprintf(b, " project_deps=%s", quoteList(ff.ProjectDeps))
	}
	b.WriteByte('\n')
}

// dumpSignatureRefs writes the "ret" and "param" lines of a symbol's
// signature: its result type and each parameter's type and callback
// parameter types, as parsed by the plugin.
func dumpSignatureRefs(b *strings.Builder, sym string, sig *abi.Signature) {
	if sig == nil {
		return
	}
	if sig.ReturnRef != nil {
		fmt.Fprintf(b, "ret %s %s\n", sym, typeRef(sig.ReturnRef))
	}
	for i, p := range sig.Params {
		if p.TypeRef == nil && len(p.Callback) == 0 {
			continue
		}
		fmt.Fprintf(b, "param %s %d %s", sym, i, strconv.Quote(p.Name))
		if p.TypeRef != nil {
			fmt.Fprintf(b, " type=%s", typeRef(p.TypeRef))
		}
		if len(p.Callback) > 0 {
			cb := make([]string, len(p.Callback))
			for j, r := range p.Callback {
				cb[j] = "_"
				if r != nil {
					cb[j] = typeRef(r)
				}
			}
			fmt.Fprintf(b, " callback=(%s)", strings.Join(cb, ", "))
		}
		b.WriteByte('\n')
	}
}

// typeRef writes a reference step by step, unambiguously:
// [result NewT, field a] is "result:NewT field:a".
func typeRef(r *abi.TypeRef) string {
	steps := make([]string, len(r.Steps))
	for i, s := range r.Steps {
		steps[i] = string(s.Op) + ":" + s.Name
		if s.Op == abi.StepCallbackParam {
			steps[i] += fmt.Sprintf("@%d.%d", s.Arg, s.Param)
		}
	}
	return "[" + strings.Join(steps, " ") + "]"
}

// constraints writes build-variant constraints as axis=v1|v2 (axis!=…
// when negated), comma separated, in the order the plugin gave them.
func constraints(cs []abi.Constraint) string {
	out := make([]string, len(cs))
	for i, c := range cs {
		op := "="
		if c.Negated {
			op = "!="
		}
		out[i] = c.Axis + op + strings.Join(c.Values, "|")
	}
	return strings.Join(out, ",")
}

// quoteList writes strings quoted, in order: [“a” “b”].
func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, " ") + "]"
}
