// Command sql is synaptic's SQL rule pack: the original Synaptic's SQL
// audit rules under their ids (security, performance, design) and the
// advise_sql cross-checks. Built to WebAssembly and run by the host's rule
// runtime; Pack also runs natively in tests.
package main

import "github.com/synaptic-graph/synaptic/sdk/rules"

func init() { rules.Register(Pack{}) }

// main is never run: the host calls the pack's wasm exports instead.
func main() {}
