package resolve

import (
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// resolveRelations links inherits/implements/embeds/references to types.
// Unresolved bases become external stubs (so "extends Exception" survives);
// unresolved type references are dropped (they are mostly builtins and
// external types, which would only add noise).
func (r *resolver) resolveRelations() {
	for fi := range r.files {
		f := &r.files[fi]
		for i := range f.Facts.Relations {
			rel := &f.Facts.Relations[i]
			if rel.Context == abi.CtxValue {
				continue // a function value: resolveValueRefs
			}
			r.callFile = f // a type with build-variant twins: each one f can be built with
			clear(r.twinsOf)
			from := f.id
			fromSym := int32(-1)
			if rel.From >= 0 {
				fromSym = f.first + rel.From
				from = r.syms[fromSym].id
			}
			if forType, ok := rel.Context.ForType(); ok {
				// Rust: impl Trait for Type — the implementing type is the source.
				t := r.findType(f, forType, true)
				if t < 0 {
					continue
				}
				fromSym, from = t, r.syms[t].id
			}
			ctx := string(rel.Context)
			if _, ok := rel.Context.ForType(); ok {
				ctx = ""
			}
			target, conf := r.findType(f, rel.Target, true), graph.Extracted
			if target < 0 {
				if target = r.inferType(f, rel.Target); target >= 0 {
					conf = graph.Inferred
				}
			}
			if target < 0 {
				if rel.Kind == abi.RelReferences {
					continue
				}
				r.edgeCtx(from, r.stub(rel.Target, "class"), string(rel.Kind), graph.Extracted, ctx, f.Path, rel.Line)
				continue
			}
			twins := r.twinsOf[target]
			if len(twins) == 0 {
				twins = []int32{target}
			}
			for _, t := range twins {
				if r.syms[t].id == from {
					continue
				}
				r.edgeCtx(from, r.syms[t].id, string(rel.Kind), conf, ctx, f.Path, rel.Line)
				if fromSym >= 0 && (rel.Kind == abi.RelInherits || rel.Kind == abi.RelEmbeds) {
					r.bases[fromSym] = append(r.bases[fromSym], t)
				}
			}
		}
	}
	r.callFile = nil
}

// lexical finds name among the declarations inside the calling function
// and the functions around it, innermost first (function f() { const g =
// () => h(); function h() {} }), stopping at a class or the file: bare
// names there mean something else (implicit this, the file's scope). found
// is true when the innermost scope declaring the name was reached; t is -1
// if that declaration is not callable, so a nested name shadows outer ones.
func (r *resolver) lexical(caller int32, name string, ok func(string) bool) (t int32, found bool) {
	for p := caller; p >= 0 && isCallable(r.syms[p].kind); p = r.syms[p].parent {
		var cands []int32
		for _, c := range r.nested[p] {
			if r.syms[c].name == name {
				cands = append(cands, c)
			}
		}
		if len(cands) > 0 {
			return pick(r, cands, ok), true
		}
	}
	return -1, false
}

// importedFunction is the function a file imports by name (TypeScript and
// Python `import { f }` / `from m import f`), or -1.
func (r *resolver) importedFunction(f *fileInfo, name string) int32 {
	r.note(name)
	for _, b := range f.bindings[name] {
		if b.sym >= 0 && isFunction(r.syms[b.sym].kind) {
			return b.sym
		}
	}
	return -1
}

// typeOf resolves a receiver's type reference, seen from file f, to a
// type symbol; -1 if unknown. The first step names a type, the result of
// calling a function (x := NewServer(); x.Serve()) or a callback's
// parameter; each later step takes a field's type or a method's first
// result from the type before it, looked up where that member is
// declared, so x.a.b.M() and NewT().With(1).Build() follow the chain
// across files.
func (r *resolver) typeOf(f *fileInfo, ref *abi.TypeRef) int32 {
	t := r.firstStep(f, ref.Steps[0])
	for _, s := range ref.Steps[1:] {
		if t < 0 {
			return -1
		}
		t = r.memberStep(t, s)
	}
	return t
}

// firstStep resolves a TypeRef's first step. Calling a name that is no
// function but a type converts or constructs: HandlerFunc(f).ServeHTTP,
// Python classes, Rust tuple structs: the value is of that type.
func (r *resolver) firstStep(f *fileInfo, s abi.TypeStep) int32 {
	switch s.Op {
	case abi.StepNamed:
		if t := r.findType(f, s.Name, true); t >= 0 {
			return t
		}
		return r.packageVarType(f, s.Name)
	case abi.StepResult:
		if fn := r.functionNamed(f, s.Name); fn >= 0 {
			return r.resultType(fn)
		}
		return r.findType(f, s.Name, true)
	case abi.StepCallbackParam:
		return r.callbackParamType(f, s.Name, int(s.Arg), int(s.Param))
	}
	return -1
}

// memberStep resolves a later step from type t. Element types (elem) are
// not modelled yet and resolve to nothing.
func (r *resolver) memberStep(t int32, s abi.TypeStep) int32 {
	switch s.Op {
	case abi.StepResult:
		m := r.method(t, s.Name)
		if r.returnsReceiver(m) {
			return t // x.with_name(…) -> Self, Python's __enter__ returning self
		}
		return r.resultType(m)
	case abi.StepField:
		if f := r.field(t, s.Name); f >= 0 {
			return r.valueType(f)
		}
		// An embedded field is named after its type: x.Request where x's
		// struct embeds *Request.
		for _, b := range r.bases[t] {
			if r.syms[b].name == s.Name {
				return b
			}
		}
	}
	return -1
}

// returnsReceiver reports whether method m's v2 signature names
// abi.SelfResult as its result.
func (r *resolver) returnsReceiver(m int32) bool {
	if m < 0 {
		return false
	}
	sym := &r.syms[m]
	file := &r.files[sym.file]
	if !file.v2() {
		return false
	}
	sig := file.Facts.Symbols[sym.local].Signature
	return sig != nil && sig.ReturnRef != nil && isNamed(sig.ReturnRef) && sig.ReturnRef.Steps[0].Name == abi.SelfResult
}

// receiverRef is the type reference of a call's receiver: the plugin's
// own (ABI v2) or its v1 string parsed by abi.ParseTypeRef. bad reports
// a v1 string that does not parse.
func receiverRef(f *fileInfo, c *abi.Call) (ref *abi.TypeRef, bad bool) {
	if f.v2() && c.ReceiverRef != nil {
		return c.ReceiverRef, false
	}
	if c.ReceiverType == "" {
		return nil, false
	}
	ref, err := abi.ParseTypeRef(c.ReceiverType)
	return ref, err != nil
}

// isNamed reports a reference that is one bare type name.
func isNamed(ref *abi.TypeRef) bool { return len(ref.Steps) == 1 && ref.Steps[0].Op == abi.StepNamed }

// callbackParamType resolves parameter j of a function literal passed as
// argument i of F, typed by F's declaration, whose parameter i has a
// function type: the plugin parsed it into Param.Callback (ABI v2), so
// operate(init: (source: Observable<T>, subscriber: Subscriber<R>) =>
// void) makes [callback_param operate 0 1] a Subscriber. F may be a class,
// for new F(…): its constructor declares the parameters.
func (r *resolver) callbackParamType(f *fileInfo, fname string, i, j int) int32 {
	fn := r.functionNamed(f, fname)
	if fn < 0 {
		if t := r.findType(f, fname, true); t >= 0 {
			fn = r.method(t, "constructor") // new X((a, b) => …)
		}
	}
	if fn < 0 {
		return -1
	}
	sym := &r.syms[fn]
	if !r.files[sym.file].v2() {
		return -1
	}
	sig := r.files[sym.file].Facts.Symbols[sym.local].Signature
	if sig == nil || i >= len(sig.Params) || j >= len(sig.Params[i].Callback) {
		return -1
	}
	if ref := sig.Params[i].Callback[j]; ref != nil && isNamed(ref) {
		return r.declaredTypeIn(sym.file, ref.Steps[0].Name)
	}
	return -1
}

// functionNamed finds the function a call of name (or "pkg.name") in f
// refers to, as a plain call would find it; -1 if none or several.
func (r *resolver) functionNamed(f *fileInfo, call string) int32 {
	r.note(call)
	fn := int32(-1)
	if q, name, qualified := splitQualified(call); qualified {
		r.note(q)
		r.note(name)
		for _, b := range f.bindings[q] {
			if fn = r.lookupIn(b, name, isFunction); fn >= 0 {
				break
			}
		}
	} else if fn = pick(r, r.topIn(f, call), isFunction); fn < 0 && f.pkg != nil {
		if fn = pick(r, f.pkg.top[call], isFunction); fn < 0 {
			fn = r.lookupWildcard(f, call, isFunction)
		}
	} else if fn < 0 {
		fn = r.importedFunction(f, call)
		if fn < 0 {
			fn = r.lookupWildcard(f, call, isFunction)
		}
	}
	return fn
}

// resultType is the first result type of callable s; valueType the
// declared type of field or variable s. An ABI v2 plugin names it in
// Signature.ReturnRef (a named type); a v1 plugin's Return text is parsed
// here. Either is looked up in s's own file; -1 if s is -1 or names none.
func (r *resolver) resultType(s int32) int32 { return r.declaredType(s, v1ResultType) }

func (r *resolver) valueType(s int32) int32 {
	return r.declaredType(s, func(t string) string { return t }) // a field's Return is its type
}

func (r *resolver) declaredType(s int32, v1 func(string) string) int32 {
	if s < 0 {
		return -1
	}
	sym := &r.syms[s]
	file := &r.files[sym.file]
	sig := file.Facts.Symbols[sym.local].Signature
	if sig == nil {
		return -1
	}
	if file.v2() {
		ref := sig.ReturnRef
		switch {
		case ref == nil:
		case isNamed(ref):
			return r.declaredTypeIn(sym.file, ref.Steps[0].Name)
		case len(ref.Steps) == 1 && ref.Steps[0].Op == abi.StepResult && isVariable(sym.kind):
			// var StdEncoding = NewEncoding(…): the first result of a
			// function, whose own result is a named type (no loop).
			if fn := r.functionNamed(file, ref.Steps[0].Name); fn >= 0 {
				return r.resultType(fn)
			}
		}
		return -1
	}
	return r.declaredTypeIn(sym.file, v1(sig.Return))
}

// declaredTypeIn looks up the type name a declaration in file fi wrote.
func (r *resolver) declaredTypeIn(fi int32, name string) int32 {
	if name == "" {
		return -1
	}
	return r.findType(&r.files[fi], name, true)
}

// packageVarType resolves "pkg.V", a variable of an imported package, to
// the type declared for it there (http.DefaultClient.Do() is a call on a
// *Client). Go keeps types and variables in one namespace per package, so
// the name cannot also be a type.
//
// An unqualified V is a variable of f's own package, declared in any of its
// files, or of a package imported with a wildcard (Go's import . "pkg").
// Extractors write a bare name only for identifiers that are no local.
func (r *resolver) packageVarType(f *fileInfo, typ string) int32 {
	r.note(typ)
	q, name, ok := splitQualified(typ)
	r.note(q)
	r.note(name)
	if !ok {
		if f.pkg == nil {
			return -1
		}
		if v := pick(r, f.pkg.top[typ], isVariable); v >= 0 {
			return r.valueType(v)
		}
		return r.valueType(r.lookupWildcard(f, typ, isVariable))
	}
	for _, b := range f.bindings[q] {
		if b.pkg == nil {
			continue
		}
		if v := r.lookupIn(b, name, isVariable); v >= 0 {
			return r.valueType(v)
		}
	}
	return -1
}

func isVariable(kind string) bool { return kind == "variable" }

func isFunction(kind string) bool { return kind == "function" }

// v1ResultType is the type a v1 plugin's Signature.Return names, read
// by the ABI v1 contract alone (docs/abi-v2.md, "What the host reads of
// a v1 Return"), which no language's type syntax extends: of a
// parenthesised list only the first element at depth 0; of that the
// last word (a named result "s *Server", a modifier "mut T"; words
// inside brackets do not count), the sigils '*' and '&' in front and
// what follows the first '[' or '<' (generic arguments, an array) dropped.
// What is left must be a name, possibly qualified ("pkg.T", "a::T"); a
// text with '(', ')', '{' or '}' in what is read (a function or an
// inline type) names nothing. A v2 plugin parses its own syntax into
// Signature.ReturnRef instead.
func v1ResultType(ret string) string {
	ret = strings.TrimSpace(ret)
	if inner, ok := strings.CutPrefix(ret, "("); ok {
		ret = firstElement(strings.TrimSuffix(inner, ")"))
	}
	if strings.ContainsAny(ret, "(){}") {
		return ""
	}
	if f := strings.Fields(emptyBrackets(ret)); len(f) > 1 {
		ret = f[len(f)-1]
	}
	ret = strings.TrimLeft(ret, "*&")
	if i := strings.IndexAny(ret, "[<"); i >= 0 {
		ret = ret[:i]
	}
	if ret == "" || strings.ContainsAny(ret, " *&,;>]") {
		return ""
	}
	return ret
}

// emptyBrackets is s with what '[…]' and '<…>' enclose left out.
func emptyBrackets(s string) string {
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch c {
		case '[', '<':
			if depth == 0 {
				b.WriteRune(c)
			}
			depth++
			continue
		case ']', '>':
			depth--
		}
		if depth <= 0 {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// firstElement is list up to its first ',' outside brackets.
func firstElement(list string) string {
	depth := 0
	for i, c := range list {
		switch c {
		case '(', '[', '{', '<':
			depth++
		case ')', ']', '}', '>':
			depth--
		case ',':
			if depth == 0 {
				return list[:i]
			}
		}
	}
	return list
}

// inferType guesses a type by a unique name in the family, unless the name
// is imported or qualified by an import of the file: then the import says
// where the type lives (often outside the repository, like http.Response or
// multiprocessing's Queue), and a same-named type here would be a false
// link.
func (r *resolver) inferType(f *fileInfo, name string) int32 {
	if f.typesOnlyThroughImports() {
		return -1 // Go names a type of another package only through its import
	}
	r.note(name)
	q, bare, qualified := splitQualified(name)
	r.note(q)
	r.note(bare)
	if qualified && len(f.bindings[q]) > 0 || !qualified && r.importedFromOutside(f, name) {
		return -1 // from multiprocessing.queues import Queue: it lives there
	}
	return r.uniqueInFamily(f.Family, bare, isType)
}

// importedFromOutside reports whether f imports name from a module that
// is not in the repository. A name imported from a module that is here but
// does not declare it (a re-export through an index file) is not: the
// unique-name guess may still find it.
func (r *resolver) importedFromOutside(f *fileInfo, name string) bool {
	r.note(name)
	for _, b := range f.bindings[name] {
		if b.pkg == nil && b.file < 0 && b.sym < 0 {
			return true
		}
	}
	return false
}

func (r *resolver) edgeCtx(src, dst, rel string, c graph.Confidence, ctx, file string, line uint32) {
	r.edge(src, dst, rel, c, score(c), file, line)
	r.edges[len(r.edges)-1].Context = ctx
}

// method finds a method of type t by name, walking bases (bounded, cycle-safe).
func (r *resolver) method(t int32, name string) int32 { return r.member(r.methods, t, name) }

// field finds a field of type t by name, walking embedded types as Go
// promotes their fields.
func (r *resolver) field(t int32, name string) int32 { return r.member(r.fields, t, name) }

func (r *resolver) member(index map[int32]map[string][]int32, t int32, name string) int32 {
	r.note(name)
	seen := map[int32]bool{}
	queue := []int32{t}
	for depth := 0; depth < 6 && len(queue) > 0; depth++ {
		var next []int32
		for _, c := range queue {
			if seen[c] {
				continue
			}
			seen[c] = true
			ms := index[c][name]
			if tw := r.twinsOf[c]; len(tw) > 1 {
				// c was picked among build-variant twins of one type:
				// their members are the variants of c's.
				ms = twinMembers(index, tw, name)
			}
			if len(ms) == 1 {
				return ms[0]
			} else if len(ms) > 1 {
				// Overloads: several targets, link none; but build
				// variants are one method per build.
				return r.pickAmong(ms)
			}
			next = append(next, r.bases[c]...)
		}
		queue = next
	}
	return -1
}

// twinMembers lists the members named name of every twin type, in twin order.
func twinMembers(index map[int32]map[string][]int32, twins []int32, name string) []int32 {
	var ms []int32
	for _, t := range twins {
		ms = append(ms, index[t][name]...)
	}
	return ms
}

// isCallTarget says which kinds a plain call in f may link to: functions
// and constructors, and types where calling one constructs it.
func isCallTarget(f *fileInfo) func(string) bool {
	constructs := !f.typeCallIsConversion()
	return func(kind string) bool {
		if kind == "function" || kind == "constructor" {
			return true
		}
		switch abi.SymbolKind(kind) {
		case abi.KindClass, abi.KindStruct, abi.KindRecord:
			return constructs
		}
		return false
	}
}

func (r *resolver) resolveCalls() {
	if r.memos != nil {
		// The memo's edges and names of all files share two arenas, sized
		// up front: regrowing per-file slices near the run's memory limit
		// cost whole collections.
		calls := 0
		for fi := range r.files {
			if r.reuse == nil || !r.reuse[fi] {
				calls += len(r.files[fi].Facts.Calls)
			}
		}
		r.edgeArena = make([]memoEdge, 0, calls)
		r.noted = make([]string, 0, calls/2)
	}
	for fi := range r.files {
		f := &r.files[fi]
		var fm *fileMemo
		if r.memos != nil {
			fm = r.memos[fi]
			if r.reuse != nil && r.reuse[fi] {
				r.replayCalls(f, r.prev.files[f.Path], fm)
				continue
			}
		}
		before, edges, noted := r.stats, len(r.edgeArena), len(r.noted)
		r.recording, r.curMemo = fm != nil, fm
		r.recordCalls(f, fm)
		r.recording, r.curMemo = false, nil
		if fm != nil {
			fm.edges = r.edgeArena[edges:len(r.edgeArena):len(r.edgeArena)]
			fm.noted = r.noted[noted:len(r.noted):len(r.noted)]
			fm.stats = r.stats.minus(before)
			r.noteStamp++
		}
	}
	r.callFile, r.callOwn = nil, nil
}

// recordCalls resolves file f's calls; with fm, it also records the
// edges they produce (see reuse.go).
func (r *resolver) recordCalls(f *fileInfo, fm *fileMemo) {
	{
		ok := isCallTarget(f)
		for i := range f.Facts.Calls {
			c := &f.Facts.Calls[i]
			r.stats.Calls++
			caller := f.id
			if c.Caller >= 0 {
				caller = r.syms[f.first+c.Caller].id
			}
			r.callFile, r.callOwn = f, nil
			if c.Caller >= 0 {
				r.callOwn = f.Facts.Symbols[c.Caller].Variants
			}
			clear(r.twinsOf)
			unresolved := r.stats.Unresolved
			target, conf := r.resolveCall(f, c, ok)
			if c.Implicit && r.stats.Unresolved > unresolved {
				r.stats.Implicit++
			}
			if target < 0 {
				continue
			}
			if conf == graph.Inferred {
				r.stats.Inferred++
			} else {
				r.stats.Extracted++
			}
			twins := r.twinsOf[target]
			if len(twins) == 0 {
				twins = []int32{target}
			}
			for _, t := range twins {
				r.edgeCtx(caller, r.syms[t].id, "calls", conf, "call", f.Path, c.Line)
				if fm != nil {
					r.edgeArena = append(r.edgeArena, memoEdge{caller: c.Caller, target: r.syms[t].id, inferred: conf == graph.Inferred, line: c.Line})
				}
			}
		}
	}
}

func (r *resolver) resolveCall(f *fileInfo, c *abi.Call, ok func(string) bool) (int32, graph.Confidence) {
	r.note(c.Name)
	r.note(c.Receiver)
	ref, bad := receiverRef(f, c)
	if ref == nil && !bad && c.Receiver != "" && f.v2() && f.isSelf(c.Receiver) {
		if t := r.enclosingType(f, c.Caller); t >= 0 {
			ref = &abi.TypeRef{Steps: []abi.TypeStep{{Op: abi.StepNamed, Name: r.syms[t].name}}}
		}
	}
	// A receiver typed by its own bare name is one the extractor could not
	// place; when the file imports that name it is a package: pkg.F().
	if ref != nil && isNamed(ref) && ref.Steps[0].Name == c.Receiver && len(f.bindings[c.Receiver]) > 0 {
		ref = nil
	}
	if bad {
		r.stats.Unresolved++
		return -1, ""
	}
	if ref != nil {
		t, conf := r.typeOf(f, ref), graph.Extracted
		if t < 0 && isNamed(ref) {
			if t = r.inferType(f, ref.Steps[0].Name); t >= 0 {
				conf = graph.Inferred
			}
		}
		if t >= 0 {
			if m := r.method(t, c.Name); m >= 0 {
				return m, conf
			}
		} else if !isNamed(ref) {
			r.noteUnlinked(f, c) // a chain the resolver could not follow; a named type not found is external
		}
		r.stats.Unresolved++
		return -1, ""
	}
	if c.Receiver != "" {
		// pkg.F(), module.f(), ns.f(), Class.staticMethod()
		var bound []int32
		for _, b := range f.bindings[c.Receiver] {
			if b.sym >= 0 && isType(r.syms[b.sym].kind) {
				if m := r.method(b.sym, c.Name); m >= 0 {
					bound = append(bound, m)
				}
				continue
			}
			if b.name != "" {
				continue
			}
			if t := r.lookupIn(b, c.Name, ok); t >= 0 {
				bound = append(bound, t)
			} else if t := r.reexportedCallee(f, b, c.Name, ok); t >= 0 {
				bound = append(bound, t)
			}
		}
		if len(f.bindings[c.Receiver]) == 0 {
			if b, found := r.modulePath(f, c.Receiver); found {
				if t := r.lookupIn(b, c.Name, ok); t >= 0 {
					bound = append(bound, t)
				} else if t := r.reexportedCallee(f, b, c.Name, ok); t >= 0 {
					bound = append(bound, t)
				}
			}
		}
		if t := r.eachBound(bound); t >= 0 {
			return t, graph.Extracted
		}
		// Class.method(): a class of the file or package, or, outside Go
		// (where pkg.V is a variable), one an import qualifies:
		// logging.Handler.__init__(self).
		if t := r.findType(f, c.Receiver, !f.typesOnlyThroughImports()); t >= 0 {
			if m := r.method(t, c.Name); m >= 0 {
				return m, graph.Extracted
			}
		}
		if f.v2() && f.Semantics.ReceiverFallback == ReceiverFallbackUniqueMethod && len(f.bindings[c.Receiver]) == 0 {
			if m := r.uniqueMethod(f.Family, c.Name); m >= 0 {
				return m, graph.Inferred
			}
		}
		r.stats.Unresolved++ // a member call through an unknown receiver is not guessed unless the plugin says so
		r.noteUnlinked(f, c)
		return -1, ""
	}
	// Plain call: the enclosing functions' own declarations, the file, the
	// enclosing class, imports, the package.
	if c.Caller >= 0 {
		if t, found := r.lexical(f.first+c.Caller, c.Name, ok); found {
			if t < 0 {
				r.stats.Unresolved++ // shadowed by a nested non-callable, or ambiguous there
				return -1, ""
			}
			return t, graph.Extracted
		}
	}
	if t := pick(r, r.topIn(f, c.Name), ok); t >= 0 {
		return t, graph.Extracted
	}
	if f.implicitThis() && c.Caller >= 0 {
		for p := r.syms[f.first+c.Caller].parent; p >= 0; p = r.syms[p].parent {
			if isType(r.syms[p].kind) {
				if m := r.method(p, c.Name); m >= 0 {
					return m, graph.Extracted
				}
			}
		}
	}
	var bound []int32
	for _, b := range f.bindings[c.Name] {
		if b.sym >= 0 && (ok(r.syms[b.sym].kind) || r.syms[b.sym].kind == "method") {
			bound = append(bound, b.sym)
		}
	}
	if t := r.eachBound(bound); t >= 0 {
		return t, graph.Extracted
	}
	if f.pkg != nil {
		if t := pick(r, f.pkg.top[c.Name], ok); t >= 0 {
			return t, graph.Extracted
		}
	}
	if t := r.lookupWildcard(f, c.Name, ok); t >= 0 {
		return t, graph.Extracted
	}
	for _, b := range f.bindings["*"] {
		if b.sym >= 0 { // Java's import static a.B.*: B's methods
			if m := r.method(b.sym, c.Name); m >= 0 {
				return m, graph.Extracted
			}
		}
	}
	if f.namesOnlyInScope() || r.importedFromOutside(f, c.Name) {
		// The language resolves plain names only within the package (and
		// imports); a same-named function elsewhere is never the target.
		// A name the file imports lives where the import says, often
		// outside the repository: no same-named function stands in.
		r.stats.Unresolved++
		return -1, ""
	}
	cands := r.byFamily[f.Family][c.Name]
	var matching []int32
	for _, x := range cands {
		if ok(r.syms[x].kind) && !r.hiddenFrom(x, f) {
			matching = append(matching, x)
		}
	}
	n := len(matching)
	if n > 1 {
		// One definition per #if branch or build: twins, not a guess
		// among unrelated functions.
		if t, isTwin := r.twinPick(matching); isTwin && t >= 0 {
			return t, graph.Inferred
		}
	}
	switch {
	case n == 1:
		return matching[0], graph.Inferred
	case n > 1:
		r.stats.Ambiguous++
	default:
		r.stats.Unresolved++
	}
	return -1, ""
}
