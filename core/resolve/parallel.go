package resolve

import (
	"runtime"
	"sync"
)

// parallelCallsMin is the number of call sites from which resolveCalls
// splits the files between two workers. Below it the goroutine is not
// worth its cost; a test lowers it to exercise the split on fixtures.
var parallelCallsMin = 20000

// resolveCallsParallel is resolveCalls on two cores. Call resolution only
// reads the indexes the earlier passes built; what it writes (edges,
// stats, unlinked member calls, the variant scratch state) each worker
// keeps to itself, and the second worker's results are appended after the
// first's, so the edges come out in the order one worker would make them.
func (r *resolver) resolveCallsParallel() {
	total := 0
	for i := range r.files {
		total += len(r.files[i].Facts.Calls)
	}
	if total < parallelCallsMin || runtime.GOMAXPROCS(0) < 2 || len(r.files) < 2 {
		r.resolveCalls()
		return
	}
	split, seen := 1, 0
	for i := range r.files {
		if seen >= total/2 {
			split = max(i, 1)
			break
		}
		seen += len(r.files[i].Facts.Calls)
		split = i + 1
	}
	split = min(split, len(r.files)-1)
	r.prepareShared()
	w := *r
	w.edges, w.stats, w.unlinked = nil, Stats{}, nil
	w.twinsOf, w.compatMemo, w.callFile, w.callOwn = nil, nil, nil, nil
	var wg sync.WaitGroup
	wg.Go(func() { w.resolveCallsIn(split, len(r.files)) })
	r.resolveCallsIn(0, split)
	wg.Wait()
	r.edges = append(r.edges, w.edges...)
	r.stats.Calls += w.stats.Calls
	r.stats.Extracted += w.stats.Extracted
	r.stats.Inferred += w.stats.Inferred
	r.stats.Ambiguous += w.stats.Ambiguous
	r.stats.Unresolved += w.stats.Unresolved
	if len(w.unlinked) > 0 && r.unlinked == nil {
		r.unlinked = make(map[int32][]string, len(w.unlinked))
	}
	for caller, names := range w.unlinked {
		r.unlinked[caller] = names // callers are symbols of the worker's own files
	}
}

// prepareShared builds the lazily made tables call resolution would
// otherwise make on first use, so the two workers only read them: the
// source_location strings of every call line and the methods by name.
func (r *resolver) prepareShared() {
	maxLine := uint32(0)
	for i := range r.files {
		for _, c := range r.files[i].Facts.Calls {
			maxLine = max(maxLine, c.Line)
		}
	}
	r.loc(maxLine)
	if r.methodsByName == nil {
		r.methodsByName = r.indexMethodsByName()
	}
}
