package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/report"
	"github.com/synaptic-graph/synaptic/core/tools"
)

// openCatalog loads a graph into the same catalog `serve` uses, so the CLI
// and MCP answer from one implementation.
func openCatalog(graphPath, sourceRoot string, concise bool) (*tools.Catalog, error) {
	g, _, err := loadGraphFile(graphPath, "")
	if err != nil {
		return nil, err
	}
	if sourceRoot == "" {
		sourceRoot = defaultSourceRoot(graphPath)
	}
	c := tools.New(withRevisionExtraction(tools.Options{SourceRoot: sourceRoot, Concise: concise, GraphPath: graphPath, Rules: newLazyRules(sourceRoot, "")}, envOr("SYNAPTIC_PLUGINS", "")))
	c.SetGraph(g)
	return c, nil
}

func runCall(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "call", "[flags] TOOL [key=value ...]", `
Run one serve tool from the command line, with the same code and output as
over MCP. Values are typed by the tool's input schema: numbers, booleans,
and comma-separated lists for array arguments. Without TOOL, list the tools.

  synaptic call find_callers label=ServeHTTP limit=5
  synaptic call get_source label=Parse@core/graph`)
	graphPath := fs.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to query")
	sourceRoot := fs.String("source-root", "", "root for get_source (default: the directory above synaptic-out/)")
	asJSON := fs.Bool("json", false, "print structuredContent as JSON instead of the text")
	concise := fs.Bool("concise", false, "token-lean defaults")
	args, help := withoutHelp(args)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if help {
		if len(pos) == 0 {
			fs.Usage()
			return flag.ErrHelp
		}
		// The tool list needs no graph: answer without loading one.
		t, ok := tools.New(tools.Options{Concise: *concise}).Tool(pos[0])
		if !ok {
			return usageError{fmt.Sprintf("unknown tool %q (run 'synaptic call' to list them)", pos[0])}
		}
		printToolHelp(stdio.Out, t)
		return nil
	}
	c, err := openCatalog(*graphPath, *sourceRoot, *concise)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		for _, t := range c.Tools() {
			fmt.Fprintf(stdio.Out, "%-16s %s\n", t.Name, firstLine(t.Description))
		}
		return nil
	}
	tool, ok := c.Tool(pos[0])
	if !ok {
		return usageError{fmt.Sprintf("unknown tool %q (run 'synaptic call' to list them)", pos[0])}
	}
	argv, err := toolArgs(tool, pos[1:])
	if err != nil {
		return usageError{err.Error()}
	}
	return printResult(ctx, c, tool.Name, argv, *asJSON, stdio)
}

// withoutHelp removes -h/--help from args and reports whether one was
// there, so "call TOOL --help" can describe TOOL.
func withoutHelp(args []string) ([]string, bool) {
	var out []string
	help := false
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...), help
		}
		if a == "-h" || a == "-help" || a == "--help" {
			help = true
			continue
		}
		out = append(out, a)
	}
	return out, help
}

