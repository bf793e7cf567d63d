//go:build !wasip1

package main

import (
	"fmt"
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
	"github.com/synaptic-graph/synaptic/sdk/rules"
)

// BenchmarkPackNative runs the pack natively over 500 tables and 5,000
// statements: the guest's own share of BenchmarkAuditSQL.
func BenchmarkPackNative(b *testing.B) {
	in := abi.EncodeRuleInput(nil, &abi.RuleInput{Version: 1, Mode: abi.ModeAudit, Schema: bigSchema()})
	for b.Loop() {
		if _, err := rules.Run(Pack{}, in); err != nil {
			b.Fatal(err)
		}
	}
}

// bigSchema is plugins/rulehost's BenchmarkAuditSQL input: 500 tables of
// 10 columns (tenant and *_id columns, half of them indexed, RLS on every
// other table) and 5,000 statements, one in ten with problems.
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
