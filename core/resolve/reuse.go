package resolve

import (
	"slices"
	"strconv"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Incremental call resolution. Resolving calls is the largest pass, and
// after a one-file edit almost every file's calls resolve as before. A
// file's calls are re-resolved only when their answer can have changed;
// the others' edges, counts and unlinked names are copied from the
// previous run's Memo, in the same place of the same pass, so the graph
// is byte-identical to a full resolution.
//
// The passes before resolveCalls (symbols, receivers, members, imports,
// relations) always run in full: they are cheap next to it and build
// what every lookup reads. What a file's calls read of the rest is
// captured by three things, recorded for every file on every run:
//   - the names its lookups consulted (note), failed lookups included;
//   - its own import bindings, each with what it is bound to;
//   - every file's definitions as a lookup sees them: per symbol a hash
//     of its kind, id, parent, receiver, visibility, variants, signature,
//     owner and bases (symRecord), and per file what is read of it as a
//     whole (fileMeta).
//
// A file's calls are re-resolved when its facts changed, its file-level
// record changed, its bindings changed, or a name it consulted is one
// whose definitions changed anywhere (in a changed, added or removed
// file, or as seen in an unchanged one: a new overload suffix, a new
// owner). Whole-file changes put all of that file's names and module keys
// in the changed set. Nothing else of another file is read by a call's
// resolution, so the rest keep their answers.

// note records that the current file's calls looked name up, once per
// file: notedIn stamps each name with the last file (r.noteStamp) that
// noted it, which costs one map access instead of sorting millions of
// repeats per run.
func (r *resolver) note(name string) {
	if !r.recording || name == "" {
		return
	}
	if r.notedIn[name] != r.noteStamp {
		r.notedIn[name] = r.noteStamp
		r.noted = append(r.noted, name)
	}
}

// hasher is a 64-bit hash for the memo's records: stable across
// processes (hash/maphash is seeded per process), word at a time.
type hasher uint64

const hashSeed hasher = 0x243f6a8885a308d3

func (h *hasher) word(v uint64) {
	x := uint64(*h) ^ v
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	*h = hasher(x ^ x>>29)
}

func (h *hasher) str(s string) {
	h.word(uint64(len(s)))
	for len(s) >= 8 {
		h.word(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56)
		s = s[8:]
	}
	var w uint64
	for i := 0; i < len(s); i++ {
		w |= uint64(s[i]) << (8 * i)
	}
	h.word(w)
}

func (h *hasher) flag(b bool) {
	if b {
		h.word(1)
	} else {
		h.word(0)
	}
}

func (h *hasher) strs(ss []string) {
	h.word(uint64(len(ss)))
	for _, s := range ss {
		h.str(s)
	}
}

func (h *hasher) constraints(cs []abi.Constraint) {
	h.word(uint64(len(cs)))
	for _, c := range cs {
		h.str(c.Axis)
		h.flag(c.Negated)
		h.strs(c.Values)
	}
}

func (h *hasher) typeRef(t *abi.TypeRef) {
	if t == nil {
		h.word(^uint64(0))
		return
	}
	h.word(uint64(len(t.Steps)))
	for _, s := range t.Steps {
		h.str(string(s.Op))
		h.str(s.Name)
		h.word(uint64(s.Arg)<<32 | uint64(s.Param))
	}
}

func (h *hasher) signature(sig *abi.Signature) {
	if sig == nil {
		h.word(^uint64(0))
		return
	}
	h.str(sig.Return)
	h.str(sig.Raw)
	h.typeRef(sig.ReturnRef)
	h.word(uint64(len(sig.Params)))
	for _, p := range sig.Params {
		h.str(p.Name)
		h.str(p.Type)
		h.typeRef(p.TypeRef)
		h.word(uint64(len(p.Callback)))
		for _, c := range p.Callback {
			h.typeRef(c)
		}
	}
}

func sumNamed(list []named) uint64 {
	h := hashSeed
	h.word(uint64(len(list)))
	for _, n := range list {
		h.str(n.name)
		h.word(n.sum)
	}
	return uint64(h)
}

// symRecord is what a lookup can read of symbol g: everything but its
// span and doc (which reach only its own node), its id, and what the
// passes before resolveCalls attached to it.
func (r *resolver) symRecord(g int32) uint64 {
	sy := &r.syms[g]
	s := &r.files[sy.file].Facts.Symbols[sy.local]
	h := hashSeed
	h.str(sy.kind)
	h.str(sy.id)
	if sy.parent >= 0 {
		h.str(r.syms[sy.parent].id)
	} else {
		h.str("")
	}
	h.str(s.Receiver)
	h.str(string(s.Visibility))
	h.flag(s.Test)
	h.constraints(s.Variants)
	h.signature(s.Signature)
	if sy.owner >= 0 {
		h.str(r.syms[sy.owner].id)
	} else {
		h.str("")
	}
	bases := r.bases[g]
	h.word(uint64(len(bases)))
	for _, b := range bases {
		h.str(r.syms[b].id)
	}
	return uint64(h)
}

// fileMeta is what lookups read of file f as a whole: its language and
// semantics, scope, package, module keys, variants, and its id, package
// and whether some file imports it (hiddenFrom).
func (r *resolver) fileMeta(f *fileInfo) uint64 {
	h := hashSeed
	h.str(f.Language)
	h.str(f.Family)
	h.word(uint64(f.ABI))
	h.flag(f.Generated)
	sem := &f.Semantics
	h.str(string(sem.Unqualified))
	h.str(string(sem.ReceiverFallback))
	h.str(string(sem.TypeCall))
	h.flag(sem.ImplicitThis)
	h.flag(sem.FilePrivate)
	h.str(sem.ImportStubKind)
	h.strs(sem.SelfNames)
	h.str(sem.SubmoduleSeparator)
	h.flag(sem.Reexports)
	h.str(f.Facts.Package)
	h.str(f.Facts.File.Scope)
	h.strs(f.Facts.File.Modules)
	h.flag(f.Facts.File.Test)
	h.constraints(f.Facts.File.Variants)
	h.str(f.id)
	h.flag(f.test)
	if f.pkg != nil {
		h.str(f.pkg.key)
	} else {
		h.str("")
	}
	h.flag(r.imported[f.idx])
	return uint64(h)
}

// fileKeys are the strings lookups of f as a module or package consult.
func fileKeys(f *fileInfo) []string {
	keys := slices.Clone(f.Facts.File.Modules)
	if f.pkg != nil {
		keys = append(keys, f.pkg.key)
	}
	for _, k := range []string{f.Facts.File.Scope, f.Facts.Package} {
		if k != "" {
			keys = append(keys, k)
		}
	}
	return keys
}

// Reuse says how a resolution used the previous run's memo.
type Reuse struct {
	Files    int    // files resolved
	Resolved int    // files whose calls were resolved afresh
	Full     string // why no memo was used ("" when one was)
}

// String is the line extract -v prints.
func (u Reuse) String() string {
	if u.Full != "" {
		return "full, because " + u.Full
	}
	return "incremental, " + strconv.Itoa(u.Resolved) + " of " + strconv.Itoa(u.Files) + " files"
}

// recordAll computes every file's records for the next memo, and, with a
// previous memo, which files' calls can be copied from it.
func (r *resolver) recordAll() {
	if !r.wantMemo {
		return
	}
	n := len(r.files)
	r.notedIn, r.noteStamp = make(map[string]int32), 1
	r.next = &Memo{Build: r.build, files: make(map[string]*fileMemo, n)}
	r.memos = make([]*fileMemo, n)
	symSum := make([]uint64, len(r.syms))
	for g := range r.syms {
		symSum[g] = r.symRecord(int32(g))
	}
	metas := make([]uint64, n)
	for i := range r.files {
		metas[i] = r.fileMeta(&r.files[i])
	}
	for i := range r.files {
		f := &r.files[i]
		fm := &fileMemo{key: f.Key, meta: metas[i], keys: fileKeys(f)}
		nsyms := len(f.Facts.Symbols)
		fm.defs = make([]named, nsyms)
		for li := range nsyms {
			g := f.first + int32(li)
			fm.defs[li] = named{name: r.syms[g].name, sum: symSum[g]}
		}
		fm.defsSum = sumNamed(fm.defs)
		fm.binds = r.bindRecords(f, metas, symSum)
		fm.bindsSum = sumNamed(fm.binds)
		r.memos[i] = fm
		r.next.files[f.Path] = fm
	}
	if r.prev != nil {
		r.planReuse()
	}
}

// bindRecords is one record per name f binds, in name order.
func (r *resolver) bindRecords(f *fileInfo, metas, symSum []uint64) []named {
	if len(f.bindings) == 0 {
		return nil
	}
	names := make([]string, 0, len(f.bindings))
	for name := range f.bindings {
		names = append(names, name)
	}
	slices.Sort(names)
	out := make([]named, len(names))
	for i, name := range names {
		h := hashSeed
		for _, b := range f.bindings[name] {
			if b.pkg != nil {
				h.str(b.pkg.key)
			} else {
				h.str("")
			}
			if b.file >= 0 {
				h.str(r.files[b.file].Path)
				h.word(metas[b.file])
			} else {
				h.str("")
			}
			h.str(b.name)
			if b.sym >= 0 {
				h.str(r.syms[b.sym].id)
				h.word(symSum[b.sym])
			} else {
				h.str("")
			}
		}
		out[i] = named{name: name, sum: uint64(h)}
	}
	return out
}

// planReuse decides, against r.prev, which files' calls are copied.
func (r *resolver) planReuse() {
	changed := map[string]bool{}   // names and keys whose definitions changed
	addAll := func(fm *fileMemo) { // a file that comes, goes or changes as a whole
		for _, d := range fm.defs {
			changed[d.name] = true
		}
		for _, b := range fm.binds {
			changed[b.name] = true // what lookups in its context find
		}
		for _, k := range fm.keys {
			changed[k] = true
		}
	}
	dirty := make([]bool, len(r.files))
	seen := make(map[string]bool, len(r.files))
	for i := range r.files {
		f := &r.files[i]
		seen[f.Path] = true
		now, was := r.memos[i], r.prev.files[f.Path]
		switch {
		case was == nil: // added
			dirty[i] = true
			addAll(now)
			continue
		case was.meta != now.meta:
			dirty[i] = true
			addAll(now)
			addAll(was)
		case was.key != now.key || now.key == "":
			dirty[i] = true
			fallthrough
		case was.defsSum != now.defsSum:
			// Unchanged facts, but a definition reads differently (a new
			// owner, an overload suffix): its own calls may too.
			dirty[i] = true
			diffNamed(was.defs, now.defs, changed)
		}
		if was.bindsSum != now.bindsSum {
			dirty[i] = true
			diffNamed(was.binds, now.binds, changed)
		}
		if !dirty[i] && !r.replayable(f, was) {
			dirty[i] = true
		}
	}
	for p, was := range r.prev.files {
		if !seen[p] {
			addAll(was) // removed
		}
	}
	r.reuse = make([]bool, len(r.files))
	resolved := 0
	isChanged := func(n string) bool { return changed[n] }
	for i := range r.files {
		if !dirty[i] {
			was := r.prev.files[r.files[i].Path]
			dirty[i] = slices.ContainsFunc(was.noted, isChanged) || slices.ContainsFunc(was.vnoted, isChanged)
		}
		r.reuse[i] = !dirty[i]
		if dirty[i] {
			resolved++
		}
	}
	r.usage = Reuse{Files: len(r.files), Resolved: resolved}
}

// replayable reports that a memo's calls fit f's facts (callers in
// range): a memo is sealed by its writer, but a mismatch must not index
// out of range.
func (r *resolver) replayable(f *fileInfo, fm *fileMemo) bool {
	n := int32(len(f.Facts.Symbols))
	for _, list := range [][]memoEdge{fm.edges, fm.values} {
		for _, e := range list {
			if e.caller >= n || e.caller < -1 {
				return false
			}
		}
	}
	for _, u := range fm.unlinked {
		if u.caller >= n || u.caller < 0 {
			return false
		}
	}
	return true
}

// diffNamed adds to changed every name whose records differ between a
// and b (as a sequence: order among same-named records matters).
func diffNamed(a, b []named, changed map[string]bool) {
	group := func(list []named) map[string][]uint64 {
		m := make(map[string][]uint64)
		for _, n := range list {
			m[n.name] = append(m[n.name], n.sum)
		}
		return m
	}
	ga, gb := group(a), group(b)
	for name, sa := range ga {
		if !slices.Equal(sa, gb[name]) {
			changed[name] = true
		}
	}
	for name := range gb {
		if _, ok := ga[name]; !ok {
			changed[name] = true
		}
	}
}

// replayCalls appends what file f's calls produced in the previous run.
func (r *resolver) replayCalls(f *fileInfo, was, now *fileMemo) {
	for _, e := range was.edges {
		caller := f.id
		if e.caller >= 0 {
			caller = r.syms[f.first+e.caller].id
		}
		r.edgeCtx(caller, e.target, "calls", confOf(e.inferred), "call", f.Path, e.line)
	}
	for _, u := range was.unlinked {
		if r.unlinked == nil {
			r.unlinked = map[int32][]string{}
		}
		caller := f.first + u.caller
		r.unlinked[caller] = append(r.unlinked[caller], u.name)
	}
	r.stats.add(was.stats)
	now.noted, now.edges, now.stats, now.unlinked = was.noted, was.edges, was.stats, was.unlinked
}

func (s *Stats) add(o Stats) {
	s.Calls += o.Calls
	s.Extracted += o.Extracted
	s.Inferred += o.Inferred
	s.Ambiguous += o.Ambiguous
	s.Unresolved += o.Unresolved
	s.Implicit += o.Implicit
}

func (s Stats) minus(o Stats) Stats {
	return Stats{s.Calls - o.Calls, s.Extracted - o.Extracted, s.Inferred - o.Inferred, s.Ambiguous - o.Ambiguous, s.Unresolved - o.Unresolved, s.Implicit - o.Implicit}
}

func confOf(inferred bool) graph.Confidence {
	if inferred {
		return graph.Inferred
	}
	return graph.Extracted
}
