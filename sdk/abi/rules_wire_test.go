package abi

import (
	"reflect"
	"testing"
)

func sampleInput() *RuleInput {
	return &RuleInput{Version: RulesVersion, Mode: ModeAudit, Profile: "auto", Dialect: "postgres",
		Query: &SQLStatement{Text: "SELECT 1", Verb: "SELECT", Tables: []string{"t"}, Context: []string{"for x:"}},
		Schema: &SQLSchema{
			Tables: []SQLTable{{Name: "t", Dialect: "postgres", NodeID: "n", Location: "a.sql:1", PrimaryKey: []string{"id"}, RLSEnabled: true, SecurityPolicy: true,
				Columns: []SQLColumn{{Name: "id", Type: "int", NotNull: true, PrimaryKey: true, Unique: true, References: "u.id", NodeID: "c", Location: "a.sql:2"}},
				Indexes: []SQLIndex{{Name: "i", Columns: []string{"id"}, Unique: true, NodeID: "x", Location: "a.sql:3"}}}},
			Views:      []SQLView{{Name: "v", Reads: []string{"t"}, SecurityInvoker: true, NodeID: "v", Location: "b.sql:1"}},
			Policies:   []SQLPolicy{{Name: "p", Table: "t", Command: "ALL", Roles: []string{"app"}, Using: "(a)", WithCheck: "(b)", NodeID: "p", Location: "b.sql:2"}},
			Grants:     []SQLGrant{{Privileges: []string{"ALL"}, Tables: []string{"t"}, Roles: []string{"public"}, NodeID: "g", Location: "b.sql:3"}},
			Statements: []SQLStatement{{Text: "UPDATE t SET a = 1", Verb: "UPDATE", Caller: "f", Built: BuiltConcatenation}},
		},
		Nodes:    []CodeNode{{ID: "f", Label: "f()", Kind: "function", File: "a.go", Line: 1, EndLine: 3, Language: "go", Test: true, Generated: true}},
		Snippets: []Snippet{{NodeID: "f", File: "a.go", Line: 1, Text: "func f() {}"}},
		Project:  &ProjectMeta{Files: []string{"LICENSE"}, TestNodes: 2},
	}
}

func TestRuleWireRoundTrip(t *testing.T) {
	in := sampleInput()
	got, err := DecodeRuleInput(EncodeRuleInput(nil, in))
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("round trip = %+v, %v\nwant %+v", got, err, in)
	}
	o := &RuleOutput{Version: RulesVersion, Findings: []Finding{{RuleID: "A", Severity: SeverityHigh, Category: "c", Subsystem: "s", Title: "t",
		Detail: "d", Location: "l", NodeIDs: []string{"n"}, Evidence: "e", Remediation: "r", Confidence: 0.55}}}
	go2, err := DecodeRuleOutput(EncodeRuleOutput(nil, o))
	if err != nil || !reflect.DeepEqual(go2, o) {
		t.Fatalf("output round trip = %+v, %v", go2, err)
	}
	b := EncodeRuleOutput(nil, o)
	for i := range b {
		if _, err := DecodeRuleOutput(b[:i]); err == nil {
			t.Fatalf("truncated output at %d decoded without error", i)
		}
	}
}

// FuzzDecodeRuleOutput: the host decodes a pack's answer, which is
// untrusted; decoding never panics and what decodes re-encodes the same.
func FuzzDecodeRuleOutput(f *testing.F) {
	f.Add(EncodeRuleOutput(nil, &RuleOutput{Version: 1, Findings: []Finding{{RuleID: "A", Confidence: 1}}}))
	f.Add([]byte{1, 255, 255, 255, 255, 15})
	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := DecodeRuleOutput(b)
		if err != nil {
			return
		}
		if _, err := DecodeRuleOutput(EncodeRuleOutput(nil, o)); err != nil {
			t.Fatalf("re-encoding failed: %v", err)
		}
	})
}

// FuzzDecodeRuleInput: a pack decodes what the host sends; hostile bytes
// (a fixture, a bug) must give an error, not a panic or a huge allocation.
func FuzzDecodeRuleInput(f *testing.F) {
	f.Add(EncodeRuleInput(nil, sampleInput()))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := DecodeRuleInput(b)
		if err != nil {
			return
		}
		if _, err := DecodeRuleInput(EncodeRuleInput(nil, in)); err != nil {
			t.Fatalf("re-encoding failed: %v", err)
		}
	})
}
