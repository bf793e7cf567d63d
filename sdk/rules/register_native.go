//go:build !wasip1

package rules

// Register is a no-op outside wasm: natively, tests call Run with the pack.
func Register(p Pack) {}
