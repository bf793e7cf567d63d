package resolve

import (
	"slices"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Build variants. Same-named definitions in files whose FileFacts.Variants
// exclude each other (exec_unix.go next to exec_windows.go, a //go:build
// aix || darwin file next to a linux one) are twins: never built
// together, so not an ambiguity but one definition per build. A call
// links to every twin the caller's own file can be built with.

// compatible reports whether files with constraints a and b can be built
// together: on every axis both constrain, some value satisfies both.
// Negated constraints exclude finitely many values of an open set, so
// only positive value sets can run out. It allocates nothing: the memo
// of filesCompatible misses for most file pairs, and building maps per
// answer was ~10 MB a run on GOROOT/src.
func compatible(a, b []abi.Constraint) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	n := len(a) + len(b)
	at := func(i int) *abi.Constraint {
		if i < len(a) {
			return &a[i]
		}
		return &b[i-len(a)]
	}
	for i := range n {
		c := at(i)
		if c.Negated || firstPositive(at, i, c.Axis) != i {
			continue // an axis is judged once, at its first positive constraint
		}
		if !axisSatisfiable(at, n, i) {
			return false
		}
	}
	return true
}

// firstPositive is the index of the first positive constraint on axis
// among at(0..i).
func firstPositive(at func(int) *abi.Constraint, i int, axis string) int {
	for j := range i {
		if c := at(j); !c.Negated && c.Axis == axis {
			return j
		}
	}
	return i
}

// axisSatisfiable reports whether some value of positive constraint
// at(first) is in every other positive constraint on its axis and in
// no negated one: the axis's allowed set is not empty.
func axisSatisfiable(at func(int) *abi.Constraint, n, first int) bool {
	axis := at(first).Axis
	for _, v := range at(first).Values {
		ok := true
		for j := first + 1; j < n && ok; j++ {
			if c := at(j); c.Axis == axis && !c.Negated {
				ok = slices.Contains(c.Values, v)
			}
		}
		for j := 0; j < n && ok; j++ {
			if c := at(j); c.Axis == axis && c.Negated {
				ok = !slices.Contains(c.Values, v)
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// variantsOf is s's build constraints: its file's, and its own (the
// #ifdef branch it sits in) when it has any.
func (r *resolver) variantsOf(s int32) []abi.Constraint {
	f := r.fileOf(s)
	own := f.Facts.Symbols[r.syms[s].local].Variants
	if len(own) == 0 {
		return f.Facts.File.Variants
	}
	return append(slices.Clip(f.Facts.File.Variants), own...)
}

func (r *resolver) hasOwnVariants(s int32) bool {
	return len(r.fileOf(s).Facts.Symbols[r.syms[s].local].Variants) > 0
}

// symsCompatible reports whether definitions a and b can be built
// together: their files' constraints (memoised) unless either has its own.
func (r *resolver) symsCompatible(a, b int32) bool {
	if !r.hasOwnVariants(a) && !r.hasOwnVariants(b) {
		return r.filesCompatible(r.fileOf(a), r.fileOf(b))
	}
	return compatible(r.variantsOf(a), r.variantsOf(b))
}

// callerCompatible reports whether the call being resolved (callFile and
// callOwn) can be built together with definition c.
func (r *resolver) callerCompatible(c int32) bool {
	if len(r.callOwn) == 0 && !r.hasOwnVariants(c) {
		return r.filesCompatible(r.callFile, r.fileOf(c))
	}
	return compatible(append(slices.Clip(r.callFile.Facts.File.Variants), r.callOwn...), r.variantsOf(c))
}

// filePair keys the memo of compatible: a call resolution asks about the
// same few files' constraints again and again (500k call sites on
// GOROOT/src, a handful of platform files each), and compatible builds
// maps for every answer. It is the two file indices in one word, a key
// the map hashes faster than a pair of pointers.
type filePair uint64

func pairOf(a, b *fileInfo) filePair {
	return filePair(uint64(uint32(a.idx))<<32 | uint64(uint32(b.idx)))
}

// filesCompatible is compatible for two files' constraints, memoised.
func (r *resolver) filesCompatible(a, b *fileInfo) bool {
	if len(a.Facts.File.Variants) == 0 || len(b.Facts.File.Variants) == 0 {
		return true
	}
	k := pairOf(a, b) // a == b too: a call in a file with variants asks of its own file's definitions
	if ok, hit := r.compatMemo[k]; hit {
		return ok
	}
	ok := compatible(a.Facts.File.Variants, b.Facts.File.Variants)
	if r.compatMemo == nil {
		r.compatMemo = make(map[filePair]bool)
	}
	r.compatMemo[k] = ok
	r.compatMemo[pairOf(b, a)] = ok
	return ok
}

func (r *resolver) fileOf(s int32) *fileInfo { return &r.files[r.syms[s].file] }

// twinPick chooses among several same-named candidates of a call when
// they are twins: it returns the first one the calling file is compatible
// with and records all of those in twinsOf, so the call links to each.
// ok is false when the candidates are not twins (some file says nothing
// of its variants, or two can be built together).
func (r *resolver) twinPick(cands []int32) (t int32, ok bool) {
	if r.callFile == nil || !r.areTwins(cands) {
		return -1, false
	}
	var fits []int32
	for _, c := range cands {
		if r.callerCompatible(c) {
			fits = append(fits, c)
		}
	}
	if len(fits) == 0 {
		return -1, true
	}
	if len(fits) > 1 {
		if r.twinsOf == nil {
			r.twinsOf = make(map[int32][]int32)
		}
		r.twinsOf[fits[0]] = fits
	}
	return fits[0], true
}

// pickAmong resolves several candidates satisfying a lookup: build-variant
// twins, else nothing (ambiguous).
func (r *resolver) pickAmong(cands []int32) int32 {
	if t, ok := r.twinPick(cands); ok {
		return t
	}
	return -1
}

// twinKey names a candidate list in twinSets by its ends and length; the
// entry keeps the list, which tells apart two lists of one key.
type twinKey struct{ first, last, n int32 }

type twinSet struct {
	cands []int32
	twins bool
}

// areTwins reports whether cands are build-variant twins: each has
// variants and no two can be built together. That depends on the
// candidates alone, and the same lists come up again and again (a type
// declared once per platform, looked up from every file that uses it), so
// the answer is memoised: the pair checks, quadratic in the list, cost
// ~0.1 CPU-s of every resolution of GOROOT/src.
func (r *resolver) areTwins(cands []int32) bool {
	if len(cands) < 2 {
		return r.twinsUncached(cands)
	}
	k := twinKey{cands[0], cands[len(cands)-1], int32(len(cands))}
	if e, ok := r.twinSets[k]; ok && slices.Equal(e.cands, cands) {
		return e.twins
	}
	twins := r.twinsUncached(cands)
	if r.twinSets == nil {
		r.twinSets = make(map[twinKey]twinSet)
	}
	r.twinSets[k] = twinSet{slices.Clone(cands), twins}
	return twins
}

// twinsUncached is areTwins computed.
func (r *resolver) twinsUncached(cands []int32) bool {
	for _, c := range cands {
		if len(r.variantsOf(c)) == 0 {
			return false
		}
	}
	for i, a := range cands {
		for _, b := range cands[i+1:] {
			if r.symsCompatible(a, b) {
				return false
			}
		}
	}
	return true
}
