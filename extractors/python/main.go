// Command python is synaptic's Python extractor plugin. It is built as a
// WebAssembly module (GOOS=wasip1 -buildmode=c-shared) and loaded by the
// host at run time; see plugin.toml.
package main

import "github.com/synaptic-graph/synaptic/sdk/extract"

func init() {
	extract.Register(Extractor{})
	extract.RegisterProject(projectInfo)
}

func main() {}
