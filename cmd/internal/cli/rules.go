package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/rulehost"
)

// maxRuleOutput caps one pack's answer: findings are small, and a pack
// that floods is cut off instead of filling the server's memory.
const maxRuleOutput = 16 << 20

// ruleRuntime is the rule packs a command can run, with the host they run in.
type ruleRuntime struct {
	*rulehost.Runtime
	host *host.Host
}

func (r *ruleRuntime) close(ctx context.Context) {
	if r != nil && r.host != nil {
		r.host.Close(ctx)
	}
}

// openRules discovers the rule packs for repoRoot (built-in, then
// $SYNAPTIC_PLUGINS, --plugins, repoRoot/.synaptic/plugins) and returns
// their runtime; modules compile on first use. Broken folders go to warn.
func openRules(ctx context.Context, repoRoot, flagDirs string, warn io.Writer) (*ruleRuntime, error) {
	reg := discoverPlugins(repoRoot, flagDirs, repoPluginsWanted(false))
	for _, p := range reg.Problems {
		fmt.Fprintf(warn, "synaptic: skipping plugin: %v\n", p)
	}
	h, err := host.New(ctx, host.Options{MaxOutputBytes: maxRuleOutput})
	if err != nil {
		return nil, fmt.Errorf("start plugin host: %w", err)
	}
	return &ruleRuntime{Runtime: rulehost.New(h, reg), host: h}, nil
}

func runRules(ctx context.Context, args []string, stdio IO) error {
	sub := map[string]func(context.Context, []string, IO) error{
		"list": runRulesList, "test": runRulesTest, "new": runRulesNew, "build": runRulesBuild,
	}
	if len(args) > 0 {
		if f, ok := sub[args[0]]; ok {
			return f(ctx, args[1:], stdio)
		}
	}
	fs := newFlags(stdio, "rules", "list|test|new|build ...", `
Rule packs: sandboxed WebAssembly modules declared by a plugin.toml with
kind = "rules", run by audit_sql, advise_sql and readiness_audit.

  synaptic rules list [REPO]          the loaded packs and their rules
  synaptic rules test [PACK_DIR ...]  run every example of a pack (default: .)
  synaptic rules new NAME             scaffold a pack that passes rules test
  synaptic rules build [PACK_DIR]     compile a source pack's module into its folder

See docs/rule-packs.md.`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError{"rules needs a subcommand: list, test, new or build"}
	}
	return usageError{fmt.Sprintf("unknown rules subcommand %q: use list, test, new or build", fs.Arg(0))}
}

func runRulesList(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "rules list", "[--plugins DIRS] [REPO]", `
List the rule packs synaptic would run for REPO (default: the current
directory): name, version, audits joined, origin and folder, then each
declared rule with its severity, category and title.`)
	pluginDir := fs.String("plugins", envOr("SYNAPTIC_PLUGINS", ""), "extra plugin directories")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	repo := "."
	if len(pos) > 0 {
		repo = pos[0]
	}
	rt, err := openRules(ctx, repo, *pluginDir, stdio.Err)
	if err != nil {
		return err
	}
	defer rt.close(ctx)
	if len(rt.Packs()) == 0 {
		fmt.Fprintln(stdio.Out, "no rule packs found; build them with 'make plugins' or pass --plugins DIR")
		return nil
	}
	w := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	for _, p := range rt.Packs() {
		m := p.Manifest
		fmt.Fprintf(w, "%s\t%s\taudits: %s\t%s\t%s\n", m.Name, m.Version, strings.Join(m.Rules.Targets, ","), p.Origin, m.Dir)
		for _, r := range m.Rules.Rules {
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t\n", r.ID, r.Severity, r.Category, r.Title)
		}
	}
	return w.Flush()
}

// targetTool is the tool that runs a pack's audit in rules test.
func targetTool(t findings.Target, advise bool) string {
	switch {
	case t == findings.TargetReadiness:
		return "readiness_audit"
	case advise:
		return "advise_sql"
	}
	return "audit_sql"
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func absDir(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

func runRulesBuild(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "rules build", "[PACK_DIR]", `
Compile the Go source of a rule pack (default: the current directory) into
the module its plugin.toml names, inside the pack folder (GOOS=wasip1,
-buildmode=c-shared; needs go on PATH). The folder then loads from
--plugins, $SYNAPTIC_PLUGINS or <repo>/.synaptic/plugins.`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	dir := "."
	switch len(pos) {
	case 0:
	case 1:
		dir = pos[0]
	default:
		return usageError{"rules build takes one PACK_DIR"}
	}
	m, err := manifest.Load(dir)
	if err != nil {
		return err
	}
	if m.Kind != manifest.KindRules {
		return fmt.Errorf("%s is a %s plugin, not a rule pack (kind = \"rules\")", m.Path, m.Kind)
	}
	out := filepath.Join(m.Dir, filepath.FromSlash(m.Module))
	if err := goBuildWasm(m.Dir, out); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "built %s\n", out)
	return nil
}
