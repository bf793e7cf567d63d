package syntax

import (
	"testing"

	"github.com/synaptic-graph/synaptic/sdk/abi"
)

// The record constants here and in the wire contract must agree.
func TestABIConstants(t *testing.T) {
	if RecordWords != abi.RecordWords || RecordSize != abi.RecordSize ||
		FlagNamed != abi.FlagNamed || FlagError != abi.FlagError ||
		FlagMissing != abi.FlagMissing || FlagExtra != abi.FlagExtra {
		t.Fatal("core/syntax record constants differ from sdk/abi")
	}
}
