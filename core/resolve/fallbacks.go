package resolve

// Fallback imports: a name bound by several imports of one file (Python's
// try: import json / except ImportError: import simplejson as json, or an
// if/else over platforms) is whichever of them ran. A call through that
// name links to each distinct definition the bindings reach, as a call
// links to every build-variant twin (issue 10: both are what may run).

// eachBound returns the first of targets, found through several bindings
// of one name in binding order, and makes the call being resolved link to
// every distinct one (with their own build-variant twins); -1 if none.
func (r *resolver) eachBound(targets []int32) int32 {
	var all []int32
	seen := map[int32]bool{}
	for _, t := range targets {
		twins := r.twinsOf[t]
		if len(twins) == 0 {
			twins = []int32{t}
		}
		for _, x := range twins {
			if !seen[x] {
				seen[x] = true
				all = append(all, x)
			}
		}
	}
	switch len(targets) {
	case 0:
		return -1
	case 1:
		return targets[0]
	}
	if r.twinsOf == nil {
		r.twinsOf = make(map[int32][]int32)
	}
	r.twinsOf[targets[0]] = all
	return targets[0]
}
