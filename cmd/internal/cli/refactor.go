package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/tools"
)

func runRefactor(ctx context.Context, args []string, stdio IO) error {
	usage := `Usage: synaptic refactor rename|verify [flags]

Plan-only refactors: nothing here edits source.

  synaptic refactor rename NAME TO [--file F] [--id ID] [--out plan.json]
      print the rename plan (the plan_rename tool) and write it as JSON
  synaptic refactor verify --from plan.json
      after applying the plan: re-extract, then check that every planned
      site names the new symbol and nothing resolves to the old one
`
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdio.Out, usage)
		if len(args) == 0 {
			return usageError{"refactor needs rename or verify"}
		}
		return flag.ErrHelp
	}
	switch args[0] {
	case "rename":
		return runRefactorRename(ctx, args[1:], stdio)
	case "verify":
		return runRefactorVerify(ctx, args[1:], stdio)
	}
	return usageError{fmt.Sprintf("unknown refactor %q (rename or verify)", args[0])}
}

func runRefactorRename(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "refactor rename", "[flags] NAME TO", `
Plan renaming NAME to TO (the plan_rename tool): exact edit sites and
review sites with confidences. Never edits; --out writes the plan for
'synaptic refactor verify --from'.`)
	graphPath := fs.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to plan on")
	file := fs.String("file", "", "disambiguate by a file-path substring")
	id := fs.String("id", "", "disambiguate by node id")
	out := fs.String("out", "", "write the plan as JSON to this file")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError{"refactor rename takes NAME and TO"}
	}
	c, err := openCatalog(*graphPath, "", false)
	if err != nil {
		return err
	}
	a := map[string]any{"name": pos[0], "to": pos[1], "verbose": true}
	if *file != "" {
		a["file"] = *file
	}
	if *id != "" {
		a["id"] = *id
	}
	if err := printResult(ctx, c, "plan_rename", a, false, stdio); err != nil {
		return err
	}
	if *out == "" {
		return nil
	}
	p, err := c.RenamePlan(pos[0], pos[1], *id, *file)
	if err != nil {
		return err
	}
	b, _ := json.MarshalIndent(p, "", "  ")
	if err := os.WriteFile(*out, append(b, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "wrote %s\n", *out)
	return nil
}

func runRefactorVerify(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "refactor verify", "--from PLAN [flags]", `
After applying a rename plan: re-extract the repository (incrementally)
and check that every planned edit site now names the new symbol, that the
old symbol is gone from its file, and that its dependents link to the new
one. Exits 1 when anything is left.`)
	from := fs.String("from", "", "the plan JSON written by 'synaptic refactor rename --out'")
	graphPath := fs.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to refresh")
	pluginDir := fs.String("plugins", envOr("SYNAPTIC_PLUGINS", ""), "extra plugin directory (also $SYNAPTIC_PLUGINS)")
	if _, err := parseInterspersed(fs, args); err != nil {
		return err
	}
	if *from == "" {
		return usageError{"refactor verify needs --from PLAN"}
	}
	raw, err := os.ReadFile(*from)
	if err != nil {
		return err
	}
	var p tools.RenamePlan
	if err := json.Unmarshal(raw, &p); err != nil || p.Old == "" || p.New == "" || p.File == "" {
		return fmt.Errorf("%s is not a rename plan (write one with synaptic refactor rename --out): %v", *from, err)
	}
	root := defaultSourceRoot(*graphPath)
	loaded, err := loadPlugins(ctx, root, *pluginDir, repoPluginsWanted(false), stdio.Err)
	if err != nil {
		return err
	}
	defer loaded.close(ctx)
	if _, err := extract.Run(ctx, extract.Options{Root: root, OutDir: filepath.Dir(*graphPath), Languages: loaded.languages, Route: loaded.route}); err != nil {
		return fmt.Errorf("re-extracting %s: %w", root, err)
	}
	g, _, err := loadGraphFile(*graphPath, "")
	if err != nil {
		return err
	}
	check := tools.VerifyRename(p, g, root)
	if check.OK() {
		fmt.Fprintf(stdio.Out, "Rename %s -> %s verified: %d sites name %s, %s is gone from %s, %d dependents link to %s.\n",
			p.Old, p.New, check.SitesChecked, p.New, p.Old, p.File, check.Dependents, p.New)
		return nil
	}
	fmt.Fprintf(stdio.Out, "Rename %s -> %s incomplete: %d problems\n", p.Old, p.New, len(check.Problems))
	for _, pr := range check.Problems {
		fmt.Fprintf(stdio.Out, "  %s\n", pr)
	}
	return errors.New("rename not verified")
}
