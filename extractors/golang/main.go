// Command golang is synaptic's Go extractor plugin. It is built to
// WebAssembly (GOOS=wasip1 -buildmode=c-shared) and loaded by the host; the
// extractor itself lives in extract.go and also runs natively in tests.
package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

func init() {
	extract.Register(Extractor{})
	extract.RegisterProject(projectInfo)
}

// main is never run: the host calls the plugin's wasm exports instead.
func main() {}
