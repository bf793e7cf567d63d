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
	s := &abi.SQLSchema{}
	for i := range 500 {
		t := abi.SQLTable{Name: fmt.Sprintf("t%d", i), Location: "x:1", PrimaryKey: []string{"id"}}
		for c := range 10 {
			t.Columns = append(t.Columns, abi.SQLColumn{Name: fmt.Sprintf("c%d_id", c), Type: "bigint"})
		}
		s.Tables = append(s.Tables, t)
	}
	for i := range 5000 {
		s.Statements = append(s.Statements, abi.SQLStatement{Text: fmt.Sprintf("SELECT * FROM t%d a JOIN t1 b ON b.id = a.c1_id WHERE lower(a.c3_id) = $1", i%500), Location: "q:1", Caller: "f"})
	}
	in := abi.EncodeRuleInput(nil, &abi.RuleInput{Version: 1, Mode: abi.ModeAudit, Schema: s})
	for b.Loop() {
		if _, err := rules.Run(Pack{}, in); err != nil {
			b.Fatal(err)
		}
	}
}
