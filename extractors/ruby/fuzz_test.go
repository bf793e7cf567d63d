//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// FuzzExtract: any bytes given as a source file extract without an error
// into valid facts, the same on every run (plugintest.Fuzz).
func FuzzExtract(f *testing.F) { plugintest.Fuzz(f, Extractor{}, "fuzz.rb", "fuzz.html.erb") }
