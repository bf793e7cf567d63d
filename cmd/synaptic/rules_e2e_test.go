package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runEnv runs the binary with extra environment variables.
func runEnv(t *testing.T, dir string, env []string, wantFail bool, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "SYNAPTIC_PLUGINS="), env...)
	out, err := cmd.CombinedOutput()
	if (err != nil) != wantFail {
		t.Fatalf("synaptic %s: err=%v, want failure=%v\n%s", strings.Join(args, " "), err, wantFail, out)
	}
	return string(out)
}

// TestShippedRulePacks runs every example of the packs we ship through
// their built modules: each rule needs a positive and a negative example.
func TestShippedRulePacks(t *testing.T) {
	needBin(t)
	out := run(t, repoRoot(), false, "rules", "test", "rules/sql", "rules/readiness")
	for _, want := range []string{"ok   pack sql-rules: 22 rules", "ok   pack readiness-rules: 6 rules", "PASS SEC-RLS-001", "PASS DES-INS-001", "PASS READY-SENTINEL-RETURN"} {
		if !strings.Contains(out, want) {
			t.Errorf("rules test output lacks %q:\n%s", want, out)
		}
	}
}

// sqlRepo is a repository whose schema the sql pack has things to say about.
var sqlRepo = map[string]string{
	"db/001.sql": "CREATE TABLE orders (\n  id bigint PRIMARY KEY,\n  tenant_id uuid NOT NULL\n);\nGRANT ALL ON orders TO PUBLIC;\n",
}

type auditJSON struct {
	Findings []struct {
		RuleID   string `json:"rule_id"`
		Location string `json:"location"`
	} `json:"findings"`
	Packs []struct {
		Name  string `json:"name"`
		Error string `json:"error"`
	} `json:"packs"`
	Partial bool `json:"partial"`
}

func hasFinding(a auditJSON, rule, loc string) bool {
	for _, f := range a.Findings {
		if f.RuleID == rule && f.Location == loc {
			return true
		}
	}
	return false
}

// TestRulesNewDropIn scaffolds a pack with rules new, checks that rules
// test passes offline as generated, builds it, and sees its finding
// through audit_sql on the already-built binary; synaptic audit writes the
// report files.
func TestRulesNewDropIn(t *testing.T) {
	needBin(t)
	work := t.TempDir()
	run(t, work, false, "rules", "new", "team-rules")
	offline := []string{"GOPROXY=off", "GOFLAGS="}
	out := runEnv(t, work, offline, false, "rules", "test", "team-rules")
	if !strings.Contains(out, "PASS TEAM-RULES-001") {
		t.Fatalf("rules test on the scaffold:\n%s", out)
	}
	runEnv(t, work, offline, false, "rules", "build", "team-rules")
	repo := filepath.Join(work, "repo")
	write(t, repo, sqlRepo)
	run(t, work, false, "extract", "--quiet", repo)
	graph := filepath.Join(repo, "synaptic-out", "graph.json")
	plug := []string{"SYNAPTIC_PLUGINS=" + filepath.Join(work, "team-rules")}
	var a auditJSON
	if err := json.Unmarshal([]byte(runEnv(t, work, plug, false, "call", "--json", "--graph", graph, "audit_sql")), &a); err != nil {
		t.Fatal(err)
	}
	for _, want := range [][2]string{{"TEAM-RULES-001", "db/001.sql:1"}, {"SEC-RLS-001", "db/001.sql:1"}, {"SEC-GRANT-001", "db/001.sql:5"}} {
		if !hasFinding(a, want[0], want[1]) {
			t.Errorf("audit_sql lacks %s @ %s: %+v", want[0], want[1], a)
		}
	}
	text := runEnv(t, work, plug, false, "audit", "sql", "--graph", graph)
	if !strings.Contains(text, "[low] TEAM-RULES-001 @ db/001.sql:1 (0.90)") {
		t.Errorf("audit sql text:\n%s", text)
	}
	var file auditJSON
	if err := json.Unmarshal(read(t, filepath.Join(repo, "synaptic-out", "sql", "findings.json")), &file); err != nil || !hasFinding(file, "TEAM-RULES-001", "db/001.sql:1") {
		t.Errorf("findings.json: %v %+v", err, file)
	}
	if md := string(read(t, filepath.Join(repo, "synaptic-out", "sql", "audit.md"))); !strings.Contains(md, "TEAM-RULES-001") {
		t.Errorf("audit.md:\n%s", md)
	}
}

