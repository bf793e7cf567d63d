package rulehost

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/manifest"
	"github.com/synaptic-graph/synaptic/sdk/abi"
)

const packToml = `name = "p"
version = "0.1.0"
kind = "rules"
abi = 1
module = "p.wasm"
[rules]
targets = ["sql"]
[[rules.rule]]
id = "A-001"
severity = "high"
category = "security"
title = "Declared title"
`

func testManifest(t *testing.T) *manifest.Manifest {
	t.Helper()
	m, err := manifest.Parse("plugin.toml", []byte(packToml))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// wire encodes a RuleOutput written as JSON the way a pack sends it; a
// string that is not JSON is sent as is (garbage), "{}x" as a valid empty
// output with a stray byte after it.
func wire(s string) []byte {
	if s == "{}x" {
		return append(abi.EncodeRuleOutput(nil, &abi.RuleOutput{Version: 1}), 'x')
	}
	var o abi.RuleOutput
	if json.Unmarshal([]byte(s), &o) != nil {
		return []byte(s)
	}
	return abi.EncodeRuleOutput(nil, &o)
}

func TestCheck(t *testing.T) {
	m := testManifest(t)
	tests := []struct {
		name, out string
		kept      int
		err       string
	}{
		{"ok", `{"version":1,"findings":[{"rule_id":"A-001","severity":"low","category":"c","title":"t","detail":"","location":"f:1","remediation":"","confidence":0.5}]}`, 1, ""},
		{"defaults", `{"version":1,"findings":[{"rule_id":"A-001","location":"f:1","confidence":0.5}]}`, 1, ""},
		{"empty", `{"version":1,"findings":[]}`, 0, ""},
		{"garbage", `not json`, 0, "malformed output"},
		{"trailing bytes", "{}x", 0, "malformed output"},
		{"version", `{"version":2,"findings":[]}`, 0, "version 2"},
		{"undeclared", `{"version":1,"findings":[{"rule_id":"B-001","location":"f","confidence":1},{"rule_id":"A-001","location":"f","confidence":1}]}`, 1, `undeclared rule id(s) "B-001" (1)`},
		{"bad severity", `{"version":1,"findings":[{"rule_id":"A-001","severity":"severe","location":"f","confidence":1}]}`, 0, `severity "severe"`},
		{"bad confidence", `{"version":1,"findings":[{"rule_id":"A-001","location":"f","confidence":1.5}]}`, 0, "outside [0,1]"},
		{"no location", `{"version":1,"findings":[{"rule_id":"A-001","confidence":1}]}`, 0, "no location"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Check(m, wire(tt.out))
			if len(fs) != tt.kept {
				t.Errorf("kept %d findings, want %d", len(fs), tt.kept)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want it to contain %q", err, tt.err)
			}
		})
	}
	fs, _ := Check(m, wire(`{"version":1,"findings":[{"rule_id":"A-001","location":"f","confidence":1,"title":"`+strings.Repeat("é", 1000)+`"}]}`))
	if len(fs) != 1 || fs[0].Severity != "high" || len(fs[0].Title) > maxTitle+len("…") || !strings.HasSuffix(fs[0].Title, "…") {
		t.Errorf("bounded finding = %+v", fs)
	}
	fs, _ = Check(m, wire(`{"version":1,"findings":[{"rule_id":"A-001","location":"f","confidence":1}]}`))
	if fs[0].Title != "Declared title" || fs[0].Category != "security" {
		t.Errorf("defaults not filled from the manifest: %+v", fs[0])
	}
}

// FuzzCheck: whatever a pack answers, Check never panics and only keeps
// declared, valid findings.
func FuzzCheck(f *testing.F) {
	f.Add(wire(`{"version":1,"findings":[{"rule_id":"A-001","location":"f","confidence":1}]}`))
	f.Add(wire(`{"version":1,"findings":[{"rule_id":"A-001","location":"f","confidence":-0}]}`))
	f.Add(wire(`{"version":1}`))
	f.Add([]byte(`[`))
	m, err := manifest.Parse("plugin.toml", []byte(packToml))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		fs, _ := Check(m, out)
		for _, x := range fs {
			if x.RuleID != "A-001" || x.Severity.Rank() < 0 || x.Confidence < 0 || x.Confidence > 1 || x.Location == "" {
				t.Fatalf("kept an invalid finding %+v", x)
			}
		}
	})
}
