// Package report renders GRAPH_REPORT.md, the human-readable summary of a
// graph written next to graph.json.
package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// Input is what the report describes: the graph plus what extraction skipped.
type Input struct {
	Graph   *graph.Graph
	Skipped []Skip
	// Index optionally reuses an index of Graph already built by the caller.
	Index *graph.Index
	// Communities optionally passes the partition the caller computed (e.g.
	// with prev ids at extract time); by default it is
	// analysis.CommunitiesOf, i.e. the graph's community field if set.
	Communities []analysis.Community
}

// Skip is a file extraction left out.
type Skip struct {
	Path, Reason, Detail string
}

// Report section limits, after the original's GRAPH_REPORT.md.
const (
	reportGods        = 10
	reportSurprises   = 5
	reportCycleLen    = 5
	reportCycles      = 20
	reportCommunities = 100
	reportAmbiguous   = 20
	reportIsolated    = 5
	highAmbiguity     = 0.20
)

// Write renders the report. Everything is sorted and ties are broken by id,
// so the same graph gives the same bytes whatever the order of its nodes
// and edges.
func Write(w io.Writer, in Input) error {
	g := in.Graph
	x := in.Index
	if x == nil {
		x = graph.NewIndex(g)
	}
	comms := in.Communities
	if comms == nil {
		comms = analysis.CommunitiesOf(x)
	}
	// The sections are independent of each other (what they share is
	// computed once, see analysis): rendered side by side, the report is
	// no longer the last thing an extraction waits for. They are joined
	// in a fixed order, so the bytes do not depend on the schedule.
	var surprises, questions, communities, ambiguous, audit string
	var wg sync.WaitGroup
	wg.Go(func() { surprises = SurprisesText(x, reportSurprises) })
	wg.Go(func() { questions = QuestionsText(x) })
	wg.Go(func() {
		communities = CommunitiesText(x, comms, reportCommunities)
		ambiguous = ambiguousText(x)
		audit = AuditText(x)
	})
	var b strings.Builder
	b.WriteString("# Graph Report\n\n## Overview\n\n")
	files, langs := 0, map[string]int{}
	kinds, rels := map[string]int{}, map[string]int{}
	conf := map[graph.Confidence]int{}
	inferredScore := 0.0
	for i := range g.Nodes {
		n := &g.Nodes[i]
		k := n.Kind
		if n.SourceFile == "" {
			k = "external"
		}
		kinds[k]++
		if n.Kind == "file" {
			files++
			langs[n.Language]++
		}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		rels[e.Relation]++
		conf[e.Confidence]++
		if e.Confidence == graph.Inferred {
			inferredScore += e.Score()
		}
	}
	big := 0
	for _, c := range comms {
		if len(c.Members) >= minCommunity {
			big++
		}
	}
	fmt.Fprintf(&b, "- %d files, %d nodes, %d edges\n", files, len(g.Nodes), len(g.Edges))
	fmt.Fprintf(&b, "- %d communities (%d of %d+ nodes)\n", len(comms), big, minCommunity)
	if len(g.Edges) > 0 {
		fmt.Fprintf(&b, "- confidence: %s EXTRACTED, %s INFERRED, %s AMBIGUOUS\n",
			pct(conf[graph.Extracted], len(g.Edges)), pct(conf[graph.Inferred], len(g.Edges)), pct(conf[graph.Ambiguous], len(g.Edges)))
	}
	if n := conf[graph.Inferred]; n > 0 {
		fmt.Fprintf(&b, "- average INFERRED confidence score: %.2f\n", inferredScore/float64(n))
	}
	fmt.Fprintf(&b, "- skipped files: %d\n", len(in.Skipped))
	if g.BuiltAtCommit != "" {
		fmt.Fprintf(&b, "- built at commit %s\n", clean(g.BuiltAtCommit))
	}

	gods, ranked := analysis.GodNodes(x, reportGods, 0)
	cycles := analysis.ImportCycles(x, reportCycleLen)
	isolated := analysis.Isolated(x)
	b.WriteString("\n## Summary\n\n")
	summary(&b, x, comms, gods, len(cycles), len(isolated))

	godsSection := godNodesText(x, gods, ranked, 0)
	cyclesSection := cyclesText(x, cycles, reportCycleLen, reportCycles)
	gapsSection := gapsText(x, comms, isolated, conf[graph.Ambiguous], len(g.Edges))
	wg.Wait()
	section(&b, "God Nodes", godsSection)
	section(&b, "Surprising Connections", surprises)
	section(&b, "Suggested Questions", questions)
	section(&b, "Import Cycles", cyclesSection)
	section(&b, "Communities", communities)
	if ambiguous != "" {
		section(&b, "Ambiguous Edges", ambiguous)
	}
	section(&b, "Knowledge Gaps", gapsSection)
	section(&b, "Confidence Audit", audit)

	table(&b, "Files per language", "language", "files", langs)
	table(&b, "Nodes per kind", "kind", "nodes", kinds)
	table(&b, "Edges per relation", "relation", "edges", rels)
	if len(in.Skipped) > 0 {
		b.WriteString("\n## Skipped files\n\n")
		byReason := map[string][]Skip{}
		for _, s := range in.Skipped {
			byReason[s.Reason] = append(byReason[s.Reason], s)
		}
		for _, r := range slices.Sorted(maps.Keys(byReason)) {
			list := byReason[r]
			fmt.Fprintf(&b, "### %s (%d)\n\n", r, len(list))
			for i, s := range list {
				if i == 50 {
					fmt.Fprintf(&b, "- … and %d more\n", len(list)-50)
					break
				}
				if s.Detail != "" {
					fmt.Fprintf(&b, "- `%s`: %s\n", s.Path, oneLine(s.Detail))
				} else {
					fmt.Fprintf(&b, "- `%s`\n", s.Path)
				}
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func section(b *strings.Builder, title, body string) {
	fmt.Fprintf(b, "\n## %s\n\n%s", title, body)
}

// summary is a few sentences for a first read: the biggest clusters, the
// top hub, and what needs attention.
func summary(b *strings.Builder, x *graph.Index, comms []analysis.Community, gods []analysis.God, cycles, isolated int) {
	bySize := slices.Clone(comms)
	slices.SortStableFunc(bySize, func(p, q analysis.Community) int { return len(q.Members) - len(p.Members) })
	if len(bySize) > 0 {
		b.WriteString("- Largest communities: ")
		for k, c := range bySize[:min(3, len(bySize))] {
			if k > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(b, "%s (%d nodes)", clean(c.Name), len(c.Members))
		}
		b.WriteString(".\n")
	}
	if len(gods) > 0 {
		top := gods[0]
		fmt.Fprintf(b, "- Top hub: %s with %d connections and %s.\n", code(analysis.Ref(x, top.Node)), top.Degree, plural(top.Tests, "test"))
		untested := 0
		for _, g := range gods {
			if g.Tests == 0 {
				untested++
			}
		}
		fmt.Fprintf(b, "- %d of the top %d hubs are untested.\n", untested, len(gods))
	}
	fmt.Fprintf(b, "- %s, %s.\n", plural(cycles, "import cycle"), plural(isolated, "isolated symbol"))
}

// ambiguousText lists the first AMBIGUOUS edges by key, or "" when none.
func ambiguousText(x *graph.Index) string {
	var es []int32
	for e := range int32(len(x.G.Edges)) {
		if x.Edge(e).Confidence == graph.Ambiguous {
			es = append(es, e)
		}
	}
	if len(es) == 0 {
		return ""
	}
	slices.SortFunc(es, func(a, b int32) int {
		p, q := x.Edge(a), x.Edge(b)
		if c := strings.Compare(p.Source, q.Source); c != 0 {
			return c
		}
		if c := strings.Compare(p.Target, q.Target); c != 0 {
			return c
		}
		if c := strings.Compare(p.Relation, q.Relation); c != 0 {
			return c
		}
		return strings.Compare(p.Context, q.Context)
	})
	var b strings.Builder
	for _, e := range es[:min(reportAmbiguous, len(es))] {
		s, t := x.Ends(e)
		fmt.Fprintf(&b, "- %s --%s--> %s\n", code(analysis.Ref(x, s)), clean(x.Edge(e).Relation), code(analysis.Ref(x, t)))
	}
	if len(es) > reportAmbiguous {
		fmt.Fprintf(&b, "\n%d more.\n", len(es)-reportAmbiguous)
	}
	return b.String()
}

func gapsText(x *graph.Index, comms []analysis.Community, isolated []int32, ambiguous, edges int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- %s with no connection besides their container", plural(len(isolated), "isolated symbol"))
	for k, i := range isolated[:min(reportIsolated, len(isolated))] {
		if k == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(code(analysis.Ref(x, i)))
	}
	if len(isolated) > reportIsolated {
		b.WriteString(", …")
	}
	b.WriteString("\n")
	thin := 0
	for _, c := range comms {
		if len(c.Members) < minCommunity {
			thin++
		}
	}
	fmt.Fprintf(&b, "- %d thin communities (fewer than %d nodes)\n", thin, minCommunity)
	if edges > 0 && float64(ambiguous) >= highAmbiguity*float64(edges) {
		fmt.Fprintf(&b, "- high ambiguity: %s of edges are AMBIGUOUS\n", pct(ambiguous, edges))
	}
	return b.String()
}

func table(b *strings.Builder, title, col, unit string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s\n\n| %s | %s |\n|---|---:|\n", title, col, unit)
	keys := slices.Sorted(maps.Keys(m))
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(b, "| %s | %d |\n", clean(k), m[k])
	}
}

func pct(n, total int) string {
	if total == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
