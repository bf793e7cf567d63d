package resolve

import (
	"strings"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// resolveValueRefs links the functions that plugins report named as
// values (a references relation with the value context: passed,
// returned, assigned). The name is resolved exactly as a call of it
// would be, but to functions and variables only (a value that names a
// type is a conversion or a literal, not a function value; a variable may
// hold one: var DefaultFilter = &Filter{strip}), and linked as a
// references edge with context "value": the function runs when whoever
// received it calls it. Call statistics are left as they were: these are
// not call sites.
func (r *resolver) resolveValueRefs() {
	saved, savedUnlinked := r.stats, r.unlinked
	r.unlinked = nil
	defer func() { r.stats, r.unlinked = saved, savedUnlinked }()
	onlyFunctions := func(kind string) bool { return kind == "function" || kind == "variable" }
	for fi := range r.files {
		f := &r.files[fi]
		for i := range f.Facts.Relations {
			rel := &f.Facts.Relations[i]
			if rel.Context != abi.CtxValue || rel.Kind != abi.RelReferences {
				continue
			}
			from := f.id
			if rel.From >= 0 {
				from = r.syms[f.first+rel.From].id
			}
			c := abi.Call{Caller: rel.From, Name: rel.Target, Line: rel.Line}
			if dot := strings.LastIndexByte(rel.Target, '.'); dot > 0 {
				c.Receiver, c.Name = rel.Target[:dot], rel.Target[dot+1:]
			}
			r.callFile = f
			clear(r.twinsOf)
			t, conf := r.resolveCall(f, &c, onlyFunctions)
			// A method is a value only through its receiver (s.handle,
			// self.on_click): a bound method.
			if t < 0 || r.syms[t].id == from || !onlyFunctions(r.syms[t].kind) && (c.Receiver == "" || r.syms[t].kind != "method") {
				continue
			}
			twins := r.twinsOf[t]
			if len(twins) == 0 {
				twins = []int32{t}
			}
			for _, tw := range twins {
				r.edgeCtx(from, r.syms[tw].id, string(abi.RelReferences), conf, string(abi.CtxValue), f.Path, rel.Line)
			}
		}
	}
	r.callFile = nil
}
