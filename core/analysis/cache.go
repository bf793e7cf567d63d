package analysis

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// derived holds what several analyses share for one Index, computed once.
// Entries are keyed by a weak pointer and dropped when the Index is
// collected, so a long-running server that reloads graphs does not leak.
type derived struct {
	commMu sync.Mutex
	comms  []Community
	commOf []int32 // community id by node index, -1 for none

	rankOnce sync.Once
	ranked   []int32 // god-node candidates, highest degree first, then id

	orderOnce   sync.Once
	order, rank []int32 // nodes sorted by id, and each node's position there

	// The report, its questions and the tools ask for the same hubs' test
	// reach, cycles and isolated symbols several times over: each is
	// computed once (about a third of GRAPH_REPORT.md's cost on GOROOT/src).
	memoMu   sync.Mutex
	tests    map[int32]int     // testsReaching by node
	cycles   map[int][][]int32 // importCycles by maxLen
	isolated []int32
	isoDone  bool
}

var cache sync.Map // weak.Pointer[graph.Index] -> *derived

func derive(x *graph.Index) *derived {
	key := weak.Make(x)
	if d, ok := cache.Load(key); ok {
		return d.(*derived)
	}
	d, loaded := cache.LoadOrStore(key, &derived{})
	if !loaded {
		runtime.AddCleanup(x, func(k weak.Pointer[graph.Index]) { cache.Delete(k) }, key)
	}
	return d.(*derived)
}

// CommunitiesOf returns the graph's current communities, which surprises,
// questions and the report use: the first result of Communities for x (at
// extract time that is the partition about to be written into
// graph.json), else the community field already in the graph when every
// node that has a source file carries one (so reports and tools agree with
// the file), else Communities(x, nil). It is computed once per Index and
// shared; callers must not modify it.
func CommunitiesOf(x *graph.Index) []Community {
	comms, _ := shared(x)
	return comms
}

// communityOf returns the community id of every node (-1 for none).
func communityOf(x *graph.Index) []int32 {
	_, of := shared(x)
	return of
}

func shared(x *graph.Index) ([]Community, []int32) {
	d := derive(x)
	d.commMu.Lock()
	defer d.commMu.Unlock()
	if d.commOf == nil {
		comms := fromField(x)
		if comms == nil {
			comms = partitionOf(x, nil)
		}
		d.set(x, comms)
	}
	return d.comms, d.commOf
}

// prime records comms as x's shared partition unless one is already set.
func prime(x *graph.Index, comms []Community) {
	d := derive(x)
	d.commMu.Lock()
	defer d.commMu.Unlock()
	if d.commOf == nil {
		d.set(x, comms)
	}
}

func (d *derived) set(x *graph.Index, comms []Community) {
	d.comms = comms
	d.commOf = make([]int32, x.Len())
	for i := range d.commOf {
		d.commOf[i] = -1
	}
	for _, c := range comms {
		for _, i := range c.Members {
			d.commOf[i] = int32(c.ID)
		}
	}
}

// fromField describes the partition stored in the nodes' community field,
// or returns nil when some node with a source file has none.
func fromField(x *graph.Index) []Community {
	n := x.Len()
	if n == 0 {
		return nil
	}
	var ids []int
	for i := range n {
		nd := x.Node(int32(i))
		if nd.Community == nil {
			if nd.SourceFile != "" {
				return nil
			}
			continue
		}
		ids = append(ids, *nd.Community)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	dense := make(map[int]int32, len(ids))
	for j, id := range ids {
		dense[id] = int32(j)
	}
	v := newView(x)
	labels := make([]int32, n)
	k := int32(len(ids))
	for r, i := range v.order {
		if c := x.Node(i).Community; c != nil {
			labels[r] = dense[*c]
		} else {
			labels[r] = k // nodes without one become singletons
			k++
		}
	}
	comms := v.describe(labels, int(k))
	next := 0
	if len(ids) > 0 {
		next = ids[len(ids)-1] + 1
	}
	for c := range comms {
		if c < len(ids) {
			comms[c].ID = ids[c]
		} else {
			comms[c].ID = next
			next++
		}
	}
	return comms
}

// byID returns the nodes sorted by id (order) and each node's position in
// that order (rank), computed once per Index. Comparing ranks is comparing
// ids, which every tie-break here does; callers must not modify them.
func byID(x *graph.Index) (order, rank []int32) {
	d := derive(x)
	d.orderOnce.Do(func() {
		n := x.Len()
		d.order = make([]int32, n)
		for i := range d.order {
			d.order[i] = int32(i)
		}
		slices.SortFunc(d.order, func(a, b int32) int { return strings.Compare(x.Node(a).ID, x.Node(b).ID) })
		d.rank = make([]int32, n)
		for r, i := range d.order {
			d.rank[i] = int32(r)
		}
	})
	return d.order, d.rank
}

// testsOf returns testsReaching for each of nodes, walking only the nodes
// not seen before.
func testsOf(x *graph.Index, nodes []int32) []int {
	d := derive(x)
	d.memoMu.Lock()
	defer d.memoMu.Unlock()
	if d.tests == nil {
		d.tests = map[int32]int{}
	}
	var w *walker
	out := make([]int, len(nodes))
	for k, i := range nodes {
		t, ok := d.tests[i]
		if !ok {
			if w == nil {
				w = newWalker(x)
			}
			t = w.testsReaching(i)
			d.tests[i] = t
		}
		out[k] = t
	}
	return out
}