// hostile are rule packs that misbehave, each in its own way.
var hostile = map[string]string{
	"loop":  "for {\n\t}",
	"trap":  "var f func(int) int\n\tf = func(n int) int { return f(n+1) + 1 }\n\tf(0)\n\treturn nil",
	"bomb":  "var keep [][]byte\n\tfor {\n\t\tkeep = append(keep, make([]byte, 1<<20))\n\t}",
	"liar":  "r.Add(abi.Finding{RuleID: \"NOT-DECLARED-001\", Location: \"x\", Confidence: 1})\n\treturn nil",
	"flood": "big := strings.Repeat(\"x\", 8<<20)\n\tfor i := 0; i < 3; i++ {\n\t\tr.Add(abi.Finding{RuleID: RULE, Location: \"x\", Detail: big, Confidence: 1})\n\t}\n\treturn nil",
}

// TestHostileRulePacks: packs that loop, trap, exhaust memory, flood the
// output or report undeclared rule ids are reported and skipped, and the
// shipped sql pack's findings still come back.
func TestHostileRulePacks(t *testing.T) {
	needBin(t)
	work := t.TempDir()
	var dirs []string
	for name, body := range hostile {
		dir := filepath.Join(work, name)
		run(t, work, false, "rules", "new", name)
		id := strings.ToUpper(name) + "-001"
		src := "package main\n\nimport (\n\t\"strings\"\n\n\t\"github.com/synaptic-graph/synaptic/sdk/abi\"\n\t\"github.com/synaptic-graph/synaptic/sdk/rules\"\n)\n\n" +
			"var _ = strings.Repeat\n\nconst RULE = \"" + id + "\"\n\ntype pack struct{}\n\nfunc (pack) Run(in *abi.RuleInput, r *rules.Report) error {\n\t" + body + "\n}\n\n" +
			"func init() { rules.Register(pack{}) }\n\nfunc main() {}\n"
		write(t, dir, map[string]string{"main.go": src})
		limits := "timeout = \"1s\"\nmemory_pages = 512\n"
		if name == "flood" {
			// Encoding 24 MB of JSON in wasm takes time and memory, and
			// this pack must get as far as the output limit.
			limits = "timeout = \"60s\"\nmemory_pages = 8192\n"
		}
		toml := string(read(t, filepath.Join(dir, "plugin.toml"))) + "\n[limits]\n" + limits
		write(t, dir, map[string]string{"plugin.toml": toml})
		runEnv(t, work, []string{"GOPROXY=off"}, false, "rules", "build", name)
		dirs = append(dirs, dir)
	}
	repo := filepath.Join(work, "repo")
	write(t, repo, sqlRepo)
	run(t, work, false, "extract", "--quiet", repo)
	env := []string{"SYNAPTIC_PLUGINS=" + strings.Join(dirs, string(os.PathListSeparator))}
	out := runEnv(t, work, env, false, "call", "--json", "--graph", filepath.Join(repo, "synaptic-out", "graph.json"), "audit_sql")
	var a auditJSON
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !hasFinding(a, "SEC-RLS-001", "db/001.sql:1") || !a.Partial {
		t.Errorf("sql pack findings missing or partial not set: %+v", a)
	}
	errs := map[string]string{}
	for _, p := range a.Packs {
		errs[p.Name] = p.Error
	}
	for name, want := range map[string]string{"loop": "timeout", "trap": "trap", "bomb": "memory", "liar": "undeclared rule id", "flood": "exceeds the host limit"} {
		if !strings.Contains(errs[name], want) {
			t.Errorf("pack %s: error %q, want it to mention %q", name, errs[name], want)
		}
	}
	if errs["sql-rules"] != "" {
		t.Errorf("sql pack failed: %s", errs["sql-rules"])
	}
}
