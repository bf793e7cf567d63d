// Command rust is synaptic's Rust extractor plugin. It is built with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o rust.wasm .
//
// and loaded by the host at run time; see extract.go for what it reports.
package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

func init() {
	extract.Register(Extractor{})
	extract.RegisterProject(projectInfo)
}

// main is required by package main but never runs: in c-shared mode the
// host calls the exported functions directly.
func main() {}
