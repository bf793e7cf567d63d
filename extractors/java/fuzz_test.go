//go:build !wasip1

package main

import (
	"testing"

	"github.com/synaptic-graph/synaptic/plugins/plugintest"
)

// FuzzExtract: any bytes given as a source file extract without an error
// into valid facts, the same on every run (plugintest.Fuzz); the v2 import
// keys and file facts are computed from them too.
func FuzzExtract(f *testing.F) { plugintest.Fuzz(f, Extractor{}, "fuzz.java") }
