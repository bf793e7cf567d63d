// Command readiness is synaptic's readiness rule pack: placeholders and
// stubs left in code, functions that only return a sentinel, and project
// metadata a release needs (license, CI, lockfiles, tests). Built to
// WebAssembly and run by the host's rule runtime; Pack also runs natively
// in tests.
package main

import "github.com/synaptic-graph/synaptic/sdk/rules"

func init() { rules.Register(Pack{}) }

// main is never run: the host calls the pack's wasm exports instead.
func main() {}
