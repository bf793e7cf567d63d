package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/synaptic-graph/synaptic/core/extract"
	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/core/graph"
	"github.com/synaptic-graph/synaptic/core/tools"
	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/plugins/rulehost"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Sections of an example fixture with a meaning; every other section is a
// file of the example repository.
const (
	sectionExpect  = "expect"     // RULE-ID [location substring]: must be found
	sectionSilent  = "silent"     // RULE-ID [location substring]: must not be found
	sectionInput   = "input.json" // a whole abi.RuleInput instead of files
	sectionQuery   = "query.sql"  // advise mode: the candidate query
	sectionProfile = "profile"    // readiness profile
)

func runRulesTest(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "rules test", "[--plugins DIRS] [PACK_DIR ...]", `
Run every example of each pack (default: the pack in the current
directory) through its built WebAssembly module and report pass/fail per
rule. A pack folder with Go source is built first (GOOS=wasip1, needs go
on PATH); a folder holding only plugin.toml and the .wasm runs as is.

An example is examples/<case>.txtar: free text, then files of a small
repository (extracted with the built-in extractors, so .sql files become
the schema), or an input.json section holding a whole rule input, then

  -- expect --
  SEC-RLS-001 db/schema.sql:3     rule id and, optionally, a location substring
  -- silent --
  SEC-RLS-002                     must not be reported

A query.sql section switches a sql pack to advise mode. Every declared rule
needs at least one expect and one silent line across the examples.`)
	pluginDir := fs.String("plugins", envOr("SYNAPTIC_PLUGINS", ""), "extra plugin directories (for extractors)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		pos = []string{"."}
	}
	loaded, err := loadPlugins(ctx, "", *pluginDir, repoPluginsWanted(false), io.Discard)
	if err != nil {
		return err
	}
	defer loaded.close(ctx)
	failed := 0
	for _, dir := range pos {
		if err := testPack(ctx, dir, loaded, stdio.Out); err != nil {
			fmt.Fprintf(stdio.Out, "FAIL %s: %v\n", dir, err)
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d pack(s) failed", failed, len(pos))
	}
	return nil
}

// buildPack compiles a source pack into a temporary folder next to a copy
// of its plugin.toml and returns that folder's manifest.
func buildPack(m *manifest.Manifest, tmp string) (*manifest.Manifest, error) {
	gofiles, _ := filepath.Glob(filepath.Join(m.Dir, "*.go"))
	if len(gofiles) == 0 {
		return m, nil
	}
	out := filepath.Join(tmp, "module")
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if err := goBuildWasm(m.Dir, filepath.Join(out, filepath.FromSlash(m.Module))); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(m.Path)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, manifest.FileName), data, 0o644); err != nil {
		return nil, err
	}
	return manifest.Load(out)
}

// ruleCount tallies one rule's checked lines.
type ruleCount struct{ pos, neg, fail int }

func testPack(ctx context.Context, dir string, loaded *loadedPlugins, out io.Writer) error {
	src, err := manifest.Load(dir)
	if err != nil {
		return err
	}
	if src.Kind != manifest.KindRules {
		return fmt.Errorf("%s is a %s plugin, not a rule pack (kind = \"rules\")", src.Path, src.Kind)
	}
	tmp, err := os.MkdirTemp("", "synaptic-rules-test-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	m, err := buildPack(src, tmp)
	if err != nil {
		return err
	}
	h, err := host.New(ctx, host.Options{MaxOutputBytes: maxRuleOutput})
	if err != nil {
		return err
	}
	defer h.Close(ctx)
	rt := rulehost.FromManifests(h, m)
	exDir := src.Rules.ExamplesDir(src.Dir)
	cases, _ := filepath.Glob(filepath.Join(exDir, "*.txtar"))
	if len(cases) == 0 {
		return fmt.Errorf("no examples in %s; add <case>.txtar fixtures (see synaptic rules test --help)", exDir)
	}
	counts := map[string]*ruleCount{}
	for _, r := range src.Rules.Rules {
		counts[r.ID] = &ruleCount{}
	}
	failures := 0
	for _, c := range cases {
		problems := runExample(ctx, c, src, rt, loaded, filepath.Join(tmp, "ex"), counts)
		name := filepath.Base(c)
		if len(problems) == 0 {
			fmt.Fprintf(out, "ok   %s/%s\n", src.Name, name)
			continue
		}
		failures++
		fmt.Fprintf(out, "FAIL %s/%s\n", src.Name, name)
		for _, p := range problems {
			fmt.Fprintf(out, "     %s\n", p)
		}
	}
	for _, r := range src.Rules.Rules {
		c := counts[r.ID]
		status := "PASS"
		switch {
		case c.fail > 0:
			status = "FAIL"
		case c.pos == 0 || c.neg == 0:
			status = "FAIL"
			failures++
		}
		note := ""
		if c.pos == 0 {
			note += "; no positive example (add an expect line)"
		}
		if c.neg == 0 {
			note += "; no negative example (add a silent line)"
		}
		fmt.Fprintf(out, "%s %-24s %d positive, %d negative, %d failed%s\n", status, r.ID, c.pos, c.neg, c.fail, note)
	}
	if failures > 0 {
		return fmt.Errorf("%d problem(s)", failures)
	}
	fmt.Fprintf(out, "ok   pack %s: %d rules, %d examples\n", src.Name, len(src.Rules.Rules), len(cases))
	return nil
}

// check is one expect or silent line.
type check struct {
	rule, loc string
	want      bool
}

func parseChecks(data []byte, want bool) []check {
	var out []check
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		c := check{rule: f[0], want: want}
		if len(f) > 1 {
			c.loc = f[1]
		}
		out = append(out, c)
	}
	return out
}

