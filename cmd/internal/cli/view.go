package cli

import (
	"context"
	"fmt"
	"path/filepath"
)

func runView(ctx context.Context, args []string, stdio IO) error {
	flags := newFlags(stdio, "view", "[--graph PATH] [--http ADDR]", `
Serve a local web page over the graph: search a symbol, its neighbourhood
as a graph (click a node to expand it), communities as a map, the god
nodes, GRAPH_REPORT.md, and source read through the same jail as
get_source. The page asks the same catalog tools as MCP, and 'serve
--http' serves it at / too, under the same guards (with --api-key the page
needs the key like every route). Stop it with Ctrl-C.`)
	graphPath := flags.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to show (or its repository)")
	addr := flags.String("http", "127.0.0.1:8766", "host:port to serve the page on (127.0.0.1:0 picks a free port)")
	sourceRoot := flags.String("source-root", "", "root for source views (default: the directory above synaptic-out/)")
	pos, err := parseInterspersed(flags, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageError{fmt.Sprintf("unexpected argument %q (use --graph PATH)", pos[0])}
	}
	serveArgs := []string{"--graph", *graphPath, "--http", *addr}
	if *sourceRoot != "" {
		serveArgs = append(serveArgs, "--source-root", *sourceRoot)
	}
	return runServe(ctx, serveArgs, stdio)
}
