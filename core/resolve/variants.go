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
			if compatible(r.variantsOf(a), r.variantsOf(b)) {
				return -1, false
			}
		}
	}
	var fits []int32
	for _, c := range cands {
		if compatible(r.callFile.Facts.File.Variants, r.variantsOf(c)) {
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
// twins, else Go's portable variant (v1), else nothing (ambiguous).
func (r *resolver) pickAmong(cands []int32) int32 {
	if t, ok := r.twinPick(cands); ok {
		return t
	}
	return r.portableGo(cands)
}
