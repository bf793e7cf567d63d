// Command typescript is the synaptic extractor plugin for JavaScript,
// TypeScript and TSX, built as a WebAssembly module.
package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

func init() {
	extract.Register(Extractor{})
	extract.RegisterProject(projectInfo)
}

func main() {}
