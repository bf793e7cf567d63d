// Package report renders GRAPH_REPORT.md, the human-readable summary of a
// graph written next to graph.json.
package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
)

// Input is what the report describes: the graph plus what extraction skipped.
type Input struct {
	Graph   *graph.Graph
	Skipped []Skip
}

// Skip is a file extraction left out.
type Skip struct {
	Path, Reason, Detail string
}

// Write renders the report. Everything is sorted, so the same graph gives
// the same bytes.
func Write(w io.Writer, in Input) error {
	g := in.Graph
	var b strings.Builder
	b.WriteString("# Graph Report\n\n## Overview\n\n")
	files, langs := 0, map[string]int{}
	kinds, rels := map[string]int{}, map[string]int{}
	conf := map[graph.Confidence]int{}
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
		rels[g.Edges[i].Relation]++
		conf[g.Edges[i].Confidence]++
	}
	fmt.Fprintf(&b, "- %d files, %d nodes, %d edges\n", files, len(g.Nodes), len(g.Edges))
	if len(g.Edges) > 0 {
		fmt.Fprintf(&b, "- confidence: %s EXTRACTED, %s INFERRED, %s AMBIGUOUS\n",
			pct(conf[graph.Extracted], len(g.Edges)), pct(conf[graph.Inferred], len(g.Edges)), pct(conf[graph.Ambiguous], len(g.Edges)))
	}
	fmt.Fprintf(&b, "- skipped files: %d\n", len(in.Skipped))
	table(&b, "Files per language", "language", "files", langs)
	table(&b, "Nodes per kind", "kind", "nodes", kinds)
	table(&b, "Edges per relation", "relation", "edges", rels)
	if len(in.Skipped) > 0 {
		b.WriteString("\n## Skipped files\n\n")
		byReason := map[string][]Skip{}
		for _, s := range in.Skipped {
			byReason[s.Reason] = append(byReason[s.Reason], s)
		}
		for _, r := range sortedKeys(byReason) {
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

func table(b *strings.Builder, title, col, unit string, m map[string]int) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(b, "\n## %s\n\n| %s | %s |\n|---|---:|\n", title, col, unit)
	keys := sortedKeys(m)
	sort.SliceStable(keys, func(i, j int) bool { return m[keys[i]] > m[keys[j]] })
	for _, k := range keys {
		fmt.Fprintf(b, "| %s | %d |\n", k, m[k])
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
