package graph

import (
	"runtime"
	"slices"
	"sync"
)

// parallelSortMin is the length below which sortTotal sorts on one core:
// the goroutine and the merge buffer cost more than they save.
const parallelSortMin = 1 << 14

// sortTotal sorts s by cmp, which must be a total order (no two elements
// compare equal: Canonicalize breaks ties on the original position), so
// the result is the one slices.SortFunc gives, whatever the split. Large
// slices sort in two halves on two cores, then merge: a canonical sort of
// GOROOT's 700k nodes and edges is on the critical path of every run.
func sortTotal[T any](s []T, cmp func(a, b T) int) {
	if len(s) < parallelSortMin || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(s, cmp)
		return
	}
	mid := len(s) / 2
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(s[:mid], cmp) })
	slices.SortFunc(s[mid:], cmp)
	wg.Wait()
	merged := make([]T, 0, len(s))
	a, b := s[:mid], s[mid:]
	for len(a) > 0 && len(b) > 0 {
		if cmp(b[0], a[0]) < 0 {
			merged, b = append(merged, b[0]), b[1:]
		} else {
			merged, a = append(merged, a[0]), a[1:]
		}
	}
	merged = append(append(merged, a...), b...)
	copy(s, merged)
}
