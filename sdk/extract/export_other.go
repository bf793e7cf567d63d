//go:build !wasip1

package extract

// Register is a no-op outside WebAssembly: native tests call Run directly.
func Register(Extractor) {}
