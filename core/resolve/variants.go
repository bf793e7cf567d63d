package resolve

import "github.com/synaptic-graph/synaptic/sdk/abi"

// Build variants. Same-named definitions in files whose FileFacts.Variants
// exclude each other (exec_unix.go next to exec_windows.go, a //go:build
// aix || darwin file next to a linux one) are twins: never built
// together, so not an ambiguity but one definition per build. A call
// links to every twin the caller's own file can be built with.

// compatible reports whether files with constraints a and b can be built
// together: on every axis both constrain, some value satisfies both.
// Negated constraints exclude finitely many values of an open set, so
// only positive value sets can run out.
func compatible(a, b []abi.Constraint) bool {
	if len(a) == 0 || len(b) == 0 {
		return true
	}
	type axis struct {
		pos map[string]bool // nil: every value
		neg map[string]bool
	}
	axes := map[string]*axis{}
	for _, cs := range [][]abi.Constraint{a, b} {
		for _, c := range cs {
			ax := axes[c.Axis]
			if ax == nil {
				ax = &axis{neg: map[string]bool{}}
				axes[c.Axis] = ax
			}
			if c.Negated {
				for _, v := range c.Values {
					ax.neg[v] = true
				}
				continue
			}
			next := map[string]bool{}
			for _, v := range c.Values {
				if ax.pos == nil || ax.pos[v] {
					next[v] = true
				}
			}
			ax.pos = next
		}
	}
	for _, ax := range axes {
		if ax.pos == nil {
			continue
		}
		left := false
		for v := range ax.pos {
			if !ax.neg[v] {
				left = true
				break
			}
		}
		if !left {
			return false
		}
	}
	return true
}

func (r *resolver) variantsOf(s int32) []abi.Constraint {
	return r.files[r.syms[s].file].Facts.File.Variants
}

// filePair keys the memo of compatible: a call resolution asks about the
// same few files' constraints again and again (500k call sites on
// GOROOT/src, a handful of platform files each), and compatible builds
// maps for every answer.
type filePair struct{ a, b *fileInfo }

// filesCompatible is compatible for two files' constraints, memoised.
func (r *resolver) filesCompatible(a, b *fileInfo) bool {
	if len(a.Facts.File.Variants) == 0 || len(b.Facts.File.Variants) == 0 {
		return true
	}
	if a == b {
		return compatible(a.Facts.File.Variants, b.Facts.File.Variants)
	}
	k := filePair{a, b}
	if ok, hit := r.compatMemo[k]; hit {
		return ok
	}
	ok := compatible(a.Facts.File.Variants, b.Facts.File.Variants)
	if r.compatMemo == nil {
		r.compatMemo = make(map[filePair]bool)
	}
	r.compatMemo[k] = ok
	r.compatMemo[filePair{b, a}] = ok
	return ok
}

func (r *resolver) fileOf(s int32) *fileInfo { return &r.files[r.syms[s].file] }

// twinPick chooses among several same-named candidates of a call when
// they are twins: it returns the first one the calling file is compatible
// with and records all of those in twinsOf, so the call links to each.
// ok is false when the candidates are not twins (some file says nothing
// of its variants, or two can be built together).
func (r *resolver) twinPick(cands []int32) (t int32, ok bool) {
	if r.callFile == nil {
		return -1, false
	}
	for _, c := range cands {
		if len(r.variantsOf(c)) == 0 {
			return -1, false
		}
	}
	for i, a := range cands {
		for _, b := range cands[i+1:] {
			if r.filesCompatible(r.fileOf(a), r.fileOf(b)) {
				return -1, false
			}
		}
	}
	var fits []int32
	for _, c := range cands {
		if r.filesCompatible(r.callFile, r.fileOf(c)) {
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
