package analysis

import (
	"fmt"
	"math"
	"os"
	"path"
	"slices"
	"testing"
	"time"
	"weak"
)

// TestQuality prints partition quality on the big graph: modularity, the
// number and size distribution of communities and NMI against the
// directory structure, for Leiden and for plain Louvain.
//
//	SYNAPTIC_QUALITY=1 go test ./core/analysis -run TestQuality -v
func TestQuality(t *testing.T) {
	if os.Getenv("SYNAPTIC_QUALITY") == "" {
		t.Skip("set SYNAPTIC_QUALITY=1")
	}
	start := time.Now()
	x, name := bigIndex(t)
	t.Logf("graph %s: %d nodes, %d edges (load %v)", name, x.Len(), len(x.G.Edges), time.Since(start).Round(time.Millisecond))
	start = time.Now()
	v := newView(x)
	t.Logf("structural view: %d links, 2m=%.0f (%v)", len(v.g.adj)/2, v.g.m2, time.Since(start).Round(time.Millisecond))
	dirs := make([]int32, x.Len()) // by rank; -1 for stubs
	dirID := map[string]int32{}
	for r, i := range v.order {
		dirs[r] = -1
		if f := x.Node(i).SourceFile; f != "" {
			d, ok := dirID[path.Dir(f)]
			if !ok {
				d = int32(len(dirID))
				dirID[path.Dir(f)] = d
			}
			dirs[r] = d
		}
	}
	t.Logf("directories: %d", len(dirID))
	for _, alg := range []struct {
		name   string
		refine bool
	}{{"leiden", true}, {"louvain", false}} {
		start := time.Now()
		raw := leiden(v.g, Resolution, alg.refine)
		rawT := time.Since(start)
		start = time.Now()
		final, k := v.partition(alg.refine)
		finT := time.Since(start)
		t.Logf("%s raw:   %s (%v)", alg.name, summarize(v, raw, dirs), rawT.Round(time.Millisecond))
		t.Logf("%s final: %s (%v)", alg.name, summarize(v, final, dirs), finT.Round(time.Millisecond))
		if alg.refine {
			for _, c := range v.describe(final, k)[:min(k, 12)] {
				t.Logf("  community %d: %d nodes, cohesion %.4f, %s", c.ID, len(c.Members), c.Cohesion, c.Name)
			}
		}
	}
	cache.Delete(weak.Make(x))
	for _, step := range []struct {
		name string
		f    func()
	}{
		{"communities", func() { Communities(x, nil) }},
		{"god nodes (top 10)", func() { GodNodes(x, 10, 0) }},
		{"god nodes (top 200)", func() { GodNodes(x, 200, 0) }},
		{"surprises", func() { Surprises(x, 5) }},
		{"questions", func() { Questions(x) }},
		{"import cycles", func() { t.Logf("  %d cycles", len(ImportCycles(x, 5))) }},
		{"audit", func() { ConfidenceAudit(x) }},
		{"isolated", func() { t.Logf("  %d isolated", len(Isolated(x))) }},
	} {
		start := time.Now()
		step.f()
		t.Logf("%s: %v", step.name, time.Since(start).Round(time.Millisecond))
	}
}

func summarize(v *view, labels []int32, dirs []int32) string {
	q := modularity(v.g, labels, Resolution)
	size := map[int32]int{}
	for r, l := range labels {
		if !v.stub[r] {
			size[l]++
		}
	}
	var sizes []int
	for _, s := range size {
		sizes = append(sizes, s)
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	ge := func(n int) int {
		c := 0
		for _, s := range sizes {
			if s >= n {
				c++
			}
		}
		return c
	}
	var a, b []int32
	for r, d := range dirs {
		if d >= 0 {
			a, b = append(a, labels[r]), append(b, d)
		}
	}
	return fmt.Sprintf("Q=%.4f communities=%d (>=3:%d >=10:%d >=100:%d >=1000:%d) largest=%v median=%d NMI(dir)=%.4f",
		q, len(sizes), ge(3), ge(10), ge(100), ge(1000), sizes[:min(5, len(sizes))], sizes[len(sizes)/2], nmi(a, b))
}

// nmi is normalised mutual information 2I(A;B)/(H(A)+H(B)).
func nmi(a, b []int32) float64 {
	n := float64(len(a))
	ca, cb := map[int32]float64{}, map[int32]float64{}
	joint := map[[2]int32]float64{}
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		joint[[2]int32{a[i], b[i]}]++
	}
	h := func(m map[int32]float64) float64 {
		s := 0.0
		for _, c := range m {
			s -= c / n * math.Log(c/n)
		}
		return s
	}
	mi := 0.0
	for k, c := range joint {
		mi += c / n * math.Log(c*n/(ca[k[0]]*cb[k[1]]))
	}
	ha, hb := h(ca), h(cb)
	if ha+hb == 0 {
		return 1
	}
	return 2 * mi / (ha + hb)
}