// runExample runs one fixture and returns what went wrong.
func runExample(ctx context.Context, file string, m *manifest.Manifest, rt *rulehost.Runtime, loaded *loadedPlugins, work string, counts map[string]*ruleCount) []string {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		return []string{err.Error()}
	}
	var checks []check
	var input, query, profile []byte
	var files []txtar.File
	for _, f := range ar.Files {
		switch f.Name {
		case sectionExpect:
			checks = append(checks, parseChecks(f.Data, true)...)
		case sectionSilent:
			checks = append(checks, parseChecks(f.Data, false)...)
		case sectionInput:
			input = f.Data
		case sectionQuery:
			query = f.Data
		case sectionProfile:
			profile = bytes.TrimSpace(f.Data)
		default:
			files = append(files, f)
		}
	}
	if len(checks) == 0 {
		return []string{"no expect or silent lines"}
	}
	var problems []string
	for _, c := range checks {
		if _, ok := counts[c.rule]; !ok {
			problems = append(problems, fmt.Sprintf("%s is not a rule of %s; declare it as [[rules.rule]] or fix the example", c.rule, m.Path))
		}
	}
	target := findings.Target(m.Rules.Targets[0])
	var got []findings.Finding
	var packs []findings.PackRun
	if input != nil {
		var in abi.RuleInput
		if err := json.Unmarshal(input, &in); err != nil {
			return append(problems, "input.json: "+err.Error())
		}
		o := rt.RunRules(ctx, target, &in)
		got, packs = findings.Rank(o.Findings), o.Packs
	} else {
		got, packs, err = exampleRun(ctx, files, work, target, query, string(profile), rt, loaded)
		if err != nil {
			return append(problems, err.Error())
		}
	}
	for _, p := range packs {
		if p.Error != "" {
			problems = append(problems, "pack error: "+p.Error)
		}
	}
	for _, c := range checks {
		hit := slices.ContainsFunc(got, func(f findings.Finding) bool {
			return f.RuleID == c.rule && strings.Contains(f.Location, c.loc)
		})
		n := counts[c.rule]
		if n == nil {
			continue
		}
		switch {
		case hit == c.want && c.want:
			n.pos++
		case hit == c.want:
			n.neg++
		case c.want:
			n.fail++
			problems = append(problems, fmt.Sprintf("expected %s %s, not found; found: %s", c.rule, c.loc, describeFindings(got)))
		default:
			n.fail++
			problems = append(problems, fmt.Sprintf("%s %s must stay silent but was reported: %s", c.rule, c.loc, describeFindings(filterRule(got, c.rule))))
		}
	}
	return problems
}

func filterRule(fs []findings.Finding, id string) []findings.Finding {
	var out []findings.Finding
	for _, f := range fs {
		if f.RuleID == id {
			out = append(out, f)
		}
	}
	return out
}

func describeFindings(fs []findings.Finding) string {
	if len(fs) == 0 {
		return "nothing"
	}
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.RuleID+"@"+f.Location)
	}
	return strings.Join(parts, ", ")
}

// exampleRun extracts the example's files into a fresh repository and
// runs the audit's tool on it, exactly as a user's call would.
func exampleRun(ctx context.Context, files []txtar.File, work string, target findings.Target, query []byte, profile string, rt *rulehost.Runtime, loaded *loadedPlugins) ([]findings.Finding, []findings.PackRun, error) {
	os.RemoveAll(work)
	for _, f := range files {
		if !filepath.IsLocal(filepath.FromSlash(f.Name)) {
			return nil, nil, fmt.Errorf("section %q is not a path inside the example repository", f.Name)
		}
		p := filepath.Join(work, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, nil, err
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return nil, nil, err
		}
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, nil, err
	}
	outDir := filepath.Join(work, "synaptic-out")
	if _, err := extract.Run(ctx, extract.Options{Root: work, OutDir: outDir, Workers: 1, Languages: loaded.languages, Route: loaded.route, Full: true}); err != nil {
		return nil, nil, fmt.Errorf("extract the example: %w", err)
	}
	g, err := graph.ReadFile(filepath.Join(outDir, "graph.json"))
	if err != nil {
		return nil, nil, err
	}
	cat := tools.New(tools.Options{SourceRoot: work, Rules: rt, GraphPath: filepath.Join(outDir, "graph.json")})
	cat.SetGraph(g)
	args := map[string]any{"verbose": true}
	if query != nil {
		args = map[string]any{"query": string(query)}
	}
	if profile != "" {
		args["profile"] = profile
	}
	raw, _ := json.Marshal(args)
	res, err := cat.Call(ctx, targetTool(target, query != nil), raw)
	if err != nil {
		return nil, nil, err
	}
	if res.IsError {
		return nil, nil, errors.New(res.Text)
	}
	switch r := res.Structured.(type) {
	case *findings.AuditReport:
		return r.Findings, r.Packs, nil
	case *findings.ReadinessReport:
		return r.Findings, r.Packs, nil
	}
	return nil, nil, fmt.Errorf("unexpected result %T", res.Structured)
}

// goBuildWasm builds the pack source in dir into the wasm module out.
func goBuildWasm(dir, out string) error {
	out = absDir(out)
	build := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-ldflags=-s -w", "-o", out, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := build.CombinedOutput(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("building the pack needs the go command on PATH (or build it elsewhere and keep plugin.toml and %s in the folder)", filepath.Base(out))
		}
		return fmt.Errorf("go build in %s: %v\n%s", dir, err, b)
	}
	return nil
}
