package cli

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/synaptic-graph/synaptic/sdk"
)

// sdkDir is where `rules new` puts the SDK copy the pack's go.mod points at.
const sdkDir = "synaptic-sdk"

var packNameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,63}$`)

func runRulesNew(ctx context.Context, args []string, stdio IO) error {
	fs := newFlags(stdio, "rules new", "NAME", `
Scaffold a rule pack in the folder NAME: plugin.toml declaring one rule,
main.go on the SDK, go.mod, one example, and a copy of the SDK source
(`+sdkDir+`/, pointed at by a replace directive) so the pack builds offline.
The scaffold passes as generated:

  synaptic rules new my-rules && synaptic rules test my-rules`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"rules new takes one NAME"}
	}
	dir := pos[0]
	name := filepath.Base(dir)
	if !packNameRE.MatchString(name) {
		return fmt.Errorf("pack name %q is not valid; use up to 64 lowercase letters, digits, \"-\", \"_\" or \".\"", name)
	}
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("%s already exists; pick a new folder name", dir)
	}
	files, err := scaffold(name)
	if err != nil {
		return err
	}
	for rel, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdio.Out, "created rule pack %s in %s\n  next: synaptic rules test %s\n  then drop the folder into <repo>/.synaptic/plugins/ (after a build) or pass --plugins; see docs/rule-packs.md\n", name, dir, dir)
	return nil
}

// ruleID is the scaffold's rule id: the pack name upper-cased.
func ruleID(name string) string {
	id := strings.ToUpper(regexp.MustCompile(`[^a-zA-Z0-9]+`).ReplaceAllString(name, "-"))
	id = strings.Trim(id, "-")
	if id == "" || id[0] < 'A' || id[0] > 'Z' {
		id = "R-" + id
	}
	if len(id) > 56 {
		id = id[:56]
	}
	return id + "-001"
}

func scaffold(name string) (map[string][]byte, error) {
	id := ruleID(name)
	files := map[string][]byte{
		"plugin.toml": []byte(fmt.Sprintf(`name = %q
version = "0.1.0"
kind = "rules"
abi = 1
module = "%s.wasm"
description = "Tables without a created_at column."

[rules]
targets = ["sql"]
examples = "examples"
doc = "Built with 'synaptic rules test .'; see docs/rule-packs.md."

[[rules.rule]]
id = %q
severity = "low"
category = "design"
title = "Table without a created_at column"
doc = "Rows of a table without created_at cannot be ordered or aged."
`, name, name, id)),
		"go.mod": []byte(fmt.Sprintf(`module %s

go 1.26

require github.com/synaptic-graph/synaptic v0.0.0

// The SDK source ships in %s/, so the pack builds offline.
replace github.com/synaptic-graph/synaptic => ./%s
`, modulePath(name), sdkDir, sdkDir)),
		"main.go": []byte(fmt.Sprintf(`// Command %s is a synaptic rule pack: it flags tables without a
// created_at column. Edit Run to check your own schema conventions.
package main

import (
	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/rules"
)

type pack struct{}

// Run reports one finding per table that lacks created_at. in.Schema holds
// every table, column, index, view, policy, grant and statement of the
// graph (see sdk/abi/rules.go).
func (pack) Run(in *abi.RuleInput, r *rules.Report) error {
	if in.Mode != abi.ModeAudit {
		return nil // advise mode: nothing to say about one query
	}
	for _, t := range in.Schema.Tables {
		if hasColumn(t, "created_at") {
			continue
		}
		r.Add(abi.Finding{
			RuleID:      %q,
			Severity:    abi.SeverityLow,
			Category:    "design",
			Location:    t.Location,
			NodeIDs:     []string{t.NodeID},
			Title:       "Table " + t.Name + " has no created_at column",
			Detail:      "Rows cannot be ordered by age or expired without a creation time.",
			Remediation: "ALTER TABLE " + t.Name + " ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();",
			Confidence:  0.9,
		})
	}
	return nil
}

func hasColumn(t abi.SQLTable, name string) bool {
	for _, c := range t.Columns {
		if c.Name == name {
			return true
		}
	}
	return false
}

func init() { rules.Register(pack{}) }

func main() {}
`, name, id)),
		"examples/basic.txtar": []byte(fmt.Sprintf(`A table without created_at is reported at its CREATE TABLE; a table with
it stays silent.

-- db/schema.sql --
CREATE TABLE orders (id bigint PRIMARY KEY, total numeric);

CREATE TABLE users (
  id bigint PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- expect --
%s db/schema.sql:1
-- silent --
%s db/schema.sql:3
`, id, id)),
		sdkDir + "/go.mod": []byte("module github.com/synaptic-graph/synaptic\n\ngo 1.26\n"),
	}
	src, err := sdk.RulePackSource()
	if err != nil {
		return nil, err
	}
	for p, data := range src {
		files[path.Join(sdkDir, "sdk", p)] = data
	}
	return files, nil
}

// modulePath makes a Go module path of a pack name.
func modulePath(name string) string {
	return "example.com/synaptic-rules/" + strings.NewReplacer(".", "-").Replace(name)
}