// printToolHelp describes a tool and its arguments from its input schema.
func printToolHelp(w io.Writer, t tools.Tool) {
	var schema struct {
		Properties map[string]struct {
			Type        string `json:"type"`
			Description string `json:"description"`
			Default     any    `json:"default"`
			Enum        []any  `json:"enum"`
			Items       *struct {
				Type string `json:"type"`
			} `json:"items"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(t.InputSchema, &schema)
	fmt.Fprintf(w, "Usage: synaptic call %s [key=value ...]\n\n%s\n", t.Name, t.Description)
	if len(schema.Properties) == 0 {
		fmt.Fprintln(w, "\nNo arguments.")
		return
	}
	fmt.Fprintln(w, "\nArguments:")
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		ri, rj := slices.Contains(schema.Required, names[i]), slices.Contains(schema.Required, names[j])
		if ri != rj {
			return ri
		}
		return names[i] < names[j]
	})
	for _, n := range names {
		p := schema.Properties[n]
		typ := p.Type
		if typ == "array" && p.Items != nil {
			typ = p.Items.Type + ",... (comma-separated)"
		}
		var notes []string
		if slices.Contains(schema.Required, n) {
			notes = append(notes, "required")
		}
		if len(p.Enum) > 0 {
			notes = append(notes, fmt.Sprintf("one of %v", p.Enum))
		}
		if p.Default != nil {
			notes = append(notes, fmt.Sprintf("default %v", p.Default))
		}
		extra := ""
		if len(notes) > 0 {
			extra = " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(w, "  %s=%s%s\n      %s\n", n, typ, extra, p.Description)
	}
}

func printResult(ctx context.Context, c *tools.Catalog, name string, args map[string]any, asJSON bool, stdio IO) error {
	raw, _ := json.Marshal(args)
	res, err := c.Call(ctx, name, raw)
	if err != nil {
		return err
	}
	if asJSON && res.Structured != nil {
		enc := json.NewEncoder(stdio.Out)
		enc.SetIndent("", "  ")
		enc.Encode(res.Structured)
	} else {
		fmt.Fprintln(stdio.Out, res.Text)
	}
	if res.IsError {
		return fmt.Errorf("%s failed", name)
	}
	return nil
}

// toolArgs turns key=value pairs into arguments typed by the tool's schema.
func toolArgs(t tools.Tool, pairs []string) (map[string]any, error) {
	var schema struct {
		Properties map[string]struct {
			Type  string `json:"type"`
			Items *struct {
				Type string `json:"type"`
			} `json:"items"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(t.InputSchema, &schema)
	out := map[string]any{}
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("argument %q is not key=value", p)
		}
		prop, known := schema.Properties[k]
		if !known {
			names := make([]string, 0, len(schema.Properties))
			for n := range schema.Properties {
				names = append(names, n)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("%s has no argument %q (arguments: %s)", t.Name, k, strings.Join(names, ", "))
		}
		val, err := typed(prop.Type, v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: %v", k, v, err)
		}
		if prop.Type == "array" {
			var items []any
			itemType := "string"
			if prop.Items != nil {
				itemType = prop.Items.Type
			}
			for _, s := range strings.Split(v, ",") {
				it, err := typed(itemType, strings.TrimSpace(s))
				if err != nil {
					return nil, fmt.Errorf("%s=%q: %v", k, v, err)
				}
				items = append(items, it)
			}
			val = items
		}
		out[k] = val
	}
	return out, nil
}

func typed(typ, v string) (any, error) {
	switch typ {
	case "integer":
		return strconv.Atoi(v)
	case "number":
		return strconv.ParseFloat(v, 64)
	case "boolean":
		return strconv.ParseBool(v)
	}
	return v, nil
}

func runQuery(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "query", `[flags] "question"`, `
Ask the graph a question, as an assistant does with the query_graph tool:
the most relevant symbols, ranked, within a token budget.`)
	graphPath := fs.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to query")
	budget := fs.Int("budget", 0, "token budget (default: the tool's default)")
	full := fs.Bool("full", false, "include every node within the budget and the edges between them")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"query needs a question"}
	}
	c, err := openCatalog(*graphPath, "", false)
	if err != nil {
		return err
	}
	a := map[string]any{"question": strings.Join(pos, " ")}
	if *budget > 0 {
		a["token_budget"] = *budget
	}
	if *full {
		a["full"] = true
	}
	return printResult(ctx, c, "query_graph", a, false, stdio)
}

func runReport(_ context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "report", "[flags]", `
Regenerate GRAPH_REPORT.md from an existing graph.json without
re-extracting: summary, god nodes, surprising connections, communities,
import cycles, suggested questions, confidence audit. (The list of skipped
files is only known to extraction and is left out.)`)
	graphPath := fs.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to analyse")
	out := fs.String("out", "", "where to write (default: GRAPH_REPORT.md next to graph.json; - for stdout)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	g, _, err := loadGraphFile(*graphPath, "")
	if err != nil {
		return err
	}
	var buf strings.Builder
	if err := report.Write(&buf, report.Input{Graph: g, Index: graph.NewIndex(g)}); err != nil {
		return err
	}
	if *out == "-" {
		_, err := fmt.Fprint(stdio.Out, buf.String())
		return err
	}
	if *out == "" {
		*out = filepath.Join(filepath.Dir(*graphPath), "GRAPH_REPORT.md")
	}
	if err := replaceFile(*out, []byte(buf.String())); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "wrote %s\n", *out)
	return nil
}

// replaceFile writes data to a new file beside path and renames it into
// place: a symlink a repository shipped at path (GRAPH_REPORT.md ->
// ~/.bashrc) is replaced, never written through, and a reader never sees
// half a file.
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".report-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
