package resolve

import (
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
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
//
// With a memo, a file's value references are recorded and replayed as
// its calls are (reuse.go): they are resolved by the same lookups, so the
// names they consult (fileMemo.vnoted) decide with the calls' whether the
// file's answers can have changed.
func (r *resolver) resolveValueRefs() {
	saved, savedUnlinked := r.stats, r.unlinked
	r.unlinked = nil
	defer func() { r.stats, r.unlinked = saved, savedUnlinked }()
	for fi := range r.files {
		f := &r.files[fi]
		var fm *fileMemo
		if r.memos != nil {
			fm = r.memos[fi]
			if r.reuse != nil && r.reuse[fi] {
				r.replayValueRefs(f, r.prev.files[f.Path], fm)
				continue
			}
		}
		edges, noted := len(r.edgeArena), len(r.noted)
		r.recording, r.curMemo, r.inValueRefs = fm != nil, fm, true
		r.fileValueRefs(f, fm)
		r.recording, r.curMemo, r.inValueRefs = false, nil, false
		if fm != nil {
			fm.values = r.edgeArena[edges:len(r.edgeArena):len(r.edgeArena)]
			fm.vnoted = r.noted[noted:len(r.noted):len(r.noted)]
			r.noteStamp++
		}
	}
	r.callFile = nil
}

// onlyFunctions is what a value reference may name.
func onlyFunctions(kind string) bool { return kind == "function" || kind == "variable" }

// fileValueRefs resolves file f's value references; with fm, it also
// records the edges they produce.
func (r *resolver) fileValueRefs(f *fileInfo, fm *fileMemo) {
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
			if fm != nil {
				r.edgeArena = append(r.edgeArena, memoEdge{caller: rel.From, target: r.syms[tw].id, inferred: conf == graph.Inferred, line: rel.Line})
			}
		}
	}
}

// replayValueRefs appends what file f's value references produced in the
// previous run.
func (r *resolver) replayValueRefs(f *fileInfo, was, now *fileMemo) {
	for _, e := range was.values {
		from := f.id
		if e.caller >= 0 {
			from = r.syms[f.first+e.caller].id
		}
		r.edgeCtx(from, e.target, string(abi.RelReferences), confOf(e.inferred), string(abi.CtxValue), f.Path, e.line)
	}
	now.values, now.vnoted = was.values, was.vnoted
}
