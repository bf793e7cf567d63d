// Command nullplugin is a Go extractor that reports nothing. The host still
// parses every file, serializes its tree and hands it over, so an
// extraction with this plugin in place of the real one measures the floor
// the per-file stage cannot go below (BenchmarkExtractGorootNullPlugin).
package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

type null struct{}

func (null) Extract(*extract.File) error { return nil }

func init() { extract.Register(null{}) }

func main() {}
