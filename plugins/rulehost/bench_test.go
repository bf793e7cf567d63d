package rulehost

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/synaptic-graph/synaptic/core/findings"
	"github.com/synaptic-graph/synaptic/plugins/host"
	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// buildSQLPack compiles rules/sql into a temporary folder and returns a
// runtime of it alone.
func buildSQLPack(b *testing.B) *Runtime {
	b.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "rules", "sql")
	m, err := manifest.Load(src)
	if err != nil {
		b.Fatal(err)
	}
	out := b.TempDir()
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-o", filepath.Join(out, m.Module), ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if o, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, o)
	}
	data, _ := os.ReadFile(m.Path)
	os.WriteFile(filepath.Join(out, manifest.FileName), data, 0o644)
	if m, err = manifest.Load(out); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	h, err := host.New(ctx, host.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close(ctx) })
	return FromManifests(h, m)
}

// bigSchema is 500 tables of 10 columns (tenant and *_id columns, half of
// them indexed, RLS on every other table) and 5,000 statements.
func bigSchema() *abi.SQLSchema {
	s := &abi.SQLSchema{}
	for i := range 500 {
		t := abi.SQLTable{Name: fmt.Sprintf("t%d", i), Dialect: "postgres", Location: fmt.Sprintf("db/%d.sql:1", i), PrimaryKey: []string{"id"}, RLSEnabled: i%2 == 0}
		t.Columns = append(t.Columns, abi.SQLColumn{Name: "id", Type: "bigint", PrimaryKey: true, Location: t.Location}, abi.SQLColumn{Name: "tenant_id", Type: "uuid", Location: t.Location})
		for c := range 8 {
			t.Columns = append(t.Columns, abi.SQLColumn{Name: fmt.Sprintf("c%d_id", c), Type: "bigint", Location: fmt.Sprintf("db/%d.sql:%d", i, c+3)})
			if c%2 == 0 {
				t.Indexes = append(t.Indexes, abi.SQLIndex{Name: fmt.Sprintf("t%d_c%d", i, c), Columns: []string{fmt.Sprintf("c%d_id", c)}})
			}
		}
		s.Tables = append(s.Tables, t)
		if i%2 == 0 {
			s.Policies = append(s.Policies, abi.SQLPolicy{Name: fmt.Sprintf("p%d", i), Table: t.Name, Command: "ALL", Using: "(tenant_id = current_setting('app.tenant')::uuid)", Location: t.Location})
		}
	}
	for i := range 5000 {
		// One statement in ten has problems (SELECT *, lower(), a loop).
		text := fmt.Sprintf("SELECT a.id, a.c1_id FROM t%d a JOIN t%d b ON b.id = a.c1_id WHERE a.c2_id = $1 ORDER BY a.id", i%500, (i+1)%500)
		ctx := []string{"func f() {", "\trow := db.QueryRow(q, id)"}
		if i%10 == 0 {
			text = fmt.Sprintf("SELECT * FROM t%d a JOIN t%d b ON b.id = a.c1_id WHERE lower(a.c3_id) = $1 ORDER BY a.id", i%500, (i+1)%500)
			ctx = []string{"func f() {", "\tfor _, x := range xs {"}
		}
		s.Statements = append(s.Statements, abi.SQLStatement{
			Text: text, Verb: "SELECT", Tables: []string{fmt.Sprintf("t%d", i%500)}, Location: fmt.Sprintf("app/q%d.go:%d", i%100, i),
			Caller: fmt.Sprintf("fn%d", i), Built: abi.BuiltLiteral, Context: ctx,
		})
	}
	return s
}

// BenchmarkAuditSQL: the sql pack over 500 tables and 5,000 statements
// (encode, sandboxed run, decode and check of every finding).
func BenchmarkAuditSQL(b *testing.B) {
	rt := buildSQLPack(b)
	in := &abi.RuleInput{Mode: abi.ModeAudit, Schema: bigSchema()}
	ctx := context.Background()
	rt.RunRules(ctx, findings.TargetSQL, in) // compile and first instance
	b.ResetTimer()
	n, cpu := 0, processCPU()
	for b.Loop() {
		o := rt.RunRules(ctx, findings.TargetSQL, in)
		if o.Packs[0].Error != "" {
			b.Fatal(o.Packs[0].Error)
		}
		n = len(o.Findings)
	}
	b.ReportMetric(float64(n), "findings")
	b.ReportMetric(float64((processCPU()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkAdviseSQL: one candidate query and the table it names;
// reports the median call.
func BenchmarkAdviseSQL(b *testing.B) {
	rt := buildSQLPack(b)
	// advise_sql hands the pack the tables the query names (AdviseInput).
	schema := &abi.SQLSchema{Tables: bigSchema().Tables[1:2]}
	in := &abi.RuleInput{Mode: abi.ModeAdvise, Schema: schema, Query: &abi.SQLStatement{Text: "SELECT * FROM t1 WHERE lower(c3_id) = $1 AND c1_id = $2"}}
	ctx := context.Background()
	rt.RunRules(ctx, findings.TargetSQL, in)
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		o := rt.RunRules(ctx, findings.TargetSQL, in)
		times = append(times, time.Since(start))
		if o.Packs[0].Error != "" {
			b.Fatal(o.Packs[0].Error)
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}
