package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/synaptic-graph/synaptic/cmd/internal/clientconfig"
)

const installAbout = `
Register this synaptic binary as an MCP stdio server for REPO (default: the
current directory) in an assistant's config, serving
REPO/synaptic-out/graph.json. Paths written are absolute. Without --global
the entry "synaptic" goes in the repository's file; with --global an entry
"synaptic-<repo>" goes in your user file, which serves every repository.

  client    project file (default)          --global file
  claude    REPO/.mcp.json                  ~/.claude.json (mcpServers)
  codex     REPO/.codex/config.toml         ~/.codex/config.toml
  cursor    REPO/.cursor/mcp.json           ~/.cursor/mcp.json
  vscode    REPO/.vscode/mcp.json (servers) ~/.config/Code/User/mcp.json
  gemini    REPO/.gemini/settings.json      ~/.gemini/settings.json
  windsurf  (none)                          ~/.codeium/windsurf/mcp_config.json

Only the synaptic entry is touched: other servers, settings, comments and
formatting stay as they are. A changed file is first copied to
FILE.<UTC time>.bak. Running it again changes nothing.`

type installFlags struct {
	global, dryRun bool
	graph          string
}

func runInstall(_ context.Context, args []string, stdio IO) error {
	flags := newFlags(stdio, "install", "CLIENT [REPO] [--global] [--dry-run] [--graph PATH]", installAbout)
	var f installFlags
	flags.BoolVar(&f.global, "global", false, "write the user-level config (entry synaptic-<repo>) instead of the repository's")
	flags.BoolVar(&f.dryRun, "dry-run", false, "print what would change and write nothing")
	flags.StringVar(&f.graph, "graph", "", "graph.json to serve (default REPO/synaptic-out/graph.json)")
	client, repo, err := clientAndRepo(flags, args)
	if err != nil {
		return err
	}
	env, err := clientconfig.DefaultEnv()
	if err != nil {
		return err
	}
	exe, err := selfPath()
	if err != nil {
		return err
	}
	graphPath := f.graph
	if graphPath == "" {
		graphPath = filepath.Join(repo, "synaptic-out", "graph.json")
	}
	if graphPath, err = filepath.Abs(graphPath); err != nil {
		return err
	}
	srv := clientconfig.Server{Command: exe, Args: []string{"serve", "--graph", graphPath}}
	ch, err := clientconfig.PlanInstall(client, scopeOf(f.global), repo, env, srv)
	if err != nil {
		return err
	}
	if err := applyChange(ch, f.dryRun, stdio.Out); err != nil {
		return err
	}
	if _, err := os.Stat(graphPath); errors.Is(err, fs.ErrNotExist) {
		build := fmt.Sprintf("%s extract %s", exe, repo)
		if graphPath != filepath.Join(repo, "synaptic-out", "graph.json") {
			build += " --out " + filepath.Dir(graphPath)
		}
		fmt.Fprintf(stdio.Err, "synaptic install: warning: %s does not exist yet; the entry is written anyway. Build it with:\n  %s\n", graphPath, build)
	}
	if !f.dryRun && ch.Changes() {
		fmt.Fprintf(stdio.Out, "Restart %s to pick it up; check the setup with: synaptic doctor %s\n", client.Title, repo)
	}
	return nil
}

func runUninstall(_ context.Context, args []string, stdio IO) error {
	flags := newFlags(stdio, "uninstall", "CLIENT [REPO] [--global] [--dry-run]", `
Remove the synaptic entry that 'synaptic install' wrote for REPO (default:
the current directory): "synaptic" from the repository's file, or
"synaptic-<repo>" from your user file with --global. Everything else in
the file stays as it is; the file is first copied to FILE.<UTC time>.bak.`)
	var f installFlags
	flags.BoolVar(&f.global, "global", false, "edit the user-level config instead of the repository's")
	flags.BoolVar(&f.dryRun, "dry-run", false, "print what would change and write nothing")
	client, repo, err := clientAndRepo(flags, args)
	if err != nil {
		return err
	}
	env, err := clientconfig.DefaultEnv()
	if err != nil {
		return err
	}
	ch, err := clientconfig.PlanUninstall(client, scopeOf(f.global), repo, env)
	if err != nil {
		return err
	}
	return applyChange(ch, f.dryRun, stdio.Out)
}

// clientAndRepo parses CLIENT [REPO] and the flags around them.
func clientAndRepo(fs *flag.FlagSet, args []string) (clientconfig.Client, string, error) {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return clientconfig.Client{}, "", err
	}
	if len(pos) == 0 || len(pos) > 2 {
		return clientconfig.Client{}, "", usageError{"need CLIENT [REPO]; CLIENT is one of " + strings.Join(clientconfig.Names(), ", ")}
	}
	c, err := clientconfig.Lookup(pos[0])
	if err != nil {
		return clientconfig.Client{}, "", usageError{err.Error()}
	}
	repo := "."
	if len(pos) == 2 {
		repo = pos[1]
	}
	abs, err := filepath.Abs(repo)
	if err != nil {
		return clientconfig.Client{}, "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return clientconfig.Client{}, "", fmt.Errorf("%s is not a directory: pass the repository to register", abs)
	}
	return c, abs, nil
}

// selfPath is this binary's absolute path, symlinks resolved: what an
// assistant must start.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this binary's path: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Abs(exe)
}

func scopeOf(global bool) clientconfig.Scope {
	if global {
		return clientconfig.Global
	}
	return clientconfig.Project
}

// applyChange writes ch (unless dryRun) and says what it did.
func applyChange(ch *clientconfig.Change, dryRun bool, w io.Writer) error {
	where := fmt.Sprintf("%s (%s)", ch.Client.Name, ch.Scope)
	if !ch.Changes() {
		switch ch.Action {
		case clientconfig.Unchanged:
			fmt.Fprintf(w, "%s: %s already has %q with these settings; nothing changed\n", where, ch.File, ch.Name)
		default:
			fmt.Fprintf(w, "%s: %s has no %q entry; nothing changed\n", where, ch.File, ch.Name)
		}
		return nil
	}
	verb := map[clientconfig.Action]string{
		clientconfig.Created: "created " + ch.File + " with",
		clientconfig.Added:   "added to " + ch.File + ":",
		clientconfig.Updated: "updated in " + ch.File + ":",
		clientconfig.Removed: "removed from " + ch.File + ":",
	}[ch.Action]
	if dryRun {
		fmt.Fprintf(w, "%s: would have %s %q (--dry-run: nothing written)\n", where, verb, ch.Name)
		fmt.Fprintf(w, "--- %s as it would be:\n%s", ch.File, ch.After())
		return nil
	}
	if err := ch.Apply(time.Now()); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s %q\n", where, verb, ch.Name)
	if ch.Previous != nil && ch.Action == clientconfig.Updated {
		fmt.Fprintf(w, "  was:     %s\n", strings.Join(append([]string{ch.Previous.Command}, ch.Previous.Args...), " "))
	}
	if e := ch.Entry; e != nil {
		fmt.Fprintf(w, "  command: %s\n", strings.Join(append([]string{e.Command}, e.Args...), " "))
	}
	if ch.Deleted {
		fmt.Fprintf(w, "  %s held nothing else and was deleted\n", ch.File)
	}
	if ch.Backup != "" {
		fmt.Fprintf(w, "  backup:  %s\n", ch.Backup)
	}
	return nil
}
