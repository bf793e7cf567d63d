package cli

import (
	"context"
	"path/filepath"
)

// changeFlags are the flags predict and affected-tests share: they are the
// tools' arguments, passed through the same catalog as serve.
type changeFlags struct {
	graph, base, sourceRoot string
	depth                   int
	asJSON                  bool
}

func runChangeTool(ctx context.Context, tool, synopsis, about string, args []string, stdio IO) error {
	fs := newFlags(stdio, tool, synopsis, about)
	var f changeFlags
	fs.StringVar(&f.graph, "graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to forecast on")
	fs.StringVar(&f.base, "base", "", "base branch or revision to diff against (default: detected: origin/HEAD, main/master, first commit)")
	fs.StringVar(&f.sourceRoot, "source-root", "", "the git work tree to diff (default: the directory above synaptic-out/)")
	fs.IntVar(&f.depth, "depth", 3, "reverse-impact hop bound (1..16)")
	fs.BoolVar(&f.asJSON, "json", false, "print the structuredContent as JSON instead of the text")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(files) > 0 && f.base != "" {
		return usageError{"pass FILES or --base, not both: FILES are forecast as given, --base diffs the working tree"}
	}
	c, err := openCatalog(f.graph, f.sourceRoot, false)
	if err != nil {
		return err
	}
	a := map[string]any{"depth": f.depth}
	if len(files) > 0 {
		list := make([]any, len(files))
		for i, p := range files {
			list[i] = filepath.ToSlash(p)
		}
		a["files"] = list
	}
	if f.base != "" {
		a["base"] = f.base
	}
	name := map[string]string{"predict": "predict_impact", "affected-tests": "affected_tests"}[tool]
	return printResult(ctx, c, name, a, f.asJSON, stdio)
}

func runPredict(ctx context.Context, args []string, stdio IO) error {
	return runChangeTool(ctx, "predict", "[flags] [FILES...]", `
Forecast a change (the predict_impact tool): the changed nodes, the
blast radius, the public APIs and tests at risk, a low/medium/high risk
score with its drivers, and a verify checklist. Without FILES, the change
is the working tree's diff (committed on this branch, uncommitted and
untracked) against --base; with FILES, every node those files define.

  synaptic predict
  synaptic predict --base origin/main --depth 5
  synaptic predict core/graph/index.go --json`, args, stdio)
}

func runAffectedTests(ctx context.Context, args []string, stdio IO) error {
	return runChangeTool(ctx, "affected-tests", "[flags] [FILES...]", `
List the tests that reach a change (the affected_tests tool): one per
line with hop count, relation, label and file. Without FILES, the change
is the working tree's diff against --base; with FILES, those files.

  synaptic affected-tests
  synaptic affected-tests --json pkg/server.go`, args, stdio)
}
