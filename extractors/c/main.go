// Command c is synaptic's C and C++ extractor plugin. It is built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o c.wasm .
//
// and loaded by the host at run time; see extract.go for what it reports.
package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

func init() { extract.Register(Extractor{}) }

// main is required by package main but never runs: in c-shared mode the
// host calls the exported functions directly.
func main() {}
