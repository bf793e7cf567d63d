// Package rules is the guest API for rule-pack authors. A pack is a Go
// package main that registers a [Pack]; the host hands it a
// [abi.RuleInput] and reads back the findings it reports. It uses the
// standard library and sdk only, builds for GOOS=wasip1, and runs natively
// in tests through [Run].
//
//	type pack struct{}
//
//	func (pack) Run(in *abi.RuleInput, r *rules.Report) error {
//		for _, t := range in.Schema.Tables {
//			if len(t.Columns) > 50 {
//				r.Add(abi.Finding{RuleID: "WIDE-001", Location: t.Location, ...})
//			}
//		}
//		return nil
//	}
//
//	func init() { rules.Register(pack{}) }
//	func main() {}
package rules

import (
	"fmt"
	"strconv"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// Pack runs a pack's rules over one input. Implementations must be
// deterministic: the same input must always give the same findings.
type Pack interface {
	Run(in *abi.RuleInput, r *Report) error
}

// Report collects findings.
type Report struct {
	findings []abi.Finding
	dropped  int
}

// maxFindings bounds one run's output (the host has a byte limit too);
// findings past it are counted, and the host says they are missing.
const maxFindings = 10000

// Add reports a finding.
func (r *Report) Add(f abi.Finding) {
	if len(r.findings) < maxFindings {
		r.findings = append(r.findings, f)
		return
	}
	r.dropped++
}

// Findings returns the findings reported so far.
func (r *Report) Findings() []abi.Finding { return r.findings }

// Location formats a file and line as findings write it.
func Location(file string, line int) string {
	if line <= 0 {
		return file
	}
	return file + ":" + strconv.Itoa(line)
}

// Run decodes input, runs p and returns the encoded RuleOutput: exactly
// what the wasm glue does, so tests exercise the same path.
func Run(p Pack, input []byte) ([]byte, error) {
	in, err := abi.DecodeRuleInput(input)
	if err != nil {
		return nil, fmt.Errorf("decode rule input: %w", err)
	}
	if in.Version != abi.RulesVersion {
		return nil, fmt.Errorf("rule input version %d, this pack speaks %d; rebuild it against the current sdk", in.Version, abi.RulesVersion)
	}
	if in.Schema == nil {
		in.Schema = &abi.SQLSchema{}
	}
	r := &Report{}
	if err := run(p, in, r); err != nil {
		return nil, err
	}
	return abi.EncodeRuleOutput(nil, &abi.RuleOutput{Version: abi.RulesVersion, Findings: r.findings, Dropped: r.dropped}), nil
}

func run(p Pack, in *abi.RuleInput, r *Report) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("rule pack panic: %v", v)
		}
	}()
	return p.Run(in, r)
}
