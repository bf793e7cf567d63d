package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// lazyRules opens the rule runtime on the first audit, so serve and call
// start no plugin host unless an audit tool is used. Discovery problems
// are not printed: serve's stderr carries one line only.
type lazyRules struct {
	repoRoot, flagDirs string
	once               sync.Once
	rt                 *ruleRuntime
	err                error
}

func newLazyRules(repoRoot, flagDirs string) *lazyRules {
	return &lazyRules{repoRoot: repoRoot, flagDirs: flagDirs}
}

// RunRules implements findings.Runner.
func (l *lazyRules) RunRules(ctx context.Context, t findings.Target, in *abi.RuleInput) findings.Outcome {
	l.once.Do(func() { l.rt, l.err = openRules(context.Background(), l.repoRoot, l.flagDirs, io.Discard) })
	if l.err != nil {
		return findings.Outcome{Packs: []findings.PackRun{{Name: "(runtime)", Error: l.err.Error()}}}
	}
	return l.rt.RunRules(ctx, t, in)
}

func runAudit(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "audit", "sql|readiness [flags]", `
Run the SQL audit (audit_sql) or the readiness audit (readiness_audit) on
a graph and write <graph dir>/<audit>/findings.json (the full report) and
audit.md next to it, then print the tool's text.

  synaptic audit sql --graph synaptic-out/graph.json
  synaptic audit readiness --profile generic --verbose`)
	graphPath := fs.String("graph", filepath.Join("synaptic-out", "graph.json"), "graph.json to audit")
	sourceRoot := fs.String("source-root", "", "the repository (default: the directory above synaptic-out/)")
	pluginDir := fs.String("plugins", envOr("SYNAPTIC_PLUGINS", ""), "extra plugin directories (rule packs)")
	severity := fs.String("severity", "", "only findings at least this severe (critical|high|medium|low|info)")
	limit := fs.Int("limit", 20, "findings printed before a +N more summary")
	verbose := fs.Bool("verbose", false, "print every finding with detail, fix and impact")
	profile := fs.String("profile", "", "readiness profile (auto|generic)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || (pos[0] != string(findings.TargetSQL) && pos[0] != string(findings.TargetReadiness)) {
		return usageError{"audit takes one of: sql, readiness"}
	}
	which := pos[0]
	root := *sourceRoot
	if root == "" {
		root = defaultSourceRoot(*graphPath)
	}
	g, _, err := loadGraphFile(*graphPath, "")
	if err != nil {
		return err
	}
	rt, err := openRules(ctx, root, *pluginDir, stdio.Err)
	if err != nil {
		return err
	}
	defer rt.close(ctx)
	c := tools.New(tools.Options{SourceRoot: root, GraphPath: *graphPath, Rules: rt})
	c.SetGraph(g)
	a := map[string]any{"limit": *limit, "verbose": *verbose}
	if *severity != "" {
		a["severity"] = *severity
	}
	tool := "audit_sql"
	if which == string(findings.TargetReadiness) {
		tool = "readiness_audit"
		if *profile != "" {
			a["profile"] = *profile
		}
	}
	raw, _ := json.Marshal(a)
	res, err := c.Call(ctx, tool, raw)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s", res.Text)
	}
	fmt.Fprint(stdio.Out, res.Text)
	dir := filepath.Join(filepath.Dir(*graphPath), which)
	if err := writeAudit(dir, which, res.Structured); err != nil {
		return err
	}
	fmt.Fprintf(stdio.Out, "wrote %s and %s\n", filepath.Join(dir, "findings.json"), filepath.Join(dir, "audit.md"))
	return nil
}

func writeAudit(dir, which string, report any) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return err
	}
	var md string
	switch r := report.(type) {
	case *findings.AuditReport:
		md = findings.Markdown("SQL audit", r.Summary, r.Findings, r.Packs, nil)
	case *findings.ReadinessReport:
		md = findings.Markdown("Readiness audit", r.Summary, r.Findings, r.Packs, r.Skipped)
	}
	if err := writeFileAtomic(filepath.Join(dir, "findings.json"), append(data, '\n')); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "audit.md"), []byte(md))
}

func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
