//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// TestDump prints a file's tree and facts: SYNAPTIC_DUMP=path go test -run TestDump -v .
func TestDump(t *testing.T) { plugintest.DumpFile(t, Extractor{}) }
