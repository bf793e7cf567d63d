package graph

import (
	"cmp"
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

// radixBits is the digit width of sortEdgeKeys' passes: 2^11 counters
// stay in L1, and GOROOT's 40-bit keys take four passes.
const radixBits = 11

// sortEdgeKeys sorts keys by ends, then by tie (which must be a total
// order on keys with equal ends), into the order sortTotal gives with the
// combined comparison. ends are packed endpoint ranks, below 1<<(2*bits):
// an LSD radix sort on them moves each key once per digit instead of
// comparing through a closure O(n log n) times, and it is stable, so a run
// of equal ends keeps index order and only those runs (a few edges each)
// are sorted by tie.
func sortEdgeKeys(keys []edgeKey, bits int, tie func(a, b edgeKey) int) {
	if len(keys) < parallelSortMin {
		sortTotal(keys, func(a, b edgeKey) int {
			if c := cmp.Compare(a.ends, b.ends); c != 0 {
				return c
			}
			return tie(a, b)
		})
		return
	}
	radixSortEnds(keys, bits)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].ends == keys[i].ends {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], tie)
		}
		i = j
	}
}

// radixSortEnds stably sorts keys by ends, whose source rank sits in the
// high 32 bits and whose target rank is below 1<<bits. The key is
// compacted to 2*bits bits before the passes so a graph of a million
// nodes needs four passes rather than six.
func radixSortEnds(keys []edgeKey, bits int) {
	compact := func(e uint64) uint64 { return e>>32<<bits | e&(1<<bits-1) }
	buf := make([]edgeKey, len(keys))
	src, dst := keys, buf
	var count [1 << radixBits]int
	for shift := 0; shift < 2*bits; shift += radixBits {
		clear(count[:])
		for i := range src {
			count[compact(src[i].ends)>>shift&(1<<radixBits-1)]++
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for i := range src {
			d := compact(src[i].ends) >> shift & (1<<radixBits - 1)
			dst[count[d]] = src[i]
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
