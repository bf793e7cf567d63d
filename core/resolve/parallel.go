package resolve

import (
	"runtime"
	"sync"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// parallelCallsMin is the number of call sites from which call and value
// resolution split the files between two workers. Below it the goroutine
// is not worth its cost; a test lowers it to exercise the split on
// fixtures.
var parallelCallsMin = 20000

// resolveCallsAndValues is resolveCalls then resolveValueRefs, on two
// cores. Both only read the indexes the earlier passes built; what they
// write (edges, stats, unlinked member calls, the variant scratch state)
// each worker keeps to itself. The first worker resolves the calls of the
// first files, the second those of the rest and then every value
// reference, and the second's edges are appended after the first's: the
// edges come out in the order one worker would make them.
func (r *resolver) resolveCallsAndValues() {
	total, values := 0, 0
	for i := range r.files {
		total += len(r.files[i].Facts.Calls)
		for j := range r.files[i].Facts.Relations {
			if rel := &r.files[i].Facts.Relations[j]; rel.Context == abi.CtxValue && rel.Kind == abi.RelReferences {
				values++
			}
		}
	}
	if total < parallelCallsMin || runtime.GOMAXPROCS(0) < 2 || len(r.files) < 2 {
		r.resolveCalls()
		r.resolveValueRefs()
		return
	}
	// A value reference costs about what a call does: the first worker
	// takes the first files up to half of both.
	split, seen := 1, 0
	for split < len(r.files)-1 && seen+len(r.files[split-1].Facts.Calls) <= (total+values)/2 {
		seen += len(r.files[split-1].Facts.Calls)
		split++
	}
	r.prepareShared()
	w := *r
	// One edge per call site or value is the usual most (twins add some):
	// sized so the worker's slice of large records is not regrown.
	w.edges, w.stats, w.unlinked = make([]graph.Edge, 0, total-seen+values), Stats{}, nil
	w.twinsOf, w.compatMemo, w.callFile, w.callOwn = nil, nil, nil, nil
	var wg sync.WaitGroup
	wg.Go(func() {
		w.resolveCallsIn(split, len(r.files))
		w.resolveValueRefs()
	})
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
// source_location strings of every call and value line and the methods
// by name.
func (r *resolver) prepareShared() {
	maxLine := uint32(0)
	for i := range r.files {
		for _, c := range r.files[i].Facts.Calls {
			maxLine = max(maxLine, c.Line)
		}
		for _, rel := range r.files[i].Facts.Relations {
			maxLine = max(maxLine, rel.Line)
		}
	}
	r.loc(maxLine)
	if r.methodsByName == nil {
		r.methodsByName = r.indexMethodsByName()
	}
}
