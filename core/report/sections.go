package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/synaptic-graph/synaptic/core/analysis"
	"github.com/synaptic-graph/synaptic/core/graph"
)

// The *Text functions render one analysis as Markdown, without a heading.
// GRAPH_REPORT.md is assembled from them and the serve resources
// (synaptic://god-nodes, surprises, questions, audit) return them as is, so
// the report and the tools can never disagree.

// GodNodesText renders GodNodes(x, topN, offset): absolute rank, degree and
// the tests that reach each hub, flagging untested ones.
func GodNodesText(x *graph.Index, topN, offset int) string {
	gods, total := analysis.GodNodes(x, topN, offset)
	return godNodesText(x, gods, total, offset)
}

// godNodesText renders the page of hubs GodNodes returned.
func godNodesText(x *graph.Index, gods []analysis.God, total, offset int) string {
	if len(gods) == 0 {
		if total == 0 {
			return "No god nodes: no symbol has a connection.\n"
		}
		return fmt.Sprintf("No god nodes past offset %d (%d ranked).\n", offset, total)
	}
	var b strings.Builder
	untested := 0
	for _, g := range gods {
		flag := ""
		if g.Tests == 0 {
			flag = " — **untested**"
			untested++
		}
		fmt.Fprintf(&b, "%d. %s — %d connections, %s%s (%s)\n", g.Rank, code(x.Node(g.Node).Label), g.Degree, plural(g.Tests, "test"), flag, where(x, g.Node))
	}
	if last := gods[len(gods)-1].Rank; last < total {
		fmt.Fprintf(&b, "\n%d more ranked (next offset %d).\n", total-last, last)
	}
	if untested > 0 {
		fmt.Fprintf(&b, "\nNo test reaches %d of these hubs (reverse calls/references, up to 4 hops).\n", untested)
	}
	return b.String()
}

// SurprisesText renders Surprises(x, limit).
func SurprisesText(x *graph.Index, limit int) string {
	sur := analysis.Surprises(x, limit)
	if len(sur) == 0 {
		return "No surprising cross-community connections.\n"
	}
	var b strings.Builder
	for k, s := range sur {
		src, dst := x.Ends(s.Edge)
		fmt.Fprintf(&b, "%d. %s --%s--> %s (score %g): %s\n", k+1, code(analysis.Ref(x, src)), clean(x.Edge(s.Edge).Relation), code(analysis.Ref(x, dst)), s.Score, clean(s.Why))
	}
	return b.String()
}

// QuestionsText renders Questions(x).
func QuestionsText(x *graph.Index) string {
	var b strings.Builder
	for k, q := range analysis.Questions(x) {
		fmt.Fprintf(&b, "%d. %s\n   - why: %s\n", k+1, clean(q.Text), clean(q.Why))
	}
	return b.String()
}

// AuditText renders ConfidenceAudit(x): totals and, per relation, counts
// with the share of each tier.
func AuditText(x *graph.Index) string {
	a := analysis.ConfidenceAudit(x)
	tiers := []graph.Confidence{graph.Extracted, graph.Inferred, graph.Ambiguous}
	total := 0
	for _, t := range tiers {
		total += a.Total[t]
	}
	if total == 0 {
		return "No edges.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d edges: ", total)
	for k, t := range tiers {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d %s (%s)", a.Total[t], t, pct(a.Total[t], total))
	}
	b.WriteString("\n\n| relation | EXTRACTED | INFERRED | AMBIGUOUS |\n|---|---:|---:|---:|\n")
	for _, r := range slices.Sorted(maps.Keys(a.ByRelation)) {
		m := a.ByRelation[r]
		n := m[graph.Extracted] + m[graph.Inferred] + m[graph.Ambiguous]
		fmt.Fprintf(&b, "| %s |", clean(r))
		for _, t := range tiers {
			fmt.Fprintf(&b, " %d (%s) |", m[t], pct(m[t], n))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// CyclesText renders up to limit ImportCycles(x, maxLen).
func CyclesText(x *graph.Index, maxLen, limit int) string {
	return cyclesText(x, analysis.ImportCycles(x, maxLen), maxLen, limit)
}

// cyclesText renders up to limit of the cycles ImportCycles returned.
func cyclesText(x *graph.Index, cycles [][]int32, maxLen, limit int) string {
	if len(cycles) == 0 {
		return fmt.Sprintf("No import cycles of length 2 to %d.\n", maxLen)
	}
	var b strings.Builder
	for k, c := range cycles[:min(limit, len(cycles))] {
		names := make([]string, len(c)+1)
		for j, i := range c {
			names[j] = code(analysis.Ref(x, i))
		}
		names[len(c)] = names[0]
		fmt.Fprintf(&b, "%d. %s\n", k+1, strings.Join(names, " → "))
	}
	if len(cycles) > limit {
		fmt.Fprintf(&b, "\n%d more.\n", len(cycles)-limit)
	}
	return b.String()
}

// CommunitiesText renders up to limit communities of at least minCommunity
// members: name, size, cohesion and the top sample members.
func CommunitiesText(x *graph.Index, comms []analysis.Community, limit int) string {
	var b strings.Builder
	shown, hidden := 0, 0
	for _, c := range comms {
		if len(c.Members) < minCommunity {
			continue
		}
		if shown == limit {
			hidden++
			continue
		}
		shown++
		fmt.Fprintf(&b, "- **%d. %s** — %d nodes, cohesion %.3f: ", c.ID, clean(c.Name), len(c.Members), c.Cohesion)
		for j, i := range showcase(x, c.Members) {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(code(x.Node(i).Label))
		}
		if rest := len(c.Members) - samples; rest > 0 {
			fmt.Fprintf(&b, " +%d", rest)
		}
		b.WriteByte('\n')
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "\n%d more communities of %d+ nodes (get_community lists any of them).\n", hidden, minCommunity)
	}
	if shown == 0 {
		return fmt.Sprintf("No communities of %d or more nodes.\n", minCommunity)
	}
	return b.String()
}

// showcase picks the members shown for a community: the top symbols by
// degree, then files, packages and external stubs only if too few.
func showcase(x *graph.Index, members []int32) []int32 {
	out := make([]int32, 0, samples)
	for pass := range 2 {
		for _, i := range members {
			if len(out) == samples {
				return out
			}
			n := x.Node(i)
			container := n.SourceFile == "" || n.Kind == "file" || n.Kind == "package" || n.Kind == "module"
			if container == (pass == 1) {
				out = append(out, i)
			}
		}
	}
	return out
}

const (
	minCommunity = 3 // smaller communities count as knowledge gaps
	samples      = 5
)

func where(x *graph.Index, i int32) string {
	if f := x.Node(i).SourceFile; f != "" {
		return code(f)
	}
	return "external"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// code quotes a label as a Markdown code span; labels come from the
// analysed repository, so control characters and backticks are removed.
func code(s string) string { return "`" + strings.ReplaceAll(clean(s), "`", "'") + "`" }

// clean makes untrusted text one safe line: control characters (including
// escape sequences' introducers) become spaces, and long text is cut.
func clean(s string) string {
	const maxLen = 300
	ok := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			ok = false
			break
		}
	}
	if !ok {
		var b strings.Builder
		for _, r := range s {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
				r = ' '
			}
			b.WriteRune(r)
		}
		s = strings.Join(strings.Fields(b.String()), " ")
	}
	if len(s) > maxLen {
		cut := maxLen
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
